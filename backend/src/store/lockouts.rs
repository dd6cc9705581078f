//! Failed sign-ins per account (the lockout's evidence).

use rusqlite::params;

use super::{Conn, Result};
use crate::user::UserId;

/// The times of the newest `limit` failures of `user` after `since`, newest first.
pub fn recent(c: Conn, user: UserId, since: i64, limit: i64) -> Result<Vec<i64>> {
    let mut stmt = c.0.prepare_cached(
        "SELECT at FROM login_failures WHERE user_id = ?1 AND at > ?2 ORDER BY at DESC LIMIT ?3",
    )?;
    let rows = stmt.query_map(params![user.0, since, limit], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

pub fn add(c: Conn, user: UserId, at: i64) -> Result<()> {
    c.0.execute(
        "INSERT INTO login_failures (user_id, at) VALUES (?1, ?2)",
        params![user.0, at],
    )?;
    Ok(())
}

pub fn clear(c: Conn, user: UserId) -> Result<()> {
    c.0.execute("DELETE FROM login_failures WHERE user_id = ?1", [user.0])?;
    Ok(())
}
