//! Owner actions proposed to the owners' Safe (`crate::owners::proposals`) and the owners'
//! signatures of them.

use super::{Conn, Result};
use crate::args;
use crate::user::UserId;

/// A proposal as kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proposal {
    pub id: i64,
    pub contract: String,
    pub target: String,
    pub data: String,
    pub safe: String,
    pub nonce: i64,
    pub safe_tx_hash: String,
    pub proposed_by: i64,
    pub proposed_at: i64,
    pub executed_tx: Option<String>,
    pub executed_at: Option<i64>,
}

/// A proposal to keep: everything but its id and execution.
pub struct New<'a> {
    pub contract: &'a str,
    pub target: &'a str,
    pub data: &'a str,
    pub safe: &'a str,
    pub nonce: i64,
    pub safe_tx_hash: &'a str,
    pub proposed_by: UserId,
    pub proposed_at: i64,
}

const COLUMNS: &str = "id, contract, target, data, safe, nonce, safe_tx_hash, proposed_by, \
                       proposed_at, executed_tx, executed_at";

fn proposal(r: &super::Row) -> Result<Proposal> {
    Ok(Proposal {
        id: r.get(0)?,
        contract: r.get(1)?,
        target: r.get(2)?,
        data: r.get(3)?,
        safe: r.get(4)?,
        nonce: r.get(5)?,
        safe_tx_hash: r.get(6)?,
        proposed_by: r.get(7)?,
        proposed_at: r.get(8)?,
        executed_tx: r.get(9)?,
        executed_at: r.get(10)?,
    })
}

/// Keeps a proposal; its id.
pub fn add(c: Conn, p: &New) -> Result<i64> {
    c.query_one(
        "INSERT INTO owner_proposals (contract, target, data, safe, nonce, safe_tx_hash,
                                      proposed_by, proposed_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) RETURNING id",
        args![
            p.contract,
            p.target,
            p.data,
            p.safe,
            p.nonce,
            p.safe_tx_hash,
            p.proposed_by.0,
            p.proposed_at
        ],
        |r| r.get(0),
    )
}

/// The proposal `id`, if any.
pub fn get(c: Conn, id: i64) -> Result<Option<Proposal>> {
    c.query_opt(
        &format!("SELECT {COLUMNS} FROM owner_proposals WHERE id = ?1"),
        args![id],
        proposal,
    )
}

/// The newest `limit` proposals, newest first.
pub fn newest(c: Conn, limit: i64) -> Result<Vec<Proposal>> {
    c.query_all(
        &format!("SELECT {COLUMNS} FROM owner_proposals ORDER BY id DESC LIMIT ?1"),
        args![limit],
        proposal,
    )
}

/// The newest `limit` proposals and, beside them, every unexecuted one of `safe` at or after
/// `from` (its turn has not passed: it must stay in view however many came after it); newest
/// first.
pub fn listed(c: Conn, limit: i64, safe: &str, from: i64) -> Result<Vec<Proposal>> {
    c.query_all(
        &format!(
            "SELECT {COLUMNS} FROM owner_proposals
             WHERE id IN (SELECT id FROM owner_proposals ORDER BY id DESC LIMIT ?1)
                OR (safe = ?2 AND nonce >= ?3 AND executed_tx IS NULL)
             ORDER BY id DESC"
        ),
        args![limit, safe, from],
        proposal,
    )
}

/// How many of `safe`'s proposals at or after `from` are not executed.
pub fn open(c: Conn, safe: &str, from: i64) -> Result<i64> {
    c.query_one(
        "SELECT COUNT(*) FROM owner_proposals
         WHERE safe = ?1 AND nonce >= ?2 AND executed_tx IS NULL",
        args![safe, from],
        |r| r.get(0),
    )
}

/// How many of `safe`'s proposals at or after `from` that `admin` made are not executed.
pub fn open_by(c: Conn, safe: &str, from: i64, admin: UserId) -> Result<i64> {
    c.query_one(
        "SELECT COUNT(*) FROM owner_proposals
         WHERE safe = ?1 AND nonce >= ?2 AND executed_tx IS NULL AND proposed_by = ?3",
        args![safe, from, admin.0],
        |r| r.get(0),
    )
}

/// The proposal whose Safe transaction hash is `hash`, if any.
pub fn by_hash(c: Conn, hash: &str) -> Result<Option<i64>> {
    c.query_opt(
        "SELECT id FROM owner_proposals WHERE safe_tx_hash = ?1",
        args![hash],
        |r| r.get(0),
    )
}

/// The next nonce `safe` has no unexecuted proposal for, from `from` (the Safe's own counter):
/// proposals made one after another queue behind each other.
pub fn next_nonce(c: Conn, safe: &str, from: i64) -> Result<i64> {
    let taken: Option<i64> = c.query_one(
        "SELECT MAX(nonce) FROM owner_proposals
         WHERE safe = ?1 AND nonce >= ?2 AND executed_tx IS NULL",
        args![safe, from],
        |r| r.get(0),
    )?;
    Ok(taken.map_or(from, |n| n + 1))
}

/// Records that `tx` executed the proposal `id` (once; a second record changes nothing).
pub fn executed(c: Conn, id: i64, tx: &str, at: i64) -> Result<bool> {
    Ok(c.execute(
        "UPDATE owner_proposals SET executed_tx = ?2, executed_at = ?3
         WHERE id = ?1 AND executed_tx IS NULL",
        args![id, tx, at],
    )? == 1)
}

/// Keeps `signer`'s signature of the proposal `id` (a second one from the same signer replaces
/// nothing).
pub fn sign(c: Conn, id: i64, signer: &str, signature: &str, at: i64) -> Result<bool> {
    Ok(c.execute(
        "INSERT INTO owner_signatures (proposal_id, signer, signature, signed_at)
         VALUES (?1, ?2, ?3, ?4) ON CONFLICT (proposal_id, signer) DO NOTHING",
        args![id, signer, signature, at],
    )? == 1)
}

/// (signer, signature) of the proposal `id`, in the order they came.
pub fn signatures(c: Conn, id: i64) -> Result<Vec<(String, String)>> {
    c.query_all(
        "SELECT signer, signature FROM owner_signatures WHERE proposal_id = ?1
         ORDER BY signed_at, signer",
        args![id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}
