//! Password recovery routes (docs/product/accounts.md#recovery): email → a code by mail → a reset
//! token → a new password (`accounts::recovery`).

use std::net::IpAddr;

use warp::Filter;

use super::error::reply;
use super::openapi::errors::*;
use super::{first_of, form, json_body, ok, with, Answer, Route};
use crate::accounts::recovery::{self, Recover, Reset};
use crate::accounts::registrations::CodeAnswer;
use crate::App;

/// This module's operations, merged into the served document by `api::openapi`.
#[derive(utoipa::OpenApi)]
#[openapi(paths(recover, verify, reset))]
pub(super) struct Doc;

pub fn routes(app: App) -> Route {
    // {attemptId}, whether or not the email has an account.
    let recover = warp::path!("recover")
        .boxed()
        .and(form(&app))
        .then(recover)
        .map(reply)
        .boxed();
    // {userToken, resetToken}.
    let verify = warp::path!("recover" / "verify")
        .boxed()
        .and(form(&app))
        .then(verify)
        .map(reply)
        .boxed();
    // The new password; every session of the account ends.
    let reset = warp::path!("reset")
        .boxed()
        .and(warp::post())
        .and(with(&app))
        .and(json_body())
        .then(reset)
        .map(reply)
        .boxed();
    first_of([recover, verify, reset])
}

/// Password recovery: a code is mailed if the email has an account
#[utoipa::path(
    post,
    path = "/recover",
    operation_id = "post_recover",
    security(),
    request_body = crate::accounts::recovery::Recover,
    responses(
        (status = 200, description = "OK", body = crate::accounts::registrations::Attempt),
        (status = 400, response = E400),
        (status = 413, response = E413),
        (status = 429, response = E429),
        (status = 500, response = E500),
    ),
)]
async fn recover(ip: Option<IpAddr>, app: App, body: Recover) -> Answer {
    app.auth_limit.check(ip).await?;
    ok(&recovery::recover(app.accounts(), body).await?)
}

/// Recovery: the mailed code → the reset tokens
#[utoipa::path(
    post,
    path = "/recover/verify",
    operation_id = "post_recover_verify",
    security(),
    request_body = crate::accounts::registrations::CodeAnswer,
    responses(
        (status = 200, description = "OK", body = crate::accounts::recovery::ResetTokens),
        (status = 400, response = E400),
        (status = 413, response = E413),
        (status = 429, response = E429),
        (status = 500, response = E500),
    ),
)]
async fn verify(ip: Option<IpAddr>, app: App, body: CodeAnswer) -> Answer {
    app.code_limit.check(ip).await?;
    ok(&recovery::verify(app.accounts(), body).await?)
}

/// Recovery: the new password; every session ends
#[utoipa::path(
    post,
    path = "/reset",
    operation_id = "post_reset",
    security(),
    request_body = crate::accounts::recovery::Reset,
    responses(
        (status = 200, description = "OK", body = crate::accounts::recovery::PasswordReset),
        (status = 400, response = E400),
        (status = 401, response = E401),
        (status = 413, response = E413),
        (status = 500, response = E500),
    ),
)]
async fn reset(app: App, body: Reset) -> Answer {
    ok(&recovery::reset(app.accounts(), body).await?)
}
