//! Sealed secrets (the operational wallet key) and the append-only audit of every attempt to
//! reveal one.

use crate::args;

use super::{Conn, Result};
use crate::user::UserId;

/// The argon2id salt and the sealed value (nonce ‖ ciphertext).
pub struct Sealed {
    pub salt: Vec<u8>,
    pub sealed: Vec<u8>,
}

pub fn put(c: Conn, name: &str, salt: &[u8], nonce: &[u8], body: &[u8], now: i64) -> Result<()> {
    c.execute(
        "INSERT INTO sealed_secrets (name, salt, nonce, ciphertext, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (name) DO UPDATE SET salt = excluded.salt, nonce = excluded.nonce,
             ciphertext = excluded.ciphertext, created_at = excluded.created_at", args![name, salt, nonce, body, now])?;
    Ok(())
}

pub fn get(c: Conn, name: &str) -> Result<Option<Sealed>> {
    let row: Option<(Vec<u8>, Vec<u8>, Vec<u8>)> = c.query_opt(
        "SELECT salt, nonce, ciphertext FROM sealed_secrets WHERE name = ?1",
        args![name],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    Ok(row.map(|(salt, nonce, body)| Sealed {
        salt,
        sealed: [nonce, body].concat(),
    }))
}

pub fn any(c: Conn) -> Result<bool> {
    Ok(
        c.query_one("SELECT COUNT(*) FROM sealed_secrets", args![], |r| {
            r.get::<i64>(0)
        })? > 0,
    )
}

pub fn audit(c: Conn, admin: UserId, at: i64, outcome: &str, ip: &str) -> Result<()> {
    c.execute(
        "INSERT INTO secret_audit (admin_id, at, outcome, ip) VALUES (?1, ?2, ?3, ?4)",
        args![admin.0, at, outcome, ip],
    )?;
    // Every attempt is in the chained admin audit too.
    super::audit::append(
        c,
        "secret-reveal",
        None,
        admin,
        at,
        None,
        &serde_json::json!({"outcome": outcome, "ip": ip}),
    )
}

/// Attempts of `admin` after `since` that counted (not those refused by the limit), and the
/// oldest of them.
pub fn attempts_since(c: Conn, admin: UserId, since: i64) -> Result<(i64, Option<i64>)> {
    c.query_one(
        "SELECT COUNT(*), MIN(at) FROM secret_audit
         WHERE admin_id = ?1 AND at > ?2 AND outcome != 'rate-limited'",
        args![admin.0, since],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}
