//! Wallet-linking nonces (SIWE, DESIGN §5): issued per account, spent by one attempt.

use rusqlite::params;

use super::{Conn, Result};
use crate::user::UserId;

/// Drops `user`'s expired nonces and counts the unused ones left.
pub fn outstanding(c: Conn, user: UserId, now: i64) -> Result<i64> {
    c.0.execute(
        "DELETE FROM wallet_nonces WHERE user_id = ?1 AND expires_at <= ?2",
        params![user.0, now],
    )?;
    Ok(c.0.query_row(
        "SELECT COUNT(*) FROM wallet_nonces WHERE user_id = ?1 AND used_at IS NULL",
        [user.0],
        |r| r.get(0),
    )?)
}

pub fn insert_nonce(c: Conn, nonce: &str, user: UserId, now: i64, expires: i64) -> Result<()> {
    c.0.execute(
        "INSERT INTO wallet_nonces (nonce, user_id, issued_at, expires_at) VALUES (?1, ?2, ?3, ?4)",
        params![nonce, user.0, now, expires],
    )?;
    Ok(())
}

/// Spends `nonce` if it was issued to `user` and is unused and unexpired at `now`.
pub fn spend_nonce(c: Conn, nonce: &str, user: UserId, now: i64) -> Result<bool> {
    Ok(c.0.execute(
        "UPDATE wallet_nonces SET used_at = ?3
         WHERE nonce = ?1 AND user_id = ?2 AND used_at IS NULL AND expires_at > ?3",
        params![nonce, user.0, now],
    )? == 1)
}
