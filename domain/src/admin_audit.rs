//! The admin audit as admins read it (GET /api/v1/audit, /audit/csv): the rows a filter keeps,
//! newest first, a page at a time or as one CSV (the core writes it). Reading it is itself not
//! audited; changing it is impossible (`store::audit`).

use crate::error::Error;
use crate::store::audit::{self, Filter};
use crate::Store;

/// Rows a page.
pub const PAGE: usize = 50;
/// Rows one CSV holds at most (the newest).
pub const CSV_MAX: usize = 100_000;

/// The longest filter text kept; longer text is cut there.
pub const FILTER_TEXT_MAX: usize = 200;

/// The rows an admin asks for: by subject, by part of the acting admin's email, and by time
/// (`from` at or after, `to` before; milliseconds). Blank text filters nothing.
pub fn filter(
    subject: Option<&str>,
    admin: Option<&str>,
    from: Option<i64>,
    to: Option<i64>,
) -> Filter {
    let text = |v: Option<&str>| {
        v.map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| s.chars().take(FILTER_TEXT_MAX).collect())
    };
    Filter {
        subject: text(subject),
        admin: text(admin),
        from,
        to,
    }
}

/// A page of the audit.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditPage {
    /// Rows the filter keeps in all.
    total: u64,
    page_size: usize,
    /// Newest first.
    rows: Vec<audit::Listed>,
    /// Every subject there is, for the filter.
    subjects: Vec<String>,
}

/// Page `page` (from 1) of the rows `filter` keeps, with how many it keeps in all and the
/// subjects there are.
pub async fn page(store: &Store, filter: Filter, page: u32) -> Result<AuditPage, Error> {
    let offset = (page.max(1) as usize - 1) * PAGE;
    let (total, rows, subjects) = store
        .read(move |c| {
            let (total, rows) = audit::list(c, &filter, PAGE, offset)?;
            Ok::<_, Error>((total, rows, audit::subjects(c)?))
        })
        .await?;
    Ok(AuditPage {
        total,
        page_size: PAGE,
        rows,
        subjects,
    })
}

/// The rows `filter` keeps (newest first, [`CSV_MAX`] at most) as CSV, with the columns the core
/// declares (`lvlx_core::admin::audit::COLUMNS`) read from the rows as the page receives them.
pub async fn csv(store: &Store, filter: Filter) -> Result<String, Error> {
    let (_, rows) = store
        .read(move |c| audit::list(c, &filter, CSV_MAX, 0))
        .await?;
    Ok(lvlx_core::admin::audit::csv(&rows))
}
