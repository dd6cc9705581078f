//! Purchases as settlement reads them, and the rows that record a settlement: each purchase
//! once (`settled_purchases`) and its commissions (`commissions`). The rules that decide them
//! are the domain's (`network::settlement`) and the core's.

use super::{overflow, units, Conn, Result};
use crate::args;
use crate::user::UserId;
use lvlx_core::amount::Units;

/// A linked member's purchase, as settlement reads it.
pub struct Purchase {
    pub buyer: UserId,
    pub lvlx: Units,
    pub usdt: Units,
    /// (block, log index); None for a seeded entry.
    pub at_chain: Option<(i64, i64)>,
    pub created_at: i64,
}

/// Ledger entry `id` when it is a linked member's purchase of `product`.
pub fn purchase(c: Conn, id: i64, product: &str) -> Result<Option<Purchase>> {
    let row = c.query_opt("SELECT user_id, token, amount, usdt_paid, block, log_index, created_at FROM ico_transactions WHERE id = ?1", args![id], |r| {
                Ok((
                    r.get::<Option<i64>>(0)?,
                    r.get::<String>(1)?,
                    r.get::<String>(2)?,
                    r.get::<Option<String>>(3)?,
                    r.get::<Option<i64>>(4)?,
                    r.get::<i64>(5)?,
                    r.get::<i64>(6)?,
                ))
            })?;
    let Some((Some(buyer), token, amount, usdt, block, log, created_at)) = row else {
        return Ok(None);
    };
    if token != product {
        return Ok(None);
    }
    let lvlx = units(&amount)?;
    // Seeded entries carry no USDT paid: their value at the sale's default price.
    let usdt = match usdt {
        Some(text) => units(&text)?,
        None => lvlx_core::chain::usdt_for(lvlx, lvlx_core::chain::DEFAULT_PRICE)
            .ok_or_else(|| overflow("USDT value"))?,
    };
    Ok(Some(Purchase {
        buyer: UserId(buyer),
        lvlx,
        usdt,
        at_chain: block.map(|b| (b, log)),
        created_at,
    }))
}

/// Records purchase `id` as settled; false when it was settled before (nothing is written).
pub fn mark_settled(c: Conn, id: i64, buyer: UserId, usdt: Units, now: i64) -> Result<bool> {
    Ok(c.execute(
        "INSERT OR IGNORE INTO settled_purchases (purchase_id, buyer_id, usdt, at) VALUES (?1, ?2, ?3, ?4)",
        args![id, buyer.0, usdt.to_string(), now],
    )? == 1)
}

/// One commission of a purchase, once per (purchase, level); true when new.
pub fn add_commission(
    c: Conn,
    purchase: i64,
    level: u32,
    member: UserId,
    buyer: UserId,
    amount: Units,
    at: i64,
) -> Result<bool> {
    Ok(c.execute(
        "INSERT OR IGNORE INTO commissions (purchase_id, level, user_id, buyer_id, amount, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        args![purchase, level, member.0, buyer.0, amount.to_string(), at],
    )? == 1)
}

/// The linked member's LVLX purchases not settled yet (those made before their wallet was
/// linked), oldest first.
pub fn unsettled_of(c: Conn, user: UserId, product: &str) -> Result<Vec<i64>> {
    let stmt_sql = "SELECT t.id FROM ico_transactions t WHERE t.user_id = ?1 AND t.token = ?2
         AND NOT EXISTS (SELECT 1 FROM settled_purchases s WHERE s.purchase_id = t.id)
         ORDER BY t.block, t.log_index, t.id";
    let ids = c.query_all(stmt_sql, args![user.0, product], |r| r.get(0))?;
    Ok(ids)
}
