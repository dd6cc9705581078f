//! The ICO ledger (docs/product/money.md#ledger): purchases and retirements, each stored once
//! (unique tx hash + log index), with the per-user LVLX balance and the daily rollup kept in the
//! same transaction, so statistics read a few thousand rollup rows, never 10^6 ledger rows.
//! The balance rule is the core's (`lvlx_core::ledger`).

use std::collections::HashMap;

use crate::args;
use lvlx_core::admin::ico::{self, Totals};
use lvlx_core::amount::Units;
use lvlx_core::ledger::balance_after;
use serde::Serialize;

use super::{overflow, units, users, Conn, Dialect, Result, StoreError};
use crate::user::UserId;

const DAY_MS: i64 = 86_400_000;

/// One ledger entry, amounts from the chain event (never from a browser).
#[derive(Debug, Clone)]
pub struct Entry {
    pub user: Option<UserId>,
    pub wallet: Option<String>,
    pub created_at: i64,
    pub token: String,
    pub amount: Units,
    pub tx_hash: String,
    pub log_index: i64,
}

/// A ledger entry as its owner sees it on myActives.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[schema(as = LedgerEntry)]
#[serde(rename_all = "camelCase")]
pub struct Held {
    pub created_at: i64,
    pub token: String,
    pub amount: String,
    pub usdt_paid: Option<String>,
    pub tx_hash: String,
    /// Not final yet: shown, but its commissions, volume and ranks wait for finality.
    pub pending: bool,
}

/// A newest-first row of statistics-ico (docs/product/api.md#calls).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[schema(as = IcoNewest)]
#[serde(rename_all = "camelCase")]
pub struct Newest {
    pub email: String,
    pub created_at: i64,
    pub purchased_token: String,
    pub amount: String,
}

fn ledger_error(e: lvlx_core::ledger::LedgerError) -> StoreError {
    StoreError::Corrupt(e.to_string())
}

/// Records an entry once; a repeat of the same (tx hash, log index) changes nothing. Returns
/// whether it was new. Run inside the caller's transaction.
pub fn record(c: Conn, product: &str, entry: &Entry) -> Result<bool> {
    let inserted = c.execute(
        "INSERT OR IGNORE INTO ico_transactions (user_id, wallet, created_at, token, amount, tx_hash, log_index)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", args![
            entry.user.map(|u| u.0),
            &entry.wallet,
            entry.created_at,
            &entry.token,
            entry.amount.to_string(),
            &entry.tx_hash,
            entry.log_index
        ])?;
    if inserted == 0 {
        return Ok(false);
    }
    add_to_day(
        c,
        entry.created_at.div_euclid(DAY_MS),
        &entry.token,
        1,
        entry.amount,
    )?;
    if let Some(user) = entry.user {
        let balance = users::balance(c, user)?;
        let balance =
            balance_after(balance, product, &entry.token, entry.amount).map_err(ledger_error)?;
        users::set_balance(c, user, balance)?;
    }
    Ok(true)
}

/// What the sale's event adds to an entry: the USDT paid, the on-chain referrer and the block.
/// Returns the entry's id.
pub fn set_payment(
    c: Conn,
    tx_hash: &str,
    log_index: i64,
    usdt_paid: Units,
    referrer: Option<&str>,
    block: i64,
) -> Result<i64> {
    c.query_one("UPDATE ico_transactions SET usdt_paid = ?1, referrer = ?2, block = ?5 WHERE tx_hash = ?3 AND log_index = ?4 RETURNING id", args![usdt_paid.to_string(), referrer, tx_hash, log_index, block], |r| r.get(0))
}

/// Gives `user` the entries kept for `wallet` while no account had linked it, in ledger order,
/// moving the user's balance as [`record`] would have. Returns how many were attached. Run
/// inside the caller's transaction.
pub fn attach_wallet(c: Conn, product: &str, user: UserId, wallet: &str) -> Result<usize> {
    let stmt_sql = "SELECT id, token, amount FROM ico_transactions
         WHERE user_id IS NULL AND lower(wallet) = lower(?1) ORDER BY created_at, id";
    let entries = c.query_all(stmt_sql, args![wallet], |r| {
        Ok((r.get::<i64>(0)?, r.get::<String>(1)?, r.get::<String>(2)?))
    })?;
    if entries.is_empty() {
        return Ok(0);
    }
    let mut balance = users::balance(c, user)?;
    for (id, token, amount) in &entries {
        balance = balance_after(balance, product, token, units(amount)?).map_err(ledger_error)?;
        c.execute(
            "UPDATE ico_transactions SET user_id = ?1 WHERE id = ?2",
            args![user.0, id],
        )?;
    }
    users::set_balance(c, user, balance)?;
    Ok(entries.len())
}

/// Adds `count` entries summing `amount` to a day's rollup.
pub fn add_to_day(c: Conn, day: i64, token: &str, count: u64, amount: Units) -> Result<()> {
    let current: Option<(i64, String)> = c.query_opt(
        "SELECT count, amount FROM ico_daily WHERE day = ?1 AND token = ?2",
        args![day, token],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let (count_before, sum_before) = match current {
        Some((n, sum)) => (n as u64, units(&sum)?),
        None => (0, 0),
    };
    let sum = sum_before
        .checked_add(amount)
        .ok_or_else(|| overflow("daily sum"))?;
    c.execute(
        "INSERT INTO ico_daily (day, token, count, amount) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (day, token) DO UPDATE SET count = excluded.count, amount = excluded.amount",
        args![day, token, (count_before + count) as i64, sum.to_string()],
    )?;
    Ok(())
}

/// Takes `count` entries summing `amount` off a day's rollup (a rollback), dropping the day
/// when nothing is left of it.
fn take_from_day(c: Conn, day: i64, token: &str, count: u64, amount: Units) -> Result<()> {
    let (count_before, sum_before): (i64, String) = c.query_one(
        "SELECT count, amount FROM ico_daily WHERE day = ?1 AND token = ?2",
        args![day, token],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let left = (count_before as u64)
        .checked_sub(count)
        .ok_or_else(|| StoreError::Corrupt(format!("day {day} holds fewer {token} entries")))?;
    let sum = units(&sum_before)?
        .checked_sub(amount)
        .ok_or_else(|| StoreError::Corrupt(format!("day {day} holds less {token}")))?;
    if left == 0 {
        c.execute(
            "DELETE FROM ico_daily WHERE day = ?1 AND token = ?2",
            args![day, token],
        )?;
    } else {
        c.execute(
            "UPDATE ico_daily SET count = ?3, amount = ?4 WHERE day = ?1 AND token = ?2",
            args![day, token, left as i64, sum.to_string()],
        )?;
    }
    Ok(())
}

/// A chain entry as a rollback takes it back.
#[derive(Debug, Clone)]
pub struct Dropped {
    pub id: i64,
    pub user: Option<UserId>,
    pub token: String,
    pub amount: Units,
    pub created_at: i64,
    pub tx_hash: String,
    pub block: i64,
}

/// The chain's entries in blocks above `block`, newest first.
pub fn above(c: Conn, block: u64) -> Result<Vec<Dropped>> {
    let rows = c.query_all(
        "SELECT id, user_id, token, amount, created_at, tx_hash, block FROM ico_transactions
         WHERE block > ?1 ORDER BY block DESC, log_index DESC",
        args![block as i64],
        |r| {
            Ok((
                r.get::<i64>(0)?,
                r.get::<Option<i64>>(1)?,
                r.get::<String>(2)?,
                r.get::<String>(3)?,
                r.get::<i64>(4)?,
                r.get::<String>(5)?,
                r.get::<i64>(6)?,
            ))
        },
    )?;
    rows.into_iter()
        .map(|(id, user, token, amount, created_at, tx_hash, block)| {
            Ok(Dropped {
                id,
                user: user.map(UserId),
                token,
                amount: units(&amount)?,
                created_at,
                tx_hash,
                block,
            })
        })
        .collect()
}

/// Removes a dropped entry, with its place in the day's rollup and in its owner's balance. Its
/// settlement must be taken back first.
pub fn remove(c: Conn, product: &str, d: &Dropped) -> Result<()> {
    c.execute("DELETE FROM ico_transactions WHERE id = ?1", args![d.id])?;
    take_from_day(c, d.created_at.div_euclid(DAY_MS), &d.token, 1, d.amount)?;
    if let Some(user) = d.user {
        let balance = users::balance(c, user)?;
        let balance = lvlx_core::ledger::balance_without(balance, product, &d.token, d.amount);
        users::set_balance(c, user, balance)?;
    }
    Ok(())
}

/// The ICO General (docs/product/api.md#statistics), from the rollup (`totalUsers` is only in the
/// filtered totals, which the core computes).
pub fn general(c: Conn, product: &str) -> Result<Totals> {
    let mut per_token: HashMap<String, (u64, Units)> = HashMap::new();
    let stmt_sql = "SELECT token, count, amount FROM ico_daily";

    c.query_each(stmt_sql, args![], |r| {
        let slot = per_token.entry(r.get(0)?).or_default();
        slot.0 += r.get::<i64>(1)? as u64;
        slot.1 = slot
            .1
            .checked_add(r.units(2)?)
            .ok_or_else(|| overflow("token sum"))?;
        Ok(())
    })?;
    let mut totals = Totals::default();
    for (token, (count, amount)) in per_token {
        totals
            .add(product, &token, count, amount)
            .map_err(|e| StoreError::Corrupt(e.to_string()))?;
    }
    Ok(totals)
}

/// Oldest and newest operation times.
pub fn range(c: Conn) -> Result<(Option<i64>, Option<i64>)> {
    c.query_one(// Two subqueries: SQLite answers a lone MIN or MAX from the index end, not both at once.
        "SELECT (SELECT MIN(created_at) FROM ico_transactions), (SELECT MAX(created_at) FROM ico_transactions)", args![],
        |r| Ok((r.get(0)?, r.get(1)?)))
}

/// The newest `limit` transactions (newest first, docs/product/api.md#calls), amounts in base
/// units. A row names its owner by the account's email, or by the wallet while unlinked.
pub fn newest(c: Conn, limit: u32) -> Result<Vec<Newest>> {
    let stmt_sql = "SELECT COALESCE(u.email, t.wallet, ''), t.created_at, t.token, t.amount FROM ico_transactions t
         LEFT JOIN users u ON u.id = t.user_id ORDER BY t.created_at DESC, t.id DESC LIMIT ?1";
    let rows = c.query_all(stmt_sql, args![limit], |r| {
        Ok(Newest {
            email: r.get(0)?,
            created_at: r.get(1)?,
            purchased_token: r.get(2)?,
            amount: r.get(3)?,
        })
    })?;
    Ok(rows)
}

/// The `limit` oldest entries with their ids, in the admin table's order (date, then id): its
/// first page, shown while the whole ledger streams.
pub fn oldest(c: Conn, limit: u32) -> Result<Vec<(u32, ico::Transaction)>> {
    let stmt_sql = "SELECT t.id, COALESCE(u.email, t.wallet, ''), t.created_at, t.token, t.amount
         FROM ico_transactions t LEFT JOIN users u ON u.id = t.user_id
         ORDER BY t.created_at, t.id LIMIT ?1";

    let mut out = Vec::new();
    c.query_each(stmt_sql, args![limit], |r| {
        let id: i64 = r.get(0)?;
        let id = u32::try_from(id).map_err(|_| StoreError::Corrupt(format!("ledger id {id}")))?;
        out.push((
            id,
            ico::Transaction {
                email: r.get(1)?,
                created_at: r.get(2)?,
                token: r.get(3)?,
                amount: r.units(4)?,
            },
        ));
        Ok(())
    })?;
    Ok(out)
}

/// Where an entry came from: the wallet that bought and the transaction that carried it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Trail {
    pub id: i64,
    pub wallet: Option<String>,
    pub tx_hash: String,
    /// In a block not final yet.
    pub pending: bool,
}

/// The trails of the entries `ids` (those that exist), in id order.
pub fn trails(c: Conn, ids: &[u32]) -> Result<Vec<Trail>> {
    let stmt_sql = match c.dialect() {
        Dialect::Sqlite => {
            "SELECT id, wallet, tx_hash, CASE WHEN block > (SELECT COALESCE(MAX(final_block), 0) FROM chain_cursor) THEN 1 ELSE 0 END
             FROM ico_transactions WHERE id IN (SELECT value FROM json_each(?1)) ORDER BY id"
        }
        Dialect::Postgres => {
            "SELECT id, wallet, tx_hash, CASE WHEN block > (SELECT COALESCE(MAX(final_block), 0) FROM chain_cursor) THEN 1 ELSE 0 END
             FROM ico_transactions WHERE id IN (SELECT value::bigint FROM json_array_elements_text(?1::json)) ORDER BY id"
        }
    };
    let ids = serde_json::to_string(ids).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    let rows = c.query_all(stmt_sql, args![ids], |r| {
        Ok(Trail {
            id: r.get(0)?,
            wallet: r.get(1)?,
            tx_hash: r.get(2)?,
            pending: r.get::<i64>(3)? == 1,
        })
    })?;
    Ok(rows)
}

/// How many chain entries sit above `final_block` (pending).
pub fn pending(c: Conn, final_block: u64) -> Result<i64> {
    c.query_one(
        "SELECT COUNT(*) FROM ico_transactions WHERE block > ?1",
        args![final_block.min(i64::MAX as u64) as i64],
        |r| r.get(0),
    )
}

/// The newest `limit` entries of `user` (myActives).
pub fn held_by(c: Conn, user: UserId, limit: i64) -> Result<Vec<Held>> {
    let stmt_sql = "SELECT created_at, token, amount, usdt_paid, tx_hash,
           CASE WHEN block > (SELECT COALESCE(MAX(final_block), 0) FROM chain_cursor) THEN 1 ELSE 0 END
         FROM ico_transactions WHERE user_id = ?1 ORDER BY created_at DESC, id DESC LIMIT ?2";
    let rows = c.query_all(stmt_sql, args![user.0, limit], |r| {
        Ok(Held {
            created_at: r.get(0)?,
            token: r.get(1)?,
            amount: r.get(2)?,
            usdt_paid: r.get(3)?,
            tx_hash: r.get(4)?,
            pending: r.get::<i64>(5)? == 1,
        })
    })?;
    Ok(rows)
}

/// Every transaction, oldest first, as the Arrow stream the admin table loads. Emails are
/// keyed by account (one lookup table, no join per row); unlinked wallets key themselves.
pub fn stream(c: Conn) -> Result<Vec<u8>> {
    let corrupt = |e: lvlx_core::admin::TableError| StoreError::Corrupt(e.to_string());
    let mut out = ico::Ledger::default();
    let mut key_of: HashMap<i64, u32> = HashMap::new();
    for (id, email) in users::emails(c)? {
        key_of.insert(id, out.emails.len() as u32);
        out.emails.push(email);
    }
    let mut wallet_key: HashMap<String, u32> = HashMap::new();
    let stmt_sql = "SELECT created_at, user_id, wallet, token, amount, id FROM ico_transactions ORDER BY created_at, id";

    c.query_each(stmt_sql, args![], |r| {
        let key = match r
            .get::<Option<i64>>(1)?
            .and_then(|id| key_of.get(&id).copied())
        {
            Some(key) => key,
            None => {
                let wallet: String = r.get::<Option<String>>(2)?.unwrap_or_default();
                let next = out.emails.len() as u32;
                let key = *wallet_key.entry(wallet.clone()).or_insert(next);
                if key == next {
                    out.emails.push(wallet);
                }
                key
            }
        };
        let token = r.text(3)?;
        let token = out.token_key(token).map_err(corrupt)?;
        let id: i64 = r.get(5)?;
        out.id
            .push(u32::try_from(id).map_err(|_| StoreError::Corrupt(format!("ledger id {id}")))?);
        out.created_at.push(r.get(0)?);
        out.email.push(key);
        out.token.push(token);
        out.amount.push(r.units(4)?);
        Ok(())
    })?;
    ico::encode_ledger(out).map_err(corrupt)
}

/// How many entries the ledger holds (the seed fills only an empty one).
pub fn count(c: Conn) -> Result<i64> {
    c.query_one("SELECT COUNT(*) FROM ico_transactions", args![], |r| {
        r.get(0)
    })
}

/// The tables the ICO statistics read (the ledger, its daily sums, the buyers' emails): a
/// change to any remakes the kept answers.
pub const ANSWER_TABLES: &[&str] = &["ico_transactions", "ico_daily", "users"];

/// Every linked entry as (member, token, amount), each member's in ledger order: what the
/// books fold into balances again.
pub fn member_entries(c: Conn) -> Result<Vec<(i64, String, Units)>> {
    c.query_all(
        "SELECT user_id, token, amount FROM ico_transactions WHERE user_id IS NOT NULL
         ORDER BY user_id, created_at, id",
        args![],
        |r| Ok((r.get(0)?, r.get(1)?, r.units(2)?)),
    )
}
