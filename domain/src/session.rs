//! Server-side sessions (revocable, 12 h absolute life) and authenticating a session token.

use crate::error::Error;

use crate::jwt::Keys;
use crate::jwt::{Scope, CODE_SECS, SESSION_ABSOLUTE_SECS, SESSION_TOKEN_SECS};
use crate::store::{sessions, stakes, users, Conn};
use crate::user::{User, UserId};
use crate::{now_ms, Store};

/// A request made inside a live session.
#[derive(Debug, Clone)]
pub struct Authed {
    pub user: User,
    pub session_id: String,
    pub session_expires_ms: i64,
}

/// Opens a session for `user`; returns its id and absolute end.
pub fn open(c: Conn, user: UserId, now: i64) -> Result<(String, i64), Error> {
    let id = crate::crypto::random_hex(16);
    let expires = now + SESSION_ABSOLUTE_SECS * 1000;
    sessions::create(c, &id, user, now, expires)?;
    Ok((id, expires))
}

/// A session token for `session`, never outliving the session itself.
pub fn token(
    keys: &Keys,
    user: &User,
    session_id: &str,
    session_expires_ms: i64,
) -> Result<String, Error> {
    let now = now_ms();
    let life = SESSION_TOKEN_SECS
        .min((session_expires_ms - now) / 1000)
        .max(1);
    keys.issue(Scope::Session, user.id.0, &user.role, session_id, now, life)
}

/// A narrow token for one code attempt (the sign-in code, the recovery's reset): it opens only the
/// call of its `scope`, and lives as long as the code.
pub fn attempt_token(
    keys: &Keys,
    scope: Scope,
    user: &User,
    attempt: &str,
) -> Result<String, Error> {
    keys.issue(scope, user.id.0, &user.role, attempt, now_ms(), CODE_SECS)
}

/// The live session a session token belongs to, with its account as stored now.
pub async fn authenticate(keys: &Keys, store: &Store, token: &str) -> Result<Authed, Error> {
    let claims = keys.verify(token, Scope::Session)?;
    let user_id = UserId(claims.id.parse().map_err(|_| Error::Unauthorized)?);
    let sid = claims.sid;
    store
        .read(move |c| {
            let (user, expires) =
                users::in_live_session(c, &sid, user_id, now_ms())?.ok_or(Error::Unauthorized)?;
            Ok(Authed {
                user,
                session_id: sid,
                session_expires_ms: expires,
            })
        })
        .await
}

/// Whether session `id` is still live (an open live channel checks it every minute).
pub async fn is_live(store: &Store, id: &str) -> bool {
    let id = id.to_string();
    store
        .read(move |c| Ok::<_, Error>(sessions::live_until(c, &id, now_ms())?.is_some()))
        .await
        .unwrap_or(false)
}

/// What signing in answers: a new session's token, the role, and the member's payload (`user`)
/// or the admin's (`admin`) for the browser to store.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct SignedIn {
    token: String,
    role: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    user: Option<Box<crate::user::MemberPayload>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    admin: Option<crate::user::AdminPayload>,
}

/// Opens a session for `user`: its token (signed with `keys`) and what the browser stores (the
/// avatar's name keyed with `mac_key`).
pub fn sign_in(keys: &Keys, mac_key: &[u8], c: Conn, user: &User) -> Result<SignedIn, Error> {
    // Whichever way in (sign-in, registration, recovery): a blocked account gets no session.
    if user.is_blocked() {
        return Err(Error::Blocked);
    }
    let (sid, expires) = open(c, user.id, now_ms())?;
    let token = token(keys, user, &sid, expires)?;
    let role = user.role.clone();
    if user.is_admin() {
        let admin = Some(crate::user::admin_payload(user));
        return Ok(SignedIn {
            token,
            role,
            user: None,
            admin,
        });
    }
    let (nft, lvlx) = stakes::of_member(c, user.id)?;
    let payload = crate::user::MemberPayload {
        names: user.names.clone(),
        lastnames: user.lastnames.clone(),
        email: user.email.clone(),
        id: user.id,
        wallet: user.wallet.clone(),
        status: user.status.clone(),
        role: user.role.clone(),
        language: user.language.clone(),
        affiliates: users::affiliates(c, user.id)?,
        user_code_link: user.referral_code.clone(),
        withdraw_nfts: crate::staking::withdrawals(&nft)?,
        withdraw_lvlxs: crate::staking::withdrawals(&lvlx)?,
        network: crate::network::pages::payload_parts(c, user)?,
        has_avatar: user.has_avatar,
        avatar_key: crate::accounts::avatars::avatar_key(mac_key, user.id.0),
        kyc_status: crate::store::kyc::of(c, user.id)?.status,
    };
    Ok(SignedIn {
        token,
        role,
        user: Some(Box::new(payload)),
        admin: None,
    })
}

/// A fresh token while the session lives (tokenVerify, docs/product/accounts.md#sessions).
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct Refreshed {
    /// Always true.
    pub auth: bool,
    pub token: String,
}

/// The answer to signing out (docs/product/api.md#calls).
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct SignedOut {
    /// Always true.
    pub auth: bool,
}

/// Ends session `id` server-side: its token gets 401 from then on.
pub async fn sign_out(store: &Store, id: String) -> Result<(), Error> {
    store
        .write(move |c| crate::store::sessions::revoke(c, &id, crate::now_ms()))
        .await?;
    Ok(())
}
