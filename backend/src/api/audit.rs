//! The admin audit, read by admins (`crate::admin_audit`).

use serde::Deserialize;
use warp::filters::BoxedFilter;
use warp::http::header::{HeaderValue, CONTENT_DISPOSITION, CONTENT_TYPE};
use warp::Filter;

use super::auth::admin;
use super::error::reply;
use super::{ok, with, Answer};
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

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // GET /api/v1/audit?subject&admin&from&to&page — admin: the audit rows the filters keep,
    // newest first, 50 a page → {total, pageSize, rows, subjects}.
    let page = warp::path!("audit")
        .and(warp::get())
        .and(admin(app.clone()))
        .and(with(&app))
        .and(warp::query::<Query>())
        .then(page)
        .map(reply);
    // GET /api/v1/audit/csv?subject&admin&from&to — admin: the same rows (100,000 newest at
    // most) as CSV.
    let csv = warp::path!("audit" / "csv")
        .and(warp::get())
        .and(admin(app.clone()))
        .and(with(&app))
        .and(warp::query::<Query>())
        .then(csv)
        .map(reply);
    page.or(csv).unify().boxed()
}

async fn page(_: Authed, app: App, q: Query) -> Answer {
    ok(&admin_audit::page(&app, q.filter(), q.page.unwrap_or(1)).await?)
}

async fn csv(_: Authed, app: App, q: Query) -> Answer {
    let text = admin_audit::csv(&app, q.filter()).await?;
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
