//! Claims of rewards (asked for with a code, signed as a voucher, paid on chain) and the
//! distributor's payments.

use super::Row;
use super::{units, Conn, Result};
use crate::args;
use crate::user::UserId;
use lvlx_core::amount::Units;
use serde::Serialize;

/// A claim as the member's pages list it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Claim {
    pub id: i64,
    #[serde(with = "lvlx_core::amount::text")]
    pub amount: Units,
    #[serde(with = "lvlx_core::amount::text")]
    pub cumulative: Units,
    pub status: String,
    pub created_at: i64,
    pub paid_at: Option<i64>,
    pub tx_hash: Option<String>,
}

fn claim_row(r: &Row) -> Result<Claim> {
    Ok(Claim {
        id: r.get(0)?,
        amount: r.units(1)?,
        cumulative: r.units(2)?,
        status: r.get(3)?,
        created_at: r.get(4)?,
        paid_at: r.get(5)?,
        tx_hash: r.get(6)?,
    })
}

/// The member's claims, oldest first: signed and paid ones, and those asked for whose code can
/// still confirm them at `now` (one voided by 3 wrong tries, used or expired is no claim).
pub fn claims_of(c: Conn, user: UserId, now: i64) -> Result<Vec<Claim>> {
    let stmt_sql =
        "SELECT c.id, c.amount, c.cumulative, c.status, c.created_at, c.paid_at, c.tx_hash
         FROM claims c LEFT JOIN codes k ON k.id = c.attempt AND k.purpose = 'claim'
         WHERE c.user_id = ?1 AND (c.status <> 'requested'
               OR (k.used_at IS NULL AND k.tries < ?2 AND k.expires_at > ?3))
         ORDER BY c.id";

    let mut out = Vec::new();
    c.query_each(stmt_sql, args![user.0, crate::code::MAX_TRIES, now], |r| {
        out.push(claim_row(r)?);
        Ok(())
    })?;
    Ok(out)
}

/// A claim asked for: what it adds and the cumulative amount its voucher will name.
pub fn request_claim(
    c: Conn,
    user: UserId,
    attempt: &str,
    wallet: &str,
    amount: Units,
    cumulative: Units,
    now: i64,
) -> Result<i64> {
    c.query_one(
        "INSERT INTO claims (user_id, attempt, wallet, amount, cumulative, status, created_at) VALUES (?1, ?2, ?3, ?4, ?5, 'requested', ?6) RETURNING id",
        args![user.0, attempt, wallet, amount.to_string(), cumulative.to_string(), now],
        |r| r.get(0),
    )
}

/// A claim as its code's confirmation reads it.
pub struct Requested {
    pub id: i64,
    pub user: UserId,
    pub wallet: String,
    pub amount: Units,
    pub cumulative: Units,
    pub status: String,
}

/// The claim bound to a code attempt.
pub fn claim_by_attempt(c: Conn, attempt: &str) -> Result<Option<Requested>> {
    c.query_opt(
        "SELECT id, user_id, wallet, cumulative, status, amount FROM claims WHERE attempt = ?1",
        args![attempt],
        |r| {
            Ok((
                r.get(0)?,
                UserId(r.get(1)?),
                r.get(2)?,
                r.get::<String>(3)?,
                r.get(4)?,
                r.get::<String>(5)?,
            ))
        },
    )?
    .map(|(id, user, wallet, cumulative, status, amount)| {
        Ok(Requested {
            id,
            user,
            wallet,
            amount: units(&amount)?,
            cumulative: units(&cumulative)?,
            status,
        })
    })
    .transpose()
}

pub fn sign_claim(c: Conn, id: i64, deadline: u64, signature: &str) -> Result<()> {
    c.execute(
        "UPDATE claims SET status = 'signed', deadline = ?2, signature = ?3 WHERE id = ?1 AND status = 'requested'", args![id, deadline as i64, signature])?;
    Ok(())
}

/// A Claimed event, recorded once; the signed claims of that wallet it covers (cumulative at
/// most the event's) become paid. Returns whether it was new and the owners whose claims moved.
pub fn record_payment(
    c: Conn,
    tx_hash: &str,
    log_index: i64,
    wallet: &str,
    amount: Units,
    cumulative: Units,
    at: i64,
) -> Result<(bool, Vec<UserId>)> {
    let added = c.execute(
        "INSERT OR IGNORE INTO claim_payments (tx_hash, log_index, wallet, amount, cumulative, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)", args![tx_hash, log_index, wallet, amount.to_string(), cumulative.to_string(), at])? == 1;
    if !added {
        return Ok((false, Vec::new()));
    }
    let stmt_sql = "SELECT id, user_id, cumulative FROM claims WHERE lower(wallet) = lower(?1) AND status = 'signed'";
    let pending: Vec<(i64, i64, String)> = c.query_all(stmt_sql, args![wallet], |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?))
    })?;
    let mut owners = Vec::new();
    for (id, user, claim_cumulative) in pending {
        if units(&claim_cumulative)? <= cumulative {
            // The claim whose voucher this was carries the transaction; older ones it covered
            // are paid by it too.
            let exact = units(&claim_cumulative)? == cumulative;
            c.execute(
                "UPDATE claims SET status = 'paid', paid_at = ?2, tx_hash = ?3, log_index = ?4 WHERE id = ?1", args![id, at, exact.then_some(tx_hash), exact.then_some(log_index)])?;
            owners.push(UserId(user));
        }
    }
    Ok((true, owners))
}
