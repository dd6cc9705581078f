//! Activation nodes as the chain sold them, and which member each belongs to.

use super::{Conn, Result};
use crate::args;
use crate::user::UserId;
use lvlx_core::amount::Units;

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
pub fn record(c: Conn, n: &Node) -> Result<bool> {
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
pub fn attach(c: Conn, user: UserId, wallet: &str) -> Result<bool> {
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

/// A node as a rollback takes it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bought {
    pub wallet: String,
    pub user: Option<UserId>,
    pub tx_hash: String,
    /// Base-unit text.
    pub usdt_paid: String,
    pub block: i64,
}

/// The nodes bought in blocks above `block`, newest first.
pub fn above(c: Conn, block: u64) -> Result<Vec<Bought>> {
    c.query_all(
        "SELECT wallet, user_id, tx_hash, usdt_paid, block FROM activation_nodes WHERE block > ?1
         ORDER BY block DESC, log_index DESC",
        args![block as i64],
        |r| {
            Ok(Bought {
                wallet: r.get(0)?,
                user: r.get::<Option<i64>>(1)?.map(UserId),
                tx_hash: r.get(2)?,
                usdt_paid: r.get(3)?,
                block: r.get(4)?,
            })
        },
    )
}

/// Removes the node of `wallet`; the account it belonged to is no longer active.
pub fn remove(c: Conn, wallet: &str, user: Option<UserId>) -> Result<()> {
    c.execute(
        "DELETE FROM activation_nodes WHERE wallet = ?1",
        args![wallet],
    )?;
    if let Some(user) = user {
        c.execute(
            "UPDATE users SET activation_node = 0 WHERE id = ?1",
            args![user.0],
        )?;
    }
    Ok(())
}

/// Every node, oldest first, as the admin's nodes table shows it (no member: empty names and
/// email).
pub fn all(c: Conn) -> Result<Vec<lvlx_core::admin::nodes::Node>> {
    let stmt_sql = "SELECT u.email, u.names || ' ' || u.lastnames, n.wallet, n.created_at, n.usdt_paid, n.tx_hash
         FROM activation_nodes n LEFT JOIN users u ON u.id = n.user_id ORDER BY n.created_at, n.block, n.log_index";
    c.query_all(stmt_sql, args![], |r| {
        Ok(lvlx_core::admin::nodes::Node {
            email: r.get::<Option<String>>(0)?.unwrap_or_default(),
            names: r.get::<Option<String>>(1)?.unwrap_or_default(),
            wallet: r.get(2)?,
            created_at: r.get(3)?,
            usdt_paid: r.units(4)?,
            tx_hash: r.get(5)?,
        })
    })
}

/// The chain position (block, log index) of `user`'s first activation node, if any.
pub fn first_node(c: Conn, user: UserId) -> Result<Option<(i64, i64)>> {
    let stmt_sql = "SELECT block, log_index FROM activation_nodes WHERE user_id = ?1 ORDER BY block, log_index LIMIT 1";
    c.query_opt(stmt_sql, args![user.0], |r| Ok((r.get(0)?, r.get(1)?)))
}

/// The members who hold an activation node.
pub fn holders(c: Conn) -> Result<Vec<i64>> {
    c.query_all(
        "SELECT DISTINCT user_id FROM activation_nodes WHERE user_id IS NOT NULL",
        args![],
        |r| r.get(0),
    )
}
