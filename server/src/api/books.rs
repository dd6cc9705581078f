//! The books checked against the chain (`crate::books::schedule`, admins) and the platform's
//! solvency (`crate::solvency`, anyone).

use warp::http::StatusCode;
use warp::{Filter, Reply};

use super::auth::admin_app;
use super::error::reply;
use super::openapi::errors::*;
use super::{first_of, ok, with, Answer, Route};
use crate::books::schedule;
use crate::session::Authed;
use crate::{solvency, App};

/// This module's operations, merged into the served document by `api::openapi`.
#[derive(utoipa::OpenApi)]
#[openapi(paths(standing, start, solvency))]
pub(super) struct Doc;

pub fn routes(app: App) -> Route {
    // Admin: the schedule, whether a check runs now, and the newest check of the books against the
    // chain with its report → {available, everyHours, running, latest}.
    let standing = warp::path!("books")
        .boxed()
        .and(warp::get())
        .and(admin_app(&app))
        .then(standing)
        .map(reply)
        .boxed();
    // Admin: check the books now, in the background → 202 {running: true}; 409 error-books-running
    // while a check runs.
    let start = warp::path!("books")
        .boxed()
        .and(warp::post())
        .and(admin_app(&app))
        .then(start)
        .map(reply)
        .boxed();
    // Anyone, no sign-in: each reward reserve (promised, free, weeks of new stakes covered),
    // members' claims owed against the distributor's LVLX, the newest check of the books; read at
    // most every 10 s.
    let solvency = warp::path!("solvency")
        .boxed()
        .and(warp::get())
        .and(with(&app))
        .then(solvency)
        .map(reply)
        .boxed();
    first_of([standing, start, solvency])
}

/// The newest check of the books against the chain, and whether one runs now
///
/// Admins only (the role is re-read from the database). `latest` is null before the first check; its `report` lists each section's differing lines, or `{error}` when the check could not run.
#[utoipa::path(
    get,
    path = "/books",
    operation_id = "get_books",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "OK", body = crate::books::schedule::Books),
        Admin,
    ),
)]
async fn standing(_: Authed, app: App) -> Answer {
    ok(&schedule::standing(&app.books()).await?)
}

/// Check the books against the chain now, in the background
///
/// Admins only. 409 `error-books-running` while a check runs; 503 without a chain.
#[utoipa::path(
    post,
    path = "/books",
    operation_id = "post_books",
    security(("bearer" = [])),
    responses(
        (status = 202, description = "Started", body = crate::books::schedule::BooksStarted),
        Admin,
        (status = 409, response = E409),
        (status = 503, response = E503),
    ),
)]
async fn start(_: Authed, app: App) -> Answer {
    schedule::start(&app.books()).await?;
    Ok(warp::reply::with_status(
        warp::reply::json(&schedule::BooksStarted { running: true }),
        StatusCode::ACCEPTED,
    )
    .into_response())
}

/// The platform's solvency: reward reserves, claims owed against the distributor, the newest check of the books
///
/// Anyone, no sign-in. Read at most every 10 s per instance. Amounts are base-unit decimal strings; `claims.held` and `claims.covered` are null without a claim distributor, `books` null before the first check.
#[utoipa::path(
    get,
    path = "/solvency",
    operation_id = "get_solvency",
    security(),
    responses(
        (status = 200, description = "OK", body = crate::solvency::Solvency),
        (status = 500, response = E500),
        (status = 503, response = E503),
    ),
)]
async fn solvency(app: App) -> Answer {
    ok(&solvency::read(&app.store, &app.config, &app.chain_reads, &app.solvency).await?)
}
