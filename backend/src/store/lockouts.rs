//! Failed sign-ins per account (the lockout's evidence).

use crate::args;

use super::{Conn, Result};
use crate::user::UserId;

/// The times of the newest `limit` failures of `user` after `since`, newest first.
pub fn recent(c: Conn, user: UserId, since: i64, limit: i64) -> Result<Vec<i64>> {
    let stmt_sql =
        "SELECT at FROM login_failures WHERE user_id = ?1 AND at > ?2 ORDER BY at DESC LIMIT ?3";
    let rows = c.query_all(stmt_sql, args![user.0, since, limit], |r| r.get(0))?;
    Ok(rows)
}

pub fn add(c: Conn, user: UserId, at: i64) -> Result<()> {
    c.execute(
        "INSERT INTO login_failures (user_id, at) VALUES (?1, ?2)",
        args![user.0, at],
    )?;
    Ok(())
}

pub fn clear(c: Conn, user: UserId) -> Result<()> {
    c.execute(
        "DELETE FROM login_failures WHERE user_id = ?1",
        args![user.0],
    )?;
    Ok(())
}
