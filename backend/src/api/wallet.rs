//! Wallet linking by Sign-In-With-Ethereum (DESIGN §5; the rules are `lvlx_core::siwe`) and the
//! member's ledger (myActives).
//!
//! The nonce is good for 10 minutes and one attempt (at most 5 outstanding per account); the
//! message must name one of the app's public origins as its domain and URI, chain 137 and a nonce issued to this
//! account, unused and unexpired; the nonce is spent by the attempt, whatever its outcome.
//! The host is the configuration's (`public_origins`), never the request's Host header: a
//! message a phishing page had a victim sign for its own site names that site, whatever Host
//! the attacker sends with it. The
//! recovered signer is stored checksummed; a wallet belongs to one account and an account keeps
//! its wallet. Purchases and staking positions the indexer kept for that wallet before it was
//! linked are attached.

use lvlx_core::siwe::{self, Expect, Message, SiweError, NONCE_TTL_MS};
use serde::Deserialize;
use serde_json::json;
use warp::filters::BoxedFilter;
use warp::Filter;

use super::auth::authed;
use super::error::reply;
use super::{json_body, ok, with};
use crate::error::Error;
use crate::session::Authed;
use crate::store::{ledger, stakes, users, wallets, Conn};
use crate::user::UserId;
use crate::{crypto, now_ms, App};

/// Nonces an account may hold unused at once.
const OUTSTANDING: i64 = 5;
/// Entries myActives lists (the newest).
const ACTIVES_LIMIT: i64 = 500;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Link {
    message: String,
    signature: String,
}

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // POST /api/v1/wallet/nonce — {nonce, issuedAt, expirationTime, chainId}.
    let nonce = warp::path!("wallet" / "nonce")
        .and(warp::post())
        .and(authed(app.clone()))
        .and(with(&app))
        .then(|who: Authed, app: App| async move {
            let user = who.user.id;
            ok(&app.store.write(move |c| issue(c, user, now_ms())).await?)
        })
        .map(reply);
    // POST /api/v1/wallet/link {message, signature} — {wallet}.
    let link = warp::path!("wallet" / "link")
        .and(warp::post())
        .and(authed(app.clone()))
        .and(with(&app))
        .and(json_body::<Link>())
        .then(|who: Authed, app: App, body: Link| async move {
            let user = who.user.id;
            let product = app.config.product.clone();
            let levels = app.config.commission_levels_bps.clone();
            let (wallet, pushes) = app
                .store
                .write({
                    let app = app.clone();
                    move |c| link(c, &product, &levels, &app.origins, user, &body, now_ms())
                })
                .await?;
            for push in pushes {
                app.hub.push(push);
            }
            ok(&json!({ "wallet": wallet }))
        })
        .map(reply);
    // GET /api/v1/wallet/actives — {wallet, balance, entries}: the account's LVLX balance and its
    // newest ledger entries (as indexed; at most 500), for myActives.
    let actives = warp::path!("wallet" / "actives")
        .and(warp::get())
        .and(authed(app.clone()))
        .and(with(&app))
        .then(|who: Authed, app: App| async move {
            let user = who.user.id;
            let (balance, entries) = app
                .store
                .read(move |c| {
                    Ok::<_, Error>((users::balance(c, user)?, ledger::held_by(c, user, ACTIVES_LIMIT)?))
                })
                .await?;
            ok(&json!({ "wallet": who.user.wallet, "balance": balance.to_string(), "entries": entries }))
        })
        .map(reply);
    // GET /api/v1/dashboard — the member's dashboard figures: {balance, balanceUsdt, staking:
    // {positions, nfts, lvlx, accrued, accruedUsdt}} (as indexed; the network and KYC boxes
    // read GET /network/glance and GET /kyc).
    let dashboard = warp::path!("dashboard")
        .and(warp::get())
        .and(authed(app.clone()))
        .and(with(&app))
        .then(|who: Authed, app: App| async move {
            let user = who.user.id;
            let now = (crate::now_ms() / 1000) as u64;
            ok(&app
                .store
                .read(move |c| {
                    let balance = users::balance(c, user)?;
                    let (nft, lvlx) = stakes::of_member(c, user)?;
                    let staking = crate::staking::glance(&nft, &lvlx, now)?;
                    Ok::<_, Error>(json!({
                        "balance": balance.to_string(),
                        "balanceUsdt": lvlx_core::amount::lvlx_to_usdt(balance),
                        "staking": staking,
                    }))
                })
                .await?)
        })
        .map(reply);
    nonce
        .or(link)
        .unify()
        .or(actives)
        .unify()
        .or(dashboard)
        .unify()
        .boxed()
}

fn issue(c: Conn, user: UserId, now: i64) -> Result<serde_json::Value, Error> {
    if wallets::outstanding(c, user, now)? >= OUTSTANDING {
        return Err(Error::RateLimited {
            retry_after_secs: (NONCE_TTL_MS / 1000) as u64,
        });
    }
    let nonce = crypto::random_hex(16);
    let expires = now + NONCE_TTL_MS;
    wallets::insert_nonce(c, &nonce, user, now, expires)?;
    Ok(json!({
        "nonce": nonce, "issuedAt": now, "expirationTime": expires, "chainId": siwe::CHAIN_ID,
    }))
}

fn link(
    c: Conn,
    product: &str,
    levels_bps: &[u32],
    origins: &[lvlx_core::siwe::Origin],
    user: UserId,
    body: &Link,
    now: i64,
) -> Result<(String, Vec<crate::live::Push>), Error> {
    let message = Message::parse(&body.message).map_err(Error::WalletLink)?;
    // Spend the nonce first: one attempt each, so a nonce cannot be tried twice.
    if !wallets::spend_nonce(c, &message.nonce, user, now)? {
        return Err(Error::WalletLink(SiweError::Nonce));
    }
    let wallet = siwe::verify(
        &body.message,
        &body.signature,
        &Expect {
            origins,
            nonce: &message.nonce,
            now_ms: now,
        },
    )
    .map_err(Error::WalletLink)?;
    c.transaction(|tx| {
        let current = users::by_id(tx, user)?.and_then(|u| u.wallet);
        match current {
            Some(w) if lvlx_core::chain::same_address(&w, &wallet) => return Ok((w, Vec::new())),
            Some(_) => return Err(Error::WalletAlreadyLinked),
            None => {}
        }
        if users::by_wallet_any_case(tx, &wallet)?.is_some() {
            return Err(Error::WalletTaken);
        }
        users::set_wallet(tx, user, &wallet)?;
        ledger::attach_wallet(tx, product, user, &wallet)?;
        stakes::attach_wallet(tx, user, &wallet)?;
        // The node it bought and its purchases from before the link join the network.
        let pushes = crate::network::on_link(tx, product, levels_bps, user, &wallet, now)?;
        Ok((wallet, pushes))
    })
}
