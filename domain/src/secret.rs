//! The platform's operational wallet key (docs/product/admin.md#secret-key).
//!
//! Stored sealed: AES-256-GCM under a key derived with argon2id from the admin secret, so the
//! database alone reveals nothing. Revealing it needs that secret, an admin whose role is read
//! from the database, and at most 3 attempts per 5 minutes per admin; every attempt is written
//! to the append-only `secret_audit` table. The value is never logged.

use lvlx_core::limits::retry_after_secs;
use lvlx_core::seal;
use rand::RngCore;

use crate::error::Error;
use crate::store::{secrets, Conn};
use crate::user::UserId;
use crate::{now_ms, Store};

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
pub fn provision(c: Conn, admin_secret: &str, value: &str) -> Result<(), Error> {
    let salt: [u8; 16] = random();
    let key = crate::password::derive_key(admin_secret, &salt)?;
    let sealed = seal::seal(&key, &random(), value.as_bytes());
    let (nonce, body) = sealed.split_at(seal::NONCE_LEN);
    secrets::put(c, NAME, &salt, nonce, body, now_ms())?;
    Ok(())
}

/// Counts the attempt (or refuses it) and returns the sealed row to open.
fn admit(c: Conn, admin: UserId, ip: &str) -> Result<Option<secrets::Sealed>, Error> {
    let since = now_ms() - WINDOW_MS;
    let (count, oldest) = secrets::attempts_since(c, admin, since)?;
    if count >= ATTEMPTS {
        secrets::audit(c, admin, now_ms(), "rate-limited", ip)?;
        return Err(Error::RateLimited {
            retry_after_secs: retry_after_secs(oldest.unwrap_or(since) + WINDOW_MS, now_ms()),
        });
    }
    let sealed = secrets::get(c, NAME)?;
    if sealed.is_none() {
        secrets::audit(c, admin, now_ms(), "not-provisioned", ip)?;
    }
    Ok(sealed)
}

/// Opens the operational key for `admin` with the transport-sealed admin secret. Admission,
/// key derivation and the audit row happen under the write lock, so parallel attempts
/// cannot slip past the limit between being counted and being recorded (an attempt holds the
/// lock for one argon2id derivation; there are at most 3 per admin every 5 minutes).
/// `pass_key`: the transport key (`Config::secret_pass_key`).
pub async fn reveal(
    store: &Store,
    pass_key: &str,
    admin: UserId,
    ip: String,
    sealed_secret: String,
) -> Result<String, Error> {
    let pass_key = pass_key.to_string();
    store
        .write(move |c| {
            let Some(secrets::Sealed { salt, sealed }) = admit(c, admin, &ip)? else {
                return Err(Error::SecretMissing);
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
            let outcome = if opened.is_some() {
                "revealed"
            } else {
                "wrong-secret"
            };
            secrets::audit(c, admin, now_ms(), outcome, &ip)?;
            opened.ok_or(Error::SecretWrong)
        })
        .await
}
