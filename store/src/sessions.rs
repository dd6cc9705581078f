//! Server-side sessions: created at sign-in, revoked at sign-out or password reset.

use crate::args;

use super::{Conn, Result};
use crate::user::UserId;

pub fn create(c: Conn, id: &str, user: UserId, now: i64, expires: i64) -> Result<()> {
    c.execute(
        "INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)",
        args![id, user.0, now, expires],
    )?;
    Ok(())
}

pub fn revoke(c: Conn, id: &str, now: i64) -> Result<()> {
    c.execute(
        "UPDATE sessions SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL",
        args![id, now],
    )?;
    Ok(())
}

/// Ends every live session of `user`; returns how many.
pub fn revoke_all(c: Conn, user: UserId, now: i64) -> Result<usize> {
    c.execute(
        "UPDATE sessions SET revoked_at = ?2 WHERE user_id = ?1 AND revoked_at IS NULL",
        args![user.0, now],
    )
}

/// When session `id` ends, if it is live at `now` (an open live channel asks every minute;
/// requests ask [`super::users::in_live_session`]).
pub fn live_until(c: Conn, id: &str, now: i64) -> Result<Option<i64>> {
    c.query_opt(
        "SELECT expires_at FROM sessions WHERE id = ?1 AND revoked_at IS NULL AND expires_at > ?2",
        args![id, now],
        |r| r.get(0),
    )
}
