//! One-time email codes (docs/product/accounts.md#codes): 4 digits (6 for a claim) from the OS
//! CSPRNG, stored as an HMAC bound to their attempt, 10 minutes, single use, void after 3 wrong
//! tries; at most 5 sent per email address an hour.

use lvlx_core::limits::retry_after_secs;

use crate::crypto;
use crate::error::Error;
use crate::jwt::CODE_SECS;
use crate::store::{codes, Conn};
use crate::user::UserId;

pub use crate::store::codes::MAX_TRIES;
pub const SENDS_PER_HOUR: i64 = 5;
const HOUR_MS: i64 = 3_600_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Login,
    Register,
    Recover,
    /// Confirms a claim (claimCode: 6 digits), bound to that claim.
    Claim,
}

impl Purpose {
    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::Login => "login",
            Purpose::Register => "register",
            Purpose::Recover => "recover",
            Purpose::Claim => "claim",
        }
    }

    /// Digits of the code: 6 for a claim, 4 for the rest.
    pub fn digits(self) -> u32 {
        match self {
            Purpose::Claim => 6,
            _ => 4,
        }
    }
}

fn digest(key: &[u8], attempt: &str, code: &str) -> String {
    crypto::hmac_hex(key, &["code", attempt, code])
}

/// Creates a code for `attempt` and returns it (to be mailed, never stored or logged).
pub fn create(
    c: Conn,
    key: &[u8],
    purpose: Purpose,
    attempt: &str,
    email: &str,
    user: Option<UserId>,
    now: i64,
) -> Result<String, Error> {
    within_sends(c, email, now)?;
    let code = crypto::random_code_of(purpose.digits());
    codes::insert(
        c,
        &codes::NewCode {
            attempt,
            purpose: purpose.as_str(),
            email,
            user,
            hash: &digest(key, attempt, &code),
            created_at: now,
            expires_at: now + CODE_SECS * 1000,
        },
    )?;
    Ok(code)
}

/// Records an attempt that no code confirms (a registration for an email that has an account:
/// its owner gets a notice instead), counted with the codes mailed to `email` so notices are
/// limited like codes.
pub fn create_void(
    c: Conn,
    purpose: Purpose,
    attempt: &str,
    email: &str,
    now: i64,
) -> Result<(), Error> {
    within_sends(c, email, now)?;
    codes::insert(
        c,
        &codes::NewCode {
            attempt,
            purpose: purpose.as_str(),
            email,
            user: None,
            // No code's MAC: nothing ever matches it.
            hash: "void",
            created_at: now,
            expires_at: now + CODE_SECS * 1000,
        },
    )?;
    Ok(())
}

/// Refuses a send past [`SENDS_PER_HOUR`] to `email`.
fn within_sends(c: Conn, email: &str, now: i64) -> Result<(), Error> {
    let (sent, oldest) = codes::sent_since(c, email, now - HOUR_MS, SENDS_PER_HOUR)?;
    if sent >= SENDS_PER_HOUR {
        let oldest = oldest.unwrap_or(now);
        return Err(Error::RateLimited {
            retry_after_secs: retry_after_secs(oldest + HOUR_MS, now),
        });
    }
    Ok(())
}

/// Checks `code` for `attempt`; on success marks it used and returns the user it was for.
/// A wrong code costs a try; the third wrong try voids it. Every failure looks the same.
pub fn consume(
    c: Conn,
    key: &[u8],
    purpose: Purpose,
    attempt: &str,
    code: &str,
    now: i64,
) -> Result<Option<UserId>, Error> {
    let stored = codes::get(c, attempt, purpose.as_str())?.ok_or(Error::Code)?;
    if stored.used.is_some() || stored.tries >= MAX_TRIES || stored.expires <= now {
        return Err(Error::Code);
    }
    if !crypto::same(&stored.hash, &digest(key, attempt, code)) {
        codes::add_try(c, attempt)?;
        return Err(Error::Code);
    }
    if !codes::mark_used(c, attempt, now)? {
        return Err(Error::Code);
    }
    Ok(stored.user)
}
