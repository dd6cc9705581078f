//! Registration through a referral link (docs/product/accounts.md#registration): personal data and
//! password → a 4-digit code by mail → the account and its session. Every field is checked by the
//! core's rules, exactly as the browser checks them.

use lvlx_core::validation::{self, Field};
use serde::Deserialize;

use super::Parts;
use crate::code::{self, Purpose};
use crate::error::Error;
use crate::store::{registrations, users};
use crate::user::NewUser;
use crate::{crypto, now_ms, session};

/// What a registration mails.
enum Mail {
    /// The code that confirms it.
    Code(String),
    /// The owner's notice that someone tried to register their email.
    Notice,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Register {
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
    #[schema(schema_with = crate::accounts::language)]
    language: Option<String>,
    captcha: crate::captcha::Answer,
}

/// Who invited someone registering through `code`: `{name}`, their first name and the initial
/// of their last name (`lvlx_core::display::inviter_name`), never more;
/// `error-referral-unknown` (as registering with it would answer) for a code no account has.
pub async fn inviter(store: &crate::Store, code: String) -> Result<Inviter, Error> {
    if !validation::is_referral_code(&code) {
        return Err(Error::ReferralUnknown);
    }
    let (names, lastnames) = store
        .read(move |c| users::names_by_referral_code(c, &code))
        .await?
        .ok_or(Error::ReferralUnknown)?;
    Ok(Inviter {
        name: lvlx_core::display::inviter_name(&names, &lastnames),
    })
}

/// Who invited the person registering: their first name and the initial of their last name.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct Inviter {
    name: String,
}

/// A code is on its way: the attempt it answers.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Attempt {
    pub attempt_id: String,
}

/// Every field by the core's rules (the same the page applies), the phone number as a real one,
/// and the referral code's form.
fn check_fields(body: &Register) -> Result<(), Error> {
    for (field, value, other) in [
        (Field::Names, &body.names, None),
        (Field::Lastnames, &body.lastnames, None),
        (Field::Email, &body.email, None),
        (Field::EmailC, &body.email_c, Some(body.email.as_str())),
        (Field::Cel, &body.cel, None),
        (Field::Password, &body.password, None),
        (
            Field::PasswordC,
            &body.password_c,
            Some(body.password.as_str()),
        ),
    ] {
        validation::validate(field, value, other)?;
    }
    validation::phone_exists(&body.cel)?;
    if !validation::is_referral_code(&body.referral_code) {
        return Err(Error::ReferralUnknown);
    }
    Ok(())
}

/// A registration asked for: the fields checked, the captcha spent, then a code mailed (or, for an
/// email that has an account, a notice to its owner), answered alike either way: `{attemptId}`.
pub async fn register(parts: Parts<'_>, body: Register) -> Result<Attempt, Error> {
    check_fields(&body)?;
    parts.spend_captcha(body.captcha.clone()).await?;
    let hash = parts.passwords.hash(body.password.clone()).await?;
    let language = lvlx_core::language_or(body.language.as_deref(), "en").to_string();
    let key = parts.mac_key.to_vec();
    let to = body.email.clone();
    let lang = language.clone();
    let attempt = crypto::random_hex(16);
    let bound = attempt.clone();
    let mail = parts
        .store
        .write(move |c| {
            let attempt = bound;
            let referrer = users::id_by_referral_code(c, &body.referral_code)?
                .ok_or(Error::ReferralUnknown)?;
            if users::by_email(c, &body.email)?.is_some() {
                // Answered as any registration (a 409 told who has an account): the address's
                // owner is told by mail that someone tried; no code exists for this attempt.
                code::create_void(c, Purpose::Register, &attempt, &body.email, now_ms())?;
                return Ok(Mail::Notice);
            }
            c.transaction(|tx| {
                let now = now_ms();
                let code = code::create(
                    tx,
                    &key,
                    Purpose::Register,
                    &attempt,
                    &body.email,
                    None,
                    now,
                )?;
                let pending = registrations::Pending {
                    email: body.email.clone(),
                    names: body.names.trim().to_string(),
                    lastnames: body.lastnames.trim().to_string(),
                    phone: body.cel.clone(),
                    password_hash: hash,
                    referrer,
                    language: lang,
                };
                registrations::insert(tx, &attempt, &pending, now)?;
                Ok::<_, Error>(Mail::Code(code))
            })
        })
        .await;
    match mail {
        Ok(Mail::Code(code)) => {
            parts
                .mailer
                .send_code(&to, &language, "register", &code)
                .await?
        }
        Ok(Mail::Notice) => {
            parts
                .mailer
                .send_notice(&to, &language, "register-taken")
                .await?
        }
        // Past the mails an address may get in an hour, nothing is sent, and the answer is the
        // same as ever: a 429 here, after recovery codes (which say nothing when limited) had
        // used up the hour, told that the email has an account.
        Err(Error::RateLimited { .. }) => {}
        Err(e) => return Err(e),
    }
    Ok(Attempt {
        attempt_id: attempt,
    })
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CodeAnswer {
    pub attempt_id: String,
    pub code: String,
}

pub async fn verify(parts: Parts<'_>, body: CodeAnswer) -> Result<session::SignedIn, Error> {
    validation::validate(Field::Code, &body.code, None)?;
    let key = parts.mac_key.to_vec();
    let (keys, mac_key) = (parts.keys.clone(), key.clone());
    let answer = parts
        .store
        .write(move |c| {
            // Spent outside the transaction: a wrong try must count even though this call fails.
            code::consume(
                c,
                &key,
                Purpose::Register,
                &body.attempt_id,
                &body.code,
                now_ms(),
            )?;
            c.transaction(|tx| {
                let p = registrations::take(tx, &body.attempt_id)?
                    .ok_or_else(|| Error::Internal("registration without its data".into()))?;
                let new = NewUser {
                    email: &p.email,
                    names: &p.names,
                    lastnames: &p.lastnames,
                    phone: &p.phone,
                    role: lvlx_core::MEMBER_ROLE,
                    language: &p.language,
                    password_hash: &p.password_hash,
                    referrer: Some(p.referrer),
                };
                let id = users::insert(tx, &new, &crypto::random_hex(16), now_ms())?
                    .ok_or(Error::EmailTaken)?;
                let user = users::by_id(tx, id)?
                    .ok_or_else(|| Error::Internal("new user vanished".into()))?;
                let answer = session::sign_in(&keys, &mac_key, tx, &user)?;
                tracing::info!(user = id.0, "account created");
                Ok::<_, Error>(answer)
            })
        })
        .await?;
    Ok(answer)
}
