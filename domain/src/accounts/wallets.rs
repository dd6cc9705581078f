//! Wallet linking by Sign-In-With-Ethereum (docs/product/chain.md#wallet-linking; the rules are
//! `lvlx_core::siwe`).
//!
//! The nonce is good for 10 minutes and one attempt (at most 5 outstanding per account); the
//! message must name one of the app's public origins as its domain and URI, the configured chain
//! (`chain.chain_id`, 137 by default) and a nonce issued to this
//! account, unused and unexpired; the nonce is spent by the attempt, whatever its outcome.
//! The host is the configuration's (`public_origins`), never the request's Host header: a
//! message a phishing page had a victim sign for its own site names that site, whatever Host
//! the attacker sends with it. The
//! recovered signer is stored checksummed; a wallet belongs to one account and an account keeps
//! its wallet. Purchases and staking positions the indexer kept for that wallet before it was
//! linked are attached.

use lvlx_core::siwe::{self, Expect, Message, SiweError, NONCE_TTL_MS};
use serde::Deserialize;

use crate::error::Error;
use crate::live::Hub;
use crate::store::{ledger, stakes, users, wallets, Conn};
use crate::user::UserId;
use crate::{crypto, now_ms, Config, Store};

/// Nonces an account may hold unused at once.
const OUTSTANDING: i64 = 5;

/// A signed wallet-linking message.
#[derive(Deserialize, utoipa::ToSchema)]
#[schema(as = WalletLink)]
#[serde(deny_unknown_fields)]
pub struct Link {
    message: String,
    #[schema(pattern = "^0x[0-9a-fA-F]*$")]
    signature: String,
}

/// What the member's next linking message must carry. Times in milliseconds.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Nonce {
    nonce: String,
    issued_at: i64,
    expiration_time: i64,
    chain_id: u64,
}

/// The wallet now linked to the member.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct Linked {
    wallet: String,
}

/// A nonce for the member's next linking message.
pub async fn nonce(store: &Store, config: &Config, user: UserId) -> Result<Nonce, Error> {
    let chain_id = config.chain_id();
    store
        .write(move |c| issue(c, user, chain_id, now_ms()))
        .await
}

/// Links the wallet that signed `body` to the member, and tells those whose figures moved
/// (through `hub`). The message must name one of `origins` (`Config::origins`).
pub async fn link(
    store: &Store,
    config: &Config,
    origins: &[lvlx_core::siwe::Origin],
    hub: &Hub,
    user: UserId,
    body: Link,
) -> Result<Linked, Error> {
    let product = config.product.clone();
    let levels = config.commission_levels_bps.clone();
    let (wallet, pushes) = store
        .write({
            let origins = origins.to_vec();
            let chain_id = config.chain_id();
            move |c| {
                let at = Expect {
                    origins: &origins,
                    chain_id,
                    nonce: "",
                    now_ms: now_ms(),
                };
                link_in(c, &product, &levels, &at, user, &body)
            }
        })
        .await?;
    for push in pushes {
        hub.push(push);
    }
    Ok(Linked { wallet })
}

fn issue(c: Conn, user: UserId, chain_id: u64, now: i64) -> Result<Nonce, Error> {
    if wallets::outstanding(c, user, now)? >= OUTSTANDING {
        return Err(Error::RateLimited {
            retry_after_secs: (NONCE_TTL_MS / 1000) as u64,
        });
    }
    let nonce = crypto::random_hex(16);
    let expires = now + NONCE_TTL_MS;
    wallets::insert_nonce(c, &nonce, user, now, expires)?;
    Ok(Nonce {
        nonce,
        issued_at: now,
        expiration_time: expires,
        chain_id,
    })
}

/// `at`: the origins, the chain and the time to check against (its nonce is the message's own).
fn link_in(
    c: Conn,
    product: &str,
    levels_bps: &[u32],
    at: &Expect<'_>,
    user: UserId,
    body: &Link,
) -> Result<(String, Vec<crate::live::Push>), Error> {
    let now = at.now_ms;
    let message = Message::parse(&body.message).map_err(Error::WalletLink)?;
    // Spend the nonce first: one attempt each, so a nonce cannot be tried twice.
    if !wallets::spend_nonce(c, &message.nonce, user, now)? {
        return Err(Error::WalletLink(SiweError::Nonce));
    }
    let wallet = siwe::verify(
        &body.message,
        &body.signature,
        &Expect {
            nonce: &message.nonce,
            ..*at
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
        let pushes = crate::network::events::on_link(tx, product, levels_bps, user, &wallet, now)?;
        Ok((wallet, pushes))
    })
}
