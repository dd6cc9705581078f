//! Liveness: the server and its database answer.

use serde::Serialize;
use warp::filters::BoxedFilter;
use warp::Filter;

use super::json;
use crate::App;

#[derive(Serialize)]
struct Health {
    status: &'static str,
    version: &'static str,
    /// Schema version the database is at.
    schema: i64,
}

/// GET /api/v1/health — answers only when the database answers.
pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    warp::path!("health")
        .and(warp::get())
        .and_then(move || {
            let app = app.clone();
            async move {
                let schema = app
                    .db
                    .run(|c| Ok(c.query_row("PRAGMA user_version", [], |r| r.get(0))?))
                    .await
                    .map_err(warp::reject::custom)?;
                Ok::<_, warp::Rejection>(json(&Health {
                    status: "ok",
                    version: env!("CARGO_PKG_VERSION"),
                    schema,
                }))
            }
        })
        .boxed()
}
