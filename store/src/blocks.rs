//! The hashes of the blocks the indexer read and that are not final yet (`chain_blocks`): where
//! a reorganised chain forks from what was recorded. Block 0, the chain's genesis, is kept for
//! good: a node whose genesis differs serves another chain (a reset, another network).

use crate::args;

use super::{Conn, Result};

/// Remembers block `number`'s hash (the last read wins).
pub fn put(c: Conn, number: u64, hash: &str) -> Result<()> {
    c.execute(
        "INSERT INTO chain_blocks (number, hash) VALUES (?1, ?2)
         ON CONFLICT (number) DO UPDATE SET hash = excluded.hash",
        args![number as i64, hash],
    )?;
    Ok(())
}

/// Up to `limit` remembered blocks at or below `number`, highest first.
pub fn at_or_below(c: Conn, number: u64, limit: u32) -> Result<Vec<(u64, String)>> {
    c.query_all(
        "SELECT number, hash FROM chain_blocks WHERE number <= ?1 ORDER BY number DESC LIMIT ?2",
        args![number as i64, limit as i64],
        |r| Ok((r.get::<i64>(0)? as u64, r.get(1)?)),
    )
}

/// Forgets the blocks above `number` (they left the chain).
pub fn forget_above(c: Conn, number: u64) -> Result<()> {
    c.execute(
        "DELETE FROM chain_blocks WHERE number > ?1",
        args![number as i64],
    )?;
    Ok(())
}

/// Final blocks kept below the final one, so a reorganisation deeper than the node's
/// finality (or than `confirmations`) still finds its fork point instead of replaying from the
/// start block.
pub const KEPT_FINAL: u64 = 1024;

/// Forgets the blocks more than [`KEPT_FINAL`] below the final block (never the genesis).
pub fn forget_final(c: Conn, final_block: u64) -> Result<()> {
    c.execute(
        "DELETE FROM chain_blocks WHERE number < ?1 AND number > 0",
        args![final_block.saturating_sub(KEPT_FINAL) as i64],
    )?;
    Ok(())
}
