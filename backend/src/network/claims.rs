//! Claims (docs/product/network.md#claims): a member asks to claim everything claimable, a 6-digit
//! code mailed to them confirms it, and the server signs the voucher their wallet submits to the
//! ClaimDistributor.
//!
//! Two rules an outside review found broken when they lived in the handler:
//! - The code is checked outside any transaction the claim can roll back: a wrong code costs
//!   one of its 3 tries whatever else happens, so a code cannot be guessed past its limit.
//! - The identity threshold applies to everything the member will have claimed with this claim
//!   (the voucher's cumulative), not to this claim alone, so it cannot be claimed in pieces.
//!
//! A voucher is signed for what the distributor will pay now (its per-claim cap and what is left
//! of the day's, read from the chain), never more: a voucher above the caps would revert until
//! the owner raised them. The rest stays claimable for the next claim.

use lvlx_core::amount::Units;
use lvlx_core::chain::{Contract, Voucher};
use lvlx_core::claims::{Caps, Payable};

use crate::chain::rpc::Rpc;
use crate::config;

use crate::code::{self, Purpose};
use crate::error::Error;
use crate::store;
use crate::user::{User, UserId};
use crate::{crypto, now_ms, App};

/// How long a signed voucher may wait before it reaches the chain.
const VOUCHER_SECS: u64 = 24 * 3600;

/// What `wallet` has been paid on chain and the distributor's caps and day tally, at the head:
/// (claimed, caps, the head block's time).
async fn distributor(chain: &config::Chain, wallet: &str) -> Result<(Units, Caps, u64), Error> {
    let rpc = Rpc::new(chain.rpc_url.expose());
    let (block, time) = crate::chain::reads::head(&rpc).await?;
    let (to, wallet) = (chain.claim_distributor.clone(), wallet.to_string());
    let words = tokio::task::spawn_blocking(move || {
        let call =
            |function, args: Vec<String>| (to.as_str(), Contract::ClaimDistributor, function, args);
        let answers = crate::chain::reads::calls_at(
            &rpc,
            block,
            &[
                call("claimed", vec![wallet.clone()]),
                call("maxPerClaim", vec![]),
                call("maxPerDay", vec![]),
                call("day", vec![]),
                call("paidToday", vec![]),
                call("maxPerAccountDay", vec![]),
                call("accountDay", vec![wallet.clone()]),
            ],
        )?;
        // accountDay answers two words (day, paid): the last answer splits in two.
        let mut words = answers[..answers.len() - 1]
            .iter()
            .map(|a| lvlx_core::chain::decode_uint(a).map_err(|_| Error::ChainUnavailable))
            .collect::<Result<Vec<Units>, Error>>()?;
        let pair = lvlx_core::chain::decode_uints(&answers[answers.len() - 1], 2)
            .map_err(|_| Error::ChainUnavailable)?;
        words.extend(pair);
        Ok::<_, Error>(words)
    })
    .await
    .map_err(|e| Error::Internal(e.to_string()))??;
    let day = |w: Units| u64::try_from(w).unwrap_or(u64::MAX);
    let caps = Caps {
        max_per_claim: words[1],
        max_per_day: words[2],
        max_per_account_day: words[5],
        day: day(words[3]),
        paid_today: words[4],
        account_day: day(words[6]),
        account_paid: words[7],
    };
    Ok((words[0], caps, time))
}

/// What a claim by `wallet` pays now, of `earned` in all.
async fn payable_now(chain: &config::Chain, wallet: &str, earned: Units) -> Result<Payable, Error> {
    let (claimed, caps, now) = distributor(chain, wallet).await?;
    Ok(lvlx_core::claims::payable(earned, claimed, &caps, now))
}

/// Asks to claim what the distributor pays now of everything claimable: checks the identity
/// rule, records the claim and mails its code → {attempt, amount, rest, heldForIdentity}
/// (`rest` waits for the caps or an identity; `heldForIdentity` is the identity's part of it).
pub async fn request(
    app: &App,
    ip: Option<std::net::IpAddr>,
    who: &User,
    language: Option<&str>,
) -> Result<Requested, Error> {
    app.code_limit.check(ip).await?;
    let chain = app
        .config
        .network_chain()
        .cloned()
        .ok_or(Error::ChainUnavailable)?;
    let wallet = who.wallet.clone().ok_or(Error::WalletRequired)?;
    let key = app.mac_key.clone();
    let user = who.clone();
    let threshold = app.kyc_threshold;
    let me = user.clone();
    let (claimable, earned) = app
        .store
        .read(move |c| super::pages::claimable(c, &me))
        .await?;
    if claimable == 0 {
        return Err(Error::NothingToClaim);
    }
    let now = payable_now(&chain, &wallet, earned).await?;
    if now.amount == 0 {
        return Err(match now.limit {
            None => Error::NothingToClaim,
            Some(limit) => Error::Rule(limit.key()),
        });
    }
    let (attempt, amount, code) = app
        .store
        .write(move |c| {
            c.transaction(|tx| {
                // Claimable again inside the transaction: a claim recorded meanwhile counts.
                let (owed, _) = super::pages::claimable(tx, &user)?;
                if owed == 0 {
                    return Err(Error::NothingToClaim);
                }
                // Cut to what the identity rule leaves (the rest waits for a verified
                // identity) rather than refused whole.
                let before = now.cumulative - now.amount;
                let mut claimable = now.amount.min(owed);
                if let Some(room) = crate::kyc::claim_room(tx, threshold, user.id, before)? {
                    claimable = claimable.min(room);
                }
                if claimable == 0 {
                    return Err(Error::Rule(lvlx_core::kyc::KYC_REQUIRED));
                }
                let cumulative = before + claimable;
                crate::kyc::check_claim(tx, threshold, user.id, cumulative)?;
                let attempt = crypto::random_hex(16);
                let now = now_ms();
                let code = code::create(
                    tx,
                    &key,
                    Purpose::Claim,
                    &attempt,
                    &user.email,
                    Some(user.id),
                    now,
                )?;
                store::claims::request_claim(
                    tx, user.id, &attempt, &wallet, claimable, cumulative, now,
                )?;
                Ok((attempt, claimable, code))
            })
        })
        .await?;
    let lang = lvlx_core::language_or(language, &who.language).to_string();
    app.mailer
        .send_code(&who.email, &lang, "claim", &code)
        .await?;
    // What stays claimable after this one: the caps' rest and what the identity rule held back
    // (said apart: the page names the reason each part waits for).
    let held_for_identity = now.amount - amount;
    let rest = now.rest + held_for_identity;
    Ok(Requested {
        attempt,
        amount,
        rest,
        held_for_identity,
    })
}

/// A claim asked for: its code is on its way.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[schema(as = ClaimRequested)]
#[serde(rename_all = "camelCase")]
pub struct Requested {
    /// Names this claim when its code comes back.
    attempt: String,
    /// What the claim distributor pays now (its per-claim cap and what is left of the day).
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    amount: Units,
    /// Still claimable after this claim.
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    rest: Units,
    /// The part of `rest` that waits for a verified identity (the rest waits for the caps).
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    held_for_identity: Units,
}

/// The signed voucher of a confirmed claim, which the member's wallet submits.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SignedVoucher {
    /// The wallet paid.
    account: String,
    /// Everything the distributor will have paid this wallet after this claim.
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    cumulative: Units,
    /// Seconds since the epoch, by the chain's clock.
    deadline: u64,
    /// The server's EIP-712 signature.
    signature: String,
    /// The ClaimDistributor's address.
    contract: String,
    chain_id: u64,
    /// `claim(account, cumulative, deadline, signature)`, ready to send.
    calldata: String,
}

/// The claim `attempt` of `user`, once its code is right: {id, wallet, cumulative}.
fn check(
    c: crate::store::Conn,
    key: &[u8],
    threshold: Option<Units>,
    user: UserId,
    attempt: &str,
    claim_code: &str,
) -> Result<(i64, String, Units), Error> {
    let claim = store::claims::claim_by_attempt(c, attempt)?.ok_or(Error::Code)?;
    // Every failure looks like a wrong code: the attempt is not a probe.
    if claim.user != user || claim.status != "requested" {
        return Err(Error::Code);
    }
    // An identity rejected since the request stops the voucher too.
    crate::kyc::check_claim(c, threshold, user, claim.cumulative)?;
    // Not in a transaction: a wrong code's try is kept whatever the answer.
    code::consume(c, key, Purpose::Claim, attempt, claim_code, now_ms())?;
    Ok((claim.id, claim.wallet, claim.cumulative))
}

/// Confirms claim `attempt` with its code and signs its voucher → {account, cumulative,
/// deadline, signature, contract, chainId, calldata}.
pub async fn confirm(
    app: &App,
    ip: Option<std::net::IpAddr>,
    user: UserId,
    attempt: String,
    claim_code: String,
) -> Result<SignedVoucher, Error> {
    app.code_limit.check(ip).await?;
    lvlx_core::validation::validate(lvlx_core::validation::Field::ClaimCode, &claim_code, None)?;
    let chain = app
        .config
        .network_chain()
        .cloned()
        .ok_or(Error::ChainUnavailable)?;
    let terms = super::nodes::node_terms(app).await?;
    let key = app.mac_key.clone();
    let threshold = app.kyc_threshold;
    let (id, wallet, cumulative) = app
        .store
        .write(move |c| check(c, &key, threshold, user, &attempt, &claim_code))
        .await?;
    let parse = |a: &str| lvlx_core::chain::address(a).map_err(|e| Error::Internal(e.to_string()));
    let deadline = terms.block_time.max((now_ms() / 1000) as u64) + VOUCHER_SECS;
    let voucher = Voucher {
        chain_id: chain.chain_id,
        contract: parse(&chain.claim_distributor)?,
        account: parse(&wallet)?,
        cumulative,
        deadline,
    };
    let signature = app.claim_signer.sign(&voucher);
    let stored_signature = signature.clone();
    app.store
        .write(move |c| store::claims::sign_claim(c, id, deadline, &stored_signature))
        .await
        .map_err(Error::from)?;
    let calldata = lvlx_core::chain::calldata(
        Contract::ClaimDistributor,
        "claim",
        &[
            &wallet,
            &cumulative.to_string(),
            &deadline.to_string(),
            &signature,
        ],
    )
    .map_err(|e| Error::Internal(e.to_string()))?;
    Ok(SignedVoucher {
        account: wallet,
        cumulative,
        deadline,
        signature,
        contract: chain.claim_distributor,
        chain_id: chain.chain_id,
        calldata,
    })
}
