//! Sign-in routes (docs/product/accounts.md#sign-in): email and password → a 4-digit code by mail →
//! the session (`accounts::logins`).

use std::net::IpAddr;

use warp::Filter;

use super::auth::{authorization, bearer};
use super::error::reply;
use super::openapi::errors::*;
use super::{first_of, form, ok, Answer, Route};
use crate::accounts::logins::{self, Code, Login, Resend};
use crate::App;

/// This module's operations, merged into the served document by `api::openapi`.
#[derive(utoipa::OpenApi)]
#[openapi(paths(login, verify_code, resend_code))]
pub(super) struct Doc;

pub fn routes(app: App) -> Route {
    // {token, verifyCode}: a narrow token for the code step.
    let login = warp::path!("login")
        .boxed()
        .and(form(&app))
        .then(login)
        .map(reply)
        .boxed();
    // The session and the user (or admin) payload.
    let verify = warp::path!("verifycode")
        .boxed()
        .and(form(&app))
        .and(authorization())
        .then(verify_code)
        .map(reply)
        .boxed();
    // A new code for the same sign-in, with the step-1 token in Authorization → {token,
    // verifyCode}: the earlier code stops working, and the sends per email and hour are those of
    // every code.
    let resend = warp::path!("verifycode" / "resend")
        .boxed()
        .and(form(&app))
        .and(authorization())
        .then(resend_code)
        .map(reply)
        .boxed();
    first_of([login, verify, resend])
}

/// Sign-in step 1: email, password and captcha; a 4-digit code is mailed
#[utoipa::path(
    post,
    path = "/login",
    operation_id = "post_login",
    security(),
    request_body = crate::accounts::logins::Login,
    responses(
        (status = 200, description = "OK", body = crate::accounts::logins::CodeSent),
        (status = 400, response = E400),
        (status = 401, response = E401),
        (status = 413, response = E413),
        (status = 429, response = E429),
        (status = 500, response = E500),
    ),
)]
async fn login(ip: Option<IpAddr>, app: App, body: Login) -> Answer {
    app.auth_limit.check(ip).await?;
    ok(&logins::login(app.accounts(), ip, body).await?)
}

/// Sign-in step 2: the mailed code → the session and the payload
///
/// The narrow token from POST /login.
#[utoipa::path(
    post,
    path = "/verifycode",
    operation_id = "post_verifycode",
    security(("bearer" = [])),
    request_body = crate::accounts::logins::Code,
    responses(
        (status = 200, description = "OK", body = crate::session::SignedIn),
        Member,
        (status = 413, response = E413),
        (status = 429, response = E429),
    ),
)]
async fn verify_code(
    ip: Option<IpAddr>,
    app: App,
    body: Code,
    authorization: Option<String>,
) -> Answer {
    app.code_limit.check(ip).await?;
    ok(&logins::verify_code(app.accounts(), bearer(authorization.as_deref())?, body).await?)
}

/// A new sign-in code for the same attempt
///
/// The narrow token from POST /login.
#[utoipa::path(
    post,
    path = "/verifycode/resend",
    operation_id = "post_verifycode_resend",
    security(("bearer" = [])),
    request_body = crate::accounts::logins::Resend,
    responses(
        (status = 200, description = "OK", body = crate::accounts::logins::CodeSent),
        Member,
        (status = 413, response = E413),
        (status = 429, response = E429),
    ),
)]
async fn resend_code(
    ip: Option<IpAddr>,
    app: App,
    body: Resend,
    authorization: Option<String>,
) -> Answer {
    app.code_limit.check(ip).await?;
    ok(&logins::resend_code(app.accounts(), bearer(authorization.as_deref())?, body).await?)
}
