//! Server-side sessions (revocable, 12 h absolute life) and the filters that authenticate a
//! request from its `Authorization: Bearer` token.

use rusqlite::{params, Connection, OptionalExtension};
use warp::{Filter, Rejection};

use crate::error::ApiError;
use crate::token::{Scope, SESSION_ABSOLUTE_SECS, SESSION_TOKEN_SECS};
use crate::user::{self, User, UserId};
use crate::{now_ms, App};

/// A request made inside a live session.
#[derive(Debug, Clone)]
pub struct Authed {
    pub user: User,
    pub session_id: String,
    pub session_expires_ms: i64,
}

pub fn create(c: &Connection, user: UserId, now: i64) -> Result<(String, i64), ApiError> {
    let id = crate::crypto::random_hex(16);
    let expires = now + SESSION_ABSOLUTE_SECS * 1000;
    c.execute(
        "INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)",
        params![id, user.0, now, expires],
    )?;
    Ok((id, expires))
}

pub fn revoke(c: &Connection, id: &str, now: i64) -> Result<(), ApiError> {
    c.execute(
        "UPDATE sessions SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL",
        params![id, now],
    )?;
    Ok(())
}

pub fn revoke_all(c: &Connection, user: UserId, now: i64) -> Result<usize, ApiError> {
    Ok(c.execute(
        "UPDATE sessions SET revoked_at = ?2 WHERE user_id = ?1 AND revoked_at IS NULL",
        params![user.0, now],
    )?)
}

/// A session token for `session`, never outliving the session itself.
pub fn token(
    app: &App,
    user: &User,
    session_id: &str,
    session_expires_ms: i64,
) -> Result<String, ApiError> {
    let now = now_ms();
    let life = SESSION_TOKEN_SECS
        .min((session_expires_ms - now) / 1000)
        .max(1);
    app.keys
        .issue(Scope::Session, user.id.0, &user.role, session_id, now, life)
}

fn bearer(header: Option<String>) -> Result<String, ApiError> {
    header
        .as_deref()
        .and_then(|h| h.strip_prefix("Bearer "))
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .ok_or(ApiError::Unauthorized)
}

pub async fn authenticate(app: &App, header: Option<String>) -> Result<Authed, ApiError> {
    let claims = app.keys.verify(&bearer(header)?, Scope::Session)?;
    let user_id = UserId(claims.id.parse().map_err(|_| ApiError::Unauthorized)?);
    let sid = claims.sid;
    app.db
        .run(move |c| {
            let now = now_ms();
            let expires: Option<i64> = c
                .query_row(
                    "SELECT expires_at FROM sessions WHERE id = ?1 AND user_id = ?2 AND revoked_at IS NULL AND expires_at > ?3",
                    params![sid, user_id.0, now],
                    |r| r.get(0),
                )
                .optional()?;
            let expires = expires.ok_or(ApiError::Unauthorized)?;
            let user = user::by_id(c, user_id)?.ok_or(ApiError::Unauthorized)?;
            Ok(Authed { user, session_id: sid, session_expires_ms: expires })
        })
        .await
}

/// Any signed-in user.
pub fn authed(app: App) -> impl Filter<Extract = (Authed,), Error = Rejection> + Clone {
    warp::header::optional::<String>("authorization").and_then(move |header| {
        let app = app.clone();
        async move {
            authenticate(&app, header)
                .await
                .map_err(warp::reject::custom)
        }
    })
}

/// An admin: the role is read from the database, not trusted from the token.
pub fn admin(app: App) -> impl Filter<Extract = (Authed,), Error = Rejection> + Clone {
    authed(app).and_then(|who: Authed| async move {
        if who.user.role == lvlx_core::ADMIN_ROLE {
            Ok(who)
        } else {
            Err(warp::reject::custom(ApiError::Forbidden))
        }
    })
}
