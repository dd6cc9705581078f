//! The indexer's cursor per contract: the next block to read and the hash of the last one read.

use crate::args;

use super::{Conn, Result};

pub fn get(c: Conn, contract: &str) -> Result<Option<(u64, Option<String>)>> {
    c.query_opt(
        "SELECT next_block, last_hash FROM chain_cursor WHERE contract = ?1",
        args![contract.to_lowercase()],
        |r| Ok((r.get::<i64>(0)? as u64, r.get(1)?)),
    )
}

pub fn set(c: Conn, contract: &str, next: u64, last_hash: Option<&str>, now: i64) -> Result<()> {
    c.execute(
        "INSERT INTO chain_cursor (contract, next_block, last_hash, updated_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (contract) DO UPDATE SET next_block = excluded.next_block,
           last_hash = excluded.last_hash, updated_at = excluded.updated_at", args![contract.to_lowercase(), next as i64, last_hash, now])?;
    Ok(())
}
