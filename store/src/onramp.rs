//! Card on-ramp sessions created for members.

use crate::args;

use super::{Conn, Result};
use crate::user::UserId;

pub fn record(c: Conn, id: &str, user: UserId, wallet: &str, now: i64) -> Result<()> {
    c.execute(
        "INSERT OR IGNORE INTO onramp_sessions (id, user_id, wallet, created_at) VALUES (?1, ?2, ?3, ?4)", args![id, user.0, wallet, now])?;
    Ok(())
}

/// Sessions the member created since `since` (ms), for the per-member limit.
pub fn count_since(c: Conn, user: UserId, since: i64) -> Result<i64> {
    c.query_one(
        "SELECT COUNT(*) FROM onramp_sessions WHERE user_id = ?1 AND created_at >= ?2",
        args![user.0, since],
        |r| r.get(0),
    )
}
