//! The ICO ledger (SPEC §3 "ICO transaction"): purchases and retirements, each stored once
//! (unique tx hash + log index), with the per-user LVLX balance and the daily rollup kept in the
//! same transaction, so statistics read a few thousand rollup rows, never 10^6 ledger rows.

use std::collections::HashMap;

use lvlx_core::admin::ico::{self, Totals};
use lvlx_core::amount::{self, Units};
use rusqlite::{params, Connection, OptionalExtension};
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::user::UserId;

const DAY_MS: i64 = 86_400_000;
/// USDT base units → LVLX base units of the same value (1 LVLX = 0.1 USDT; 12 more decimals).
const USDT_TO_LVLX: Units = 10 * 1_000_000_000_000;

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

fn units(text: &str) -> Result<Units, ApiError> {
    amount::parse_base(text).map_err(|e| ApiError::Internal(format!("stored amount {text:?}: {e}")))
}

/// Records an entry once; a repeat of the same (tx hash, log index) changes nothing. Returns
/// whether it was new. Run inside the caller's transaction.
pub fn record(c: &Connection, product: &str, entry: &Entry) -> Result<bool, ApiError> {
    let inserted = c.execute(
        "INSERT OR IGNORE INTO ico_transactions (user_id, wallet, created_at, token, amount, tx_hash, log_index)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            entry.user.map(|u| u.0),
            entry.wallet,
            entry.created_at,
            entry.token,
            entry.amount.to_string(),
            entry.tx_hash,
            entry.log_index
        ],
    )?;
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
        let balance: String = c.query_row(
            "SELECT lvlx_balance FROM users WHERE id = ?1",
            [user.0],
            |r| r.get(0),
        )?;
        let balance = apply(units(&balance)?, product, &entry.token, entry.amount)?;
        c.execute(
            "UPDATE users SET lvlx_balance = ?1 WHERE id = ?2",
            params![balance.to_string(), user.0],
        )?;
    }
    Ok(true)
}

/// Gives `user` the entries kept for `wallet` while no account had linked it, in ledger order,
/// moving the user's balance as [`record`] would have. Returns how many were attached. Run
/// inside the caller's transaction.
pub fn attach_wallet(
    c: &Connection,
    product: &str,
    user: UserId,
    wallet: &str,
) -> Result<usize, ApiError> {
    let mut stmt = c.prepare(
        "SELECT id, token, amount FROM ico_transactions
         WHERE user_id IS NULL AND wallet = ?1 COLLATE NOCASE ORDER BY created_at, id",
    )?;
    let entries = stmt
        .query_map([wallet], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    if entries.is_empty() {
        return Ok(0);
    }
    let balance: String = c.query_row(
        "SELECT lvlx_balance FROM users WHERE id = ?1",
        [user.0],
        |r| r.get(0),
    )?;
    let mut balance = units(&balance)?;
    for (id, token, amount) in &entries {
        balance = apply(balance, product, token, units(amount)?)?;
        c.execute(
            "UPDATE ico_transactions SET user_id = ?1 WHERE id = ?2",
            params![user.0, id],
        )?;
    }
    c.execute(
        "UPDATE users SET lvlx_balance = ?1 WHERE id = ?2",
        params![balance.to_string(), user.0],
    )?;
    Ok(entries.len())
}

/// A user's LVLX after an entry: purchases add, retirements take their LVLX value (never below 0).
pub fn apply(balance: Units, product: &str, token: &str, amount: Units) -> Result<Units, ApiError> {
    let overflow = || ApiError::Internal("LVLX balance overflow".into());
    if token == product {
        return balance.checked_add(amount).ok_or_else(overflow);
    }
    let lvlx = if ico::token_decimals(token) == lvlx_core::USDT_DECIMALS {
        amount.checked_mul(USDT_TO_LVLX).ok_or_else(overflow)?
    } else {
        amount
    };
    Ok(balance.saturating_sub(lvlx))
}

/// Adds to a day's rollup.
pub fn add_to_day(
    c: &Connection,
    day: i64,
    token: &str,
    count: u64,
    amount: Units,
) -> Result<(), ApiError> {
    let current: Option<(i64, String)> = c
        .query_row(
            "SELECT count, amount FROM ico_daily WHERE day = ?1 AND token = ?2",
            params![day, token],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let (count_before, sum_before) = match current {
        Some((n, sum)) => (n as u64, units(&sum)?),
        None => (0, 0),
    };
    let sum = sum_before
        .checked_add(amount)
        .ok_or_else(|| ApiError::Internal("daily sum overflow".into()))?;
    c.execute(
        "INSERT INTO ico_daily (day, token, count, amount) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (day, token) DO UPDATE SET count = excluded.count, amount = excluded.amount",
        params![day, token, (count_before + count) as i64, sum.to_string()],
    )?;
    Ok(())
}

/// SPEC §3 General, from the rollup (`totalUsers` is only in the filtered totals, which the
/// core computes).
pub fn general(c: &Connection, product: &str) -> Result<Totals, ApiError> {
    let mut per_token: Vec<(String, u64, Units)> = Vec::new();
    let mut stmt = c.prepare_cached("SELECT token, count, amount FROM ico_daily")?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let token: String = r.get(0)?;
        let count: i64 = r.get(1)?;
        let amount = units(&r.get::<_, String>(2)?)?;
        match per_token.iter_mut().find(|(t, _, _)| *t == token) {
            Some(slot) => {
                slot.1 += count as u64;
                slot.2 = slot
                    .2
                    .checked_add(amount)
                    .ok_or_else(|| ApiError::Internal("sum overflow".into()))?;
            }
            None => per_token.push((token, count as u64, amount)),
        }
    }
    let mut totals = Totals::default();
    for (token, count, amount) in per_token {
        totals
            .add(product, &token, count, amount)
            .map_err(|e| ApiError::Internal(e.to_string()))?;
    }
    Ok(totals)
}

/// Oldest and newest operation times.
pub fn range(c: &Connection) -> Result<(Option<i64>, Option<i64>), ApiError> {
    Ok(c.query_row(
        // Two subqueries: SQLite answers a lone MIN or MAX from the index end, not both at once.
        "SELECT (SELECT MIN(created_at) FROM ico_transactions), (SELECT MAX(created_at) FROM ico_transactions)",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?)
}

/// How a ledger row names its owner: the account's email, or the wallet while unlinked.
pub const OWNER: &str = "COALESCE(u.email, t.wallet, '')";

/// The newest `limit` transactions (SPEC §7: newest first), amounts in base units.
pub fn newest(c: &Connection, limit: u32) -> Result<Vec<Value>, ApiError> {
    let mut stmt = c.prepare_cached(&format!(
        "SELECT {OWNER}, t.created_at, t.token, t.amount FROM ico_transactions t
         LEFT JOIN users u ON u.id = t.user_id ORDER BY t.created_at DESC, t.id DESC LIMIT ?1"
    ))?;
    let rows = stmt.query_map([limit], |r| {
        Ok(json!({
            "email": r.get::<_, String>(0)?,
            "createdAt": r.get::<_, i64>(1)?,
            "purchasedToken": r.get::<_, String>(2)?,
            "amount": r.get::<_, String>(3)?,
        }))
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Every transaction, oldest first, as the Arrow stream the admin table loads. Emails are
/// keyed by account (one lookup table, no join per row); unlinked wallets key themselves.
pub fn stream(c: &Connection) -> Result<Vec<u8>, ApiError> {
    let internal = |e: lvlx_core::admin::TableError| ApiError::Internal(e.to_string());
    let mut out = ico::Ledger::default();
    let mut key_of: HashMap<i64, u32> = HashMap::new();
    {
        let mut stmt = c.prepare_cached("SELECT id, email FROM users")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            key_of.insert(r.get(0)?, out.emails.len() as u32);
            out.emails.push(r.get(1)?);
        }
    }
    let mut wallet_key: HashMap<String, u32> = HashMap::new();
    let mut stmt = c.prepare_cached(
        "SELECT created_at, user_id, wallet, token, amount FROM ico_transactions ORDER BY created_at, id",
    )?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let key = match r
            .get::<_, Option<i64>>(1)?
            .and_then(|id| key_of.get(&id).copied())
        {
            Some(key) => key,
            None => {
                let wallet: String = r.get::<_, Option<String>>(2)?.unwrap_or_default();
                let next = out.emails.len() as u32;
                let key = *wallet_key.entry(wallet.clone()).or_insert(next);
                if key == next {
                    out.emails.push(wallet);
                }
                key
            }
        };
        let token = out
            .token_key(
                r.get_ref(3)?
                    .as_str()
                    .map_err(|e| ApiError::Internal(e.to_string()))?,
            )
            .map_err(internal)?;
        out.created_at.push(r.get(0)?);
        out.email.push(key);
        out.token.push(token);
        out.amount.push(units(
            r.get_ref(4)?
                .as_str()
                .map_err(|e| ApiError::Internal(e.to_string()))?,
        )?);
    }
    ico::encode_ledger(out).map_err(internal)
}
