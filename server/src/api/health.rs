//! Liveness (`/health`) and readiness (`/ready`), answered from `crate::health`: readiness
//! is 503 while the instance cannot serve.

use warp::http::header::{HeaderValue, CACHE_CONTROL};
use warp::http::StatusCode;
use warp::{Filter, Reply};

use super::error::reply;
use super::openapi::errors::*;
use super::{first_of, ok, with, Answer, Route};
use crate::App;

/// This module's operations, merged into the served document by `api::openapi`.
#[derive(utoipa::OpenApi)]
#[openapi(paths(health, ready))]
pub(super) struct Doc;

pub fn routes(app: App) -> Route {
    // Answers only when the database answers.
    let health = warp::path!("health")
        .boxed()
        .and(warp::get())
        .and(with(&app))
        .then(health)
        .map(reply)
        .boxed();
    // 200 when the database and the chain's node answer, else 503 naming which.
    let ready = warp::path!("ready")
        .boxed()
        .and(warp::get())
        .and(with(&app))
        .then(ready)
        .boxed();
    first_of([health, ready])
}

/// Liveness: answers only when the database answers
#[utoipa::path(
    get,
    path = "/health",
    operation_id = "get_health",
    security(),
    responses(
        (status = 200, description = "OK", body = crate::health::Health),
        (status = 400, response = E400),
        (status = 500, response = E500),
    ),
)]
async fn health(app: App) -> Answer {
    ok(&crate::health::health(&app.store).await?)
}

/// Readiness: the database answers and, with a chain configured, its nodes do not all fail and its indexer moves on the indexed chain
#[utoipa::path(
    get,
    path = "/ready",
    operation_id = "get_ready",
    security(),
    responses(
        (status = 200, description = "Ready", body = crate::health::Ready),
        (
            status = 503,
            description = "Not ready: which part does not answer",
            body = crate::health::Ready,
        ),
        (status = 500, response = E500),
    ),
)]
async fn ready(app: App) -> warp::reply::Response {
    let ready = crate::health::ready(&app.store, &app.config, &app.indexing, &app.readiness).await;
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
