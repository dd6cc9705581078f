//! Admin statistics (SPEC §7 statistics-ico, statistics-users, statistics-nftstaking, and our
//! statistics-lvlxstaking; DESIGN §7). The JSON calls keep
//! the SPEC shapes with the newest rows only (`?limit=`, default 100, at most 1000); the whole
//! row lists travel as Arrow IPC streams from `…/rows`, which the browser's core loads.

use serde::Deserialize;
use serde_json::{json, Value};
use warp::filters::BoxedFilter;
use warp::http::header::CONTENT_TYPE;
use warp::{Filter, Rejection, Reply};

use super::{json, reject};
use crate::session::{self, Authed};
use crate::{ledger, now_ms, stakes, user, App};
use lvlx_core::admin::stakes::Kind;

pub const ARROW_STREAM: &str = "application/vnd.apache.arrow.stream";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Limit {
    limit: Option<u32>,
}

impl Limit {
    fn get(&self) -> u32 {
        self.limit.unwrap_or(100).min(1000)
    }
}

/// initDate and lastDate: the data's first and last times, or now when there is none.
fn dates(range: (Option<i64>, Option<i64>)) -> (i64, i64) {
    let now = now_ms();
    (range.0.unwrap_or(now), range.1.unwrap_or(now))
}

fn arrow(bytes: Vec<u8>) -> warp::reply::Response {
    warp::reply::with_header(bytes, CONTENT_TYPE, ARROW_STREAM).into_response()
}

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // Every call here: GET by an admin (role re-read from the database), with the app.
    let admin = move || {
        let with = app.clone();
        warp::get()
            .and(session::admin(app.clone()))
            .and(warp::any().map(move || with.clone()))
    };
    // GET /api/v1/statistics-ico — {General, transactions (newest first), initDate, lastDate}.
    let ico = warp::path!("statistics-ico")
        .and(admin())
        .and(warp::query::<Limit>())
        .and_then(|_: Authed, app: App, limit: Limit| async move {
            let product = app.config.product.clone();
            let (general, transactions, range) = app
                .db
                .read(move |c| Ok((ledger::general(c, &product)?, ledger::newest(c, limit.get())?, ledger::range(c)?)))
                .await
                .map_err(reject)?;
            let mut general: Value = general.to_json();
            if let Some(g) = general.as_object_mut() {
                g.remove("totalUsers");
            }
            let (init, last) = dates(range);
            Ok::<_, Rejection>(json(&json!({
                "General": general, "transactions": transactions, "initDate": init, "lastDate": last,
            })))
        });
    // GET /api/v1/statistics-ico/rows — every transaction, oldest first, as Arrow IPC.
    let ico_rows = warp::path!("statistics-ico" / "rows")
        .and(admin())
        .and_then(|_: Authed, app: App| async move {
            let bytes = app.db.read(ledger::stream).await.map_err(reject)?;
            Ok::<_, Rejection>(arrow(bytes))
        });
    // GET /api/v1/statistics-users — {General, result (newest first), initDate, lastDate}.
    let users = warp::path!("statistics-users")
        .and(admin())
        .and(warp::query::<Limit>())
        .and_then(|_: Authed, app: App, limit: Limit| async move {
            let (general, result, range) = app
                .db
                .read(move |c| {
                    Ok((
                        user::summary(c)?,
                        user::newest_members(c, limit.get())?,
                        user::registration_range(c)?,
                    ))
                })
                .await
                .map_err(reject)?;
            let (init, last) = dates(range);
            Ok::<_, Rejection>(json(&json!({
                "General": general, "result": result, "initDate": init, "lastDate": last,
            })))
        });
    // GET /api/v1/statistics-users/rows — every member, oldest first, as Arrow IPC.
    let user_rows = warp::path!("statistics-users" / "rows")
        .and(admin())
        .and_then(|_: Authed, app: App| async move {
            let bytes = app.db.read(user::members_stream).await.map_err(reject)?;
            Ok::<_, Rejection>(arrow(bytes))
        });
    // GET /api/v1/statistics-nftstaking and statistics-lvlxstaking — {General, result (first
    // stakers), initDate, lastDate}; …/rows — every entry, release date ascending, as Arrow IPC.
    let staking = |path: &'static str, kind: Kind| {
        let summary = warp::path(path)
            .and(warp::path::end())
            .and(admin())
            .and(warp::query::<Limit>())
            .and_then(move |_: Authed, app: App, limit: Limit| async move {
                let body = app
                    .db
                    .read(move |c| stakes::statistics(c, kind, limit.get()))
                    .await
                    .map_err(reject)?;
                Ok::<_, Rejection>(json(&body))
            });
        let rows = warp::path(path)
            .and(warp::path("rows"))
            .and(warp::path::end())
            .and(admin())
            .and_then(move |_: Authed, app: App| async move {
                let bytes = app
                    .db
                    .read(move |c| stakes::stream(c, kind))
                    .await
                    .map_err(reject)?;
                Ok::<_, Rejection>(arrow(bytes))
            });
        summary.or(rows).unify()
    };
    ico.or(ico_rows)
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
