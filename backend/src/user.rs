//! Accounts: the users table and the user payload the browser keeps (SPEC §3 "User").

use rusqlite::{params, Connection, OptionalExtension, Row};
use serde::Serialize;
use serde_json::{json, Value};

use crate::error::ApiError;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct UserId(pub i64);

#[derive(Debug, Clone)]
pub struct User {
    pub id: UserId,
    pub email: String,
    pub names: String,
    pub lastnames: String,
    pub role: String,
    pub status: String,
    pub language: String,
    pub password_hash: String,
    pub referral_code: String,
    pub wallet: Option<String>,
    pub activation_node: bool,
    pub has_avatar: bool,
}

const COLUMNS: &str = "id, email, names, lastnames, role, status, language, password_hash, referral_code, wallet, activation_node, has_avatar";

fn from_row(r: &Row) -> rusqlite::Result<User> {
    Ok(User {
        id: UserId(r.get(0)?),
        email: r.get(1)?,
        names: r.get(2)?,
        lastnames: r.get(3)?,
        role: r.get(4)?,
        status: r.get(5)?,
        language: r.get(6)?,
        password_hash: r.get(7)?,
        referral_code: r.get(8)?,
        wallet: r.get(9)?,
        activation_node: r.get(10)?,
        has_avatar: r.get(11)?,
    })
}

pub fn by_email(c: &Connection, email: &str) -> Result<Option<User>, ApiError> {
    Ok(c.query_row(
        &format!("SELECT {COLUMNS} FROM users WHERE email = ?1"),
        [email],
        from_row,
    )
    .optional()?)
}

pub fn by_id(c: &Connection, id: UserId) -> Result<Option<User>, ApiError> {
    Ok(c.query_row(
        &format!("SELECT {COLUMNS} FROM users WHERE id = ?1"),
        [id.0],
        from_row,
    )
    .optional()?)
}

pub fn id_by_referral_code(c: &Connection, code: &str) -> Result<Option<UserId>, ApiError> {
    Ok(c.query_row(
        "SELECT id FROM users WHERE referral_code = ?1 COLLATE NOCASE",
        [code],
        |r| r.get(0),
    )
    .optional()?
    .map(UserId))
}

pub struct NewUser<'a> {
    pub email: &'a str,
    pub names: &'a str,
    pub lastnames: &'a str,
    pub phone: &'a str,
    pub role: &'a str,
    pub language: &'a str,
    pub password_hash: &'a str,
    pub referrer: Option<UserId>,
}

/// Inserts a user with a fresh 32-hex referral code; `EmailTaken` if the email exists.
pub fn insert(c: &Connection, new: &NewUser, now_ms: i64) -> Result<UserId, ApiError> {
    let code = crate::crypto::random_hex(16);
    let result = c.execute(
        "INSERT INTO users (email, names, lastnames, phone, role, language, password_hash, referral_code, referrer_id, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        params![new.email, new.names, new.lastnames, new.phone, new.role, new.language, new.password_hash, code, new.referrer.map(|r| r.0), now_ms],
    );
    match result {
        Ok(_) => Ok(UserId(c.last_insert_rowid())),
        Err(rusqlite::Error::SqliteFailure(e, _))
            if e.code == rusqlite::ErrorCode::ConstraintViolation =>
        {
            Err(ApiError::EmailTaken)
        }
        Err(e) => Err(e.into()),
    }
}

pub fn set_password(c: &Connection, id: UserId, hash: &str) -> Result<(), ApiError> {
    c.execute(
        "UPDATE users SET password_hash = ?1 WHERE id = ?2",
        params![hash, id.0],
    )?;
    Ok(())
}

/// What the browser stores after sign-in (SPEC §3 "User"); later issues fill the zeros.
pub fn payload(c: &Connection, user: &User) -> Result<Value, ApiError> {
    let affiliates: Vec<Value> = c
        .prepare("SELECT names, lastnames, created_at FROM users WHERE referrer_id = ?1 ORDER BY created_at")?
        .query_map([user.id.0], |r| Ok(json!({"names": r.get::<_, String>(0)?, "lastnames": r.get::<_, String>(1)?, "createdAt": r.get::<_, i64>(2)?})))?
        .collect::<Result<_, _>>()?;
    Ok(json!({
        "names": user.names,
        "lastnames": user.lastnames,
        "email": user.email,
        "id": user.id,
        "wallet": user.wallet,
        "status": user.status,
        "role": user.role,
        "language": user.language,
        "affiliates": affiliates,
        "userCodeLink": user.referral_code,
        "claims": {"claims": [], "total": "0"},
        "maticClaim": "0",
        "withdrawNFTs": {"interests": [], "total": "0"},
        "withdrawLVLXs": {"interests": [], "total": "0"},
        "activationNode": user.activation_node,
        "userRankData": null,
        "hasAvatar": user.has_avatar,
    }))
}
