//! The admin audit: every admin change (ranks, activation-node steering, content, identity
//! decisions) appended with who, when, before and after. Append-only: the table refuses
//! updates and deletes.

use super::{Conn, Result};
use crate::args;
use crate::user::UserId;
use serde::Serialize;

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
