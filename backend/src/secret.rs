//! The platform's operational wallet key (SPEC §2 "Secret key screen", §7 POST key).
//!
//! Stored sealed: AES-256-GCM under a key derived with argon2id from the admin secret, so the
//! database alone reveals nothing. Revealing it needs that secret, an admin whose role is read
//! from the database, and at most 3 attempts per 5 minutes per admin; every attempt is written
//! to the append-only `secret_audit` table. The value is never logged.

use lvlx_core::seal;
use rand::RngCore;
use rusqlite::{params, Connection, OptionalExtension};

use crate::error::ApiError;
use crate::user::UserId;
use crate::{now_ms, App};

pub const NAME: &str = "operational-wallet-key";
/// Attempts per admin in [`WINDOW_MS`].
pub const ATTEMPTS: i64 = 3;
pub const WINDOW_MS: i64 = 5 * 60 * 1000;

fn random<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    bytes
}

/// Seals `value` under `admin_secret` (what `lvlx secret set` runs).
pub fn provision(c: &Connection, admin_secret: &str, value: &str) -> Result<(), ApiError> {
    let salt: [u8; 16] = random();
    let key = crate::password::derive_key(admin_secret, &salt)?;
    let sealed = seal::seal(&key, &random(), value.as_bytes());
    let (nonce, body) = sealed.split_at(seal::NONCE_LEN);
    c.execute(
        "INSERT INTO sealed_secrets (name, salt, nonce, ciphertext, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (name) DO UPDATE SET salt = excluded.salt, nonce = excluded.nonce,
             ciphertext = excluded.ciphertext, created_at = excluded.created_at",
        params![NAME, salt.as_slice(), nonce, body, now_ms()],
    )?;
    Ok(())
}

fn audit(c: &Connection, admin: UserId, outcome: &str, ip: &str) -> Result<(), ApiError> {
    c.execute(
        "INSERT INTO secret_audit (admin_id, at, outcome, ip) VALUES (?1, ?2, ?3, ?4)",
        params![admin.0, now_ms(), outcome, ip],
    )?;
    Ok(())
}

/// The argon2id salt and the sealed key (nonce ‖ ciphertext).
struct Sealed {
    salt: Vec<u8>,
    sealed: Vec<u8>,
}

/// Counts the attempt (or refuses it) and returns the sealed row to open.
fn admit(c: &Connection, admin: UserId, ip: &str) -> Result<Option<Sealed>, ApiError> {
    let since = now_ms() - WINDOW_MS;
    let (count, oldest): (i64, Option<i64>) = c.query_row(
        "SELECT COUNT(*), MIN(at) FROM secret_audit
         WHERE admin_id = ?1 AND at > ?2 AND outcome != 'rate-limited'",
        params![admin.0, since],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    if count >= ATTEMPTS {
        audit(c, admin, "rate-limited", ip)?;
        let wait = oldest.unwrap_or(since) + WINDOW_MS - now_ms();
        return Err(ApiError::TooManyRequests {
            retry_after_secs: (wait.max(1000) as u64).div_ceil(1000),
        });
    }
    let row: Option<(Vec<u8>, Vec<u8>, Vec<u8>)> = c
        .query_row(
            "SELECT salt, nonce, ciphertext FROM sealed_secrets WHERE name = ?1",
            [NAME],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
    match row {
        None => {
            audit(c, admin, "not-provisioned", ip)?;
            Ok(None)
        }
        Some((salt, nonce, body)) => Ok(Some(Sealed {
            salt,
            sealed: [nonce, body].concat(),
        })),
    }
}

/// Opens the operational key for `admin` with the transport-sealed admin secret. Admission,
/// key derivation and the audit row happen under the database lock, so parallel attempts
/// cannot slip past the limit between being counted and being recorded (an attempt holds the
/// lock for one argon2id derivation; there are at most 3 per admin every 5 minutes).
pub async fn reveal(
    app: &App,
    admin: UserId,
    ip: String,
    sealed_secret: String,
) -> Result<String, ApiError> {
    let pass_key = app.config.secret_pass_key.clone();
    app.db
        .run(move |c| {
            let Some(Sealed { salt, sealed }) = admit(c, admin, &ip)? else {
                return Err(ApiError::SecretMissing);
            };
            let opened = match seal::open_transport(&sealed_secret, &pass_key) {
                Ok(secret) => {
                    let key = crate::password::derive_key(&secret, &salt)?;
                    seal::open(&key, &sealed)
                        .ok()
                        .and_then(|v| String::from_utf8(v).ok())
                }
                Err(_) => None,
            };
            audit(
                c,
                admin,
                if opened.is_some() {
                    "revealed"
                } else {
                    "wrong-secret"
                },
                &ip,
            )?;
            opened.ok_or(ApiError::SecretWrong)
        })
        .await
}
