//! A member's credits and payments as the store holds them, for the money history
//! (`lvlx_core::history`): ledger purchases, NFT purchases, commissions, rank bonuses, staking
//! interest withdrawn and releases, claims paid; and the sale's prices. Each source is read by
//! the member's own index, newest first, at most `limit` rows.

use lvlx_core::amount::Units;
use lvlx_core::history::{Entry, Kind, Price, NFT_ASSET};

use super::stakes::PRICE_EVENT;
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

/// Every credit and payment of `user`, up to `limit` of each kind (`product`: the ledger's
/// token for a purchase; `nft_staking`: the NFT pool's lowercase address).
pub fn of_member(
    c: Conn,
    user: UserId,
    product: &str,
    nft_staking: &str,
    limit: i64,
) -> Result<Vec<Entry>> {
    let mut out = Vec::new();
    let ledger = format!(
        "SELECT created_at, token, amount, usdt_paid, tx_hash, {}
         FROM ico_transactions WHERE user_id = ?1 ORDER BY created_at DESC, id DESC LIMIT ?2",
        pending_sql("block")
    );
    c.query_each(&ledger, args![user.0, limit], |r| {
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
    })?;
    let nfts = format!(
        "SELECT created_at, quantity, usdt_paid, tx_hash, {}
         FROM nft_purchases WHERE user_id = ?1 ORDER BY created_at DESC LIMIT ?2",
        pending_sql("block")
    );
    c.query_each(&nfts, args![user.0, limit], |r| {
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
    })?;
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
    })?;
    // Interest withdrawn, and at a release the principal back (LVLX, or NFTs) with the
    // interest paid then.
    let staking = format!(
        "SELECT e.event, e.at, e.amount, e.tx_hash, s.pool, s.amount, {}
         FROM stake_positions s
         JOIN chain_events e ON e.position = s.position
              AND s.pool = CASE WHEN e.contract = ?3 THEN 'nft' ELSE 'lvlx' END
         WHERE s.user_id = ?1 AND e.event IN ('interest', 'released')
         ORDER BY e.at DESC LIMIT ?2",
        pending_sql("e.block")
    );
    c.query_each(&staking, args![user.0, limit, nft_staking], |r| {
        let (event, at, tx_hash): (String, i64, String) = (r.get(0)?, r.get(1)?, r.get(3)?);
        let interest: Units = r
            .get::<Option<String>>(2)?
            .as_deref()
            .map(super::units)
            .transpose()?
            .unwrap_or(0);
        let pending = r.get::<i64>(6)? == 1;
        let entry = |kind, asset: &str, amount| Entry {
            kind,
            at,
            asset: asset.to_string(),
            amount,
            usdt_paid: None,
            tx_hash: Some(tx_hash.clone()),
            pending,
        };
        if event == "released" {
            let pool: String = r.get(4)?;
            let asset = if pool == "nft" { NFT_ASSET } else { product };
            out.push(entry(Kind::Release, asset, r.units(5)?));
        }
        if interest > 0 {
            out.push(entry(Kind::Interest, product, interest));
        }
        Ok(())
    })?;
    // A payment covering several claims carries its transaction on the last of them.
    let claims = format!(
        "SELECT c.paid_at, c.amount, c.tx_hash, {}
         FROM claims c LEFT JOIN claim_payments p ON p.tx_hash = c.tx_hash AND p.log_index = c.log_index
         WHERE c.user_id = ?1 AND c.status = 'paid' ORDER BY c.paid_at DESC LIMIT ?2",
        pending_sql("p.block")
    );
    c.query_each(&claims, args![user.0, limit], |r| {
        let mut entry = credited(Kind::Claim, product, r.get(0)?, r.units(1)?, r.get(2)?);
        entry.pending = r.get::<i64>(3)? == 1;
        out.push(entry);
        Ok(())
    })?;
    Ok(out)
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
        "SELECT at, amount FROM chain_events WHERE event = '{PRICE_EVENT}' AND contract = ?1 ORDER BY at, block, log_index"
    );
    c.query_all(&sql, args![ico_sale], |r| {
        Ok(Price {
            at: r.get(0)?,
            price: r.units(1)?,
        })
    })
}
