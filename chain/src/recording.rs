//! What the indexer records of each event it found, in the transaction that moves its cursor:
//! a purchase into the ledger (settled at once when final); the network's events through the
//! consumer; the applied events (a staking event onto its position, an NFT purchase, the sale's
//! price) as `applied` records them.

use lvlx_core::chain::{NetworkEvent, NftPurchase, Place, StakingEvent};
use lvlx_core::staking::Pool;

use lvlx_store::ledger::{self, Entry};
use lvlx_store::{users, Conn, StoreError};

use super::indexer::IndexError;
use crate::applied::{record_nft_purchase, record_price, record_staking};
use crate::{Consumer, Push};

/// One decoded purchase, ready for the ledger.
pub(super) struct Purchase {
    pub(super) entry: Entry,
    pub(super) usdt_paid: u128,
    pub(super) referrer: Option<String>,
    pub(super) block: i64,
}

pub(super) enum Found {
    Purchase(Purchase),
    NftPurchase(NftPurchase, Place),
    Staking(StakingEvent, Pool, Place),
    Network(NetworkEvent, Place),
    /// The sale's price changed (USDT base units per whole LVLX): what members' history values
    /// LVLX at, from then on.
    Price(u128, Place),
}

/// Records one event found (a purchase by the finality it has at `final_block`).
pub(super) fn record_found(
    tx: Conn,
    consumer: &dyn Consumer,
    product: &str,
    levels: &[u32],
    final_block: u64,
    found: Found,
) -> Result<Vec<Push>, IndexError> {
    Ok(match found {
        Found::Purchase(p) => record_purchase(tx, consumer, product, levels, final_block, p)?,
        Found::Staking(event, pool, at) => {
            record_staking(tx, event, pool, at)?.into_iter().collect()
        }
        Found::NftPurchase(p, at) => record_nft_purchase(tx, p, at)?.into_iter().collect(),
        Found::Network(event, log) => consumer.network_event(tx, event, &log)?,
        Found::Price(price, at) => {
            record_price(tx, price, &at)?;
            Vec::new()
        }
    })
}

fn record_purchase(
    tx: Conn,
    consumer: &dyn Consumer,
    product: &str,
    levels_bps: &[u32],
    final_block: u64,
    mut f: Purchase,
) -> Result<Vec<Push>, StoreError> {
    // The account that linked the buying wallet, if any (else the entry waits for the link).
    // Both sides are EIP-55, so the unique index answers.
    f.entry.user = users::by_wallet(tx, f.entry.wallet.as_deref().unwrap_or_default())?;
    if !ledger::record(tx, product, &f.entry)? {
        return Ok(Vec::new());
    }
    let id = ledger::set_payment(
        tx,
        &f.entry.tx_hash,
        f.entry.log_index,
        f.usdt_paid,
        f.referrer.as_deref(),
        f.block,
    )?;
    // Commissions, volume and ranks count final purchases only; a pending one is settled by
    // `rollback::finalize` when the final block passes it.
    let mut pushes = match f.entry.user {
        Some(_) if f.block as u64 <= final_block => {
            consumer.purchase_final(tx, product, levels_bps, id, f.entry.created_at)?
        }
        _ => Vec::new(),
    };
    pushes.push(Push::Purchase {
        user: f.entry.user,
        tx_hash: f.entry.tx_hash,
        wallet: f.entry.wallet.unwrap_or_default(),
        lvlx: f.entry.amount,
        usdt: f.usdt_paid,
        created_at: f.entry.created_at,
    });
    Ok(pushes)
}
