//! Liveness: the server and its database answer.

use serde::Serialize;
use warp::filters::BoxedFilter;
use warp::Filter;

use super::error::reply;
use super::{ok, with, Answer};
use crate::{store, App};

#[derive(Serialize)]
struct Health {
    status: &'static str,
    version: &'static str,
    /// Schema version the database is at.
    schema: i64,
}

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // GET /api/v1/health — answers only when the database answers.
    warp::path!("health")
        .and(warp::get())
        .and(with(&app))
        .then(health)
        .map(reply)
        .boxed()
}

async fn health(app: App) -> Answer {
    let schema = app.store.read(store::schema_version).await?;
    ok(&Health {
        status: "ok",
        version: env!("CARGO_PKG_VERSION"),
        schema,
    })
}
