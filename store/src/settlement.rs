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

/// The linked member's final LVLX purchases not settled yet (those made before their wallet
/// was linked; seeded ones carry no block and count as final), oldest first.
pub fn unsettled_of(c: Conn, user: UserId, product: &str, final_block: u64) -> Result<Vec<i64>> {
    let stmt_sql = "SELECT t.id FROM ico_transactions t WHERE t.user_id = ?1 AND t.token = ?2
         AND (t.block IS NULL OR t.block <= ?3)
         AND NOT EXISTS (SELECT 1 FROM settled_purchases s WHERE s.purchase_id = t.id)
         ORDER BY t.block, t.log_index, t.id";
    let ids = c.query_all(stmt_sql, args![user.0, product, final_block as i64], |r| {
        r.get(0)
    })?;
    Ok(ids)
}

/// Linked members' LVLX purchases in blocks `after < block <= upto` not settled yet: those that
/// just became final, oldest first.
pub fn unsettled_between(
    c: Conn,
    product: &str,
    after: u64,
    upto: u64,
) -> Result<Vec<(i64, UserId, String)>> {
    let stmt_sql = "SELECT t.id, t.user_id, t.tx_hash FROM ico_transactions t WHERE t.block > ?1 AND t.block <= ?2
         AND t.token = ?3 AND t.user_id IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM settled_purchases s WHERE s.purchase_id = t.id)
         ORDER BY t.block, t.log_index";
    c.query_all(stmt_sql, args![after as i64, upto as i64, product], |r| {
        Ok((r.get(0)?, UserId(r.get(1)?), r.get(2)?))
    })
}

/// What a purchase's settlement had recorded.
pub struct Unsettled {
    pub buyer: UserId,
    /// The USDT that counted for the buyer and their upline.
    pub usdt: Units,
    /// (member, amount) of each commission.
    pub commissions: Vec<(UserId, Units)>,
}

/// What settling purchase `id` recorded, taken back; None when it was not settled.
pub fn unsettle(c: Conn, id: i64) -> Result<Option<Unsettled>> {
    let Some((buyer, usdt)) = c.query_opt(
        "SELECT buyer_id, usdt FROM settled_purchases WHERE purchase_id = ?1",
        args![id],
        |r| Ok((r.get::<i64>(0)?, r.get::<String>(1)?)),
    )?
    else {
        return Ok(None);
    };
    let paid = c.query_all(
        "SELECT user_id, amount FROM commissions WHERE purchase_id = ?1 ORDER BY level",
        args![id],
        |r| Ok((r.get::<i64>(0)?, r.get::<String>(1)?)),
    )?;
    c.execute("DELETE FROM commissions WHERE purchase_id = ?1", args![id])?;
    c.execute(
        "DELETE FROM settled_purchases WHERE purchase_id = ?1",
        args![id],
    )?;
    let paid = paid
        .into_iter()
        .map(|(user, amount)| Ok((UserId(user), units(&amount)?)))
        .collect::<Result<Vec<_>>>()?;
    Ok(Some(Unsettled {
        buyer: UserId(buyer),
        usdt: units(&usdt)?,
        commissions: paid,
    }))
}

/// Every settled purchase as (buyer, USDT).
pub fn settled_all(c: Conn) -> Result<Vec<(i64, Units)>> {
    c.query_all(
        "SELECT buyer_id, usdt FROM settled_purchases",
        args![],
        |r| Ok((r.get(0)?, r.units(1)?)),
    )
}

/// Every commission as (member paid, amount).
pub fn commissions_all(c: Conn) -> Result<Vec<(i64, Units)>> {
    c.query_all("SELECT user_id, amount FROM commissions", args![], |r| {
        Ok((r.get(0)?, r.units(1)?))
    })
}
