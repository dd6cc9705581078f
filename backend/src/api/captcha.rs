//! The self-hosted proof-of-work captcha (docs/product/accounts.md#captcha) that guards sign-in,
//! registration and recovery.

use warp::filters::BoxedFilter;
use warp::Filter;

use super::{json, with};
use crate::captcha;
use crate::{now_ms, App};

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // GET /api/v1/captcha — a signed challenge to solve.
    warp::path!("captcha")
        .and(warp::get())
        .and(with(&app))
        .map(challenge)
        .boxed()
}

fn challenge(app: App) -> warp::reply::Response {
    json(&captcha::issue(
        &app.mac_key,
        app.config.captcha_difficulty,
        now_ms(),
    ))
}
