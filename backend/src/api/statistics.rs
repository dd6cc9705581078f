//! Admin statistics routes (`crate::statistics`): the JSON calls keep the shapes of
//! docs/product/api.md#statistics with the newest rows only (`?limit=`, default 100, at most 1000);
//! the whole row lists travel as Arrow IPC streams from `…/rows`.

use bytes::Bytes;
use lvlx_core::admin::stakes::Kind;
use serde::Deserialize;
use warp::filters::BoxedFilter;
use warp::http::header::{HeaderValue, CONTENT_TYPE};
use warp::{Filter, Reply};

use super::auth::admin;
use super::error::reply;
use super::{ok, with, Answer};
use crate::error::Error;
use crate::session::Authed;
use crate::statistics;
use crate::App;

pub const ARROW_STREAM: &str = "application/vnd.apache.arrow.stream";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Limit {
    limit: Option<u32>,
}

/// Rows a JSON answer holds without `?limit=`, and at most (a larger limit is capped).
pub const ROWS_DEFAULT: u32 = 100;
pub const ROWS_MAX: u32 = 1000;

impl Limit {
    fn get(&self) -> u32 {
        self.limit.unwrap_or(ROWS_DEFAULT).min(ROWS_MAX)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Ids {
    ids: String,
}

impl Ids {
    /// At most one table page of ids, comma separated.
    pub const MAX: usize = 100;

    fn parse(&self) -> Result<Vec<u32>, Error> {
        let ids = self
            .ids
            .split(',')
            .map(|id| id.trim().parse::<u32>())
            .collect::<Result<Vec<u32>, _>>()
            .map_err(|_| Error::Malformed("ids: comma-separated entry ids".into()))?;
        if ids.len() > Self::MAX {
            return Err(Error::Malformed(format!("ids: at most {}", Self::MAX)));
        }
        Ok(ids)
    }
}

pub(crate) fn arrow(bytes: Vec<u8>) -> Answer {
    Ok(warp::reply::with_header(bytes, CONTENT_TYPE, ARROW_STREAM).into_response())
}

/// A kept answer (JSON or an Arrow stream) as it was made.
fn kept(bytes: Bytes, content_type: &'static str) -> Answer {
    let mut response = warp::reply::Response::new(bytes.into());
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    Ok(response)
}

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // Every call here: GET by an admin (role re-read from the database), with the app.
    let admin = move || warp::get().and(admin(app.clone())).and(with(&app));
    // GET /api/v1/statistics-ico — {General, transactions (newest first), firstPage (the table's
    // first page, oldest first), initDate, lastDate}.
    let ico = warp::path!("statistics-ico")
        .and(admin())
        .and(warp::query::<Limit>())
        .then(ico)
        .map(reply);
    // GET /api/v1/statistics-ico/rows — every transaction, oldest first, as Arrow IPC.
    let ico_rows = warp::path!("statistics-ico" / "rows")
        .and(admin())
        .then(ico_rows)
        .map(reply);
    // GET /api/v1/statistics-ico/trails?ids=1,2,3 — the wallet and transaction of up to one
    // page (100) of entries, which the rows stream leaves out (64 bytes a row).
    let ico_trails = warp::path!("statistics-ico" / "trails")
        .and(admin())
        .and(warp::query::<Ids>())
        .then(ico_trails)
        .map(reply);
    // GET /api/v1/statistics-users — {General, result (newest first), firstPage (oldest first),
    // initDate, lastDate}.
    let users = warp::path!("statistics-users")
        .and(admin())
        .and(warp::query::<Limit>())
        .then(users)
        .map(reply);
    // GET /api/v1/statistics-users/rows — every member, oldest first, as Arrow IPC.
    let user_rows = warp::path!("statistics-users" / "rows")
        .and(admin())
        .then(user_rows)
        .map(reply);
    // GET /api/v1/statistics-nftstaking — {General, result (first stakers), initDate, lastDate}.
    // GET /api/v1/statistics-lvlxstaking — the same for the LVLX pool.
    // GET /api/v1/statistics-nftstaking/rows — every entry, release date ascending, as Arrow IPC.
    // GET /api/v1/statistics-lvlxstaking/rows — the same for the LVLX pool.
    let staking = |path: &'static str, kind: Kind| {
        let summary = warp::path(path)
            .and(warp::path::end())
            .and(admin())
            .and(warp::query::<Limit>())
            .then(move |who: Authed, app: App, limit: Limit| staking(kind, who, app, limit))
            .map(reply);
        let rows = warp::path(path)
            .and(warp::path("rows"))
            .and(warp::path::end())
            .and(admin())
            .then(move |who: Authed, app: App| staking_rows(kind, who, app))
            .map(reply);
        summary.or(rows).unify()
    };
    ico.or(ico_rows)
        .unify()
        .or(ico_trails)
        .unify()
        .or(users)
        .unify()
        .or(user_rows)
        .unify()
        .or(staking("statistics-nftstaking", Kind::Nft))
        .unify()
        .or(staking("statistics-lvlxstaking", Kind::Lvlx))
        .unify()
        .boxed()
}

async fn ico(_: Authed, app: App, limit: Limit) -> Answer {
    kept(
        statistics::ico(&app, limit.get()).await?,
        "application/json",
    )
}

async fn ico_rows(_: Authed, app: App) -> Answer {
    kept(statistics::ico_rows(&app).await?, ARROW_STREAM)
}

async fn ico_trails(_: Authed, app: App, ids: Ids) -> Answer {
    ok(&statistics::ico_trails(&app, ids.parse()?).await?)
}

async fn users(_: Authed, app: App, limit: Limit) -> Answer {
    kept(
        statistics::users(&app, limit.get()).await?,
        "application/json",
    )
}

async fn user_rows(_: Authed, app: App) -> Answer {
    kept(statistics::user_rows(&app).await?, ARROW_STREAM)
}

async fn staking(kind: Kind, _: Authed, app: App, limit: Limit) -> Answer {
    ok(&statistics::staking(&app, kind, limit.get()).await?)
}

async fn staking_rows(kind: Kind, _: Authed, app: App) -> Answer {
    arrow(statistics::staking_rows(&app, kind).await?)
}
