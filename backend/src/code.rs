//! One-time email codes (DESIGN §4): 4 digits from the OS CSPRNG, stored as an HMAC bound to
//! their attempt, 10 minutes, single use, void after 3 wrong tries; at most 5 sent per email
//! address an hour.

use rusqlite::{params, Connection, OptionalExtension};

use crate::crypto;
use crate::error::ApiError;
use crate::token::CODE_SECS;
use crate::user::UserId;

pub const MAX_TRIES: i64 = 3;
pub const SENDS_PER_HOUR: i64 = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Login,
    Register,
    Recover,
}

impl Purpose {
    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::Login => "login",
            Purpose::Register => "register",
            Purpose::Recover => "recover",
        }
    }
}

/// A stored code: its digest, wrong tries, expiry, when it was used, and for whom.
struct Stored {
    hash: String,
    tries: i64,
    expires: i64,
    used: Option<i64>,
    user: Option<i64>,
}

fn digest(key: &[u8], attempt: &str, code: &str) -> String {
    crypto::hmac_hex(key, &["code", attempt, code])
}

/// Creates a code for `attempt` and returns it (to be mailed, never stored or logged).
pub fn create(
    c: &Connection,
    key: &[u8],
    purpose: Purpose,
    attempt: &str,
    email: &str,
    user: Option<UserId>,
    now: i64,
) -> Result<String, ApiError> {
    let sent: i64 = c.query_row(
        "SELECT COUNT(*) FROM codes WHERE email = ?1 AND created_at > ?2",
        params![email, now - 3_600_000],
        |r| r.get(0),
    )?;
    if sent >= SENDS_PER_HOUR {
        let oldest: i64 = c.query_row(
            "SELECT MIN(created_at) FROM (SELECT created_at FROM codes WHERE email = ?1 AND created_at > ?2 ORDER BY created_at DESC LIMIT ?3)",
            params![email, now - 3_600_000, SENDS_PER_HOUR],
            |r| r.get(0),
        )?;
        return Err(ApiError::TooManyRequests {
            retry_after_secs: ((oldest + 3_600_000 - now) / 1000).max(1) as u64,
        });
    }
    let code = crypto::random_code();
    c.execute(
        "INSERT INTO codes (id, purpose, email, user_id, code_hash, created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![attempt, purpose.as_str(), email, user.map(|u| u.0), digest(key, attempt, &code), now, now + CODE_SECS * 1000],
    )?;
    Ok(code)
}

/// Checks `code` for `attempt`; on success marks it used and returns the user it was for.
/// A wrong code costs a try; the third wrong try voids it. Every failure looks the same.
pub fn consume(
    c: &Connection,
    key: &[u8],
    purpose: Purpose,
    attempt: &str,
    code: &str,
    now: i64,
) -> Result<Option<UserId>, ApiError> {
    let row = c
        .query_row(
            "SELECT code_hash, tries, expires_at, used_at, user_id FROM codes WHERE id = ?1 AND purpose = ?2",
            params![attempt, purpose.as_str()],
            |r| Ok(Stored { hash: r.get(0)?, tries: r.get(1)?, expires: r.get(2)?, used: r.get(3)?, user: r.get(4)? }),
        )
        .optional()?;
    let Stored {
        hash,
        tries,
        expires,
        used,
        user,
    } = row.ok_or(ApiError::Code)?;
    if used.is_some() || tries >= MAX_TRIES || expires <= now {
        return Err(ApiError::Code);
    }
    if !crypto::same(&hash, &digest(key, attempt, code)) {
        c.execute(
            "UPDATE codes SET tries = tries + 1 WHERE id = ?1",
            [attempt],
        )?;
        return Err(ApiError::Code);
    }
    let marked = c.execute(
        "UPDATE codes SET used_at = ?2 WHERE id = ?1 AND used_at IS NULL",
        params![attempt, now],
    )?;
    if marked != 1 {
        return Err(ApiError::Code);
    }
    Ok(user.map(UserId))
}
