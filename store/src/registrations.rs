//! Registrations waiting for their email code (the attempt id is also the code's).

use crate::args;

use super::{Conn, Result};
use crate::user::UserId;

/// A registration's personal data, kept until its code is entered.
pub struct Pending {
    pub email: String,
    pub names: String,
    pub lastnames: String,
    pub phone: String,
    pub password_hash: String,
    pub referrer: UserId,
    pub language: String,
}

pub fn insert(c: Conn, attempt: &str, p: &Pending, now: i64) -> Result<()> {
    c.execute(
        "INSERT INTO registrations (id, email, names, lastnames, phone, password_hash, referrer_id, language, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)", args![attempt, &p.email, &p.names, &p.lastnames, &p.phone, &p.password_hash, p.referrer.0, &p.language, now])?;
    Ok(())
}

/// Removes and returns the registration of `attempt`.
pub fn take(c: Conn, attempt: &str) -> Result<Option<Pending>> {
    let pending = c.query_opt(
            "SELECT email, names, lastnames, phone, password_hash, referrer_id, language FROM registrations WHERE id = ?1",
            args![attempt],
            |r| {
                Ok(Pending {
                    email: r.get(0)?,
                    names: r.get(1)?,
                    lastnames: r.get(2)?,
                    phone: r.get(3)?,
                    password_hash: r.get(4)?,
                    referrer: UserId(r.get(5)?),
                    language: r.get(6)?,
                })
            },
        )?;
    c.execute("DELETE FROM registrations WHERE id = ?1", args![attempt])?;
    Ok(pending)
}
