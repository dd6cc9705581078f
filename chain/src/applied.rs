//! The applied events (a staking contract's, the NFT sale's purchases, the sale's price), each
//! recorded once by the indexer and taken back by a rollback: the two side by side, so what one
//! writes the other undoes, and a new event is one arm in each (`AppliedEvent` and the decoding
//! are the core's, `lvlx_core::chain`).

use lvlx_core::chain::{AppliedEvent, NftPurchase, Place, StakingEvent};
use lvlx_core::staking::Pool;
use lvlx_store::stakes::{self, Opened};
use lvlx_store::{users, Conn, StoreError};

use crate::rollback::Taken;
use crate::Push;

/// Applies a staking event once; the push for its pages when it is new.
pub(super) fn record_staking(
    tx: Conn,
    event: StakingEvent,
    pool: Pool,
    s: Place,
) -> Result<Option<Push>, StoreError> {
    let (name, amount, position) = event.applied();
    let applied = stakes::Applied::at(&s, name, amount, position);
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
        // Reserve and terms changes: recorded above; the reserve monitor reads the chain. (Every
        // event named, so a new one does not compile without its arm here.)
        StakingEvent::ReserveFunded { .. }
        | StakingEvent::ReserveWithdrawn { .. }
        | StakingEvent::TermsChanged { .. } => push(None, 0),
    })
}

/// Records a price of the sale once, as an applied event (a rollback takes it back with them).
pub(super) fn record_price(tx: Conn, price: u128, s: &Place) -> Result<(), StoreError> {
    let applied = stakes::Applied::at(s, AppliedEvent::Price, Some(price), None);
    stakes::event_once(tx, &applied)?;
    Ok(())
}

/// Records an NFT sale's purchase once; the push for its pages when it is new.
pub(super) fn record_nft_purchase(
    tx: Conn,
    p: NftPurchase,
    s: Place,
) -> Result<Option<Push>, StoreError> {
    let name = AppliedEvent::NftPurchased;
    let at = s.at;
    let applied = stakes::Applied::at(&s, name, Some(p.quantity), None);
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

/// Takes back the applied events above `ancestor`, newest first, undoing what each did (to its
/// position, or the NFT sale's purchase); what each was, for the member's history.
pub(super) fn take_back(
    tx: Conn,
    nft_staking: &str,
    ancestor: u64,
    taken: &mut Vec<Taken>,
) -> Result<(), StoreError> {
    for e in stakes::events_above(tx, ancestor)? {
        let pool = if e.contract == nft_staking {
            Pool::Nft
        } else {
            Pool::Lvlx
        };
        // Every applied event, each undone by its kind (a new one does not compile without its
        // line here).
        let user = match (e.event, e.position) {
            (AppliedEvent::Staked, Some(p)) => stakes::remove_opened(tx, pool, p)?,
            (AppliedEvent::Interest, Some(p)) => {
                stakes::take_withdrawn(tx, pool, p, e.amount.unwrap_or(0))?;
                stakes::owner(tx, pool, p)?.flatten()
            }
            (AppliedEvent::Released, Some(p)) => {
                stakes::reopen(tx, pool, p, e.amount.unwrap_or(0))?;
                stakes::owner(tx, pool, p)?.flatten()
            }
            (AppliedEvent::Staked | AppliedEvent::Interest | AppliedEvent::Released, None) => {
                return Err(StoreError::Corrupt(format!(
                    "an applied {:?} without its position",
                    e.event
                )))
            }
            (AppliedEvent::NftPurchased, _) => {
                stakes::remove_nft_purchase(tx, &e.tx_hash, e.log_index)?
            }
            (
                AppliedEvent::Funded
                | AppliedEvent::Defunded
                | AppliedEvent::Terms
                | AppliedEvent::Price,
                _,
            ) => None,
        };
        stakes::forget_event(tx, &e.tx_hash, e.log_index)?;
        taken.push(Taken {
            user,
            event: crate::push::applied(e.event),
            tx_hash: e.tx_hash,
            amount: e.amount.map(|a| a.to_string()),
            block: e.block,
        });
    }
    Ok(())
}
