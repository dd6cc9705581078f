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
//! A voucher is signed for what the distributor will pay now (its per-claim cap and the room its
//! rolling caps leave, read from the chain), never more: a voucher above the caps reverts whole
//! on chain, so paying in parts is this server's. The rest stays claimable for the next claim.

use lvlx_core::amount::Units;
use lvlx_core::chain::{Contract, Voucher};
use lvlx_core::claims::{Caps, Payable};

use crate::chain::rpc::Rpc;
use crate::config;

use crate::code::{self, Purpose};
use crate::error::Error;
use crate::store;
use crate::user::{User, UserId};
use crate::{crypto, now_ms, ChainReads, Config};

/// How long a signed voucher may wait before it reaches the chain.
const VOUCHER_SECS: u64 = 24 * 3600;

/// The distributor's caps as a member's page shows them: the most one claim pays, what all
/// claims together and what the member's wallet may take now (each rolling: what a claim takes
/// comes back at the cap's rate over 24 hours), and an announced signer change.
#[derive(Clone, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClaimCaps {
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    max_per_claim: Units,
    /// The most all claims pay at once; it comes back at this rate over 24 hours.
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    max_per_day: Units,
    /// What all members' claims together may take now.
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    left: Units,
    /// The most one member receives at once; it comes back at this rate over 24 hours.
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    max_per_account_day: Units,
    /// What the member's linked wallet may receive now; null without one.
    #[serde(with = "lvlx_core::amount::opt_text")]
    #[schema(schema_with = lvlx_core::amount::opt_text::schema)]
    left_for_you: Option<Units>,
    /// A new voucher signer the owners announced; null when none is.
    signer_change: Option<SignerChange>,
}

/// A new voucher signer announced: vouchers signed now stop paying once it applies.
#[derive(Clone, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SignerChange {
    /// When it could apply at the earliest if claims stay open (seconds); null while claims
    /// are closed (paused, or a cap under its floor): it then waits for them to have been open
    /// for the whole delay.
    earliest: Option<u64>,
    /// The distributor's delay, seconds.
    delay_seconds: u64,
}

/// What a wallet has received and the caps' room, at a block.
#[derive(Clone)]
pub struct CapsNow {
    claimed: Units,
    caps: Caps,
    shown: ClaimCaps,
}

const ZERO: &str = "0x0000000000000000000000000000000000000000";

/// The distributor's caps, the room they leave and what `wallet` has been paid, at `block` (the
/// head when none is given): one batch a wallet and block, shared by every page load and claim
/// at that block.
async fn caps_now(
    reads: &ChainReads,
    chain: &config::Chain,
    wallet: Option<&str>,
    block: Option<u64>,
) -> Result<CapsNow, Error> {
    let rpc = Rpc::new(chain.rpc_url.expose());
    let block = match block {
        Some(block) => block,
        None => crate::chain::reads::head(&rpc).await?.0,
    };
    let (to, who) = (
        chain.claim_distributor.clone(),
        wallet.unwrap_or(ZERO).to_string(),
    );
    let linked = wallet.is_some();
    let key = who.clone();
    reads
        .claims
        .get(&key, block, move || {
            let call = |function, args: Vec<String>| {
                (to.as_str(), Contract::ClaimDistributor, function, args)
            };
            let answers = crate::chain::reads::calls_at(
                &rpc,
                block,
                &[
                    call("claimed", vec![who.clone()]),
                    call("maxPerClaim", vec![]),
                    call("maxPerDay", vec![]),
                    call("room", vec![]),
                    call("maxPerAccountDay", vec![]),
                    call("accountRoom", vec![who.clone()]),
                    call("signerAt", vec![]),
                    call("openSince", vec![]),
                    call("delay", vec![]),
                ],
            )?;
            let words = answers
                .iter()
                .map(|a| lvlx_core::chain::decode_uint(a).map_err(|_| Error::ChainUnavailable))
                .collect::<Result<Vec<Units>, Error>>()?;
            let seconds = |w: Units| u64::try_from(w).unwrap_or(u64::MAX);
            let caps = Caps {
                max_per_claim: words[1],
                max_per_day: words[2],
                room: words[3],
                max_per_account_day: words[4],
                account_room: words[5],
            };
            let (signer_at, open_since, delay) =
                (seconds(words[6]), seconds(words[7]), seconds(words[8]));
            let shown = ClaimCaps {
                max_per_claim: words[1],
                max_per_day: words[2],
                left: words[3],
                max_per_account_day: words[4],
                left_for_you: linked.then_some(words[5]),
                signer_change: (signer_at != 0).then(|| SignerChange {
                    earliest: lvlx_core::claims::signer_earliest(signer_at, open_since, delay),
                    delay_seconds: delay,
                }),
            };
            Ok(CapsNow {
                claimed: words[0],
                caps,
                shown,
            })
        })
        .await
}

/// The caps as the member's page shows them at `block` (null when the chain does not answer).
pub async fn shown_caps(
    config: &Config,
    reads: &ChainReads,
    wallet: Option<&str>,
    block: u64,
) -> Option<ClaimCaps> {
    let chain = config.network_chain()?.clone();
    caps_now(reads, &chain, wallet, Some(block))
        .await
        .ok()
        .map(|c| c.shown)
}

/// What a claim by `wallet` pays now, of `earned` in all.
async fn payable_now(
    reads: &ChainReads,
    chain: &config::Chain,
    wallet: &str,
    earned: Units,
) -> Result<Payable, Error> {
    let now = caps_now(reads, chain, Some(wallet), None).await?;
    Ok(lvlx_core::claims::payable(earned, now.claimed, &now.caps))
}

/// What a claim's request and confirmation work with, borrowed from the server's parts (the
/// layer above builds it: `App::claims`).
#[derive(Clone, Copy)]
pub struct Parts<'a> {
    pub store: &'a crate::Store,
    pub config: &'a Config,
    pub reads: &'a ChainReads,
    /// Key for the claim codes' MACs.
    pub mac_key: &'a [u8],
    /// Claims above this many LVLX base units need an approved identity (None = never).
    pub kyc_threshold: Option<Units>,
    /// Code sends and checks per address.
    pub code_limit: &'a crate::limits::PerIp,
    pub mailer: &'a crate::mail::Mailer,
    /// Signs the vouchers.
    pub claim_signer: &'a super::signer::ClaimSigner,
}

/// Asks to claim what the distributor pays now of everything claimable: checks the identity
/// rule, records the claim and mails its code → {attempt, amount, rest, heldForIdentity}
/// (`rest` waits for the caps or an identity; `heldForIdentity` is the identity's part of it).
pub async fn request(
    parts: Parts<'_>,
    ip: Option<std::net::IpAddr>,
    who: &User,
    language: Option<&str>,
) -> Result<Requested, Error> {
    parts.code_limit.check(ip).await?;
    let chain = crate::chain::network(parts.config)?;
    let wallet = who.wallet.clone().ok_or(Error::WalletRequired)?;
    let key = parts.mac_key.to_vec();
    let user = who.clone();
    let threshold = parts.kyc_threshold;
    let me = user.clone();
    let (claimable, earned) = parts
        .store
        .read(move |c| super::pages::claimable(c, &me))
        .await?;
    if claimable == 0 {
        return Err(Error::NothingToClaim);
    }
    let now = payable_now(parts.reads, &chain, &wallet, earned).await?;
    if now.amount == 0 {
        return Err(match now.limit {
            None => Error::NothingToClaim,
            Some(limit) => Error::Rule(limit.key()),
        });
    }
    let (attempt, amount, held_for_identity, code) = parts
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
                let owed_now = now.amount.min(owed);
                let mut claimable = owed_now;
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
                Ok((attempt, claimable, owed_now - claimable, code))
            })
        })
        .await?;
    let lang = lvlx_core::language_or(language, &who.language).to_string();
    parts
        .mailer
        .send_code(&who.email, &lang, "claim", &code)
        .await?;
    // What stays claimable after this one: the caps' rest and what the identity rule held back
    // (said apart: the page names the reason each part waits for). A part a claim recorded
    // meanwhile took is neither.
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
    /// What the claim distributor pays now (its per-claim cap and the room its caps leave).
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
    parts: Parts<'_>,
    ip: Option<std::net::IpAddr>,
    user: UserId,
    attempt: String,
    claim_code: String,
) -> Result<SignedVoucher, Error> {
    parts.code_limit.check(ip).await?;
    lvlx_core::validation::validate(lvlx_core::validation::Field::ClaimCode, &claim_code, None)?;
    let chain = crate::chain::network(parts.config)?;
    let terms = super::nodes::node_terms(parts.config, parts.reads).await?;
    let key = parts.mac_key.to_vec();
    let threshold = parts.kyc_threshold;
    let (id, wallet, cumulative) = parts
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
    let signature = parts.claim_signer.sign(&voucher);
    let stored_signature = signature.clone();
    parts
        .store
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
