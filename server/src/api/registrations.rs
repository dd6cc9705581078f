//! Registration routes (docs/product/accounts.md#registration): personal data and password → a code
//! by mail → the account and its session (`accounts::registrations`).

use std::net::IpAddr;

use warp::Filter;

use super::error::reply;
use super::openapi::errors::*;
use super::{client, first_of, form, ok, with, Answer, Route};
use crate::accounts::registrations::{self, CodeAnswer, Register};
use crate::App;

/// This module's operations, merged into the served document by `api::openapi`.
#[derive(utoipa::OpenApi)]
#[openapi(paths(register, verify, inviter))]
pub(super) struct Doc;

pub fn routes(app: App) -> Route {
    // {attemptId}; the code goes by mail.
    let register = warp::path!("register")
        .boxed()
        .and(form(&app))
        .then(register)
        .map(reply)
        .boxed();
    // The session and the user payload.
    let verify = warp::path!("register" / "verify")
        .boxed()
        .and(form(&app))
        .then(verify)
        .map(reply)
        .boxed();
    // {name}: who invited (first name and initial).
    let inviter = warp::path!("register" / "inviter" / String)
        .boxed()
        .and(warp::get())
        .and(client::address(&app))
        .and(with(&app))
        .then(inviter)
        .map(reply)
        .boxed();
    first_of([register, verify, inviter])
}

/// Who invited someone registering through a referral code: first name and initial
#[utoipa::path(
    get,
    path = "/register/inviter/{code}",
    operation_id = "get_register_inviter",
    security(),
    params(
        ("code" = String, Path),
    ),
    responses(
        (status = 200, description = "OK", body = crate::accounts::registrations::Inviter),
        (status = 400, response = E400),
        (status = 405, response = E405),
        (status = 429, response = E429),
        (status = 500, response = E500),
    ),
)]
async fn inviter(code: String, ip: Option<IpAddr>, app: App) -> Answer {
    app.auth_limit.check(ip).await?;
    ok(&registrations::inviter(&app.store, code).await?)
}

/// Registration: personal data, password, referral code and captcha; a code is mailed
#[utoipa::path(
    post,
    path = "/register",
    operation_id = "post_register",
    security(),
    request_body = crate::accounts::registrations::Register,
    responses(
        (status = 200, description = "OK", body = crate::accounts::registrations::Attempt),
        (status = 400, response = E400),
        (status = 409, response = E409),
        (status = 413, response = E413),
        (status = 429, response = E429),
        (status = 500, response = E500),
    ),
)]
async fn register(ip: Option<IpAddr>, app: App, body: Register) -> Answer {
    app.auth_limit.check(ip).await?;
    ok(&registrations::register(app.accounts(), body).await?)
}

/// Registration: the mailed code → the session
#[utoipa::path(
    post,
    path = "/register/verify",
    operation_id = "post_register_verify",
    security(),
    request_body = crate::accounts::registrations::CodeAnswer,
    responses(
        (status = 200, description = "OK", body = crate::session::SignedIn),
        (status = 400, response = E400),
        (status = 413, response = E413),
        (status = 429, response = E429),
        (status = 500, response = E500),
    ),
)]
async fn verify(ip: Option<IpAddr>, app: App, body: CodeAnswer) -> Answer {
    app.code_limit.check(ip).await?;
    ok(&registrations::verify(app.accounts(), body).await?)
}
