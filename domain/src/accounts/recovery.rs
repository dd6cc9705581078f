//! Password recovery (docs/product/accounts.md#recovery): email → (the same answer whether or not
//! the account exists) a code by mail → a reset token → a new password, which ends every session.

use lvlx_core::validation::{self, Field};
use serde::{Deserialize, Serialize};

use super::registrations::{Attempt, CodeAnswer};
use super::Parts;
use crate::code::{self, Purpose};
use crate::error::Error;
use crate::jwt::Scope;
use crate::store::{codes, sessions, users};
use crate::user::UserId;
use crate::{crypto, now_ms, session};

/// Wrong recovery codes an email may be tried with in [`WRONG_TRIES_WINDOW_MS`] (all its codes
/// together): past it, recovery makes no code for that email until the oldest tries age out.
/// Each code allows 3 tries of 9,000; without this budget an attacker asking for codes and
/// guessing around the clock had about 24 % a week of resetting someone's password; with it,
/// at most 0.1 % a week. The price: an attacker can pause a victim's recovery (never their
/// sign-in), and every code asked for is mailed to the owner, who sees it happen.
pub const WRONG_TRIES_PER_WEEK: i64 = 9;
/// The window [`WRONG_TRIES_PER_WEEK`] counts in.
pub const WRONG_TRIES_WINDOW_MS: i64 = 7 * 24 * 3_600_000;

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Recover {
    email: String,
    #[schema(schema_with = crate::accounts::language)]
    language: Option<String>,
    captcha: crate::captcha::Answer,
}

pub async fn recover(parts: Parts<'_>, body: Recover) -> Result<Attempt, Error> {
    validation::validate(Field::Email, &body.email, None)?;
    parts.spend_captcha(body.captcha.clone()).await?;
    let attempt = crypto::random_hex(16);
    let key = parts.mac_key.to_vec();
    let email = body.email.clone();
    let bound = attempt.clone();
    let sent = parts
        .store
        .write(move |c| match users::by_email(c, &email)? {
            // Past the week's wrong tries no code is made, and the answer is the same.
            Some(_)
                if codes::wrong_tries_since(
                    c,
                    "recover",
                    &email,
                    now_ms() - WRONG_TRIES_WINDOW_MS,
                )? >= WRONG_TRIES_PER_WEEK =>
            {
                Ok(None)
            }
            Some(user) => {
                match code::create(
                    c,
                    &key,
                    Purpose::Recover,
                    &bound,
                    &email,
                    Some(user.id),
                    now_ms(),
                ) {
                    Ok(code) => Ok(Some((code, user.language))),
                    // Too many codes: say nothing different; the person can try again later.
                    Err(Error::RateLimited { .. }) => Ok(None),
                    Err(e) => Err(e),
                }
            }
            None => Ok(None),
        })
        .await?;
    if let Some((code, user_language)) = sent {
        let lang = lvlx_core::language_or(body.language.as_deref(), &user_language);
        parts
            .mailer
            .send_code(&body.email, lang, "recover", &code)
            .await?;
    }
    Ok(Attempt {
        attempt_id: attempt,
    })
}

/// The recovery code was right: the two tokens that together allow one new password.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResetTokens {
    user_token: String,
    reset_token: String,
}

pub async fn verify(parts: Parts<'_>, body: CodeAnswer) -> Result<ResetTokens, Error> {
    validation::validate(Field::Code, &body.code, None)?;
    let key = parts.mac_key.to_vec();
    let reset_token = crypto::random_hex(32);
    let reset_hash = crypto::sha256_hex(&reset_token);
    let attempt = body.attempt_id.clone();
    let user = parts
        .store
        .write(move |c| {
            // Spent outside the transaction: a wrong try must count even though this call fails.
            let user_id = code::consume(
                c,
                &key,
                Purpose::Recover,
                &body.attempt_id,
                &body.code,
                now_ms(),
            )?
            .ok_or(Error::Code)?;
            c.transaction(|tx| {
                codes::set_reset_hash(tx, &body.attempt_id, &reset_hash)?;
                users::by_id(tx, user_id)?.ok_or(Error::Code)
            })
        })
        .await?;
    let user_token = session::attempt_token(parts.keys, Scope::Reset, &user, &attempt)?;
    Ok(ResetTokens {
        user_token,
        reset_token,
    })
}

#[derive(Deserialize, utoipa::ToSchema)]
#[schema(as = PasswordNew)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Reset {
    user_token: String,
    reset_token: String,
    password: String,
    #[serde(rename = "passwordC")]
    password_c: String,
}

/// The password is changed and every session of the member ended.
#[derive(Serialize, utoipa::ToSchema)]
pub struct PasswordReset {
    /// Always true.
    ok: bool,
}

pub async fn reset(parts: Parts<'_>, body: Reset) -> Result<PasswordReset, Error> {
    validation::validate(Field::Password, &body.password, None)?;
    validation::validate(Field::PasswordC, &body.password_c, Some(&body.password))?;
    let claims = parts.keys.verify(&body.user_token, Scope::Reset)?;
    let user_id = UserId(claims.id.parse().map_err(|_| Error::Unauthorized)?);
    let hash = parts.passwords.hash(body.password.clone()).await?;
    let presented = crypto::sha256_hex(&body.reset_token);
    let revoked = parts
        .store
        .write(move |c| {
            c.transaction(|tx| {
                // The reset token is single use: clearing it is the spend.
                if !codes::spend_reset(tx, &claims.sid, user_id, &presented)? {
                    return Err(Error::Unauthorized);
                }
                users::set_password(tx, user_id, &hash)?;
                let revoked = sessions::revoke_all(tx, user_id, now_ms())?;
                Ok(revoked)
            })
        })
        .await?;
    tracing::info!(user = user_id.0, sessions_ended = revoked, "password reset");
    Ok(PasswordReset { ok: true })
}
