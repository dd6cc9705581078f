//! Sign-in routes (docs/product/accounts.md#sign-in): email and password → a 4-digit code by mail →
//! the session (`accounts::logins`).

use std::net::IpAddr;

use warp::filters::BoxedFilter;
use warp::Filter;

use super::auth::{authorization, bearer};
use super::error::reply;
use super::{form, ok, Answer};
use crate::accounts::logins::{self, Code, Login, Resend};
use crate::App;

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // POST /api/v1/login — {token, verifyCode}: a narrow token for the code step.
    let login = warp::path!("login").and(form(&app)).then(login).map(reply);
    // POST /api/v1/verifycode — the session and the user (or admin) payload.
    let verify = warp::path!("verifycode")
        .and(form(&app))
        .and(authorization())
        .then(verify_code)
        .map(reply);
    // POST /api/v1/verifycode/resend {language?} — a new code for the same sign-in, with the
    // step-1 token in Authorization → {token, verifyCode}: the earlier code stops working, and
    // the sends per email and hour are those of every code.
    let resend = warp::path!("verifycode" / "resend")
        .and(form(&app))
        .and(authorization())
        .then(resend_code)
        .map(reply);
    login.or(verify).unify().or(resend).unify().boxed()
}

async fn login(ip: Option<IpAddr>, app: App, body: Login) -> Answer {
    app.auth_limit.check(ip).await?;
    ok(&logins::login(&app, ip, body).await?)
}

async fn verify_code(
    ip: Option<IpAddr>,
    app: App,
    body: Code,
    authorization: Option<String>,
) -> Answer {
    app.code_limit.check(ip).await?;
    ok(&logins::verify_code(&app, bearer(authorization.as_deref())?, body).await?)
}

async fn resend_code(
    ip: Option<IpAddr>,
    app: App,
    body: Resend,
    authorization: Option<String>,
) -> Answer {
    app.code_limit.check(ip).await?;
    ok(&logins::resend_code(&app, bearer(authorization.as_deref())?, body).await?)
}
