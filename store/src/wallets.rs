//! Wallet-linking nonces (SIWE, docs/product/chain.md#wallet-linking): issued per account, spent by
//! one attempt.

use crate::args;

use super::{Conn, Result};
use crate::user::UserId;

/// Drops `user`'s expired nonces and counts the unused ones left.
pub fn outstanding(c: Conn, user: UserId, now: i64) -> Result<i64> {
    c.execute(
        "DELETE FROM wallet_nonces WHERE user_id = ?1 AND expires_at <= ?2",
        args![user.0, now],
    )?;
    c.query_one(
        "SELECT COUNT(*) FROM wallet_nonces WHERE user_id = ?1 AND used_at IS NULL",
        args![user.0],
        |r| r.get(0),
    )
}

pub fn insert_nonce(c: Conn, nonce: &str, user: UserId, now: i64, expires: i64) -> Result<()> {
    c.execute(
        "INSERT INTO wallet_nonces (nonce, user_id, issued_at, expires_at) VALUES (?1, ?2, ?3, ?4)",
        args![nonce, user.0, now, expires],
    )?;
    Ok(())
}

/// Spends `nonce` if it was issued to `user` and is unused and unexpired at `now`.
pub fn spend_nonce(c: Conn, nonce: &str, user: UserId, now: i64) -> Result<bool> {
    Ok(c.execute(
        "UPDATE wallet_nonces SET used_at = ?3
         WHERE nonce = ?1 AND user_id = ?2 AND used_at IS NULL AND expires_at > ?3",
        args![nonce, user.0, now],
    )? == 1)
}
