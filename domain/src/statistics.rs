//! Admin statistics (statistics-ico, statistics-users, statistics-nftstaking, and our
//! statistics-lvlxstaking; docs/product/admin.md#tables-at-scale). The JSON answers keep the
//! shapes of docs/product/api.md#statistics with the newest rows
//! only; the whole row lists are Arrow IPC streams, which the browser's core loads. The ICO and
//! users answers are kept until the tables they read change (`store::snapshots`); the staking
//! ones change with the clock (rewards accrue by the second) and are made per request.

use bytes::Bytes;
use lvlx_core::admin::ico as ico_table;
use lvlx_core::admin::stakes::records::{self, Statistics};
use lvlx_core::admin::stakes::{self as stake_table, Kind};
use lvlx_core::admin::users as users_table;

use crate::error::Error;
use crate::store::{ledger, stakes as stake_rows, users};
use crate::{now_ms, Store};

/// initDate and lastDate: the data's first and last times, or now when there is none.
fn dates(range: (Option<i64>, Option<i64>)) -> (i64, i64) {
    let now = now_ms();
    (range.0.unwrap_or(now), range.1.unwrap_or(now))
}

/// statistics-ico (docs/product/api.md#calls): the totals, the newest transactions, the table's
/// first page (oldest first, numbered from 1, shown while the whole ledger streams) and the data's
/// dates.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IcoStatistics {
    #[serde(rename = "General")]
    general: ico_table::Shown,
    /// Newest first.
    transactions: Vec<ledger::Newest>,
    first_page: Vec<ico_table::Row>,
    /// The first operation's time (ms), or now without one.
    init_date: i64,
    /// The last operation's time (ms), or now without one.
    last_date: i64,
}

/// statistics-users (docs/product/api.md#calls): the summary, the newest members (`result`), the
/// table's first page (oldest first) and the registration dates.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserStatistics {
    #[serde(rename = "General")]
    general: users_table::Summary,
    /// Newest first, numbered by registration.
    result: Vec<users_table::Row>,
    first_page: Vec<users_table::Row>,
    init_date: i64,
    last_date: i64,
}

fn to_bytes(value: &impl serde::Serialize) -> Result<Bytes, Error> {
    serde_json::to_vec(value)
        .map(Bytes::from)
        .map_err(|e| Error::Internal(e.to_string()))
}

/// `{General, transactions (newest first), firstPage (the table's first page, oldest first),
/// initDate, lastDate}` as JSON, kept until the ledger changes.
pub async fn ico(store: &Store, product: &str, limit: u32) -> Result<Bytes, Error> {
    let key = format!("statistics-ico?limit={limit}");
    let (snapshots, store) = (&store.snapshots, store.clone());
    let product = product.to_string();
    snapshots
        .get_or(key, ledger::ANSWER_TABLES, || async move {
            let for_read = product.clone();
            let (general, transactions, oldest, range) = store
                .read(move |c| {
                    Ok::<_, Error>((
                        ledger::general(c, &for_read)?,
                        ledger::newest(c, limit)?,
                        ledger::oldest(c, limit)?,
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
            let (init_date, last_date) = dates(range);
            to_bytes(&IcoStatistics {
                general: general.shown(),
                transactions,
                first_page,
                init_date,
                last_date,
            })
        })
        .await
}

/// Every transaction, oldest first, as Arrow IPC, kept until the ledger changes.
pub async fn ico_rows(store: &Store) -> Result<Bytes, Error> {
    let (snapshots, store) = (&store.snapshots, store.clone());
    snapshots
        .get_or(
            "statistics-ico/rows".into(),
            ledger::ANSWER_TABLES,
            || async move { Ok::<_, Error>(Bytes::from(store.read(ledger::stream).await?)) },
        )
        .await
}

/// The wallet and transaction of each entry of `ids` (which the rows stream leaves out).
pub async fn ico_trails(store: &Store, ids: Vec<u32>) -> Result<Vec<ledger::Trail>, Error> {
    Ok(store.read(move |c| ledger::trails(c, &ids)).await?)
}

/// `{General, result (newest first), firstPage (oldest first), initDate, lastDate}` as JSON,
/// kept until the users table changes.
pub async fn users(store: &Store, limit: u32) -> Result<Bytes, Error> {
    let key = format!("statistics-users?limit={limit}");
    let (snapshots, store) = (&store.snapshots, store.clone());
    snapshots
        .get_or(key, users::ANSWER_TABLES, || async move {
            let (general, newest, oldest, range) = store
                .read(move |c| {
                    Ok::<_, Error>((
                        users::summary(c)?,
                        users::newest_members(c, limit)?,
                        users::oldest_members(c, limit)?,
                        users::registration_range(c)?,
                    ))
                })
                .await?;
            // The admin user rows of docs/product/api.md#statistics (amounts in base units) in the
            // table's own row shape, numbered by registration: `result` newest first,
            // `firstPage` the table's first page (oldest first), shown while the whole table loads.
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
            let (init_date, last_date) = dates(range);
            to_bytes(&UserStatistics {
                general,
                result,
                first_page,
                init_date,
                last_date,
            })
        })
        .await
}

/// Every member, oldest first, as Arrow IPC, kept until the users table changes.
pub async fn user_rows(store: &Store) -> Result<Bytes, Error> {
    let (snapshots, store) = (&store.snapshots, store.clone());
    snapshots
        .get_or(
            "statistics-users/rows".into(),
            users::ANSWER_TABLES,
            || async move {
                let members = store.read(users::all_members).await.map_err(Error::from)?;
                users_table::encode(&members)
                    .map(Bytes::from)
                    .map_err(|e| Error::Internal(e.to_string()))
            },
        )
        .await
}

/// A staking pool's `{General, result (first stakers), initDate, lastDate}`.
pub async fn staking(store: &Store, kind: Kind, limit: u32) -> Result<Statistics, Error> {
    let now = now_ms();
    let all = store.read(move |c| stake_rows::load(c, kind, now)).await?;
    records::statistics(&all, kind, limit, now).map_err(|e| Error::Internal(e.to_string()))
}

/// Every entry of a staking pool, release date ascending, as Arrow IPC.
pub async fn staking_rows(store: &Store, kind: Kind) -> Result<Vec<u8>, Error> {
    let all = store
        .read(move |c| stake_rows::load(c, kind, now_ms()))
        .await?;
    stake_table::encode(kind, &all).map_err(|e| Error::Internal(e.to_string()))
}
