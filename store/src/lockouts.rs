//! Failed sign-ins, per email as typed (whether or not an account has it) and per address: the
//! evidence the sign-in's slow-downs read (`api::logins`).

use crate::args;

use super::{Conn, Result};

/// Failures for `email` (lower case) after `since`.
pub fn for_email(c: Conn, email: &str, since: i64) -> Result<i64> {
    c.query_one(
        "SELECT COUNT(*) FROM sign_in_failures WHERE email = ?1 AND at > ?2",
        args![email, since],
        |r| r.get(0),
    )
}

/// Failures from `ip` after `since`, and the oldest of them.
pub fn from_ip(c: Conn, ip: &str, since: i64) -> Result<(i64, Option<i64>)> {
    c.query_one(
        "SELECT COUNT(*), MIN(at) FROM sign_in_failures WHERE ip = ?1 AND at > ?2",
        args![ip, since],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

/// A failure for `email` (lower case) from `ip`; failures older than `forget_before` go.
pub fn add(c: Conn, email: &str, ip: &str, at: i64, forget_before: i64) -> Result<()> {
    c.execute(
        "INSERT INTO sign_in_failures (email, ip, at) VALUES (?1, ?2, ?3)",
        args![email, ip, at],
    )?;
    c.execute(
        "DELETE FROM sign_in_failures WHERE at <= ?1",
        args![forget_before],
    )?;
    Ok(())
}
