//! Password recovery routes (docs/product/accounts.md#recovery): email → a code by mail → a reset
//! token → a new password (`accounts::recovery`).

use std::net::IpAddr;

use warp::filters::BoxedFilter;
use warp::Filter;

use super::error::reply;
use super::{form, json_body, ok, with, Answer};
use crate::accounts::recovery::{self, Recover, Reset};
use crate::accounts::registrations::CodeAnswer;
use crate::App;

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

async fn recover(ip: Option<IpAddr>, app: App, body: Recover) -> Answer {
    app.auth_limit.check(ip).await?;
    ok(&recovery::recover(&app, body).await?)
}

async fn verify(ip: Option<IpAddr>, app: App, body: CodeAnswer) -> Answer {
    app.code_limit.check(ip).await?;
    ok(&recovery::verify(&app, body).await?)
}

async fn reset(app: App, body: Reset) -> Answer {
    ok(&recovery::reset(&app, body).await?)
}
