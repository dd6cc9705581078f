//! What a rollback took back (`chain_reversals`): one line per event whose block left the
//! chain, for the member's history.

use serde::Serialize;

use super::{Conn, Result};
use crate::args;
use crate::user::UserId;

/// One event taken back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Reversal {
    /// purchase, staked, interest, released, nft-purchased, node, claim.
    pub event: String,
    pub tx_hash: String,
    /// Base units (LVLX, or USDT for a node), when the event carried an amount.
    pub amount: Option<String>,
    pub block: i64,
    /// When it was taken back (server time, ms).
    pub at: i64,
    /// It had been shown final: a reorganisation deeper than finality took it back.
    pub was_final: bool,
}

pub fn add(c: Conn, user: Option<UserId>, r: &Reversal) -> Result<()> {
    c.execute(
        "INSERT INTO chain_reversals (user_id, event, tx_hash, amount, block, at, was_final) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        args![user.map(|u| u.0), &r.event, &r.tx_hash, &r.amount, r.block, r.at, i64::from(r.was_final)],
    )?;
    Ok(())
}

/// A member's reversals, newest first.
pub fn of_member(c: Conn, user: UserId, limit: i64) -> Result<Vec<Reversal>> {
    let rows = c.query_all(
        "SELECT event, tx_hash, amount, block, at, was_final FROM chain_reversals WHERE user_id = ?1 ORDER BY at DESC, id DESC LIMIT ?2",
        args![user.0, limit],
        |r| {
            Ok((
                r.get::<String>(0)?,
                r.get::<String>(1)?,
                r.get::<Option<String>>(2)?,
                r.get::<i64>(3)?,
                r.get::<i64>(4)?,
                r.get::<i64>(5)?,
            ))
        },
    )?;
    Ok(rows
        .into_iter()
        .map(|(event, tx_hash, amount, block, at, was_final)| Reversal {
            event,
            tx_hash,
            amount,
            block,
            at,
            was_final: was_final != 0,
        })
        .collect())
}

/// How many events were taken back since `since` (ms).
pub fn since(c: Conn, since: i64) -> Result<i64> {
    c.query_one(
        "SELECT COUNT(*) FROM chain_reversals WHERE at >= ?1",
        args![since],
        |r| r.get(0),
    )
}

/// How many events that had been shown final were taken back since `since` (ms).
pub fn final_since(c: Conn, since: i64) -> Result<i64> {
    c.query_one(
        "SELECT COUNT(*) FROM chain_reversals WHERE at >= ?1 AND was_final = 1",
        args![since],
        |r| r.get(0),
    )
}
