//! Claims (SPEC §5, DESIGN §6): a member asks to claim everything claimable, a 6-digit code
//! mailed to them confirms it, and the server signs the voucher their wallet submits to the
//! ClaimDistributor.
//!
//! Two rules an outside review found broken when they lived in the handler:
//! - The code is checked outside any transaction the claim can roll back: a wrong code costs
//!   one of its 3 tries whatever else happens, so a code cannot be guessed past its limit.
//! - The identity threshold applies to everything the member will have claimed with this claim
//!   (the voucher's cumulative), not to this claim alone, so it cannot be claimed in pieces.

use lvlx_core::amount::Units;
use lvlx_core::chain::{Contract, Voucher};
use serde_json::{json, Value};

use crate::code::{self, Purpose};
use crate::error::Error;
use crate::store;
use crate::user::{User, UserId};
use crate::{crypto, now_ms, App};

/// How long a signed voucher may wait before it reaches the chain.
const VOUCHER_SECS: u64 = 24 * 3600;

/// Asks to claim everything claimable: checks the identity rule, records the claim and mails
/// its code → {attempt, amount}.
pub async fn request(app: &App, who: &User, language: Option<&str>) -> Result<Value, Error> {
    super::contracts(&app.config).ok_or(Error::ChainUnavailable)?;
    let wallet = who.wallet.clone().ok_or(Error::WalletRequired)?;
    let key = app.mac_key.clone();
    let user = who.clone();
    let threshold = app.kyc_threshold;
    let (attempt, amount, code) = app
        .store
        .write(move |c| {
            c.transaction(|tx| {
                let (claimable, cumulative) = super::pages::claimable(tx, &user)?;
                if claimable == 0 {
                    return Err(Error::NothingToClaim);
                }
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
    Ok(json!({ "attempt": attempt, "amount": amount.to_string() }))
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
    user: UserId,
    attempt: String,
    claim_code: String,
) -> Result<Value, Error> {
    let chain = super::contracts(&app.config)
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
        chain_id: lvlx_core::siwe::CHAIN_ID,
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
    Ok(json!({
        "account": wallet,
        "cumulative": cumulative.to_string(),
        "deadline": deadline,
        "signature": signature,
        "contract": chain.claim_distributor,
        "chainId": lvlx_core::siwe::CHAIN_ID,
        "calldata": lvlx_core::chain::calldata(
            Contract::ClaimDistributor,
            "claim",
            &[&wallet, &cumulative.to_string(), &deadline.to_string(), &signature],
        ).map_err(|e| Error::Internal(e.to_string()))?,
    }))
}
