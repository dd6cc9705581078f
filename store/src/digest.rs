//! A digest of everything the indexer recorded and derived from the chain (`lvlx chain
//! digest`): the same chain indexed into any store, in any order of steps, rollbacks and wallet
//! links, gives the same digest, on SQLite and PostgreSQL alike. Server-side times (when a
//! settlement or a bonus was written) and row ids are left out; chain times are in.

use sha2::{Digest, Sha256};

use super::sql::Cell;
use super::{Conn, Result};
use crate::args;

/// Each chain table's rows, in a fixed order, are the state: one line per row, cells by `|`
/// (`tables::ALL`, in its order).
fn state() -> impl Iterator<Item = (&'static str, &'static str)> {
    crate::tables::ALL
        .iter()
        .filter_map(|t| t.chain.as_ref().map(|c| (c.section, c.rows)))
}

/// The chain-derived state's SHA-256, hex.
/// The state's lines, section by section (what [`chain_state`] hashes): `lvlx books verify`
/// compares two of them line by line to name what differs.
pub fn sections(c: Conn) -> Result<Vec<(&'static str, Vec<String>)>> {
    let mut out = Vec::new();
    for (name, sql) in state() {
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
        out.push((name, lines));
    }
    Ok(out)
}

pub fn chain_state(c: Conn) -> Result<String> {
    let mut hash = Sha256::new();
    for (name, sql) in state() {
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
