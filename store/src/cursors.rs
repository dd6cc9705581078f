//! The indexer's cursor per contract: the next block to read, the hash of the last one read and
//! the highest block counted final.

use crate::args;

use super::{Conn, Result};

/// Where the indexer stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cursor {
    pub next: u64,
    pub last_hash: Option<String>,
    /// Events at or below this block are final (0 before the first step).
    pub final_block: u64,
}

pub fn get(c: Conn, contract: &str) -> Result<Option<Cursor>> {
    c.query_opt(
        "SELECT next_block, last_hash, final_block FROM chain_cursor WHERE contract = ?1",
        args![contract.to_lowercase()],
        |r| {
            Ok(Cursor {
                next: r.get::<i64>(0)? as u64,
                last_hash: r.get(1)?,
                final_block: r.get::<i64>(2)? as u64,
            })
        },
    )
}

pub fn set(c: Conn, contract: &str, cursor: &Cursor, now: i64) -> Result<()> {
    c.execute(
        "INSERT INTO chain_cursor (contract, next_block, last_hash, final_block, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (contract) DO UPDATE SET next_block = excluded.next_block,
           last_hash = excluded.last_hash, final_block = excluded.final_block, updated_at = excluded.updated_at",
        args![contract.to_lowercase(), cursor.next as i64, &cursor.last_hash, cursor.final_block as i64, now],
    )?;
    Ok(())
}

/// The first block no contract's cursor has read (0 when nothing was indexed): where a rule
/// changed now starts to apply.
pub fn next_block(c: Conn) -> Result<i64> {
    c.query_one(
        "SELECT COALESCE(MAX(next_block), 0) FROM chain_cursor",
        args![],
        |r| r.get(0),
    )
}

/// The final block any contract's cursor holds (0 when nothing was indexed): what the wallet
/// link settles up to.
pub fn final_block(c: Conn) -> Result<u64> {
    c.query_one(
        "SELECT COALESCE(MAX(final_block), 0) FROM chain_cursor",
        args![],
        |r| Ok(r.get::<i64>(0)? as u64),
    )
}
