//! Wallet linking by Sign-In-With-Ethereum (DESIGN §5; the rules are `lvlx_core::siwe`).
//!
//! - POST /api/v1/wallet/nonce → {nonce, issuedAt, expirationTime, chainId}: a fresh 128-bit
//!   nonce for this account, good for 10 minutes and one attempt (at most 5 outstanding).
//! - POST /api/v1/wallet/link {message, signature} → {wallet}: the message must name this
//!   server's host as its domain, chain 137 and a nonce issued to this account, unused and
//!   unexpired; the nonce is spent by the attempt, whatever its outcome. The recovered signer is
//!   stored checksummed; a wallet belongs to one account and an account keeps its wallet.
//!   Purchases the indexer kept for that wallet before it was linked are attached to the account.
//! - GET /api/v1/wallet/actives → {wallet, balance, entries}: the account's LVLX balance and its
//!   newest ledger entries (purchases and withdrawals, as indexed; at most 500), for myActives.

use lvlx_core::siwe::{self, Expect, Message, NONCE_TTL_MS};
use rusqlite::{params, OptionalExtension};
use serde::Deserialize;
use serde_json::json;
use warp::filters::BoxedFilter;
use warp::{Filter, Rejection};

use super::{json, json_body, reject};
use crate::error::ApiError;
use crate::session::{self, Authed};
use crate::user::UserId;
use crate::{crypto, ledger, now_ms, App};

/// Nonces an account may hold unused at once.
const OUTSTANDING: i64 = 5;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Link {
    message: String,
    signature: String,
}

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    let with = {
        let app = app.clone();
        warp::any().map(move || app.clone())
    };
    let nonce = warp::path!("wallet" / "nonce")
        .and(warp::post())
        .and(session::authed(app.clone()))
        .and(with.clone())
        .and_then(|who: Authed, app: App| async move {
            let user = who.user.id;
            let body = app
                .db
                .run(move |c| issue(c, user, now_ms()))
                .await
                .map_err(reject)?;
            Ok::<_, Rejection>(json(&body))
        });
    let link = warp::path!("wallet" / "link")
        .and(warp::post())
        .and(session::authed(app.clone()))
        .and(with)
        .and(warp::header::<String>("host"))
        .and(json_body::<Link>())
        .and_then(
            |who: Authed, app: App, host: String, body: Link| async move {
                let user = who.user.id;
                let product = app.config.product.clone();
                let wallet = app
                    .db
                    .run(move |c| link(c, &product, user, &host, &body, now_ms()))
                    .await
                    .map_err(reject)?;
                Ok::<_, Rejection>(json(&json!({ "wallet": wallet })))
            },
        );
    let actives = warp::path!("wallet" / "actives")
        .and(warp::get())
        .and(session::authed(app.clone()))
        .and(warp::any().map(move || app.clone()))
        .and_then(|who: Authed, app: App| async move {
            let user = who.user.id;
            let body = app
                .db
                .run(move |c| actives(c, user))
                .await
                .map_err(reject)?;
            Ok::<_, Rejection>(json(&body))
        });
    nonce.or(link).unify().or(actives).unify().boxed()
}

/// Entries myActives lists (the newest).
const ACTIVES_LIMIT: i64 = 500;

fn actives(c: &mut rusqlite::Connection, user: UserId) -> Result<serde_json::Value, ApiError> {
    let (wallet, balance): (Option<String>, String) = c.query_row(
        "SELECT wallet, lvlx_balance FROM users WHERE id = ?1",
        [user.0],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let mut stmt = c.prepare_cached(
        "SELECT created_at, token, amount, usdt_paid, tx_hash FROM ico_transactions
         WHERE user_id = ?1 ORDER BY created_at DESC, id DESC LIMIT ?2",
    )?;
    let entries = stmt
        .query_map(params![user.0, ACTIVES_LIMIT], |r| {
            Ok(json!({
                "createdAt": r.get::<_, i64>(0)?,
                "token": r.get::<_, String>(1)?,
                "amount": r.get::<_, String>(2)?,
                "usdtPaid": r.get::<_, Option<String>>(3)?,
                "txHash": r.get::<_, String>(4)?,
            }))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(json!({ "wallet": wallet, "balance": balance, "entries": entries }))
}

fn issue(c: &rusqlite::Connection, user: UserId, now: i64) -> Result<serde_json::Value, ApiError> {
    c.execute(
        "DELETE FROM wallet_nonces WHERE user_id = ?1 AND expires_at <= ?2",
        params![user.0, now],
    )?;
    let outstanding: i64 = c.query_row(
        "SELECT COUNT(*) FROM wallet_nonces WHERE user_id = ?1 AND used_at IS NULL",
        [user.0],
        |r| r.get(0),
    )?;
    if outstanding >= OUTSTANDING {
        return Err(ApiError::TooManyRequests {
            retry_after_secs: (NONCE_TTL_MS / 1000) as u64,
        });
    }
    let nonce = crypto::random_hex(16);
    let expires = now + NONCE_TTL_MS;
    c.execute(
        "INSERT INTO wallet_nonces (nonce, user_id, issued_at, expires_at) VALUES (?1, ?2, ?3, ?4)",
        params![nonce, user.0, now, expires],
    )?;
    Ok(json!({
        "nonce": nonce, "issuedAt": now, "expirationTime": expires, "chainId": siwe::CHAIN_ID,
    }))
}

fn link(
    c: &mut rusqlite::Connection,
    product: &str,
    user: UserId,
    host: &str,
    body: &Link,
    now: i64,
) -> Result<String, ApiError> {
    let message = Message::parse(&body.message).map_err(ApiError::WalletLink)?;
    let tx = c.transaction()?;
    // Spend the nonce first: one attempt each, so a nonce cannot be tried twice.
    let spent = tx.execute(
        "UPDATE wallet_nonces SET used_at = ?3
         WHERE nonce = ?1 AND user_id = ?2 AND used_at IS NULL AND expires_at > ?3",
        params![message.nonce, user.0, now],
    )?;
    tx.commit()?;
    if spent != 1 {
        return Err(ApiError::WalletLink(siwe::SiweError::Nonce));
    }
    let wallet = siwe::verify(
        &body.message,
        &body.signature,
        &Expect {
            domain: host,
            nonce: &message.nonce,
            now_ms: now,
        },
    )
    .map_err(ApiError::WalletLink)?;

    let tx = c.transaction()?;
    let current: Option<String> = tx
        .query_row("SELECT wallet FROM users WHERE id = ?1", [user.0], |r| {
            r.get(0)
        })
        .optional()?
        .flatten();
    match current {
        Some(w) if w.eq_ignore_ascii_case(&wallet) => return Ok(w),
        Some(_) => return Err(ApiError::WalletAlreadyLinked),
        None => {}
    }
    let owner: Option<i64> = tx
        .query_row(
            "SELECT id FROM users WHERE wallet = ?1 COLLATE NOCASE",
            [&wallet],
            |r| r.get(0),
        )
        .optional()?;
    if owner.is_some() {
        return Err(ApiError::WalletTaken);
    }
    tx.execute(
        "UPDATE users SET wallet = ?2 WHERE id = ?1",
        params![user.0, wallet],
    )?;
    ledger::attach_wallet(&tx, product, user, &wallet)?;
    tx.commit()?;
    Ok(wallet)
}
