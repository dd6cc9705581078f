//! The referral network's records (issue 13): activation nodes, purchases settled into
//! commissions and network volume, ranks (edited by id, audited) and their one-time bonuses,
//! and claims. The rules themselves are the core's (`lvlx_core::network`); this module reads
//! and writes what they decide.

use std::collections::HashMap;

use super::Row;
use crate::args;
use lvlx_core::amount::Units;
use lvlx_core::network::{self, Rank};
use serde::Serialize;

use super::{overflow, units, Conn, Result, StoreError};
use crate::user::UserId;

// ---------- activation nodes ----------

/// A node as the chain sold it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    pub wallet: String,
    pub user: Option<UserId>,
    pub usdt_paid: Units,
    pub block: i64,
    pub log_index: i64,
    pub created_at: i64,
    pub tx_hash: String,
}

/// Records a node once (by wallet and by log); true when new. The account it belongs to (when
/// its wallet is linked) is marked active.
pub fn record_node(c: Conn, n: &Node) -> Result<bool> {
    let added = c.execute(
        "INSERT OR IGNORE INTO activation_nodes (wallet, user_id, usdt_paid, block, log_index, created_at, tx_hash)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", args![&n.wallet, n.user.map(|u| u.0), n.usdt_paid.to_string(), n.block, n.log_index, n.created_at, &n.tx_hash])? == 1;
    if added {
        if let Some(user) = n.user {
            c.execute(
                "UPDATE users SET activation_node = 1 WHERE id = ?1",
                args![user.0],
            )?;
        }
    }
    Ok(added)
}

/// Gives an account the node its newly linked wallet bought before; true when there was one.
pub fn attach_node(c: Conn, user: UserId, wallet: &str) -> Result<bool> {
    let attached = c.execute(
        "UPDATE activation_nodes SET user_id = ?1 WHERE user_id IS NULL AND lower(wallet) = lower(?2)", args![user.0, wallet])? > 0;
    if attached {
        c.execute(
            "UPDATE users SET activation_node = 1 WHERE id = ?1",
            args![user.0],
        )?;
    }
    Ok(attached)
}

/// One row of the admin's nodes table.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeRow {
    pub email: Option<String>,
    pub names: Option<String>,
    pub wallet: String,
    pub created_at: i64,
    #[serde(with = "lvlx_core::amount::text")]
    pub usdt_paid: Units,
    pub tx_hash: String,
}

/// Every node, oldest first.
pub fn nodes(c: Conn) -> Result<Vec<NodeRow>> {
    let stmt_sql = "SELECT u.email, u.names || ' ' || u.lastnames, n.wallet, n.created_at, n.usdt_paid, n.tx_hash
         FROM activation_nodes n LEFT JOIN users u ON u.id = n.user_id ORDER BY n.created_at, n.block, n.log_index";

    let mut out = Vec::new();
    c.query_each(stmt_sql, args![], |r| {
        out.push(NodeRow {
            email: r.get(0)?,
            names: r.get(1)?,
            wallet: r.get(2)?,
            created_at: r.get(3)?,
            usdt_paid: r.units(4)?,
            tx_hash: r.get(5)?,
        });
        Ok(())
    })?;
    Ok(out)
}

// ---------- settling purchases ----------

/// What settling one purchase changed, for live pushes.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Settled {
    /// Members paid a commission, with the amount.
    pub commissions: Vec<(UserId, Units)>,
    /// Members who reached a rank, with its id.
    pub ranks: Vec<(UserId, u32)>,
    /// Every upline member whose volume moved.
    pub upline: Vec<UserId>,
}

struct Purchase {
    buyer: UserId,
    lvlx: Units,
    usdt: Units,
    /// (block, log index); None for a seeded entry.
    at_chain: Option<(i64, i64)>,
    created_at: i64,
}

fn purchase(c: Conn, id: i64, product: &str) -> Result<Option<Purchase>> {
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

/// The linked wallet of `user`'s sponsor, if both exist: the on-chain referrer of their
/// purchases.
pub fn sponsor_wallet(c: Conn, user: UserId) -> Result<Option<String>> {
    Ok(c.query_opt(
        "SELECT s.wallet FROM users u JOIN users s ON s.id = u.referrer_id WHERE u.id = ?1",
        args![user.0],
        |r| r.get::<Option<String>>(0),
    )?
    .flatten())
}

/// The sponsor of each member up the tree from `user` (sponsor first), to the root.
pub fn upline(c: Conn, user: UserId) -> Result<Vec<UserId>> {
    let stmt_sql = "SELECT referrer_id FROM users WHERE id = ?1";
    let mut out = Vec::new();
    let mut at = user;
    while let Some(Some(up)) = c.query_opt(stmt_sql, args![at.0], |r| r.get::<Option<i64>>(0))? {
        // The tree is acyclic by construction (a sponsor registers first); this guard only
        // stops a corrupted database from looping.
        if out.len() > 100_000 || up == user.0 {
            return Err(StoreError::Corrupt(format!("sponsor cycle at user {up}")));
        }
        out.push(UserId(up));
        at = UserId(up);
    }
    Ok(out)
}

/// Whether `user`'s node was active when the purchase at `at_chain` was made: activated by an
/// earlier log of the chain (a seeded purchase, with no chain position, counts any node).
fn node_active_at(c: Conn, user: UserId, at_chain: Option<(i64, i64)>) -> Result<bool> {
    let stmt_sql = "SELECT block, log_index FROM activation_nodes WHERE user_id = ?1 ORDER BY block, log_index LIMIT 1";
    let first: Option<(i64, i64)> =
        c.query_opt(stmt_sql, args![user.0], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(match (first, at_chain) {
        (None, _) => false,
        (Some(_), None) => true,
        (Some(node), Some(purchase)) => node < purchase,
    })
}

fn add_units(c: Conn, column: &'static str, user: UserId, amount: Units) -> Result<Units> {
    let sql_get = format!("SELECT {column} FROM users WHERE id = ?1");
    let now: String = c.query_one(&sql_get, args![user.0], |r| r.get(0))?;
    let next = units(&now)?
        .checked_add(amount)
        .ok_or_else(|| overflow(column))?;
    let sql_set = format!("UPDATE users SET {column} = ?2 WHERE id = ?1");
    c.execute(&sql_set, args![user.0, next.to_string()])?;
    Ok(next)
}

fn achieved(c: Conn, user: UserId) -> Result<Vec<u32>> {
    let stmt_sql = "SELECT rank_id FROM rank_bonuses WHERE user_id = ?1";
    let ids = c.query_all(stmt_sql, args![user.0], |r| r.get::<u32>(0))?;
    Ok(ids)
}

/// Credits the bonus of every rank `volume` reaches that `user` was not credited yet, and
/// names their rank the highest credited.
fn credit_ranks(
    c: Conn,
    user: UserId,
    volume: Units,
    ranks: &[Rank],
    now: i64,
) -> Result<Vec<u32>> {
    let done = achieved(c, user)?;
    let reached = network::newly_reached(volume, ranks, &done);
    if reached.is_empty() {
        return Ok(Vec::new());
    }
    let insert_sql = "INSERT INTO rank_bonuses (user_id, rank_id, name, amount, volume, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
    let mut ids = Vec::new();
    for rank in &reached {
        c.execute(
            insert_sql,
            args![
                user.0,
                rank.id,
                &rank.name,
                rank.bonus.to_string(),
                volume.to_string(),
                now
            ],
        )?;
        add_units(c, "add_rewards", user, rank.bonus)?;
        ids.push(rank.id);
    }
    let all: Vec<u32> = done.iter().chain(&ids).copied().collect();
    if let Some(top) = network::standing(volume, ranks, &all).rank {
        c.execute(
            "UPDATE users SET rank = ?2 WHERE id = ?1",
            args![user.0, top.name],
        )?;
    }
    Ok(ids)
}

/// Settles purchase `id` once: its commissions to the configured levels of the buyer's upline
/// (members whose node was active at the purchase; a level without one lapses), its USDT into
/// every upline member's network volume, and the bonus of any rank that volume reaches. Entries
/// that are not a linked member's LVLX purchase, or were settled already, change nothing.
pub fn settle_purchase(
    c: Conn,
    id: i64,
    product: &str,
    levels_bps: &[u32],
    ranks: &[Rank],
    now: i64,
) -> Result<Settled> {
    let settled_before: bool = c
        .query_opt(
            "SELECT 1 FROM settled_purchases WHERE purchase_id = ?1",
            args![id],
            |_| Ok(()),
        )?
        .is_some();
    if settled_before {
        return Ok(Settled::default());
    }
    let Some(p) = purchase(c, id, product)? else {
        return Ok(Settled::default());
    };
    c.execute(
        "INSERT INTO settled_purchases (purchase_id, buyer_id, usdt, at) VALUES (?1, ?2, ?3, ?4)",
        args![id, p.buyer.0, p.usdt.to_string(), now],
    )?;
    add_units(c, "own_usdt", p.buyer, p.usdt)?;
    let upline = upline(c, p.buyer)?;
    let reach = upline.len().min(levels_bps.len());
    let active = upline[..reach]
        .iter()
        .map(|&m| node_active_at(c, m, p.at_chain))
        .collect::<Result<Vec<bool>>>()?;
    let mut out = Settled {
        upline: upline.clone(),
        ..Settled::default()
    };
    let insert_sql = "INSERT OR IGNORE INTO commissions (purchase_id, level, user_id, buyer_id, amount, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
    for commission in network::commissions(p.lvlx, levels_bps, &active) {
        let member = upline[commission.upline];
        if c.execute(
            insert_sql,
            args![
                id,
                commission.level,
                member.0,
                p.buyer.0,
                commission.amount.to_string(),
                p.created_at
            ],
        )? == 1
        {
            add_units(c, "add_rewards", member, commission.amount)?;
            out.commissions.push((member, commission.amount));
        }
    }
    for &member in &upline {
        let volume = add_units(c, "network_usdt", member, p.usdt)?;
        for rank in credit_ranks(c, member, volume, ranks, now)? {
            out.ranks.push((member, rank));
        }
    }
    Ok(out)
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

// ---------- ranks ----------

pub fn ranks(c: Conn) -> Result<Vec<Rank>> {
    let stmt_sql = "SELECT id, name, threshold, bonus FROM ranks ORDER BY id";

    let mut out = Vec::new();
    c.query_each(stmt_sql, args![], |r| {
        out.push(Rank {
            id: r.get(0)?,
            name: r.get(1)?,
            threshold: r.units(2)?,
            bonus: r.units(3)?,
        });
        Ok(())
    })?;
    Ok(out)
}

/// Writes rank `rank.id` (new or changed) and its audit row. The caller validated the whole
/// table with the core. Members' stored rank names follow a renamed rank.
pub fn put_rank(c: Conn, rank: &Rank, admin: UserId, now: i64) -> Result<()> {
    let before = ranks(c)?.into_iter().find(|r| r.id == rank.id);
    c.execute(
        "INSERT INTO ranks (id, name, threshold, bonus, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (id) DO UPDATE SET name = ?2, threshold = ?3, bonus = ?4, updated_at = ?5",
        args![
            rank.id,
            &rank.name,
            rank.threshold.to_string(),
            rank.bonus.to_string(),
            now
        ],
    )?;
    if let Some(old) = &before {
        if old.name != rank.name {
            c.execute(
                "UPDATE users SET rank = ?2 WHERE rank = ?1 AND id IN (SELECT user_id FROM rank_bonuses WHERE rank_id = ?3)", args![&old.name, &rank.name, rank.id])?;
        }
    }
    let json = |r: &Rank| serde_json::to_value(r).unwrap_or_default();
    audit(
        c,
        "rank",
        Some(i64::from(rank.id)),
        admin,
        now,
        before.as_ref().map(json),
        &json(rank),
    )
}

/// Appends one admin change to the audit (append-only: the table refuses updates and deletes).
pub fn audit(
    c: Conn,
    subject: &str,
    item: Option<i64>,
    admin: UserId,
    now: i64,
    before: Option<serde_json::Value>,
    after: &serde_json::Value,
) -> Result<()> {
    c.execute(
        "INSERT INTO admin_audit (subject, item, admin_id, at, before, after) VALUES (?1, ?2, ?3, ?4, ?5, ?6)", args![subject, item, admin.0, now, before.map(|b| b.to_string()), after.to_string()])?;
    Ok(())
}

/// One audit row: what changed (the rank's id for a rank), the admin's email, when, and the
/// value before and after.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Change {
    pub item: Option<i64>,
    pub admin: String,
    pub at: i64,
    pub before: Option<serde_json::Value>,
    pub after: serde_json::Value,
}

/// The newest `limit` changes of `subject`.
pub fn changes(c: Conn, subject: &str, limit: i64) -> Result<Vec<Change>> {
    let stmt_sql = "SELECT a.item, u.email, a.at, a.before, a.after FROM admin_audit a JOIN users u ON u.id = a.admin_id
         WHERE a.subject = ?1 ORDER BY a.id DESC LIMIT ?2";
    let parse = |t: String| serde_json::from_str(&t).unwrap_or(serde_json::Value::Null);
    let rows = c.query_all(stmt_sql, args![subject, limit], |r| {
        Ok(Change {
            item: r.get(0)?,
            admin: r.get(1)?,
            at: r.get(2)?,
            before: r.get::<Option<String>>(3)?.map(parse),
            after: parse(r.get(4)?),
        })
    })?;
    Ok(rows)
}

// ---------- a member's network ----------

/// A rank bonus a member received.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Bonus {
    pub rank_id: u32,
    pub name: String,
    #[serde(with = "lvlx_core::amount::text")]
    pub amount: Units,
    pub created_at: i64,
}

pub fn bonuses(c: Conn, user: UserId) -> Result<Vec<Bonus>> {
    let stmt_sql = "SELECT rank_id, name, amount, created_at FROM rank_bonuses WHERE user_id = ?1 ORDER BY created_at, rank_id";

    let mut out = Vec::new();
    c.query_each(stmt_sql, args![user.0], |r| {
        out.push(Bonus {
            rank_id: r.get(0)?,
            name: r.get(1)?,
            amount: r.units(2)?,
            created_at: r.get(3)?,
        });
        Ok(())
    })?;
    Ok(out)
}

/// A member of someone's downline, as /afiliates lists them.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Downline {
    #[serde(skip)]
    pub id: i64,
    pub level: u32,
    pub names: String,
    pub joined_at: i64,
    /// USDT their own purchases paid.
    #[serde(with = "lvlx_core::amount::text")]
    pub volume: Units,
    /// LVLX their purchases paid the member.
    #[serde(with = "lvlx_core::amount::text")]
    pub commission: Units,
}

/// `user`'s downline to `levels` levels, by level then join date, with each member's own
/// volume and the commission their purchases paid `user`.
pub fn downline(c: Conn, user: UserId, levels: u32) -> Result<Vec<Downline>> {
    let mut earned: HashMap<i64, Units> = HashMap::new();
    {
        let stmt_sql = "SELECT buyer_id, amount FROM commissions WHERE user_id = ?1";

        c.query_each(stmt_sql, args![user.0], |r| {
            let sum = earned.entry(r.get(0)?).or_default();
            *sum = sum
                .checked_add(r.units(1)?)
                .ok_or_else(|| overflow("commission"))?;
            Ok(())
        })?;
    }
    let stmt_sql = "WITH RECURSIVE down(id, level) AS (
             SELECT id, 1 FROM users WHERE referrer_id = ?1
             UNION ALL
             SELECT u.id, d.level + 1 FROM users u JOIN down d ON u.referrer_id = d.id WHERE d.level < ?2)
         SELECT u.id, d.level, u.names || ' ' || u.lastnames, u.created_at, u.own_usdt
         FROM down d JOIN users u ON u.id = d.id ORDER BY d.level, u.created_at, u.id";

    let mut out = Vec::new();
    c.query_each(stmt_sql, args![user.0, levels], |r| {
        let id: i64 = r.get(0)?;
        out.push(Downline {
            id,
            level: r.get(1)?,
            names: r.get(2)?,
            joined_at: r.get(3)?,
            volume: r.units(4)?,
            commission: earned.get(&id).copied().unwrap_or(0),
        });
        Ok(())
    })?;
    Ok(out)
}

/// A member's network figures, as the network pages and the dashboard card show them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figures {
    /// Network volume (USDT base units).
    pub volume: Units,
    /// Rewards credited (LVLX: commissions and bonuses).
    pub rewards: Units,
    /// What the distributor has paid the member's wallet in all (the highest cumulative of its
    /// Claimed events; 0 without a wallet).
    pub paid_out: Units,
    /// The member's activation node: when it was activated (ms) and the USDT it cost.
    pub node: Option<(i64, Units)>,
}

impl Figures {
    /// What the member may claim now: every reward credited minus what was paid.
    pub fn claimable(&self) -> Units {
        self.rewards.saturating_sub(self.paid_out)
    }
}

/// A member's [`Figures`] in one query (one round trip on PostgreSQL): the users row, its first
/// node, and one row per payment to its wallet, whose highest cumulative is taken here (the
/// amounts are decimal text; SQL would compare them as text).
pub fn figures(c: Conn, user: UserId) -> Result<Figures> {
    let stmt_sql = "SELECT u.network_usdt, u.add_rewards,
             (SELECT n.created_at FROM activation_nodes n WHERE n.user_id = u.id ORDER BY n.block, n.log_index LIMIT 1),
             (SELECT n.usdt_paid FROM activation_nodes n WHERE n.user_id = u.id ORDER BY n.block, n.log_index LIMIT 1),
             p.cumulative
         FROM users u LEFT JOIN claim_payments p ON lower(p.wallet) = lower(u.wallet)
         WHERE u.id = ?1";
    let mut figures: Option<Figures> = None;
    c.query_each(stmt_sql, args![user.0], |r| {
        let paid = r.get::<Option<String>>(4)?.map(|t| units(&t)).transpose()?;
        match &mut figures {
            Some(f) => f.paid_out = f.paid_out.max(paid.unwrap_or(0)),
            None => {
                let at: Option<i64> = r.get(2)?;
                let cost: Option<String> = r.get(3)?;
                figures = Some(Figures {
                    volume: r.units(0)?,
                    rewards: r.units(1)?,
                    paid_out: paid.unwrap_or(0),
                    node: match (at, cost) {
                        (Some(at), Some(cost)) => Some((at, units(&cost)?)),
                        _ => None,
                    },
                });
            }
        }
        Ok(())
    })?;
    figures.ok_or_else(|| StoreError::Corrupt(format!("no user {}", user.0)))
}

/// The rank table and the ids of the ranks credited to `user`, in one query.
pub fn ranks_of(c: Conn, user: UserId) -> Result<(Vec<Rank>, Vec<u32>)> {
    let stmt_sql = "SELECT r.id, r.name, r.threshold, r.bonus, b.rank_id FROM ranks r
         LEFT JOIN rank_bonuses b ON b.rank_id = r.id AND b.user_id = ?1 ORDER BY r.id";
    let (mut ranks, mut achieved) = (Vec::new(), Vec::new());
    c.query_each(stmt_sql, args![user.0], |r| {
        let rank = Rank {
            id: r.get(0)?,
            name: r.get(1)?,
            threshold: r.units(2)?,
            bonus: r.units(3)?,
        };
        if r.get::<Option<u32>>(4)?.is_some() {
            achieved.push(rank.id);
        }
        ranks.push(rank);
        Ok(())
    })?;
    Ok((ranks, achieved))
}

// ---------- claims ----------

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
