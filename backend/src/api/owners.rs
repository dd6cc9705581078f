//! The owners' announced changes (`crate::owners::read`).

use warp::filters::BoxedFilter;
use warp::Filter;

use super::auth::authed;
use super::error::reply;
use super::{ok, with, Answer};
use crate::session::Authed;
use crate::{owners, App};

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // GET /api/v1/owners — members and admins: the claim distributor's owner changes waiting
    // for their delay, its current limits, and every contract's owner (and pending owner) →
    // {blockTime, delaySeconds, claims, pending, owners}. 503 when the chain does not answer.
    warp::path!("owners")
        .and(warp::get())
        .and(authed(app.clone()))
        .and(with(&app))
        .then(announced)
        .map(reply)
        .boxed()
}

async fn announced(_who: Authed, app: App) -> Answer {
    ok(&owners::read(&app).await?)
}
