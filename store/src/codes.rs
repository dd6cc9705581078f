//! Stored one-time codes: the HMAC of each code bound to its attempt, never the code itself.

use crate::args;

use super::{Conn, Result};
use crate::user::UserId;

/// Wrong tries after which a code is void (a claim's code counts its tries in the claim).
pub const MAX_TRIES: i64 = 3;

/// A stored code: its digest, wrong tries, expiry, when it was used, and for whom.
pub struct Stored {
    pub hash: String,
    pub tries: i64,
    pub expires: i64,
    pub used: Option<i64>,
    pub user: Option<UserId>,
}

pub struct NewCode<'a> {
    pub attempt: &'a str,
    pub purpose: &'a str,
    pub email: &'a str,
    pub user: Option<UserId>,
    pub hash: &'a str,
    pub created_at: i64,
    pub expires_at: i64,
}

/// Wrong tries at `purpose` codes sent to `email` after `since`, all codes together.
pub fn wrong_tries_since(c: Conn, purpose: &str, email: &str, since: i64) -> Result<i64> {
    c.query_one(
        "SELECT CAST(COALESCE(SUM(tries), 0) AS BIGINT) FROM codes WHERE purpose = ?1 AND email = ?2 AND created_at > ?3",
        args![purpose, email, since],
        |r| r.get(0),
    )
}

/// Codes sent to `email` after `since`, and the oldest of the newest `limit` of them.
pub fn sent_since(c: Conn, email: &str, since: i64, limit: i64) -> Result<(i64, Option<i64>)> {
    let sent: i64 = c.query_one(
        "SELECT COUNT(*) FROM codes WHERE email = ?1 AND created_at > ?2",
        args![email, since],
        |r| r.get(0),
    )?;
    let oldest: Option<i64> = c.query_one("SELECT MIN(created_at) FROM (SELECT created_at FROM codes WHERE email = ?1 AND created_at > ?2 ORDER BY created_at DESC LIMIT ?3) AS recent", args![email, since, limit], |r| r.get(0))?;
    Ok((sent, oldest))
}

pub fn insert(c: Conn, code: &NewCode) -> Result<()> {
    c.execute(
        "INSERT INTO codes (id, purpose, email, user_id, code_hash, created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", args![code.attempt, code.purpose, code.email, code.user.map(|u| u.0), code.hash, code.created_at, code.expires_at])?;
    Ok(())
}

pub fn get(c: Conn, attempt: &str, purpose: &str) -> Result<Option<Stored>> {
    c.query_opt("SELECT code_hash, tries, expires_at, used_at, user_id FROM codes WHERE id = ?1 AND purpose = ?2", args![attempt, purpose], |r| {
                Ok(Stored {
                    hash: r.get(0)?,
                    tries: r.get(1)?,
                    expires: r.get(2)?,
                    used: r.get(3)?,
                    user: r.get::<Option<i64>>(4)?.map(UserId),
                })
            })
}

pub fn add_try(c: Conn, attempt: &str) -> Result<()> {
    c.execute(
        "UPDATE codes SET tries = tries + 1 WHERE id = ?1",
        args![attempt],
    )?;
    Ok(())
}

/// Marks the code used; false if it already was (a race lost).
pub fn mark_used(c: Conn, attempt: &str, now: i64) -> Result<bool> {
    Ok(c.execute(
        "UPDATE codes SET used_at = ?2 WHERE id = ?1 AND used_at IS NULL",
        args![attempt, now],
    )? == 1)
}

/// Binds the reset token (its hash) issued for a verified recovery code.
pub fn set_reset_hash(c: Conn, attempt: &str, hash: &str) -> Result<()> {
    c.execute(
        "UPDATE codes SET reset_hash = ?2 WHERE id = ?1",
        args![attempt, hash],
    )?;
    Ok(())
}

/// Spends the reset token of `attempt` (single use); false when it does not match.
pub fn spend_reset(c: Conn, attempt: &str, user: UserId, hash: &str) -> Result<bool> {
    Ok(c.execute(
        "UPDATE codes SET reset_hash = NULL WHERE id = ?1 AND purpose = 'recover' AND user_id = ?2 AND reset_hash = ?3", args![attempt, user.0, hash])? == 1)
}
