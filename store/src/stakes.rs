//! Staking positions as the indexer records them from NftStaking and LvlxStaking, the
//! staking and NFT-sale events it applied once each, and the shapes the admin staking screens
//! and the member pages read. Accrued interest is never stored: readers compute it with the core
//! from the position and the clock.

use std::collections::HashMap;

use crate::args;
use lvlx_core::admin::stakes::{Kind, Stake, Staker, Stakes};
use lvlx_core::amount::Units;
use lvlx_core::chain::AppliedEvent;
use lvlx_core::staking::{self, Pool, PoolSums};

use super::{overflow, units, Conn, Result};
use crate::user::UserId;

/// A position as the chain opened it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opened {
    pub pool: Pool,
    pub position: u64,
    pub user: Option<UserId>,
    pub wallet: String,
    pub kind: u32,
    pub amount: Units,
    pub reward: Units,
    /// Milliseconds.
    pub start: i64,
    pub release: i64,
    pub tx_hash: String,
    pub log_index: i64,
}

/// A position as the index holds it: the core's type (`lvlx_core::staking::Held`).
pub use lvlx_core::staking::Held;

/// Records an opened position once; false when it was already recorded.
pub fn open(c: Conn, p: &Opened) -> Result<bool> {
    let n = c.execute(
        "INSERT OR IGNORE INTO stake_positions
           (pool, position, user_id, wallet, kind, amount, reward, start_date, release_date, tx_hash, log_index)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)", args![
            p.pool.name(),
            p.position as i64,
            p.user.map(|u| u.0),
            &p.wallet,
            p.kind,
            p.amount.to_string(),
            p.reward.to_string(),
            p.start,
            p.release,
            &p.tx_hash,
            p.log_index
        ])?;
    Ok(n == 1)
}

/// A staking or NFT-sale event as applied: where it sits on the chain and what it moved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied<'a> {
    pub tx_hash: &'a str,
    pub log_index: i64,
    /// Lowercase address of the contract that emitted it.
    pub contract: &'a str,
    pub event: AppliedEvent,
    pub amount: Option<Units>,
    /// Block time, milliseconds.
    pub at: i64,
    pub block: i64,
    /// The position it concerns (staked, interest, released).
    pub position: Option<u64>,
}

impl<'a> Applied<'a> {
    /// `event` at `place`, having moved `amount` of `position`.
    pub fn at(
        place: &'a lvlx_core::chain::Place,
        event: AppliedEvent,
        amount: Option<Units>,
        position: Option<u64>,
    ) -> Applied<'a> {
        Applied {
            tx_hash: &place.tx_hash,
            log_index: place.log_index,
            contract: &place.contract,
            event,
            amount,
            at: place.at,
            block: place.block,
            position,
        }
    }
}

/// Records an applied event once (tx hash + log index); false when it was already applied.
pub fn event_once(c: Conn, e: &Applied) -> Result<bool> {
    let n = c.execute(
        "INSERT OR IGNORE INTO chain_events (tx_hash, log_index, contract, event, amount, at, block, position)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        args![
            e.tx_hash,
            e.log_index,
            e.contract,
            e.event.name(),
            e.amount.map(|a| a.to_string()),
            e.at,
            e.block,
            e.position.map(|p| p as i64)
        ],
    )?;
    Ok(n == 1)
}

/// An applied event as a rollback takes it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undone {
    pub tx_hash: String,
    pub log_index: i64,
    pub contract: String,
    pub event: AppliedEvent,
    pub amount: Option<Units>,
    pub block: i64,
    pub position: Option<u64>,
}

/// The applied events in blocks above `block`, newest first.
pub fn events_above(c: Conn, block: u64) -> Result<Vec<Undone>> {
    let rows = c.query_all(
        "SELECT tx_hash, log_index, contract, event, amount, block, position FROM chain_events
         WHERE block > ?1 ORDER BY block DESC, log_index DESC",
        args![block as i64],
        |r| {
            Ok((
                r.get::<String>(0)?,
                r.get::<i64>(1)?,
                r.get::<String>(2)?,
                r.get::<String>(3)?,
                r.get::<Option<String>>(4)?,
                r.get::<i64>(5)?,
                r.get::<Option<i64>>(6)?,
            ))
        },
    )?;
    rows.into_iter()
        .map(
            |(tx_hash, log_index, contract, event, amount, block, position)| {
                let event = AppliedEvent::parse(&event).ok_or_else(|| {
                    super::StoreError::Corrupt(format!("an applied event named {event:?}"))
                })?;
                Ok(Undone {
                    tx_hash,
                    log_index,
                    contract,
                    event,
                    amount: amount.as_deref().map(units).transpose()?,
                    block,
                    position: position.map(|p| p as u64),
                })
            },
        )
        .collect()
}

/// Forgets an applied event.
pub fn forget_event(c: Conn, tx_hash: &str, log_index: i64) -> Result<()> {
    c.execute(
        "DELETE FROM chain_events WHERE tx_hash = ?1 AND log_index = ?2",
        args![tx_hash, log_index],
    )?;
    Ok(())
}

/// Removes the position an event opened; its owner account, if it was recorded and linked.
pub fn remove_opened(c: Conn, pool: Pool, position: u64) -> Result<Option<UserId>> {
    let owner = owner(c, pool, position)?.flatten();
    c.execute(
        "DELETE FROM stake_positions WHERE pool = ?1 AND position = ?2",
        args![pool.name(), position as i64],
    )?;
    Ok(owner)
}

/// Takes a paid interest back off a position.
pub fn take_withdrawn(c: Conn, pool: Pool, position: u64, amount: Units) -> Result<()> {
    let current: Option<String> = c.query_opt(
        "SELECT withdrawn FROM stake_positions WHERE pool = ?1 AND position = ?2",
        args![pool.name(), position as i64],
        |r| r.get(0),
    )?;
    if let Some(current) = current {
        let total = units(&current)?.saturating_sub(amount);
        c.execute(
            "UPDATE stake_positions SET withdrawn = ?3 WHERE pool = ?1 AND position = ?2",
            args![pool.name(), position as i64, total.to_string()],
        )?;
    }
    Ok(())
}

/// Opens a released position again: the release paid `interest`, the rest was withdrawn before.
pub fn reopen(c: Conn, pool: Pool, position: u64, interest: Units) -> Result<()> {
    c.execute(
        "UPDATE stake_positions SET closed_at = NULL WHERE pool = ?1 AND position = ?2",
        args![pool.name(), position as i64],
    )?;
    take_withdrawn(c, pool, position, interest)
}

/// Removes an NFT sale's purchase; its buyer account, if linked.
pub fn remove_nft_purchase(c: Conn, tx_hash: &str, log_index: i64) -> Result<Option<UserId>> {
    let user: Option<Option<i64>> = c.query_opt(
        "SELECT user_id FROM nft_purchases WHERE tx_hash = ?1 AND log_index = ?2",
        args![tx_hash, log_index],
        |r| r.get(0),
    )?;
    c.execute(
        "DELETE FROM nft_purchases WHERE tx_hash = ?1 AND log_index = ?2",
        args![tx_hash, log_index],
    )?;
    Ok(user.flatten().map(UserId))
}

/// The owner account of a position, if it is recorded and linked.
pub fn owner(c: Conn, pool: Pool, position: u64) -> Result<Option<Option<UserId>>> {
    Ok(c.query_opt(
        "SELECT user_id FROM stake_positions WHERE pool = ?1 AND position = ?2",
        args![pool.name(), position as i64],
        |r| r.get::<Option<i64>>(0),
    )?
    .map(|u| u.map(UserId)))
}

/// Adds a paid interest to a position.
pub fn add_withdrawn(c: Conn, pool: Pool, position: u64, amount: Units) -> Result<()> {
    let key = args![pool.name(), position as i64];
    let current: Option<String> = c.query_opt(
        "SELECT withdrawn FROM stake_positions WHERE pool = ?1 AND position = ?2",
        key,
        |r| r.get(0),
    )?;
    let Some(current) = current else {
        return Err(super::StoreError::Corrupt(format!(
            "interest withdrawn from unknown {} position {position}",
            pool.name()
        )));
    };
    let total = units(&current)?
        .checked_add(amount)
        .ok_or_else(|| overflow("withdrawn interest"))?;
    c.execute(
        "UPDATE stake_positions SET withdrawn = ?3 WHERE pool = ?1 AND position = ?2",
        args![pool.name(), position as i64, total.to_string()],
    )?;
    Ok(())
}

/// Closes a released position: its whole reward is paid.
pub fn close(c: Conn, pool: Pool, position: u64, at: i64) -> Result<()> {
    c.execute(
        "UPDATE stake_positions SET withdrawn = reward, closed_at = ?3
         WHERE pool = ?1 AND position = ?2",
        args![pool.name(), position as i64, at],
    )?;
    Ok(())
}

/// Gives `user` the positions kept for `wallet` while no account had linked it. Run inside the
/// caller's transaction; returns how many were attached.
pub fn attach_wallet(c: Conn, user: UserId, wallet: &str) -> Result<usize> {
    let stakes = c.execute(
        "UPDATE stake_positions SET user_id = ?1 WHERE user_id IS NULL AND lower(wallet) = lower(?2)", args![user.0, wallet])?;
    let bought = c.execute(
        "UPDATE nft_purchases SET user_id = ?1 WHERE user_id IS NULL AND lower(wallet) = lower(?2)",
        args![user.0, wallet],
    )?;
    Ok(stakes + bought)
}

/// An NFT purchase of the NFT sale, once.
#[allow(clippy::too_many_arguments)]
pub fn record_nft_purchase(
    c: Conn,
    tx_hash: &str,
    log_index: i64,
    user: Option<UserId>,
    wallet: &str,
    nft_id: u32,
    quantity: Units,
    usdt_paid: Units,
    created_at: i64,
    block: i64,
) -> Result<bool> {
    let n = c.execute(
        "INSERT OR IGNORE INTO nft_purchases
           (tx_hash, log_index, user_id, wallet, nft_id, quantity, usdt_paid, created_at, block)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        args![
            tx_hash,
            log_index,
            user.map(|u| u.0),
            wallet,
            nft_id,
            quantity.to_string(),
            usdt_paid.to_string(),
            created_at,
            block
        ],
    )?;
    Ok(n == 1)
}

/// The linked members' positions opened in blocks `after < block <= upto` (they just became
/// final): (member, opening transaction).
pub fn opened_between(c: Conn, after: u64, upto: u64) -> Result<Vec<(UserId, String)>> {
    let clamp = |b: u64| b.min(i64::MAX as u64) as i64;
    c.query_all(
        "SELECT s.user_id, s.tx_hash FROM chain_events e
         JOIN stake_positions s ON s.tx_hash = e.tx_hash AND s.log_index = e.log_index
         WHERE e.block > ?1 AND e.block <= ?2 AND s.user_id IS NOT NULL
         ORDER BY e.block, e.log_index",
        args![clamp(after), clamp(upto)],
        |r| Ok((UserId(r.get(0)?), r.get(1)?)),
    )
}

/// A member's positions: (NFT, LVLX), each newest first. Both pools in one query (one round
/// trip on PostgreSQL), read in the order of the index (user_id, pool, start_date, position).
pub fn of_member(c: Conn, user: UserId) -> Result<(Vec<Held>, Vec<Held>)> {
    // A position's block is its opening event's (seeded history has none: final).
    let stmt_sql = "SELECT s.pool, s.position, s.wallet, s.kind, s.amount, s.reward, s.start_date, s.release_date,
           s.withdrawn, s.closed_at, s.tx_hash,
           CASE WHEN COALESCE(e.block, 0) > (SELECT COALESCE(MAX(final_block), 0) FROM chain_cursor)
             THEN 1 ELSE 0 END
         FROM stake_positions s
         LEFT JOIN chain_events e ON e.tx_hash = s.tx_hash AND e.log_index = s.log_index
         WHERE s.user_id = ?1 ORDER BY s.pool, s.start_date DESC, s.position DESC";

    let (mut nft, mut lvlx) = (Vec::new(), Vec::new());
    c.query_each(stmt_sql, args![user.0], |r| {
        let name: String = r.get(0)?;
        let pool = Pool::parse(&name)
            .ok_or_else(|| super::StoreError::Corrupt(format!("position pool {name:?}")))?;
        let held = Held {
            pool,
            position: r.get::<i64>(1)? as u64,
            wallet: r.get(2)?,
            kind: r.get(3)?,
            amount: r.units(4)?,
            reward: r.units(5)?,
            start: r.get(6)?,
            release: r.get(7)?,
            withdrawn: r.units(8)?,
            closed_at: r.get(9)?,
            tx_hash: r.get(10)?,
            pending: r.get::<i64>(11)? == 1,
        };
        match pool {
            Pool::Nft => nft.push(held),
            Pool::Lvlx => lvlx.push(held),
        }
        Ok(())
    })?;
    Ok((nft, lvlx))
}

/// Rewards reserved by positions of `pool` opened at or after `since` (ms): the staking pace.
pub fn reserved_since(c: Conn, pool: Pool, since: i64) -> Result<Units> {
    let stmt_sql = "SELECT reward FROM stake_positions WHERE pool = ?1 AND start_date >= ?2";

    let mut total: Units = 0;
    c.query_each(stmt_sql, args![pool.name(), since], |r| {
        total = total
            .checked_add(r.units(0)?)
            .ok_or_else(|| overflow("reserved rewards"))?;
        Ok(())
    })?;
    Ok(total)
}

fn pool(kind: Kind) -> Pool {
    match kind {
        Kind::Nft => Pool::Nft,
        Kind::Lvlx => Pool::Lvlx,
    }
}

/// Every linked position of `kind` in release order, its interests accrued at `now_ms` (by the
/// core), stakers keyed in user order: what the admin staking screens load.
pub fn load(c: Conn, kind: Kind, now_ms: i64) -> Result<Stakes> {
    let stmt_sql =
        "SELECT s.user_id, u.names || ' ' || u.lastnames, u.email, u.wallet, s.kind, s.amount,
                s.start_date, s.release_date, s.reward, s.withdrawn, s.position
         FROM stake_positions s JOIN users u ON u.id = s.user_id
         WHERE s.pool = ?1 ORDER BY s.release_date, s.position";
    // Opened in a block not final yet: the few events above the final block, by their index,
    // rather than a join for each of a million rows (CROSS JOIN: SQLite keeps that order even
    // without statistics; PostgreSQL plans it from its own).
    let pending_sql = "SELECT s.position FROM chain_events e
         CROSS JOIN stake_positions s
         WHERE e.block > (SELECT COALESCE(MAX(final_block), 0) FROM chain_cursor)
           AND s.tx_hash = e.tx_hash AND s.log_index = e.log_index AND s.pool = ?1";
    let pending: std::collections::HashSet<i64> = c
        .query_all(pending_sql, args![pool(kind).name()], |r| r.get::<i64>(0))?
        .into_iter()
        .collect();

    let mut users: HashMap<i64, Staker> = HashMap::new();
    let mut raw: Vec<(i64, Stake)> = Vec::new();
    let now = (now_ms.max(0) / 1000) as u64;
    c.query_each(stmt_sql, args![pool(kind).name()], |r| {
        let user: i64 = r.get(0)?;
        if let std::collections::hash_map::Entry::Vacant(slot) = users.entry(user) {
            slot.insert(Staker {
                names: r.get(1)?,
                email: r.get(2)?,
                wallet: r.get(3)?,
            });
        }
        let (start, release): (i64, i64) = (r.get(6)?, r.get(7)?);
        let reward = r.units(8)?;
        let interests = staking::accrued(
            reward,
            (start.max(0) / 1000) as u64,
            (release.max(0) / 1000) as u64,
            now,
        );
        raw.push((
            user,
            Stake {
                staker: 0,
                nft_id: match kind {
                    Kind::Nft => r.get(4)?,
                    Kind::Lvlx => 0,
                },
                amount: r.units(5)?,
                start,
                release,
                interests,
                withdrawn: r.units(9)?,
                pending: pending.contains(&r.get::<i64>(10)?),
            },
        ));
        Ok(())
    })?;
    let mut ids: Vec<i64> = users.keys().copied().collect();
    ids.sort_unstable();
    let keys: HashMap<i64, u32> = ids
        .iter()
        .enumerate()
        .map(|(k, &id)| (id, k as u32))
        .collect();
    let stakers = ids
        .iter()
        .map(|id| users.remove(id).expect("every id has its staker"))
        .collect();
    let stakes = raw
        .into_iter()
        .map(|(user, mut stake)| {
            stake.staker = keys[&user];
            stake
        })
        .collect();
    Ok(Stakes { stakers, stakes })
}

/// One pool's positions summed as its contract counts them (the core's fold).
pub fn pool_sums(c: Conn, pool: Pool) -> Result<PoolSums> {
    let mut sums = PoolSums::default();
    c.query_each(
        "SELECT kind, amount, reward, withdrawn, closed_at FROM stake_positions WHERE pool = ?1",
        args![pool.name()],
        |r| {
            let open = r.get::<Option<i64>>(4)?.is_none();
            sums.add(r.get(0)?, r.units(1)?, r.units(2)?, r.units(3)?, open)
                .ok_or_else(|| overflow("pool sums"))
        },
    )?;
    Ok(sums)
}
