//! The self-hosted proof-of-work captcha (DESIGN §4) that guards sign-in, registration and
//! recovery.

use warp::filters::BoxedFilter;
use warp::Filter;

use super::{json, with};
use crate::captcha::{self, Answer};
use crate::error::Error;
use crate::store::captchas;
use crate::{now_ms, App};

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // GET /api/v1/captcha — a signed challenge to solve.
    warp::path!("captcha")
        .and(warp::get())
        .and(with(&app))
        .map(|app: App| {
            json(&captcha::issue(
                &app.mac_key,
                app.config.captcha_difficulty,
                now_ms(),
            ))
        })
        .boxed()
}

/// Checks a solved challenge and spends it (single use).
pub(super) async fn spend(app: &App, answer: Answer) -> Result<(), Error> {
    let expires = captcha::check(
        &app.mac_key,
        &answer,
        app.config.captcha_difficulty,
        now_ms(),
    )?;
    let key = captcha::replay_key(&answer);
    app.store
        .write(move |c| {
            if captchas::spend(c, &key, expires, now_ms())? {
                Ok(())
            } else {
                Err(Error::Captcha)
            }
        })
        .await
}
