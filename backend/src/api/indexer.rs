//! The indexer's standing for admins (`crate::chain::status`).

use warp::filters::BoxedFilter;
use warp::Filter;

use super::auth::admin;
use super::error::reply;
use super::{ok, with, Answer};
use crate::chain::status;
use crate::session::Authed;
use crate::App;

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // GET /api/v1/admin/indexer — admins: where the indexer stands → {nextBlock, finalBlock,
    // pending, reversalsDay, finalReversalsDay, moving}: the next block to read, the highest
    // final one, the purchases not final yet, the events taken back by reorganisations in the
    // last 24 hours (and of those the ones shown final), and this instance's indexer's lag.
    warp::path!("admin" / "indexer")
        .and(warp::get())
        .and(admin(app.clone()))
        .and(with(&app))
        .then(standing)
        .map(reply)
        .boxed()
}

async fn standing(_who: Authed, app: App) -> Answer {
    ok(&status::read(&app).await?)
}
