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

/// Admins are staff, not members: the admin users table and its summary leave them out.
const MEMBERS: &str = "role != '1001'";

fn base_units(text: &str) -> Result<lvlx_core::amount::Units, ApiError> {
    lvlx_core::amount::parse_base(text)
        .map_err(|e| ApiError::Internal(format!("stored amount {text:?}: {e}")))
}

/// SPEC §3 "User general summary" over every member.
pub fn summary(c: &Connection) -> Result<lvlx_core::admin::users::Summary, ApiError> {
    let mut builder = lvlx_core::admin::users::SummaryBuilder::default();
    let mut stmt = c.prepare_cached(&format!(
        "SELECT wallet IS NOT NULL, lvlx_balance, add_rewards FROM users WHERE {MEMBERS}"
    ))?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let lvlx = base_units(
            r.get_ref(1)?
                .as_str()
                .map_err(|e| ApiError::Internal(e.to_string()))?,
        )?;
        let rewards = base_units(
            r.get_ref(2)?
                .as_str()
                .map_err(|e| ApiError::Internal(e.to_string()))?,
        )?;
        builder
            .add(r.get(0)?, lvlx, rewards)
            .map_err(|e| ApiError::Internal(e.to_string()))?;
    }
    builder
        .finish()
        .map_err(|e| ApiError::Internal(e.to_string()))
}

/// First and last registration times of members.
pub fn registration_range(c: &Connection) -> Result<(Option<i64>, Option<i64>), ApiError> {
    Ok(c.query_row(
        &format!(
            "SELECT (SELECT MIN(created_at) FROM users WHERE {MEMBERS}), (SELECT MAX(created_at) FROM users WHERE {MEMBERS})"
        ),
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?)
}

const ADMIN_ROW: &str = "SELECT u.created_at, u.names || ' ' || u.lastnames, u.email, u.wallet,
    (SELECT COUNT(*) FROM users r WHERE r.referrer_id = u.id), u.lvlx_balance, u.add_rewards, u.rank
    FROM users u";

fn admin_row(r: &Row) -> Result<lvlx_core::admin::users::User, ApiError> {
    let text = |i| -> Result<String, ApiError> { Ok(r.get::<_, String>(i)?) };
    Ok(lvlx_core::admin::users::User {
        created_at: r.get(0)?,
        names: text(1)?,
        email: text(2)?,
        wallet: r.get(3)?,
        referred: r.get::<_, i64>(4)? as u32,
        lvlx: base_units(&text(5)?)?,
        rewards: base_units(&text(6)?)?,
        rank: text(7)?,
    })
}

/// The newest `limit` members as SPEC §3 admin user rows (amounts in base units).
pub fn newest_members(c: &Connection, limit: u32) -> Result<Vec<Value>, ApiError> {
    let mut stmt = c.prepare_cached(&format!(
        "{ADMIN_ROW} WHERE {MEMBERS} ORDER BY u.created_at DESC, u.id DESC LIMIT ?1"
    ))?;
    let mut rows = stmt.query([limit])?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        let u = admin_row(r)?;
        out.push(json!({
            "names": u.names, "email": u.email, "createdAt": u.created_at, "wallet": u.wallet,
            "totalReferredMembers": u.referred, "totalLVLX": u.lvlx.to_string(),
            "totalUSDT": lvlx_core::amount::lvlx_to_usdt(u.lvlx),
            "addRewards": u.rewards.to_string(), "rank": u.rank,
        }));
    }
    Ok(out)
}

/// Every member, oldest first, as the Arrow stream the admin users table loads.
pub fn members_stream(c: &Connection) -> Result<Vec<u8>, ApiError> {
    let mut stmt = c.prepare_cached(&format!(
        "{ADMIN_ROW} WHERE {MEMBERS} ORDER BY u.created_at, u.id"
    ))?;
    let mut rows = stmt.query([])?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        out.push(admin_row(r)?);
    }
    lvlx_core::admin::users::encode(&out).map_err(|e| ApiError::Internal(e.to_string()))
}
