//! A member's credits and payments as the store holds them, for the money history
//! (`lvlx_core::history`): ledger purchases, NFT purchases, commissions, rank bonuses, staking
//! interest withdrawn and releases, claims paid; and the sale's prices. Each source is read by
//! the member's own index, newest first, at most `limit` rows.

use lvlx_core::amount::Units;
use lvlx_core::chain::AppliedEvent;
use lvlx_core::history::{self, Entry, Kind, Price, NFT_ASSET};
use lvlx_core::staking::Pool;

use super::{Conn, Result};
use crate::args;
use crate::user::UserId;

/// Whether a block is above the final one: `block` as the column, named in SQL.
fn pending_sql(block: &str) -> String {
    format!(
        "CASE WHEN COALESCE({block}, 0) > (SELECT COALESCE(MAX(final_block), 0) FROM chain_cursor)
         THEN 1 ELSE 0 END"
    )
}

/// The staking pools' lowercase addresses: their events are told apart by them.
pub struct Pools<'a> {
    pub nft: &'a str,
    pub lvlx: &'a str,
}

/// Every credit and payment of `user`, newest first by kind, up to `limit` of each kind
/// (`product`: the ledger's token for a purchase).
pub fn of_member(
    c: Conn,
    user: UserId,
    product: &str,
    pools: &Pools,
    limit: i64,
) -> Result<Vec<Entry>> {
    let mut out = Vec::new();
    ledger(c, user, product, limit, &mut out)?;
    nft_purchases(c, user, limit, &mut out)?;
    node(c, user, &mut out)?;
    credits(c, user, product, limit, &mut out)?;
    staking(c, user, product, pools, limit, &mut out)?;
    claims(c, user, product, limit, &mut out)?;
    Ok(out)
}

/// The ledger's purchases (the product) and withdrawals (any other token).
fn ledger(c: Conn, user: UserId, product: &str, limit: i64, out: &mut Vec<Entry>) -> Result<()> {
    let sql = format!(
        "SELECT created_at, token, amount, usdt_paid, tx_hash, {}
         FROM ico_transactions WHERE user_id = ?1 ORDER BY created_at DESC, id DESC LIMIT ?2",
        pending_sql("block")
    );
    c.query_each(&sql, args![user.0, limit], |r| {
        let token: String = r.get(1)?;
        let usdt_paid: Option<String> = r.get(3)?;
        out.push(Entry {
            kind: if token == product {
                Kind::Purchase
            } else {
                Kind::Retirement
            },
            at: r.get(0)?,
            asset: token,
            amount: r.units(2)?,
            usdt_paid: usdt_paid.as_deref().map(super::units).transpose()?,
            tx_hash: Some(r.get(4)?),
            pending: r.get::<i64>(5)? == 1,
        });
        Ok(())
    })
}

fn nft_purchases(c: Conn, user: UserId, limit: i64, out: &mut Vec<Entry>) -> Result<()> {
    let sql = format!(
        "SELECT created_at, quantity, usdt_paid, tx_hash, {}
         FROM nft_purchases WHERE user_id = ?1 ORDER BY created_at DESC LIMIT ?2",
        pending_sql("block")
    );
    c.query_each(&sql, args![user.0, limit], |r| {
        out.push(Entry {
            kind: Kind::NftPurchase,
            at: r.get(0)?,
            asset: NFT_ASSET.into(),
            amount: r.units(1)?,
            usdt_paid: Some(r.units(2)?),
            tx_hash: Some(r.get(3)?),
            pending: r.get::<i64>(4)? == 1,
        });
        Ok(())
    })
}

/// The activation node the member's wallet bought (one per wallet, ever).
fn node(c: Conn, user: UserId, out: &mut Vec<Entry>) -> Result<()> {
    let sql = format!(
        "SELECT created_at, usdt_paid, tx_hash, {} FROM activation_nodes WHERE user_id = ?1",
        pending_sql("block")
    );
    c.query_each(&sql, args![user.0], |r| {
        let paid = r.units(1)?;
        out.push(Entry {
            kind: Kind::NodePurchase,
            at: r.get(0)?,
            asset: "USDT".into(),
            amount: paid,
            usdt_paid: Some(paid),
            tx_hash: Some(r.get(2)?),
            pending: r.get::<i64>(3)? == 1,
        });
        Ok(())
    })
}

/// Commissions and rank bonuses: what the server credited.
fn credits(c: Conn, user: UserId, product: &str, limit: i64, out: &mut Vec<Entry>) -> Result<()> {
    // Commissions count once their purchase is final (never pending), dated by the purchase's
    // block: what it earned then, whenever the server settled it.
    let commissions = "SELECT i.created_at, m.amount, i.tx_hash
         FROM commissions m JOIN ico_transactions i ON i.id = m.purchase_id
         WHERE m.user_id = ?1 ORDER BY m.created_at DESC LIMIT ?2";
    c.query_each(commissions, args![user.0, limit], |r| {
        out.push(credited(
            Kind::Commission,
            product,
            r.get(0)?,
            r.units(1)?,
            r.get(2)?,
        ));
        Ok(())
    })?;
    let bonuses = "SELECT created_at, amount FROM rank_bonuses
         WHERE user_id = ?1 ORDER BY created_at DESC LIMIT ?2";
    c.query_each(bonuses, args![user.0, limit], |r| {
        out.push(credited(Kind::Bonus, product, r.get(0)?, r.units(1)?, None));
        Ok(())
    })
}

/// A position's events that the history shows ([`history::staking_events`]), each as the core
/// says ([`history::of_staking_event`]: interest withdrawn, a release's principal and interest).
fn staking(
    c: Conn,
    user: UserId,
    product: &str,
    pools: &Pools,
    limit: i64,
    out: &mut Vec<Entry>,
) -> Result<()> {
    let shown: Vec<String> = history::staking_events()
        .iter()
        .map(|e| format!("'{}'", e.name()))
        .collect();
    let sql = format!(
        "SELECT e.event, e.at, e.amount, e.tx_hash, s.pool, s.amount, {}
         FROM stake_positions s
         JOIN chain_events e ON e.position = s.position
              AND s.pool = CASE e.contract WHEN ?3 THEN 'nft' WHEN ?4 THEN 'lvlx' END
         WHERE s.user_id = ?1 AND e.event IN ({})
         ORDER BY e.at DESC LIMIT ?2",
        pending_sql("e.block"),
        shown.join(", "),
    );
    c.query_each(&sql, args![user.0, limit, pools.nft, pools.lvlx], |r| {
        let (event, pool): (String, String) = (r.get(0)?, r.get(4)?);
        let corrupt = |what: &str| super::StoreError::Corrupt(format!("{what} in chain_events"));
        let event = AppliedEvent::parse(&event).ok_or_else(|| corrupt(&event))?;
        let pool = Pool::parse(&pool).ok_or_else(|| corrupt(&pool))?;
        let amount = r.get::<Option<String>>(2)?;
        let amount = amount.as_deref().map(super::units).transpose()?;
        let (at, tx_hash): (i64, String) = (r.get(1)?, r.get(3)?);
        let pending = r.get::<i64>(6)? == 1;
        let entries =
            history::of_staking_event(event, amount.unwrap_or(0), r.units(5)?, pool, product);
        for (kind, asset, amount) in entries {
            out.push(Entry {
                kind,
                at,
                asset,
                amount,
                usdt_paid: None,
                tx_hash: Some(tx_hash.clone()),
                pending,
            });
        }
        Ok(())
    })
}

/// Claims paid, each with the payment that paid it: the distributor's first payment to the
/// claim's wallet whose cumulative reaches the claim's (one payment can cover several claims;
/// cumulatives are whole numbers without leading zeros, compared by length, then as text).
fn claims(c: Conn, user: UserId, product: &str, limit: i64, out: &mut Vec<Entry>) -> Result<()> {
    let sql = format!(
        "SELECT c.paid_at, c.amount, p.tx_hash, {}
         FROM claims c LEFT JOIN claim_payments p ON (p.tx_hash, p.log_index) = (
             SELECT q.tx_hash, q.log_index FROM claim_payments q
             WHERE lower(q.wallet) = lower(c.wallet)
               AND (length(q.cumulative) > length(c.cumulative)
                    OR (length(q.cumulative) = length(c.cumulative) AND q.cumulative >= c.cumulative))
             ORDER BY length(q.cumulative), q.cumulative LIMIT 1)
         WHERE c.user_id = ?1 AND c.status = 'paid' ORDER BY c.paid_at DESC LIMIT ?2",
        pending_sql("p.block")
    );
    c.query_each(&sql, args![user.0, limit], |r| {
        let mut entry = credited(Kind::Claim, product, r.get(0)?, r.units(1)?, r.get(2)?);
        entry.pending = r.get::<i64>(3)? == 1;
        out.push(entry);
        Ok(())
    })
}

fn credited(kind: Kind, product: &str, at: i64, amount: Units, tx_hash: Option<String>) -> Entry {
    Entry {
        kind,
        at,
        asset: product.to_string(),
        amount,
        usdt_paid: None,
        tx_hash,
        pending: false,
    }
}

/// Every price of the sale the indexer recorded (`ico_sale`: its lowercase address), oldest
/// first: in chain order, as blocks of one second share their time.
pub fn prices(c: Conn, ico_sale: &str) -> Result<Vec<Price>> {
    // The event's name in the text, so the partial index on it is used.
    let sql = format!(
        "SELECT at, amount FROM chain_events WHERE event = '{}' AND contract = ?1 ORDER BY at, block, log_index",
        AppliedEvent::Price.name()
    );
    c.query_all(&sql, args![ico_sale], |r| {
        Ok(Price {
            at: r.get(0)?,
            price: r.units(1)?,
        })
    })
}
