//! The admin audit: every admin change (ranks, activation-node steering, content, identity
//! decisions) appended with who, when, before and after. Append-only: the table refuses
//! updates and deletes, and each row is chained to the one before it by hash in the same
//! transaction (`audit_chain`, migration 0016), so that [`verify`] names the first row changed,
//! removed or inserted by hand, triggers dropped or not.

use super::{Conn, Result};
use crate::args;
use crate::user::UserId;
use serde::Serialize;
use sha2::{Digest, Sha256};

/// Appends one admin change.
pub fn append(
    c: Conn,
    subject: &str,
    item: Option<i64>,
    admin: UserId,
    now: i64,
    before: Option<serde_json::Value>,
    after: &serde_json::Value,
) -> Result<()> {
    let id: i64 = c.query_one(
        "INSERT INTO admin_audit (subject, item, admin_id, at, before, after) VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id", args![subject, item, admin.0, now, before.map(|b| b.to_string()), after.to_string()], |r| r.get(0))?;
    // This row only: a row someone inserted by hand since stays unlinked, and verify names it.
    let last = last_link(c)?;
    let row = c.query_one(
        &format!("SELECT {ROW_COLUMNS} FROM admin_audit WHERE id = ?1"),
        args![id],
        row,
    )?;
    link(c, last, &row)?;
    Ok(())
}

fn last_link(c: Conn) -> Result<Option<(i64, String)>> {
    c.query_opt(
        "SELECT audit_id, hash FROM audit_chain ORDER BY audit_id DESC LIMIT 1",
        args![],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

fn link(c: Conn, prev: Option<(i64, String)>, r: &Logged) -> Result<(i64, String)> {
    let hash = link_hash(prev.as_ref().map(|(id, h)| (*id, h.as_str())), r);
    c.execute(
        "INSERT INTO audit_chain (audit_id, prev_id, hash) VALUES (?1, ?2, ?3)",
        args![r.id, prev.as_ref().map(|(id, _)| *id), &hash],
    )?;
    Ok((r.id, hash))
}

/// One audit row as the chain hashes it.
pub struct Logged {
    id: i64,
    subject: String,
    item: Option<i64>,
    admin: i64,
    at: i64,
    before: Option<String>,
    after: String,
}

const ROW_COLUMNS: &str = "id, subject, item, admin_id, at, before, after";

fn row(r: &super::sql::Row) -> Result<Logged> {
    Ok(Logged {
        id: r.get(0)?,
        subject: r.get(1)?,
        item: r.get(2)?,
        admin: r.get(3)?,
        at: r.get(4)?,
        before: r.get(5)?,
        after: r.get(6)?,
    })
}

/// A link's hash: SHA-256 (hex) of the previous link's hash and id and this row's every
/// column, as a JSON array (unambiguous whatever the texts hold).
pub fn link_hash(prev: Option<(i64, &str)>, row: &Logged) -> String {
    let text = serde_json::json!([
        prev.map(|(id, _)| id),
        prev.map(|(_, hash)| hash),
        row.id,
        row.subject,
        row.item,
        row.admin,
        row.at,
        row.before,
        row.after
    ])
    .to_string();
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// Links the rows written before the chain existed (migration 0016), once: only while the
/// chain is empty. Afterwards every row is linked as it is appended, and an unlinked row is
/// one inserted by hand, which this never adopts. Returns how many it linked.
pub fn seal(c: Conn) -> Result<usize> {
    if last_link(c)?.is_some() {
        return Ok(0);
    }
    let rows = c.query_all(
        &format!("SELECT {ROW_COLUMNS} FROM admin_audit ORDER BY id"),
        args![],
        row,
    )?;
    let mut prev = None;
    for r in &rows {
        prev = Some(link(c, prev, r)?);
    }
    Ok(rows.len())
}

/// What [`verify`] found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Verdict {
    /// Audit rows read.
    pub rows: u64,
    /// The last link's hash: record it elsewhere (the server logs it at start); a rewritten
    /// history has another.
    pub head: Option<String>,
    /// The first break, in id order; None when every row is as chained.
    pub broken: Option<Broken>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Broken {
    /// Row `id` is not what was chained (edited in place, or its link was).
    Changed { id: i64 },
    /// Row `id` was chained and is gone.
    Removed { id: i64 },
    /// Row `id` was written without its link (by hand, past the server).
    Inserted { id: i64 },
}

/// Walks the audit and its chain in id order and names the first row that breaks it.
pub fn verify(c: Conn) -> Result<Verdict> {
    // Rows and links as of one moment: an append between two reads is no break.
    c.transaction(|tx| {
        if tx.dialect() == super::Dialect::Postgres {
            tx.batch("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")?;
        }
        verify_in(tx)
    })
}

fn verify_in(c: Conn) -> Result<Verdict> {
    let rows = c.query_all(
        &format!("SELECT {ROW_COLUMNS} FROM admin_audit ORDER BY id"),
        args![],
        row,
    )?;
    let links: Vec<(i64, Option<i64>, String)> = c.query_all(
        "SELECT audit_id, prev_id, hash FROM audit_chain ORDER BY audit_id",
        args![],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    let verdict = |broken| Verdict {
        rows: rows.len() as u64,
        head: links.last().map(|(_, _, h)| h.clone()),
        broken,
    };
    let mut links_at = links.iter().peekable();
    let mut prev: Option<(i64, &str)> = None;
    for r in &rows {
        // A link before this row is a row that is gone.
        if let Some((id, _, _)) = links_at.peek().filter(|(id, _, _)| *id < r.id) {
            return Ok(verdict(Some(Broken::Removed { id: *id })));
        }
        let Some((id, prev_id, hash)) = links_at.next_if(|(id, _, _)| *id == r.id) else {
            return Ok(verdict(Some(Broken::Inserted { id: r.id })));
        };
        // A link naming a row before it that is neither here nor linked: removed with its link.
        if *prev_id != prev.map(|(p, _)| p) {
            return Ok(verdict(Some(match prev_id {
                Some(p) if prev.is_none_or(|(q, _)| *p > q) => Broken::Removed { id: *p },
                _ => Broken::Changed { id: *id },
            })));
        }
        if link_hash(prev, r) != *hash {
            return Ok(verdict(Some(Broken::Changed { id: r.id })));
        }
        prev = Some((r.id, hash));
    }
    if let Some((id, _, _)) = links_at.next() {
        return Ok(verdict(Some(Broken::Removed { id: *id })));
    }
    Ok(verdict(None))
}

/// One audit row: what changed (the rank's id for a rank), the admin's email, when, and the
/// value before and after.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[schema(as = AuditChange)]
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

/// Which audit rows an admin asks for; every field narrows.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub subject: Option<String>,
    /// Part of the acting admin's email (any case).
    pub admin: Option<String>,
    /// Milliseconds: at or after.
    pub from: Option<i64>,
    /// Milliseconds: before.
    pub to: Option<i64>,
}

/// An audit row as the admin page lists it: who acted by email and name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = AuditRow)]
#[serde(rename_all = "camelCase")]
pub struct Listed {
    pub id: i64,
    pub at: i64,
    pub admin_email: String,
    pub admin_name: String,
    pub subject: String,
    pub item: Option<i64>,
    pub before: Option<String>,
    pub after: String,
}

/// The rows `filter` keeps, newest first: how many in all, and `limit` of them after `offset`.
pub fn list(c: Conn, filter: &Filter, limit: usize, offset: usize) -> Result<(u64, Vec<Listed>)> {
    let mut conditions = Vec::new();
    let mut values: Vec<super::sql::Arg> = Vec::new();
    if let Some(subject) = &filter.subject {
        values.push(subject.as_str().into());
        conditions.push(format!("a.subject = ?{}", values.len()));
    }
    if let Some(admin) = &filter.admin {
        let escaped = admin
            .to_lowercase()
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        values.push(format!("%{escaped}%").into());
        conditions.push(format!("lower(u.email) LIKE ?{} ESCAPE '\\'", values.len()));
    }
    if let Some(from) = filter.from {
        values.push(from.into());
        conditions.push(format!("a.at >= ?{}", values.len()));
    }
    if let Some(to) = filter.to {
        values.push(to.into());
        conditions.push(format!("a.at < ?{}", values.len()));
    }
    let filtered = if conditions.is_empty() {
        String::new()
    } else {
        format!("WHERE {}", conditions.join(" AND "))
    };
    let from = "FROM admin_audit a JOIN users u ON u.id = a.admin_id";
    let total: i64 = c.query_one(
        &format!("SELECT COUNT(*) {from} {filtered}"),
        &values,
        |r| r.get(0),
    )?;
    values.push(limit.into());
    values.push(offset.into());
    let page = format!(
        "SELECT a.id, a.at, u.email, u.names || ' ' || u.lastnames, a.subject, a.item, a.before, a.after
         {from} {filtered} ORDER BY a.id DESC LIMIT ?{} OFFSET ?{}",
        values.len() - 1,
        values.len()
    );
    let rows = c.query_all(&page, &values, |r| {
        Ok(Listed {
            id: r.get(0)?,
            at: r.get(1)?,
            admin_email: r.get(2)?,
            admin_name: r.get(3)?,
            subject: r.get(4)?,
            item: r.get(5)?,
            before: r.get(6)?,
            after: r.get(7)?,
        })
    })?;
    Ok((total.max(0) as u64, rows))
}

/// The subjects the audit holds, for the page's filter.
pub fn subjects(c: Conn) -> Result<Vec<String>> {
    c.query_all(
        "SELECT DISTINCT subject FROM admin_audit ORDER BY subject",
        args![],
        |r| r.get(0),
    )
}
