//! Admin statistics (SPEC §7 statistics-ico, statistics-users, statistics-nftstaking, and our
//! statistics-lvlxstaking; DESIGN §7). The JSON calls keep the SPEC shapes with the newest rows
//! only (`?limit=`, default 100, at most 1000); the whole row lists travel as Arrow IPC streams
//! from `…/rows`, which the browser's core loads. The ICO and users answers are kept until the
//! database changes (`store::snapshots`); the staking ones change with the clock (rewards
//! accrue by the second) and are made per request.

use bytes::Bytes;
use lvlx_core::admin::ico as ico_table;
use lvlx_core::admin::stakes::Kind;
use lvlx_core::admin::users as users_table;
use serde::Deserialize;
use serde_json::{json, Value};
use warp::filters::BoxedFilter;
use warp::http::header::{HeaderValue, CONTENT_TYPE};
use warp::{Filter, Reply};

use super::auth::admin;
use super::error::reply;
use super::{ok, with, Answer};
use crate::error::Error;
use crate::session::Authed;
use crate::staking::admin as stakes;
use crate::store::{ledger, stakes as stored_stakes, users};
use crate::{now_ms, App};

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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Ids {
    ids: String,
}

impl Ids {
    /// At most one table page of ids, comma separated.
    const MAX: usize = 100;

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

/// initDate and lastDate: the data's first and last times, or now when there is none.
fn dates(range: (Option<i64>, Option<i64>)) -> (i64, i64) {
    let now = now_ms();
    (range.0.unwrap_or(now), range.1.unwrap_or(now))
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

fn to_bytes(value: &Value) -> Result<Bytes, Error> {
    serde_json::to_vec(value)
        .map(Bytes::from)
        .map_err(|e| Error::Internal(e.to_string()))
}

/// The tables the ICO answers read (the ledger, its daily sums, the buyers' emails) and the users
/// answers read (every figure of a member row lives on it): a change to any remakes them.
const ICO_TABLES: &[&str] = &["ico_transactions", "ico_daily", "users"];
const USER_TABLES: &[&str] = &["users"];

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // Every call here: GET by an admin (role re-read from the database), with the app.
    let admin = move || warp::get().and(admin(app.clone())).and(with(&app));
    // GET /api/v1/statistics-ico — {General, transactions (newest first), firstPage (the table's
    // first page, oldest first), initDate, lastDate}.
    let ico = warp::path!("statistics-ico")
        .and(admin())
        .and(warp::query::<Limit>())
        .then(|_: Authed, app: App, limit: Limit| async move {
            let key = format!("statistics-ico?limit={}", limit.get());
            let store = app.store.clone();
            let product = app.config.product.clone();
            let made = app.store.snapshots.get_or(key, ICO_TABLES, || async move {
                let for_read = product.clone();
                let (general, transactions, oldest, range) = store
                    .read(move |c| {
                        Ok::<_, Error>((
                            ledger::general(c, &for_read)?,
                            ledger::newest(c, limit.get())?,
                            ledger::oldest(c, limit.get())?,
                            ledger::range(c)?,
                        ))
                    })
                    .await?;
                // The table's first page (oldest first, numbered from 1) in its own row shape,
                // shown while the whole ledger streams.
                let first_page: Vec<_> = oldest
                    .iter()
                    .enumerate()
                    .map(|(i, (id, entry))| ico_table::Row::of(i + 1, *id, entry, &product))
                    .collect();
                let mut general: Value = general.to_json();
                if let Some(g) = general.as_object_mut() {
                    g.remove("totalUsers");
                }
                let (init, last) = dates(range);
                to_bytes(&json!({
                    "General": general, "transactions": transactions, "firstPage": first_page,
                    "initDate": init, "lastDate": last,
                }))
            });
            kept(made.await?, "application/json")
        })
        .map(reply);
    // GET /api/v1/statistics-ico/rows — every transaction, oldest first, as Arrow IPC.
    let ico_rows = warp::path!("statistics-ico" / "rows")
        .and(admin())
        .then(|_: Authed, app: App| async move {
            let store = app.store.clone();
            let made = app.store.snapshots.get_or(
                "statistics-ico/rows".into(),
                ICO_TABLES,
                || async move { Ok::<_, Error>(Bytes::from(store.read(ledger::stream).await?)) },
            );
            kept(made.await?, ARROW_STREAM)
        })
        .map(reply);
    // GET /api/v1/statistics-ico/trails?ids=1,2,3 — the wallet and transaction of up to one
    // page (100) of entries, which the rows stream leaves out (64 bytes a row).
    let ico_trails = warp::path!("statistics-ico" / "trails")
        .and(admin())
        .and(warp::query::<Ids>())
        .then(|_: Authed, app: App, ids: Ids| async move {
            let ids = ids.parse()?;
            ok(&app
                .store
                .read(move |c| ledger::trails(c, &ids))
                .await
                .map_err(Error::from)?)
        })
        .map(reply);
    // GET /api/v1/statistics-users — {General, result (newest first), firstPage (oldest first),
    // initDate, lastDate}.
    let users = warp::path!("statistics-users")
        .and(admin())
        .and(warp::query::<Limit>())
        .then(|_: Authed, app: App, limit: Limit| async move {
            let key = format!("statistics-users?limit={}", limit.get());
            let store = app.store.clone();
            let made = app.store.snapshots.get_or(key, USER_TABLES, || async move {
                let (general, newest, oldest, range) = store
                    .read(move |c| {
                        Ok::<_, Error>((
                            users::summary(c)?,
                            users::newest_members(c, limit.get())?,
                            users::oldest_members(c, limit.get())?,
                            users::registration_range(c)?,
                        ))
                    })
                    .await?;
                // SPEC §3's admin user rows (amounts in base units) in the table's own row shape,
                // numbered by registration: `result` newest first (SPEC), `firstPage` the table's
                // first page (oldest first), shown while the whole table loads.
                let total = general.total_users as usize;
                let rows = |users: &[users_table::User], n: &dyn Fn(usize) -> usize| {
                    users
                        .iter()
                        .enumerate()
                        .map(|(i, u)| users_table::Row::of(n(i), u))
                        .collect::<Vec<_>>()
                };
                let result = rows(&newest, &|i| total.saturating_sub(i));
                let first_page = rows(&oldest, &|i| i + 1);
                let (init, last) = dates(range);
                to_bytes(&json!({
                    "General": general, "result": result, "firstPage": first_page,
                    "initDate": init, "lastDate": last,
                }))
            });
            kept(made.await?, "application/json")
        })
        .map(reply);
    // GET /api/v1/statistics-users/rows — every member, oldest first, as Arrow IPC.
    let user_rows = warp::path!("statistics-users" / "rows")
        .and(admin())
        .then(|_: Authed, app: App| async move {
            let store = app.store.clone();
            let made = app.store.snapshots.get_or(
                "statistics-users/rows".into(),
                USER_TABLES,
                || async move {
                    let members = store.read(users::all_members).await.map_err(Error::from)?;
                    users_table::encode(&members)
                        .map(Bytes::from)
                        .map_err(|e| Error::Internal(e.to_string()))
                },
            );
            kept(made.await?, ARROW_STREAM)
        })
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
            .then(move |_: Authed, app: App, limit: Limit| async move {
                let now = now_ms();
                let all = app
                    .store
                    .read(move |c| stored_stakes::load(c, kind, now))
                    .await
                    .map_err(Error::from)?;
                ok(&stakes::statistics(&all, kind, limit.get(), now)?)
            })
            .map(reply);
        let rows = warp::path(path)
            .and(warp::path("rows"))
            .and(warp::path::end())
            .and(admin())
            .then(move |_: Authed, app: App| async move {
                let all = app
                    .store
                    .read(move |c| stored_stakes::load(c, kind, now_ms()))
                    .await
                    .map_err(Error::from)?;
                arrow(stakes::stream(kind, &all)?)
            })
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
