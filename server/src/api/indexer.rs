//! The indexer's standing for admins (`crate::chain::status`).

use warp::Filter;

use super::auth::admin_app;
use super::error::reply;
use super::openapi::errors::*;
use super::{ok, Answer, Route};
use crate::chain::status;
use crate::session::Authed;
use crate::App;

/// This module's operations, merged into the served document by `api::openapi`.
#[derive(utoipa::OpenApi)]
#[openapi(paths(standing))]
pub(super) struct Doc;

pub fn routes(app: App) -> Route {
    // Admins: where the indexer stands → {nextBlock, finalBlock, pending, reversalsDay,
    // finalReversalsDay, moving}: the next block to read, the highest final one, the purchases not
    // final yet, the events taken back by reorganisations in the last 24 hours (and of those the
    // ones shown final), and this instance's indexer's lag.
    warp::path!("admin" / "indexer")
        .boxed()
        .and(warp::get())
        .and(admin_app(&app))
        .then(standing)
        .map(reply)
        .boxed()
}

/// Where the indexer stands: next block, final block, purchases pending, reversals in 24 h, this instance's lag
#[utoipa::path(
    get,
    path = "/admin/indexer",
    operation_id = "get_admin_indexer",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "OK", body = crate::chain::status::Standing),
        (status = 401, response = E401),
        (status = 403, response = E403),
        (status = 500, response = E500),
    ),
)]
async fn standing(_who: Authed, app: App) -> Answer {
    ok(&status::read(&app.store, &app.config, &app.indexing).await?)
}
