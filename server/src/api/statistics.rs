//! Admin statistics routes (`crate::statistics`): the JSON calls keep the shapes of
//! docs/product/api.md#statistics with the newest rows only (`?limit=`, default 100, at most 1000);
//! the whole row lists travel as Arrow IPC streams from `…/rows`.

use bytes::Bytes;
use lvlx_core::admin::stakes::Kind;
use serde::Deserialize;
use warp::http::header::{HeaderValue, CONTENT_TYPE};
use warp::{Filter, Reply};

use super::auth::admin_app;
use super::error::reply;
use super::openapi::errors::*;
use super::openapi::{Binary, RowLimit};
use super::{first_of, ok, Answer, Route};
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

/// This module's operations, merged into the served document by `api::openapi`.
#[derive(utoipa::OpenApi)]
#[openapi(paths(
    ico,
    ico_rows,
    users,
    user_rows,
    nft_staking,
    nft_staking_rows,
    lvlx_staking,
    lvlx_staking_rows,
    ico_trails
))]
pub(super) struct Doc;

pub fn routes(app: App) -> Route {
    // Every call here: GET by an admin (role re-read from the database), with the app.
    let admin = move || warp::get().and(admin_app(&app));
    // {General, transactions (newest first), firstPage (the table's first page, oldest first),
    // initDate, lastDate}.
    let ico = warp::path!("statistics-ico")
        .boxed()
        .and(admin())
        .and(warp::query::<Limit>())
        .then(ico)
        .map(reply)
        .boxed();
    // Every transaction, oldest first, as Arrow IPC.
    let ico_rows = warp::path!("statistics-ico" / "rows")
        .boxed()
        .and(admin())
        .then(ico_rows)
        .map(reply)
        .boxed();
    // The wallet and transaction of up to one page (100) of entries, which the rows stream leaves
    // out (64 bytes a row).
    let ico_trails = warp::path!("statistics-ico" / "trails")
        .boxed()
        .and(admin())
        .and(warp::query::<Ids>())
        .then(ico_trails)
        .map(reply)
        .boxed();
    // {General, result (newest first), firstPage (oldest first), initDate, lastDate}.
    let users = warp::path!("statistics-users")
        .boxed()
        .and(admin())
        .and(warp::query::<Limit>())
        .then(users)
        .map(reply)
        .boxed();
    // Every member, oldest first, as Arrow IPC.
    let user_rows = warp::path!("statistics-users" / "rows")
        .boxed()
        .and(admin())
        .then(user_rows)
        .map(reply)
        .boxed();
    // {General, result (first stakers), initDate, lastDate}.
    let nft = warp::path!("statistics-nftstaking")
        .boxed()
        .and(admin())
        .and(warp::query::<Limit>())
        .then(nft_staking)
        .map(reply)
        .boxed();
    // Every entry, release date ascending, as Arrow IPC.
    let nft_rows = warp::path!("statistics-nftstaking" / "rows")
        .boxed()
        .and(admin())
        .then(nft_staking_rows)
        .map(reply)
        .boxed();
    // The same for the LVLX pool.
    let lvlx = warp::path!("statistics-lvlxstaking")
        .boxed()
        .and(admin())
        .and(warp::query::<Limit>())
        .then(lvlx_staking)
        .map(reply)
        .boxed();
    // The LVLX pool's entries, release date ascending, as Arrow IPC.
    let lvlx_rows = warp::path!("statistics-lvlxstaking" / "rows")
        .boxed()
        .and(admin())
        .then(lvlx_staking_rows)
        .map(reply)
        .boxed();
    first_of([
        ico, ico_rows, ico_trails, users, user_rows, nft, nft_rows, lvlx, lvlx_rows,
    ])
}

/// Admin ico statistics: General, the first rows, the date range
///
/// Admins only (the role is re-read from the database).
#[utoipa::path(
    get,
    path = "/statistics-ico",
    operation_id = "get_statistics_ico",
    security(("bearer" = [])),
    params(
        ("limit" = Option<RowLimit>, Query),
    ),
    responses(
        (status = 200, description = "OK", body = crate::statistics::IcoStatistics),
        Admin,
    ),
)]
async fn ico(_: Authed, app: App, limit: Limit) -> Answer {
    kept(
        statistics::ico(&app.store, &app.config.product, limit.get()).await?,
        "application/json",
    )
}

/// Every ico row as an Arrow IPC stream for the core's table engine
///
/// Admins only (the role is re-read from the database).
#[utoipa::path(
    get,
    path = "/statistics-ico/rows",
    operation_id = "get_statistics_ico_rows",
    security(("bearer" = [])),
    responses(
        (
            status = 200,
            description = "OK",
            content_type = "application/vnd.apache.arrow.stream",
            body = inline(Binary),
        ),
        Admin,
    ),
)]
async fn ico_rows(_: Authed, app: App) -> Answer {
    kept(statistics::ico_rows(&app.store).await?, ARROW_STREAM)
}

/// The wallet and transaction of up to 100 ICO entries
///
/// Admins only (the role is re-read from the database).
#[utoipa::path(
    get,
    path = "/statistics-ico/trails",
    operation_id = "get_statistics_ico_trails",
    security(("bearer" = [])),
    params(
        ("ids" = String, Query, description = "comma-separated entry ids, at most 100"),
    ),
    responses(
        (status = 200, description = "OK", body = Vec<crate::store::ledger::Trail>),
        Admin,
    ),
)]
async fn ico_trails(_: Authed, app: App, ids: Ids) -> Answer {
    ok(&statistics::ico_trails(&app.store, ids.parse()?).await?)
}

/// Admin users statistics: General, the first rows, the date range
///
/// Admins only (the role is re-read from the database).
#[utoipa::path(
    get,
    path = "/statistics-users",
    operation_id = "get_statistics_users",
    security(("bearer" = [])),
    params(
        ("limit" = Option<RowLimit>, Query),
    ),
    responses(
        (status = 200, description = "OK", body = crate::statistics::UserStatistics),
        Admin,
    ),
)]
async fn users(_: Authed, app: App, limit: Limit) -> Answer {
    kept(
        statistics::users(&app.store, limit.get()).await?,
        "application/json",
    )
}

/// Every users row as an Arrow IPC stream for the core's table engine
///
/// Admins only (the role is re-read from the database).
#[utoipa::path(
    get,
    path = "/statistics-users/rows",
    operation_id = "get_statistics_users_rows",
    security(("bearer" = [])),
    responses(
        (
            status = 200,
            description = "OK",
            content_type = "application/vnd.apache.arrow.stream",
            body = inline(Binary),
        ),
        Admin,
    ),
)]
async fn user_rows(_: Authed, app: App) -> Answer {
    kept(statistics::user_rows(&app.store).await?, ARROW_STREAM)
}

/// Admin nftstaking statistics: General, the first rows, the date range
///
/// Admins only (the role is re-read from the database).
#[utoipa::path(
    get,
    path = "/statistics-nftstaking",
    operation_id = "get_statistics_nftstaking",
    security(("bearer" = [])),
    params(
        ("limit" = Option<RowLimit>, Query),
    ),
    responses(
        (status = 200, description = "OK", body = lvlx_core::admin::stakes::records::NftStatistics),
        Admin,
    ),
)]
async fn nft_staking(_: Authed, app: App, limit: Limit) -> Answer {
    ok(&statistics::staking(&app.store, Kind::Nft, limit.get()).await?)
}

/// Every nftstaking row as an Arrow IPC stream for the core's table engine
///
/// Admins only (the role is re-read from the database).
#[utoipa::path(
    get,
    path = "/statistics-nftstaking/rows",
    operation_id = "get_statistics_nftstaking_rows",
    security(("bearer" = [])),
    responses(
        (
            status = 200,
            description = "OK",
            content_type = "application/vnd.apache.arrow.stream",
            body = inline(Binary),
        ),
        Admin,
    ),
)]
async fn nft_staking_rows(_: Authed, app: App) -> Answer {
    arrow(statistics::staking_rows(&app.store, Kind::Nft).await?)
}

/// Admin lvlxstaking statistics: General, the first rows, the date range
///
/// Admins only (the role is re-read from the database).
#[utoipa::path(
    get,
    path = "/statistics-lvlxstaking",
    operation_id = "get_statistics_lvlxstaking",
    security(("bearer" = [])),
    params(
        ("limit" = Option<RowLimit>, Query),
    ),
    responses(
        (status = 200, description = "OK", body = lvlx_core::admin::stakes::records::LvlxStatistics),
        Admin,
    ),
)]
async fn lvlx_staking(_: Authed, app: App, limit: Limit) -> Answer {
    ok(&statistics::staking(&app.store, Kind::Lvlx, limit.get()).await?)
}

/// Every lvlxstaking row as an Arrow IPC stream for the core's table engine
///
/// Admins only (the role is re-read from the database).
#[utoipa::path(
    get,
    path = "/statistics-lvlxstaking/rows",
    operation_id = "get_statistics_lvlxstaking_rows",
    security(("bearer" = [])),
    responses(
        (
            status = 200,
            description = "OK",
            content_type = "application/vnd.apache.arrow.stream",
            body = inline(Binary),
        ),
        Admin,
    ),
)]
async fn lvlx_staking_rows(_: Authed, app: App) -> Answer {
    arrow(statistics::staking_rows(&app.store, Kind::Lvlx).await?)
}
