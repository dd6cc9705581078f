//! Session calls (docs/product/api.md#calls): tokenVerify (refresh) and signout, plus the admin's
//! own details.

use serde::Deserialize;
use warp::Filter;

use super::auth::{admin, authed_app};
use super::error::reply;
use super::openapi::errors::*;
use super::{first_of, json, json_body, ok, Answer, Route};
use crate::session::{self, Authed};
use crate::App;

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Signout {
    #[allow(dead_code)] // The browser sends it; the Authorization header is what is checked.
    token: String,
}

/// This module's operations, merged into the served document by `api::openapi`.
#[derive(utoipa::OpenApi)]
#[openapi(paths(refresh, signout, admin_session))]
pub(super) struct Doc;

pub fn routes(app: App) -> Route {
    // {auth, token}: a fresh token while the session lives, else 401.
    let verify = warp::path!("tokenVerify")
        .boxed()
        .and(warp::get())
        .and(authed_app(&app))
        .map(refresh)
        .boxed();
    // Ends the session server-side: its token gets 401 from then on.
    let signout = warp::path!("signout")
        .boxed()
        .and(warp::post())
        .and(authed_app(&app))
        .and(json_body::<Signout>())
        .then(signout)
        .map(reply)
        .boxed();
    // The signed-in admin (names for the side menu).
    let admin = warp::path!("admin" / "session")
        .boxed()
        .and(warp::get())
        .and(admin(app))
        .map(admin_session)
        .boxed();
    first_of([verify, signout, admin])
}

/// The signed-in admin
///
/// Admins only (the role is re-read from the database).
#[utoipa::path(
    get,
    path = "/admin/session",
    operation_id = "get_admin_session",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "OK", body = crate::user::AdminPayload),
        Admin,
    ),
)]
fn admin_session(who: Authed) -> warp::reply::Response {
    json(&crate::user::admin_payload(&who.user))
}

/// A fresh token while the session lives
#[utoipa::path(
    get,
    path = "/tokenVerify",
    operation_id = "get_tokenVerify",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "OK", body = crate::session::Refreshed),
        Member,
    ),
)]
fn refresh(who: Authed, app: App) -> warp::reply::Response {
    reply(
        session::token(
            &app.keys,
            &who.user,
            &who.session_id,
            who.session_expires_ms,
        )
        .and_then(|token| ok(&session::Refreshed { auth: true, token })),
    )
}

/// Ends the session server-side
#[utoipa::path(
    post,
    path = "/signout",
    operation_id = "post_signout",
    security(("bearer" = [])),
    request_body = Signout,
    responses(
        (status = 200, description = "OK", body = crate::session::SignedOut),
        Member,
    ),
)]
async fn signout(who: Authed, app: App, _: Signout) -> Answer {
    session::sign_out(&app.store, who.session_id).await?;
    ok(&session::SignedOut { auth: true })
}
