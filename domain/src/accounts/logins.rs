//! Sign-in (docs/product/accounts.md#sign-in): email and password → a 4-digit code by mail → the
//! session.
//!
//! No failure locks an account: five wrong passwords from five addresses locked the owner out
//! (admins too), and the lock's 429 told which emails had accounts. The mailed code stands
//! between a password and a session, so the attacker is slowed, not the owner: an address with
//! [`ADDRESS_FAILURES`] failed sign-ins in 15 minutes is refused (429) until the oldest ages out,
//! and an email (as typed, whether or not an account has it) with [`EMAIL_FAILURES`] waits
//! [`EMAIL_DELAY`] before every answer. Unknown emails and wrong passwords answer alike.

use std::net::IpAddr;

use lvlx_core::limits::retry_after_secs;
use lvlx_core::validation::{self, Field};
use serde::{Deserialize, Serialize};

use super::Parts;
use crate::code::{self, Purpose};
use crate::error::Error;
use crate::jwt::Scope;
use crate::store::{codes, lockouts, users, Conn};
use crate::user::UserId;
use crate::{crypto, now_ms, session};

/// The window failures are counted in.
pub const FAILURE_WINDOW_MS: i64 = 15 * 60 * 1000;
/// Failed sign-ins from one address in the window past which it is refused.
pub const ADDRESS_FAILURES: i64 = 20;
/// Failed sign-ins for one email in the window past which every answer for it waits.
pub const EMAIL_FAILURES: i64 = 5;
/// How long an answer for such an email waits.
pub const EMAIL_DELAY: std::time::Duration = std::time::Duration::from_secs(2);

/// A code is on its way: the token that carries this sign-in to `/verifycode`.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CodeSent {
    token: String,
    /// Always true: the next step is the emailed code.
    verify_code: bool,
}

impl CodeSent {
    fn new(token: String) -> Self {
        CodeSent {
            token,
            verify_code: true,
        }
    }
}

#[derive(Deserialize, utoipa::ToSchema)]
#[schema(as = CodeResend)]
#[serde(deny_unknown_fields)]
pub struct Resend {
    #[schema(schema_with = crate::accounts::language)]
    language: Option<String>,
}

pub async fn resend_code(parts: Parts<'_>, token: &str, body: Resend) -> Result<CodeSent, Error> {
    let claims = parts.keys.verify(token, Scope::Verify)?;
    let user_id = claims
        .id
        .parse::<i64>()
        .map(UserId)
        .map_err(|_| Error::Unauthorized)?;
    let key = parts.mac_key.to_vec();
    let (user, attempt, code) = parts
        .store
        .write(move |c| {
            c.transaction(|tx| {
                let user = users::by_id(tx, user_id)?.ok_or(Error::Unauthorized)?;
                // The earlier code of this sign-in is spent; a used one cannot start another.
                if !codes::mark_used(tx, &claims.sid, now_ms())? {
                    return Err(Error::Code);
                }
                let (attempt, code) = new_code(tx, &key, &user)?;
                Ok::<_, Error>((user, attempt, code))
            })
        })
        .await?;
    let lang = lvlx_core::language_or(body.language.as_deref(), &user.language).to_string();
    parts
        .mailer
        .send_code(&user.email, &lang, "login", &code)
        .await?;
    let token = session::attempt_token(parts.keys, Scope::Verify, &user, &attempt)?;
    Ok(CodeSent::new(token))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Login {
    email: String,
    password: String,
    #[schema(schema_with = crate::accounts::language)]
    language: Option<String>,
    captcha: crate::captcha::Answer,
}

pub async fn login(parts: Parts<'_>, ip: Option<IpAddr>, body: Login) -> Result<CodeSent, Error> {
    validation::validate(Field::Email, &body.email, None)?;
    validation::validate(Field::CurrentPassword, &body.password, None)?;
    parts.spend_captcha(body.captcha.clone()).await?;
    let email = body.email.to_lowercase();
    let address = ip.map_or_else(|| "-".to_string(), |ip| ip.to_string());
    let (found, failures, from_address) = {
        let (email, address) = (email.clone(), address.clone());
        parts
            .store
            .read(move |c| {
                let since = now_ms() - FAILURE_WINDOW_MS;
                Ok::<_, Error>((
                    users::by_email(c, &email)?,
                    lockouts::for_email(c, &email, since)?,
                    lockouts::from_ip(c, &address, since)?,
                ))
            })
            .await?
    };
    if let (count, Some(oldest)) = from_address {
        if count >= ADDRESS_FAILURES {
            crate::metrics::METRICS.sign_in_refused.inc();
            return Err(Error::RateLimited {
                retry_after_secs: retry_after_secs(oldest + FAILURE_WINDOW_MS, now_ms()),
            });
        }
    }
    if failures >= EMAIL_FAILURES {
        tokio::time::sleep(EMAIL_DELAY).await;
    }
    let ok_password = parts
        .passwords
        .verify(
            body.password.clone(),
            found.as_ref().map(|u| u.password_hash.clone()),
        )
        .await?;
    let user = match found {
        Some(user) if ok_password => user,
        _ => {
            let at = now_ms();
            parts
                .store
                .write(move |c| lockouts::add(c, &email, &address, at, at - FAILURE_WINDOW_MS))
                .await?;
            crate::metrics::METRICS.sign_in_failures.inc();
            return Err(Error::Credentials);
        }
    };
    // Said only to who knows the password; no code is mailed.
    if user.is_blocked() {
        return Err(Error::Blocked);
    }
    let key = parts.mac_key.to_vec();
    let lang = lvlx_core::language_or(body.language.as_deref(), &user.language).to_string();
    let (attempt, code) = {
        let user = user.clone();
        parts.store.write(move |c| new_code(c, &key, &user)).await?
    };
    parts
        .mailer
        .send_code(&user.email, &lang, "login", &code)
        .await?;
    // A narrow token: it opens POST verifycode for this attempt and nothing else.
    let token = session::attempt_token(parts.keys, Scope::Verify, &user, &attempt)?;
    Ok(CodeSent::new(token))
}

/// A new sign-in attempt for `user` and its code (within the sends allowed per email and hour).
fn new_code(c: Conn, key: &[u8], user: &crate::user::User) -> Result<(String, String), Error> {
    let attempt = crypto::random_hex(16);
    let code = code::create(
        c,
        key,
        Purpose::Login,
        &attempt,
        &user.email,
        Some(user.id),
        now_ms(),
    )?;
    Ok((attempt, code))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[schema(as = LoginCode)]
#[serde(deny_unknown_fields)]
pub struct Code {
    code: String,
    /// The language the person is using now: it becomes the account's.
    #[schema(schema_with = crate::accounts::language)]
    #[serde(default)]
    language: Option<String>,
}

pub async fn verify_code(
    parts: Parts<'_>,
    token: &str,
    body: Code,
) -> Result<session::SignedIn, Error> {
    validation::validate(Field::Code, &body.code, None)?;
    let claims = parts.keys.verify(token, Scope::Verify)?;
    let key = parts.mac_key.to_vec();
    let (keys, mac_key) = (parts.keys.clone(), key.clone());
    let answer = parts
        .store
        .write(move |c| {
            // Spent outside the transaction: a wrong try must count even though this call fails.
            let user_id =
                code::consume(c, &key, Purpose::Login, &claims.sid, &body.code, now_ms())?
                    .ok_or(Error::Code)?;
            if user_id.0.to_string() != claims.id {
                return Err(Error::Code);
            }
            c.transaction(|tx| {
                let mut user = users::by_id(tx, user_id)?.ok_or(Error::Unauthorized)?;
                // The language of this sign-in wins over the one stored (issue: Portuguese
                // sign-in, English dashboard) and is kept for the next mails.
                let now = body.language.as_deref().and_then(lvlx_core::language_tag);
                if let Some(language) = now.filter(|l| *l != user.language) {
                    users::set_language(tx, user.id, language)?;
                    user.language = language.to_string();
                }
                session::sign_in(&keys, &mac_key, tx, &user)
            })
        })
        .await?;
    Ok(answer)
}
