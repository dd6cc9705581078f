//! Registration routes (docs/product/accounts.md#registration): personal data and password → a code
//! by mail → the account and its session (`accounts::registrations`).

use std::net::IpAddr;

use warp::filters::BoxedFilter;
use warp::Filter;

use super::error::reply;
use super::{client, form, ok, with, Answer};
use crate::accounts::registrations::{self, CodeAnswer, Register};
use crate::App;

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // POST /api/v1/register — {attemptId}; the code goes by mail.
    let register = warp::path!("register")
        .and(form(&app))
        .then(register)
        .map(reply);
    // POST /api/v1/register/verify — the session and the user payload.
    let verify = warp::path!("register" / "verify")
        .and(form(&app))
        .then(verify)
        .map(reply);
    // GET /api/v1/register/inviter/{code} — {name}: who invited (first name and initial).
    let inviter = warp::path!("register" / "inviter" / String)
        .and(warp::get())
        .and(client::address(&app))
        .and(with(&app))
        .then(inviter)
        .map(reply);
    register.or(verify).unify().or(inviter).unify().boxed()
}

async fn inviter(code: String, ip: Option<IpAddr>, app: App) -> Answer {
    app.auth_limit.check(ip).await?;
    ok(&registrations::inviter(&app, code).await?)
}

async fn register(ip: Option<IpAddr>, app: App, body: Register) -> Answer {
    app.auth_limit.check(ip).await?;
    ok(&registrations::register(&app, body).await?)
}

async fn verify(ip: Option<IpAddr>, app: App, body: CodeAnswer) -> Answer {
    app.code_limit.check(ip).await?;
    ok(&registrations::verify(&app, body).await?)
}
