//! The card on-ramp route (`crate::onramp::open`).

use std::net::IpAddr;

use warp::filters::BoxedFilter;
use warp::Filter;

use super::auth::authed;
use super::client;
use super::error::reply;
use super::{ok, with, Answer};
use crate::session::Authed;
use crate::{onramp, App};

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // POST /api/v1/onramp/session — creates the card provider's on-ramp session for the
    // member's linked wallet → {id, clientSecret, redirectUrl, publishableKey, currency}.
    // 404 when no provider is configured; 409 without a linked wallet; 429 past 10 an hour.
    warp::path!("onramp" / "session")
        .and(warp::post())
        .and(client::address(&app))
        .and(authed(app.clone()))
        .and(with(&app))
        .then(open)
        .map(reply)
        .boxed()
}

async fn open(ip: Option<IpAddr>, who: Authed, app: App) -> Answer {
    ok(&onramp::open(&app, &who.user, ip).await?)
}
