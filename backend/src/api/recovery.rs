//! Password recovery (SPEC §2, DESIGN §4): email → (the same answer whether or not the account
//! exists) a code by mail → a reset token → a new password, which ends every session.

use std::net::IpAddr;

use lvlx_core::validation::{self, Field};
use serde::Deserialize;
use serde_json::json;
use warp::filters::BoxedFilter;
use warp::Filter;

use super::error::reply;
use super::registrations::CodeAnswer;
use super::{captcha, form, json_body, ok, with, Answer};
use crate::code::{self, Purpose};
use crate::error::Error;
use crate::store::{codes, sessions, users};
use crate::token::Scope;
use crate::user::UserId;
use crate::{crypto, now_ms, session, App};

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // POST /api/v1/recover — {attemptId}, whether or not the email has an account.
    let recover = warp::path!("recover")
        .and(form(&app))
        .then(recover)
        .map(reply);
    // POST /api/v1/recover/verify — {userToken, resetToken}.
    let verify = warp::path!("recover" / "verify")
        .and(form(&app))
        .then(verify)
        .map(reply);
    // POST /api/v1/reset — the new password; every session of the account ends.
    let reset = warp::path!("reset")
        .and(warp::post())
        .and(with(&app))
        .and(json_body())
        .then(reset)
        .map(reply);
    recover.or(verify).unify().or(reset).unify().boxed()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Recover {
    email: String,
    language: Option<String>,
    captcha: crate::captcha::Answer,
}

async fn recover(ip: Option<IpAddr>, app: App, body: Recover) -> Answer {
    app.auth_limit.check(ip).await?;
    validation::validate(Field::Email, &body.email, None)?;
    captcha::spend(&app, body.captcha.clone()).await?;
    let attempt = crypto::random_hex(16);
    let key = app.mac_key.clone();
    let email = body.email.clone();
    let bound = attempt.clone();
    let sent = app
        .store
        .write(move |c| match users::by_email(c, &email)? {
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
        app.mailer
            .send_code(&body.email, lang, "recover", &code)
            .await?;
    }
    ok(&json!({"attemptId": attempt}))
}

async fn verify(ip: Option<IpAddr>, app: App, body: CodeAnswer) -> Answer {
    app.code_limit.check(ip).await?;
    validation::validate(Field::Code, &body.code, None)?;
    let key = app.mac_key.clone();
    let reset_token = crypto::random_hex(32);
    let reset_hash = crypto::sha256_hex(&reset_token);
    let attempt = body.attempt_id.clone();
    let user = app
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
    let user_token = session::attempt_token(&app, Scope::Reset, &user, &attempt)?;
    ok(&json!({"userToken": user_token, "resetToken": reset_token}))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Reset {
    user_token: String,
    reset_token: String,
    password: String,
    #[serde(rename = "passwordC")]
    password_c: String,
}

async fn reset(app: App, body: Reset) -> Answer {
    validation::validate(Field::Password, &body.password, None)?;
    validation::validate(Field::PasswordC, &body.password_c, Some(&body.password))?;
    let claims = app.keys.verify(&body.user_token, Scope::Reset)?;
    let user_id = UserId(claims.id.parse().map_err(|_| Error::Unauthorized)?);
    let hash = app.passwords.hash(body.password.clone()).await?;
    let presented = crypto::sha256_hex(&body.reset_token);
    let revoked = app
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
    ok(&json!({"ok": true}))
}
