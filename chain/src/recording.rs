//! What the indexer records of each event it found, in the transaction that moves its cursor:
//! a purchase into the ledger (settled at once when final), a staking event onto its position,
//! an NFT purchase, the network's events (the consumer's), the sale's price.

use lvlx_core::chain::{NetworkEvent, NftPurchase, Place, StakingEvent};
use lvlx_core::staking::Pool;

use lvlx_store::ledger::{self, Entry};
use lvlx_store::stakes::{self, AppliedEvent, Opened};
use lvlx_store::{users, Conn, StoreError};

use super::indexer::IndexError;
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

/// How a staking event is kept among the applied events: its name, its amount (LVLX, NFTs, or
/// the interest paid at a release) and the position it concerns.
fn applied_as(event: &StakingEvent) -> (AppliedEvent, Option<u128>, Option<u64>) {
    match event {
        StakingEvent::Staked {
            amount, position, ..
        } => (AppliedEvent::Staked, Some(*amount), Some(*position)),
        StakingEvent::InterestWithdrawn {
            amount, position, ..
        } => (AppliedEvent::Interest, Some(*amount), Some(*position)),
        StakingEvent::Released {
            interest, position, ..
        } => (AppliedEvent::Released, Some(*interest), Some(*position)),
        StakingEvent::ReserveFunded { amount, .. } => (AppliedEvent::Funded, Some(*amount), None),
        StakingEvent::ReserveWithdrawn { amount, .. } => {
            (AppliedEvent::Defunded, Some(*amount), None)
        }
        StakingEvent::TermsChanged { .. } => (AppliedEvent::Terms, None, None),
    }
}

/// Applies a staking event once; the push for its pages when it is new.
fn record_staking(
    tx: Conn,
    event: StakingEvent,
    pool: Pool,
    s: Place,
) -> Result<Option<Push>, StoreError> {
    let (name, amount, position) = applied_as(&event);
    let applied = stakes::Applied {
        tx_hash: &s.tx_hash,
        log_index: s.log_index,
        contract: &s.contract,
        event: name,
        amount,
        at: s.at,
        block: s.block,
        position,
    };
    if !stakes::event_once(tx, &applied)? {
        return Ok(None);
    }
    let push = |user, position: u64| {
        Some(Push::Stake {
            user,
            pool: Some(pool),
            event: crate::push::applied(name),
            position,
            amount: amount.unwrap_or(0),
            at: s.at,
        })
    };
    Ok(match event {
        StakingEvent::Staked {
            position,
            owner,
            kind,
            amount,
            reward,
            start,
            release,
        } => {
            let user = users::by_wallet(tx, &owner)?;
            stakes::open(
                tx,
                &Opened {
                    pool,
                    position,
                    user,
                    wallet: owner,
                    kind,
                    amount,
                    reward,
                    start: start as i64 * 1000,
                    release: release as i64 * 1000,
                    tx_hash: s.tx_hash.clone(),
                    log_index: s.log_index,
                },
            )?;
            push(user, position)
        }
        StakingEvent::InterestWithdrawn {
            position, amount, ..
        } => {
            stakes::add_withdrawn(tx, pool, position, amount)?;
            push(stakes::owner(tx, pool, position)?.flatten(), position)
        }
        StakingEvent::Released { position, .. } => {
            stakes::close(tx, pool, position, s.at)?;
            push(stakes::owner(tx, pool, position)?.flatten(), position)
        }
        // Reserve and terms changes: recorded above; the reserve monitor reads the chain.
        _ => push(None, 0),
    })
}

/// Records a price of the sale once, as an applied event (a rollback takes it back with them).
fn record_price(tx: Conn, price: u128, s: &Place) -> Result<(), StoreError> {
    stakes::event_once(
        tx,
        &stakes::Applied {
            tx_hash: &s.tx_hash,
            log_index: s.log_index,
            contract: &s.contract,
            event: AppliedEvent::Price,
            amount: Some(price),
            at: s.at,
            block: s.block,
            position: None,
        },
    )?;
    Ok(())
}

/// Records an NFT sale's purchase once; the push for its pages when it is new.
fn record_nft_purchase(tx: Conn, p: NftPurchase, s: Place) -> Result<Option<Push>, StoreError> {
    let name = AppliedEvent::NftPurchased;
    let at = s.at;
    let applied = stakes::Applied {
        tx_hash: &s.tx_hash,
        log_index: s.log_index,
        contract: &s.contract,
        event: name,
        amount: Some(p.quantity),
        at,
        block: s.block,
        position: None,
    };
    if !stakes::event_once(tx, &applied)? {
        return Ok(None);
    }
    let user = users::by_wallet(tx, &p.buyer)?;
    stakes::record_nft_purchase(
        tx,
        &s.tx_hash,
        s.log_index,
        user,
        &p.buyer,
        p.id,
        p.quantity,
        p.usdt_paid,
        at,
        s.block,
    )?;
    Ok(Some(Push::Stake {
        user,
        pool: None,
        event: crate::push::applied(name),
        position: u64::from(p.id),
        amount: p.quantity,
        at,
    }))
}
