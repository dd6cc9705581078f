//! Accounts (SPEC §2, DESIGN §4): referral registration, login with an email code, recovery.
//! Every field is checked by the core's rules, exactly as the browser checks it.

use std::net::SocketAddr;

use lvlx_core::validation::{self, Field};
use rusqlite::params;
use serde::Deserialize;
use serde_json::{json, Value};
use warp::filters::BoxedFilter;
use warp::{Filter, Rejection};

use super::{json, json_body, reject};
use crate::captcha::{self, Answer};
use crate::code::{self, Purpose};
use crate::error::ApiError;
use crate::token::{Scope, CODE_SECS};
use crate::user::{self, NewUser, User, UserId};
use crate::{crypto, now_ms, session, App};

/// Failed logins per account that lock it, and the window and lock length.
pub const LOCK_FAILURES: i64 = 5;
pub const LOCK_MS: i64 = 15 * 60 * 1000;

fn check(field: Field, value: &str, other: Option<&str>) -> Result<(), ApiError> {
    validation::validate(field, value, other).map_err(ApiError::Invalid)
}

/// The language asked for, if it is one of ours; otherwise `fallback`.
fn language_or(asked: Option<String>, fallback: &str) -> String {
    asked
        .filter(|l| crate::mail::LANGUAGES.contains(&l.as_str()))
        .unwrap_or_else(|| fallback.to_string())
}

/// Checks the captcha and spends it (single use).
async fn spend_captcha(app: &App, answer: Answer) -> Result<(), ApiError> {
    let expires = captcha::check(
        &app.mac_key,
        &answer,
        app.config.captcha_difficulty,
        now_ms(),
    )?;
    let key = captcha::replay_key(&answer);
    app.db
        .run(move |c| {
            c.execute("DELETE FROM captcha_used WHERE expires_at < ?1", [now_ms()])?;
            let inserted = c.execute(
                "INSERT OR IGNORE INTO captcha_used (challenge_hash, expires_at) VALUES (?1, ?2)",
                params![key, expires],
            )?;
            if inserted == 1 {
                Ok(())
            } else {
                Err(ApiError::Captcha)
            }
        })
        .await
}

type Ip = Option<SocketAddr>;

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    let with = move || {
        let app = app.clone();
        warp::any().map(move || app.clone())
    };
    // What every form POST here takes: the caller's address (for the per-IP limits) and the app.
    let post = {
        let with = with.clone();
        move || warp::post().and(warp::addr::remote()).and(with())
    };
    // GET /api/v1/captcha
    let get_captcha = warp::path!("captcha")
        .and(warp::get())
        .and(with())
        .map(|app: App| {
            json(&captcha::issue(
                &app.mac_key,
                app.config.captcha_difficulty,
                now_ms(),
            ))
        });
    // POST /api/v1/register
    let register = warp::path!("register")
        .and(post())
        .and(json_body())
        .and_then(register);
    // POST /api/v1/register/verify
    let register_verify = warp::path!("register" / "verify")
        .and(post())
        .and(json_body())
        .and_then(register_verify);
    // POST /api/v1/login
    let login = warp::path!("login")
        .and(post())
        .and(json_body())
        .and_then(login);
    // POST /api/v1/verifycode
    let verify = warp::path!("verifycode")
        .and(post())
        .and(warp::header::optional::<String>("authorization"))
        .and(json_body())
        .and_then(verify_code);
    // POST /api/v1/recover
    let recover = warp::path!("recover")
        .and(post())
        .and(json_body())
        .and_then(recover);
    // POST /api/v1/recover/verify
    let recover_verify = warp::path!("recover" / "verify")
        .and(post())
        .and(json_body())
        .and_then(recover_verify);
    // POST /api/v1/reset
    let reset = warp::path!("reset")
        .and(warp::post())
        .and(with())
        .and(json_body())
        .and_then(reset);
    get_captcha
        .or(register)
        .unify()
        .or(register_verify)
        .unify()
        .or(login)
        .unify()
        .or(verify)
        .unify()
        .or(recover)
        .unify()
        .or(recover_verify)
        .unify()
        .or(reset)
        .unify()
        .boxed()
}

/// What signing in answers: the session token, and the user (or admin) payload to store.
fn signed_in(app: &App, c: &rusqlite::Connection, user: &User) -> Result<Value, ApiError> {
    let (sid, expires) = session::create(c, user.id, now_ms())?;
    let token = session::token(app, user, &sid, expires)?;
    if user.role == lvlx_core::ADMIN_ROLE {
        Ok(
            json!({"token": token, "role": user.role, "admin": {"names": user.names, "lastnames": user.lastnames, "roleAdmin": user.role, "email": user.email}}),
        )
    } else {
        Ok(json!({"token": token, "role": user.role, "user": user::payload(c, user)?}))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Register {
    names: String,
    lastnames: String,
    email: String,
    #[serde(rename = "emailC")]
    email_c: String,
    cel: String,
    password: String,
    #[serde(rename = "passwordC")]
    password_c: String,
    referral_code: String,
    language: Option<String>,
    captcha: Answer,
}

async fn register(ip: Ip, app: App, body: Register) -> Result<warp::reply::Response, Rejection> {
    app.auth_limit.check(ip.map(|a| a.ip())).map_err(reject)?;
    check(Field::Names, &body.names, None).map_err(reject)?;
    check(Field::Lastnames, &body.lastnames, None).map_err(reject)?;
    check(Field::Email, &body.email, None).map_err(reject)?;
    check(Field::EmailC, &body.email_c, Some(&body.email)).map_err(reject)?;
    check(Field::Cel, &body.cel, None).map_err(reject)?;
    check(Field::Password, &body.password, None).map_err(reject)?;
    check(Field::PasswordC, &body.password_c, Some(&body.password)).map_err(reject)?;
    if !validation::is_referral_code(&body.referral_code) {
        return Err(reject(ApiError::ReferralUnknown));
    }
    spend_captcha(&app, body.captcha.clone())
        .await
        .map_err(reject)?;
    let hash = app
        .passwords
        .hash(body.password.clone())
        .await
        .map_err(reject)?;
    let lang = language_or(body.language.clone(), "en");
    let key = app.mac_key.clone();
    let to = body.email.clone();
    let (attempt, code) = app
        .db
        .run({
            let lang = lang.clone();
            let email = body.email.clone();
            move |c| {
                let referrer = user::id_by_referral_code(c, &body.referral_code)?.ok_or(ApiError::ReferralUnknown)?;
                if user::by_email(c, &body.email)?.is_some() {
                    return Err(ApiError::EmailTaken);
                }
                let attempt = crypto::random_hex(16);
                let tx = c.transaction()?;
                let code = code::create(&tx, &key, Purpose::Register, &attempt, &email, None, now_ms())?;
                tx.execute(
                    "INSERT INTO registrations (id, email, names, lastnames, phone, password_hash, referrer_id, language, created_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                    params![attempt, email, body.names.trim(), body.lastnames.trim(), body.cel, hash, referrer.0, lang, now_ms()],
                )?;
                tx.commit()?;
                Ok((attempt, code))
            }
        })
        .await
        .map_err(reject)?;
    app.mailer
        .send_code(&to, &lang, "register", &code)
        .await
        .map_err(reject)?;
    Ok(json(&json!({"attemptId": attempt})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct CodeAnswer {
    attempt_id: String,
    code: String,
}

async fn register_verify(
    ip: Ip,
    app: App,
    body: CodeAnswer,
) -> Result<warp::reply::Response, Rejection> {
    app.code_limit.check(ip.map(|a| a.ip())).map_err(reject)?;
    check(Field::Code, &body.code, None).map_err(reject)?;
    let key = app.mac_key.clone();
    let app2 = app.clone();
    let answer = app
        .db
        .run(move |c| {
            // Spent outside the transaction: a wrong try must count even though this call fails.
            code::consume(c, &key, Purpose::Register, &body.attempt_id, &body.code, now_ms())?;
            let tx = c.transaction()?;
            let (email, names, lastnames, phone, hash, referrer, lang): (String, String, String, String, String, i64, String) = tx.query_row(
                "SELECT email, names, lastnames, phone, password_hash, referrer_id, language FROM registrations WHERE id = ?1",
                [&body.attempt_id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?)),
            )?;
            let id = user::insert(
                &tx,
                &NewUser { email: &email, names: &names, lastnames: &lastnames, phone: &phone, role: "1", language: &lang, password_hash: &hash, referrer: Some(UserId(referrer)) },
                now_ms(),
            )?;
            tx.execute("DELETE FROM registrations WHERE id = ?1", [&body.attempt_id])?;
            let user = user::by_id(&tx, id)?.ok_or_else(|| ApiError::Internal("new user vanished".into()))?;
            let answer = signed_in(&app2, &tx, &user)?;
            tx.commit()?;
            tracing::info!(user = id.0, "account created");
            Ok(answer)
        })
        .await
        .map_err(reject)?;
    Ok(json(&answer))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Login {
    email: String,
    password: String,
    language: Option<String>,
    captcha: Answer,
}

async fn login(ip: Ip, app: App, body: Login) -> Result<warp::reply::Response, Rejection> {
    app.auth_limit.check(ip.map(|a| a.ip())).map_err(reject)?;
    check(Field::Email, &body.email, None).map_err(reject)?;
    check(Field::CurrentPassword, &body.password, None).map_err(reject)?;
    spend_captcha(&app, body.captcha.clone())
        .await
        .map_err(reject)?;
    let email = body.email.clone();
    let (found, locked_for) = app
        .db
        .run(move |c| {
            let found = user::by_email(c, &email)?;
            let locked_for = match &found {
                Some(u) => lock_remaining(c, u.id, now_ms())?,
                None => None,
            };
            Ok((found, locked_for))
        })
        .await
        .map_err(reject)?;
    if let Some(secs) = locked_for {
        return Err(reject(ApiError::TooManyRequests {
            retry_after_secs: secs,
        }));
    }
    let ok = app
        .passwords
        .verify(
            body.password.clone(),
            found.as_ref().map(|u| u.password_hash.clone()),
        )
        .await
        .map_err(reject)?;
    let user = match found {
        Some(user) if ok => user,
        Some(user) => {
            let id = user.id;
            app.db
                .run(move |c| {
                    Ok(c.execute(
                        "INSERT INTO login_failures (user_id, at) VALUES (?1, ?2)",
                        params![id.0, now_ms()],
                    )?)
                })
                .await
                .map_err(reject)?;
            return Err(reject(ApiError::Credentials));
        }
        None => return Err(reject(ApiError::Credentials)),
    };
    let key = app.mac_key.clone();
    let (attempt, code, lang) = {
        let user = user.clone();
        let lang = language_or(body.language, &user.language);
        app.db
            .run(move |c| {
                c.execute("DELETE FROM login_failures WHERE user_id = ?1", [user.id.0])?;
                let attempt = crypto::random_hex(16);
                let code = code::create(
                    c,
                    &key,
                    Purpose::Login,
                    &attempt,
                    &user.email,
                    Some(user.id),
                    now_ms(),
                )?;
                Ok((attempt, code, lang))
            })
            .await
            .map_err(reject)?
    };
    app.mailer
        .send_code(&user.email, &lang, "login", &code)
        .await
        .map_err(reject)?;
    // A narrow token: it opens POST verifycode for this attempt and nothing else.
    let token = app
        .keys
        .issue(
            Scope::Verify,
            user.id.0,
            &user.role,
            &attempt,
            now_ms(),
            CODE_SECS,
        )
        .map_err(reject)?;
    Ok(json(&json!({"token": token, "verifyCode": true})))
}

/// Seconds the account stays locked, if 5 logins failed within the last 15 minutes.
fn lock_remaining(
    c: &rusqlite::Connection,
    user: UserId,
    now: i64,
) -> Result<Option<u64>, ApiError> {
    let recent: Vec<i64> = c
        .prepare("SELECT at FROM login_failures WHERE user_id = ?1 AND at > ?2 ORDER BY at DESC LIMIT ?3")?
        .query_map(params![user.0, now - LOCK_MS, LOCK_FAILURES], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    if (recent.len() as i64) < LOCK_FAILURES {
        return Ok(None);
    }
    // Locked for 15 minutes after the failure that made it five.
    let until = recent[0] + LOCK_MS;
    Ok(Some(((until - now) / 1000).max(1) as u64))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Code {
    code: String,
}

async fn verify_code(
    ip: Ip,
    app: App,
    authorization: Option<String>,
    body: Code,
) -> Result<warp::reply::Response, Rejection> {
    app.code_limit.check(ip.map(|a| a.ip())).map_err(reject)?;
    check(Field::Code, &body.code, None).map_err(reject)?;
    let token = authorization
        .as_deref()
        .and_then(|h| h.strip_prefix("Bearer "))
        .ok_or_else(|| reject(ApiError::Unauthorized))?;
    let claims = app.keys.verify(token, Scope::Verify).map_err(reject)?;
    let key = app.mac_key.clone();
    let app2 = app.clone();
    let answer = app
        .db
        .run(move |c| {
            // Spent outside the transaction: a wrong try must count even though this call fails.
            let user_id =
                code::consume(c, &key, Purpose::Login, &claims.sid, &body.code, now_ms())?
                    .ok_or(ApiError::Code)?;
            let tx = c.transaction()?;
            if user_id.0.to_string() != claims.id {
                return Err(ApiError::Code);
            }
            let user = user::by_id(&tx, user_id)?.ok_or(ApiError::Unauthorized)?;
            let answer = signed_in(&app2, &tx, &user)?;
            tx.commit()?;
            Ok(answer)
        })
        .await
        .map_err(reject)?;
    Ok(json(&answer))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Recover {
    email: String,
    language: Option<String>,
    captcha: Answer,
}

/// The same answer whether or not the email has an account.
async fn recover(ip: Ip, app: App, body: Recover) -> Result<warp::reply::Response, Rejection> {
    app.auth_limit.check(ip.map(|a| a.ip())).map_err(reject)?;
    check(Field::Email, &body.email, None).map_err(reject)?;
    spend_captcha(&app, body.captcha.clone())
        .await
        .map_err(reject)?;
    let attempt = crypto::random_hex(16);
    let key = app.mac_key.clone();
    let email = body.email.clone();
    let attempt2 = attempt.clone();
    let sent = app
        .db
        .run(move |c| match user::by_email(c, &email)? {
            Some(user) => match code::create(
                c,
                &key,
                Purpose::Recover,
                &attempt2,
                &email,
                Some(user.id),
                now_ms(),
            ) {
                Ok(code) => Ok(Some((code, user.language))),
                // Too many codes: say nothing different; the person can try again later.
                Err(ApiError::TooManyRequests { .. }) => Ok(None),
                Err(e) => Err(e),
            },
            None => Ok(None),
        })
        .await
        .map_err(reject)?;
    if let Some((code, user_language)) = sent {
        let lang = language_or(body.language, &user_language);
        app.mailer
            .send_code(&body.email, &lang, "recover", &code)
            .await
            .map_err(reject)?;
    }
    Ok(json(&json!({"attemptId": attempt})))
}

async fn recover_verify(
    ip: Ip,
    app: App,
    body: CodeAnswer,
) -> Result<warp::reply::Response, Rejection> {
    app.code_limit.check(ip.map(|a| a.ip())).map_err(reject)?;
    check(Field::Code, &body.code, None).map_err(reject)?;
    let key = app.mac_key.clone();
    let reset_token = crypto::random_hex(32);
    let reset_hash = crypto::sha256_hex(&reset_token);
    let attempt = body.attempt_id.clone();
    let user = app
        .db
        .run(move |c| {
            // Spent outside the transaction: a wrong try must count even though this call fails.
            let user_id = code::consume(
                c,
                &key,
                Purpose::Recover,
                &body.attempt_id,
                &body.code,
                now_ms(),
            )?
            .ok_or(ApiError::Code)?;
            let tx = c.transaction()?;
            tx.execute(
                "UPDATE codes SET reset_hash = ?2 WHERE id = ?1",
                params![body.attempt_id, reset_hash],
            )?;
            let user = user::by_id(&tx, user_id)?.ok_or(ApiError::Code)?;
            tx.commit()?;
            Ok(user)
        })
        .await
        .map_err(reject)?;
    let user_token = app
        .keys
        .issue(
            Scope::Reset,
            user.id.0,
            &user.role,
            &attempt,
            now_ms(),
            CODE_SECS,
        )
        .map_err(reject)?;
    Ok(json(
        &json!({"userToken": user_token, "resetToken": reset_token}),
    ))
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

/// Sets the new password and ends every session of the account.
async fn reset(app: App, body: Reset) -> Result<warp::reply::Response, Rejection> {
    check(Field::Password, &body.password, None).map_err(reject)?;
    check(Field::PasswordC, &body.password_c, Some(&body.password)).map_err(reject)?;
    let claims = app
        .keys
        .verify(&body.user_token, Scope::Reset)
        .map_err(reject)?;
    let user_id = UserId(
        claims
            .id
            .parse()
            .map_err(|_| reject(ApiError::Unauthorized))?,
    );
    let hash = app
        .passwords
        .hash(body.password.clone())
        .await
        .map_err(reject)?;
    let presented = crypto::sha256_hex(&body.reset_token);
    let revoked = app
        .db
        .run(move |c| {
            let tx = c.transaction()?;
            // The reset token is single use: clearing it is the spend.
            let spent = tx.execute(
                "UPDATE codes SET reset_hash = NULL WHERE id = ?1 AND purpose = 'recover' AND user_id = ?2 AND reset_hash = ?3",
                params![claims.sid, user_id.0, presented],
            )?;
            if spent != 1 {
                return Err(ApiError::Unauthorized);
            }
            user::set_password(&tx, user_id, &hash)?;
            let revoked = session::revoke_all(&tx, user_id, now_ms())?;
            tx.execute("DELETE FROM login_failures WHERE user_id = ?1", [user_id.0])?;
            tx.commit()?;
            Ok(revoked)
        })
        .await
        .map_err(reject)?;
    tracing::info!(user = user_id.0, sessions_ended = revoked, "password reset");
    Ok(json(&json!({"ok": true})))
}
