//! Liveness (`/health`) and readiness (`/ready`), answered from `crate::health`: readiness
//! is 503 while the instance cannot serve.

use warp::filters::BoxedFilter;
use warp::http::header::{HeaderValue, CACHE_CONTROL};
use warp::http::StatusCode;
use warp::{Filter, Reply};

use super::error::reply;
use super::{ok, with, Answer};
use crate::App;

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // GET /api/v1/health — answers only when the database answers.
    let health = warp::path!("health")
        .and(warp::get())
        .and(with(&app))
        .then(health)
        .map(reply);
    // GET /api/v1/ready — 200 when the database and the chain's node answer, else 503 naming which.
    let ready = warp::path!("ready")
        .and(warp::get())
        .and(with(&app))
        .then(ready);
    health.or(ready).unify().boxed()
}

async fn health(app: App) -> Answer {
    ok(&crate::health::health(&app).await?)
}

async fn ready(app: App) -> warp::reply::Response {
    let ready = crate::health::ready(&app).await;
    let status = if ready.ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let mut answer = warp::reply::with_status(warp::reply::json(&ready), status).into_response();
    answer
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    answer
}
