//! The card on-ramp route (`crate::onramp::open`).

use std::net::IpAddr;

use warp::Filter;

use super::auth::authed_app;
use super::client;
use super::error::reply;
use super::openapi::errors::*;
use super::{ok, Answer, Route};
use crate::session::Authed;
use crate::{onramp, App};

/// This module's operations, merged into the served document by `api::openapi`.
#[derive(utoipa::OpenApi)]
#[openapi(paths(open))]
pub(super) struct Doc;

pub fn routes(app: App) -> Route {
    // Creates the card provider's on-ramp session for the member's linked wallet → {id,
    // clientSecret, redirectUrl, publishableKey, currency}. 404 when no provider is configured; 409
    // without a linked wallet; 429 past 10 an hour.
    warp::path!("onramp" / "session")
        .boxed()
        .and(warp::post())
        .and(client::address(&app))
        .and(authed_app(&app))
        .then(open)
        .map(reply)
        .boxed()
}

/// Creates the card provider's on-ramp session for the linked wallet
#[utoipa::path(
    post,
    path = "/onramp/session",
    operation_id = "post_onramp_session",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "OK", body = crate::onramp::Session),
        Member,
        (status = 404, response = E404),
        (status = 409, response = E409),
        (status = 429, response = E429),
    ),
)]
async fn open(ip: Option<IpAddr>, who: Authed, app: App) -> Answer {
    ok(&onramp::open(&app.store, &app.config, &who.user, ip).await?)
}
