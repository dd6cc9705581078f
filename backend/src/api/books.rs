//! The books checked against the chain (`crate::books::schedule`, admins) and the platform's
//! solvency (`crate::solvency`, anyone).

use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::{Filter, Reply};

use super::auth::admin;
use super::error::reply;
use super::{ok, with, Answer};
use crate::books::schedule;
use crate::session::Authed;
use crate::{solvency, App};

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // GET /api/v1/books — admin: the schedule, whether a check runs now, and the newest check
    // of the books against the chain with its report → {available, everyHours, running, latest}.
    let standing = warp::path!("books")
        .and(warp::get())
        .and(admin(app.clone()))
        .and(with(&app))
        .then(standing)
        .map(reply);
    // POST /api/v1/books — admin: check the books now, in the background → 202 {running: true};
    // 409 error-books-running while a check runs.
    let start = warp::path!("books")
        .and(warp::post())
        .and(admin(app.clone()))
        .and(with(&app))
        .then(start)
        .map(reply);
    // GET /api/v1/solvency — anyone, no sign-in: each reward reserve (promised, free, weeks of
    // new stakes covered), members' claims owed against the distributor's LVLX, the newest
    // check of the books; read at most every 10 s.
    let solvency = warp::path!("solvency")
        .and(warp::get())
        .and(with(&app))
        .then(solvency)
        .map(reply);
    standing.or(start).unify().or(solvency).unify().boxed()
}

async fn standing(_: Authed, app: App) -> Answer {
    ok(&schedule::standing(&app).await?)
}

async fn start(_: Authed, app: App) -> Answer {
    schedule::start(&app).await?;
    Ok(warp::reply::with_status(
        warp::reply::json(&schedule::BooksStarted { running: true }),
        StatusCode::ACCEPTED,
    )
    .into_response())
}

async fn solvency(app: App) -> Answer {
    ok(&solvency::read(&app).await?)
}
