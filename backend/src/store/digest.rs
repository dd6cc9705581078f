//! A digest of everything the indexer recorded and derived from the chain (`lvlx chain
//! digest`): the same chain indexed into any store, in any order of steps, rollbacks and wallet
//! links, gives the same digest, on SQLite and PostgreSQL alike. Server-side times (when a
//! settlement or a bonus was written) and row ids are left out; chain times are in.

use sha2::{Digest, Sha256};

use super::sql::Cell;
use super::{Conn, Result};
use crate::args;

/// Each query's rows, in a fixed order, are the state: one line per row, cells by `|`.
const STATE: &[(&str, &str)] = &[
    (
        "purchases",
        "SELECT tx_hash, log_index, user_id, wallet, token, amount, usdt_paid, referrer, block, created_at
         FROM ico_transactions WHERE block IS NOT NULL ORDER BY tx_hash, log_index",
    ),
    (
        "settled",
        "SELECT t.tx_hash, t.log_index, s.buyer_id, s.usdt FROM settled_purchases s
         JOIN ico_transactions t ON t.id = s.purchase_id ORDER BY t.tx_hash, t.log_index",
    ),
    (
        "commissions",
        "SELECT t.tx_hash, t.log_index, m.level, m.user_id, m.buyer_id, m.amount, m.created_at
         FROM commissions m JOIN ico_transactions t ON t.id = m.purchase_id
         ORDER BY t.tx_hash, t.log_index, m.level",
    ),
    (
        "rank bonuses",
        "SELECT user_id, rank_id, amount FROM rank_bonuses ORDER BY user_id, rank_id",
    ),
    (
        "members",
        "SELECT id, lvlx_balance, add_rewards, network_usdt, own_usdt, rank, activation_node
         FROM users ORDER BY id",
    ),
    (
        "days",
        "SELECT day, token, count, amount FROM ico_daily ORDER BY day, token",
    ),
    (
        "positions",
        "SELECT pool, position, user_id, wallet, kind, amount, reward, start_date, release_date,
           withdrawn, closed_at, tx_hash, log_index FROM stake_positions ORDER BY pool, position",
    ),
    (
        "events",
        "SELECT tx_hash, log_index, contract, event, amount, at, block, position FROM chain_events
         ORDER BY tx_hash, log_index",
    ),
    (
        "nft purchases",
        "SELECT tx_hash, log_index, user_id, wallet, nft_id, quantity, usdt_paid, created_at, block
         FROM nft_purchases ORDER BY tx_hash, log_index",
    ),
    (
        "nodes",
        "SELECT wallet, user_id, usdt_paid, block, log_index, created_at, tx_hash
         FROM activation_nodes ORDER BY tx_hash, log_index",
    ),
    (
        "payments",
        "SELECT tx_hash, log_index, wallet, amount, cumulative, created_at, block
         FROM claim_payments ORDER BY tx_hash, log_index",
    ),
    (
        "claims",
        "SELECT id, status, paid_at, tx_hash, log_index FROM claims ORDER BY id",
    ),
];

/// The chain-derived state's SHA-256, hex.
/// The state's lines, section by section (what [`chain_state`] hashes): `lvlx books verify`
/// compares two of them line by line to name what differs.
pub fn sections(c: Conn) -> Result<Vec<(&'static str, Vec<String>)>> {
    let mut out = Vec::new();
    for (name, sql) in STATE {
        let mut lines = Vec::new();
        c.query_each(sql, args![], |r| {
            let mut line = String::new();
            for i in 0..r.len() {
                match r.cell(i)? {
                    Cell::Null => line.push('-'),
                    Cell::Int(n) => line.push_str(&n.to_string()),
                    Cell::Text(t) => line.push_str(&t.to_lowercase()),
                    Cell::Blob(b) => line.push_str(&hex::encode(b)),
                }
                line.push('|');
            }
            lines.push(line);
            Ok(())
        })?;
        out.push((*name, lines));
    }
    Ok(out)
}

pub fn chain_state(c: Conn) -> Result<String> {
    let mut hash = Sha256::new();
    for (name, sql) in STATE {
        hash.update(format!("# {name}\n"));
        c.query_each(sql, args![], |r| {
            for i in 0..r.len() {
                match r.cell(i)? {
                    Cell::Null => hash.update(b"-"),
                    Cell::Int(n) => hash.update(n.to_string()),
                    Cell::Text(t) => hash.update(t.to_lowercase()),
                    Cell::Blob(b) => hash.update(b),
                }
                hash.update(b"|");
            }
            hash.update(b"\n");
            Ok(())
        })?;
    }
    Ok(hex::encode(hash.finalize()))
}
