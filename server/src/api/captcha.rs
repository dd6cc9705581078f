//! The self-hosted proof-of-work captcha (docs/product/accounts.md#captcha) that guards sign-in,
//! registration and recovery.

use warp::Filter;

use super::openapi::errors::*;
use super::{json, with, Route};
use crate::captcha;
use crate::{now_ms, App};

/// This module's operations, merged into the served document by `api::openapi`.
#[derive(utoipa::OpenApi)]
#[openapi(paths(challenge))]
pub(super) struct Doc;

pub fn routes(app: App) -> Route {
    // A signed challenge to solve.
    warp::path!("captcha")
        .boxed()
        .and(warp::get())
        .and(with(&app))
        .map(challenge)
        .boxed()
}

/// A signed proof-of-work challenge
///
/// Solve it by finding an integer n ≥ 0 such that SHA-256 of the UTF-8 text `{challenge}:{n}` (n in decimal) starts with at least `difficulty` zero bits; send `{challenge, solution: n}` as `captcha` with the sign-in, registration or recovery. The browser does it in WebAssembly (`lvlx_core::captcha`). Each challenge is signed, expires and is good once.
#[utoipa::path(
    get,
    path = "/captcha",
    operation_id = "get_captcha",
    security(),
    responses(
        (status = 200, description = "OK", body = crate::captcha::Challenge),
        (status = 400, response = E400),
        (status = 500, response = E500),
    ),
)]
fn challenge(app: App) -> warp::reply::Response {
    json(&captcha::issue(
        &app.mac_key,
        app.config.captcha_difficulty,
        now_ms(),
    ))
}
