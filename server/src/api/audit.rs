//! The admin audit, read by admins (`crate::admin_audit`).

use serde::Deserialize;
use warp::http::header::{HeaderValue, CONTENT_DISPOSITION, CONTENT_TYPE};
use warp::Filter;

use super::auth::admin_app;
use super::error::reply;
use super::openapi::errors::*;
use super::openapi::FilterText;
use super::{first_of, ok, Answer, Route};
use crate::session::Authed;
use crate::store::audit::Filter as Kept;
use crate::{admin_audit, App};

/// The filters of both reads: each optional; `from`/`to` in ms (`to` excluded).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Query {
    subject: Option<String>,
    admin: Option<String>,
    from: Option<i64>,
    to: Option<i64>,
    page: Option<u32>,
}

impl Query {
    fn filter(&self) -> Kept {
        admin_audit::filter(
            self.subject.as_deref(),
            self.admin.as_deref(),
            self.from,
            self.to,
        )
    }
}

/// This module's operations, merged into the served document by `api::openapi`.
#[derive(utoipa::OpenApi)]
#[openapi(paths(page, csv))]
pub(super) struct Doc;

pub fn routes(app: App) -> Route {
    // Admin: the audit rows the filters keep, newest first, 50 a page → {total, pageSize, rows,
    // subjects}.
    let page = warp::path!("audit")
        .boxed()
        .and(warp::get())
        .and(admin_app(&app))
        .and(warp::query::<Query>())
        .then(page)
        .map(reply)
        .boxed();
    // Admin: the same rows (100,000 newest at most) as CSV.
    let csv = warp::path!("audit" / "csv")
        .boxed()
        .and(warp::get())
        .and(admin_app(&app))
        .and(warp::query::<Query>())
        .then(csv)
        .map(reply)
        .boxed();
    first_of([page, csv])
}

/// The admin audit, newest first, filtered, 50 rows a page
///
/// Admins only (the role is re-read from the database).
#[utoipa::path(
    get,
    path = "/audit",
    operation_id = "get_audit",
    security(("bearer" = [])),
    params(
        ("subject" = Option<FilterText>, Query),
        (
            "admin" = Option<FilterText>,
            Query,
            description = "part of the acting admin's email, any case",
        ),
        ("from" = Option<i64>, Query, description = "ms, at or after"),
        ("to" = Option<i64>, Query, description = "ms, before"),
        ("page" = Option<u32>, Query, minimum = 1),
    ),
    responses(
        (status = 200, description = "OK", body = crate::admin_audit::AuditPage),
        Admin,
    ),
)]
async fn page(_: Authed, app: App, q: Query) -> Answer {
    ok(&admin_audit::page(&app.store, q.filter(), q.page.unwrap_or(1)).await?)
}

/// The admin audit rows the filters keep (100,000 newest at most) as CSV
///
/// Admins only. The columns the core declares for the audit (`lvlx_core::admin::audit::COLUMNS`: the change's id, its time in ISO-8601 UTC, the admin's email, what changed, its before and after as JSON …); RFC 4180, formulas defused.
#[utoipa::path(
    get,
    path = "/audit/csv",
    operation_id = "get_audit_csv",
    security(("bearer" = [])),
    params(
        ("subject" = Option<FilterText>, Query),
        (
            "admin" = Option<FilterText>,
            Query,
            description = "part of the acting admin's email, any case",
        ),
        ("from" = Option<i64>, Query, description = "ms, at or after"),
        ("to" = Option<i64>, Query, description = "ms, before"),
    ),
    responses(
        (status = 200, description = "OK", content_type = "text/csv", body = String),
        Admin,
    ),
)]
async fn csv(_: Authed, app: App, q: Query) -> Answer {
    let text = admin_audit::csv(&app.store, q.filter()).await?;
    let mut response = warp::reply::Response::new(text.into());
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/csv; charset=utf-8"),
    );
    headers.insert(
        CONTENT_DISPOSITION,
        HeaderValue::from_static("attachment; filename=\"admin-audit.csv\""),
    );
    Ok(response)
}
