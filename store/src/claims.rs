//! Claims of rewards (asked for with a code, signed as a voucher, paid on chain) and the
//! distributor's payments.

use super::Row;
use super::{units, Conn, Result};
use crate::args;
use crate::user::UserId;
use lvlx_core::amount::Units;
use lvlx_core::claims;
use serde::Serialize;

/// A claim as the member's pages list it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Claim {
    pub id: i64,
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    pub amount: Units,
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
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
    c.query_each(stmt_sql, args![user.0, crate::codes::MAX_TRIES, now], |r| {
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

/// A Claimed event as the indexer read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payment<'a> {
    pub tx_hash: &'a str,
    pub log_index: i64,
    pub wallet: &'a str,
    pub amount: Units,
    pub cumulative: Units,
    /// Block time, milliseconds.
    pub at: i64,
    pub block: i64,
}

/// A Claimed event, recorded once; the signed claims of that wallet it covers (cumulative at
/// most the event's) become paid. Returns whether it was new and the owners whose claims moved.
pub fn record_payment(c: Conn, p: &Payment) -> Result<(bool, Vec<UserId>)> {
    let Payment {
        tx_hash,
        log_index,
        wallet,
        amount,
        cumulative,
        at,
        block,
    } = *p;
    let added = c.execute(
        "INSERT OR IGNORE INTO claim_payments (tx_hash, log_index, wallet, amount, cumulative, created_at, block) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", args![tx_hash, log_index, wallet, amount.to_string(), cumulative.to_string(), at, block])? == 1;
    if !added {
        return Ok((false, Vec::new()));
    }
    let stmt_sql = "SELECT id, user_id, cumulative FROM claims WHERE lower(wallet) = lower(?1) AND status = 'signed'";
    let pending: Vec<(i64, i64, String)> = c.query_all(stmt_sql, args![wallet], |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?))
    })?;
    let mut owners = Vec::new();
    for (id, user, claim_cumulative) in pending {
        if !claims::can_still_pay(units(&claim_cumulative)?, cumulative) {
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

/// A distributor payment as a rollback takes it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentRow {
    pub tx_hash: String,
    pub log_index: i64,
    pub wallet: String,
    pub amount: String,
    pub block: i64,
}

/// The payments in blocks above `block`, newest first.
pub fn payments_above(c: Conn, block: u64) -> Result<Vec<PaymentRow>> {
    c.query_all(
        "SELECT tx_hash, log_index, wallet, amount, block FROM claim_payments WHERE block > ?1
         ORDER BY block DESC, log_index DESC",
        args![block as i64],
        |r| {
            Ok(PaymentRow {
                tx_hash: r.get(0)?,
                log_index: r.get(1)?,
                wallet: r.get(2)?,
                amount: r.get(3)?,
                block: r.get(4)?,
            })
        },
    )
}

/// Removes a payment that left the chain: every paid claim of that wallet above what its
/// remaining payments cover is signed and payable again (the distributor's cumulative total went
/// back with the block). Returns their owners.
pub fn remove_payment(c: Conn, p: &PaymentRow) -> Result<Vec<UserId>> {
    c.execute(
        "DELETE FROM claim_payments WHERE tx_hash = ?1 AND log_index = ?2",
        args![&p.tx_hash, p.log_index],
    )?;
    let covered = claims::paid_out(c.query_all(
        "SELECT cumulative FROM claim_payments WHERE lower(wallet) = lower(?1)",
        args![&p.wallet],
        |r| r.units(0),
    )?);
    let claims: Vec<(i64, i64, String)> = c.query_all(
        "SELECT id, user_id, cumulative FROM claims WHERE lower(wallet) = lower(?1) AND status = 'paid'",
        args![&p.wallet],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    let mut owners = Vec::new();
    for (id, user, cumulative) in claims {
        if claims::can_still_pay(units(&cumulative)?, covered) {
            c.execute(
                "UPDATE claims SET status = 'signed', paid_at = NULL, tx_hash = NULL, log_index = NULL WHERE id = ?1",
                args![id],
            )?;
            if !owners.contains(&UserId(user)) {
                owners.push(UserId(user));
            }
        }
    }
    Ok(owners)
}

/// What the distributor paid each wallet in all, by its events: the highest cumulative of the
/// wallet's payments (lowercase wallet).
pub fn paid_by_wallet(c: Conn) -> Result<std::collections::BTreeMap<String, Units>> {
    let mut out = std::collections::BTreeMap::new();
    c.query_each(
        "SELECT wallet, cumulative FROM claim_payments",
        args![],
        |r| {
            let wallet: String = r.get(0)?;
            let cumulative = r.units(1)?;
            let paid: &mut Units = out.entry(wallet.to_lowercase()).or_default();
            *paid = claims::paid_out([*paid, cumulative]);
            Ok(())
        },
    )?;
    Ok(out)
}

/// What members are owed in all: each member's rewards credited, less what the distributor
/// paid their wallet (never below zero).
pub fn owed(c: Conn) -> Result<Units> {
    let paid = paid_by_wallet(c)?;
    let mut total: Units = 0;
    c.query_each(
        "SELECT add_rewards, wallet FROM users WHERE add_rewards <> '0'",
        args![],
        |r| {
            let rewards = r.units(0)?;
            let wallet: Option<String> = r.get(1)?;
            let out = wallet
                .and_then(|w| paid.get(&w.to_lowercase()).copied())
                .unwrap_or(0);
            total = total
                .checked_add(claims::owed(rewards, out))
                .ok_or_else(|| super::overflow("rewards owed"))?;
            Ok(())
        },
    )?;
    Ok(total)
}
