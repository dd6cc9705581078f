//! The sponsor tree: who sponsors whom, a member's downline with what it earned them, and a
//! member's network figures.

use std::collections::HashMap;

use super::{overflow, units, Conn, Result, StoreError};
use crate::args;
use crate::user::UserId;
use lvlx_core::amount::Units;
use serde::Serialize;

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

/// A member of someone's downline, as /afiliates lists them.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Downline {
    #[serde(skip)]
    pub id: i64,
    pub level: u32,
    pub names: String,
    pub joined_at: i64,
    /// USDT their own purchases paid.
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    pub volume: Units,
    /// LVLX their purchases paid the member.
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
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
        lvlx_core::claims::owed(self.rewards, self.paid_out)
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
            Some(f) => f.paid_out = lvlx_core::claims::paid_out([f.paid_out, paid.unwrap_or(0)]),
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

/// What each member holding an activation node has been credited in rewards (commissions and
/// bonuses, LVLX base units), for the node's outcomes (`lvlx_core::node_outcomes`).
pub fn node_holders_rewards(c: Conn) -> Result<Vec<Units>> {
    let mut out = Vec::new();
    c.query_each(
        "SELECT add_rewards FROM users WHERE activation_node = 1",
        args![],
        |r| {
            out.push(r.units(0)?);
            Ok(())
        },
    )?;
    Ok(out)
}
