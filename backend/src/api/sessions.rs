//! Session calls (docs/product/api.md#calls): tokenVerify (refresh) and signout, plus the admin's
//! own details.

use serde::Deserialize;
use warp::filters::BoxedFilter;
use warp::Filter;

use super::auth::{admin, authed};
use super::error::reply;
use super::{json, json_body, ok, with, Answer};
use crate::session::{self, Authed};
use crate::App;

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Signout {
    #[allow(dead_code)] // The browser sends it; the Authorization header is what is checked.
    token: String,
}

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // GET /api/v1/tokenVerify — {auth, token}: a fresh token while the session lives, else 401.
    let verify = warp::path!("tokenVerify")
        .and(warp::get())
        .and(authed(app.clone()))
        .and(with(&app))
        .map(refresh);
    // POST /api/v1/signout — ends the session server-side: its token gets 401 from then on.
    let signout = warp::path!("signout")
        .and(warp::post())
        .and(authed(app.clone()))
        .and(with(&app))
        .and(json_body::<Signout>())
        .then(signout)
        .map(reply);
    // GET /api/v1/admin/session — the signed-in admin (names for the side menu).
    let admin = warp::path!("admin" / "session")
        .and(warp::get())
        .and(admin(app))
        .map(admin_session);
    verify.or(signout).unify().or(admin).unify().boxed()
}

fn admin_session(who: Authed) -> warp::reply::Response {
    json(&crate::user::admin_payload(&who.user))
}

fn refresh(who: Authed, app: App) -> warp::reply::Response {
    reply(
        session::token(&app, &who.user, &who.session_id, who.session_expires_ms)
            .and_then(|token| ok(&session::Refreshed { auth: true, token })),
    )
}

async fn signout(who: Authed, app: App, _: Signout) -> Answer {
    session::sign_out(&app, who.session_id).await?;
    ok(&session::SignedOut { auth: true })
}
