//! Spent captcha challenges (each is single use until it expires).

use crate::args;

use super::{Conn, Result};

/// Records the challenge as spent; false if it already was.
pub fn spend(c: Conn, challenge_hash: &str, expires_at: i64, now: i64) -> Result<bool> {
    c.execute("DELETE FROM captcha_used WHERE expires_at < ?1", args![now])?;
    Ok(c.execute(
        "INSERT OR IGNORE INTO captcha_used (challenge_hash, expires_at) VALUES (?1, ?2)",
        args![challenge_hash, expires_at],
    )? == 1)
}
