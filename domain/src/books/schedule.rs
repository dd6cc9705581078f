//! Checks of the books on a schedule (`books_every_hours`) and on an admin's request: each
//! runs [`super::verify`] on the live store, records its report (`store::books_checks`) and
//! sets the `lvlx_books_*` metrics. One check at a time per instance; on PostgreSQL one in all
//! (a store lease), and an instance waits for the newest check anyone recorded to age.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::error::Error;
use crate::store::books_checks::{self, Check};
use crate::{Config, Store};

/// What the checks of the books work with, owned (cheap clones): a started check and the
/// schedule outlive the request or the start that began them. The layer above builds it
/// (`App::books`).
#[derive(Clone)]
pub struct Checks {
    pub store: Store,
    pub config: Arc<Config>,
    /// True while this instance checks the books.
    pub running: Arc<AtomicBool>,
}

/// The store lease of the instance checking the books ("LVLXbook").
const BOOKS_LEASE: i64 = 0x4C56_4C58_626F_6F6B;
/// Held while checking: far longer than a check of the 10^6-row bench takes.
const LEASE_TTL: Duration = Duration::from_secs(3600);
/// The first scheduled check waits this long after start (the indexer catches up first).
const FIRST_AFTER: Duration = Duration::from_secs(60);

/// Clears this instance's running flag when a check ends, however it ends (a panic too).
struct Running(Arc<AtomicBool>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

/// Marks a check running here and takes the store's lease (on PostgreSQL, one check in all):
/// `Error::BooksRunning` when a check runs on this or another instance.
async fn begin(checks: &Checks) -> Result<(Running, crate::store::Lease), Error> {
    if checks.running.swap(true, Ordering::AcqRel) {
        return Err(Error::BooksRunning);
    }
    let running = Running(checks.running.clone());
    match checks.store.try_lease(BOOKS_LEASE, LEASE_TTL).await? {
        Some(lease) => Ok((running, lease)),
        None => Err(Error::BooksRunning),
    }
}

/// Checks the books now, unless a check is running (`Error::BooksRunning`). Records and
/// returns the check; a check that could not run (the chain unreachable or behind) is recorded
/// as such, with its error.
pub async fn check(checks: &Checks) -> Result<Check, Error> {
    let (_running, _lease) = begin(checks).await?;
    run(checks).await
}

/// Starts a check in the background (an admin's "check now"): `Error::BooksRunning` at once
/// when one runs on this or another instance.
pub async fn start(checks: &Checks) -> Result<(), Error> {
    if checks.config.chain.is_none() {
        return Err(Error::ChainUnavailable);
    }
    let (running, lease) = begin(checks).await?;
    let checks = checks.clone();
    tokio::spawn(async move {
        let (_running, _lease) = (running, lease);
        if let Err(e) = run(&checks).await {
            tracing::warn!(error = %e, "the books could not be checked");
        }
    });
    Ok(())
}

/// Whether a check runs now, here or (PostgreSQL) on another instance.
async fn running(checks: &Checks) -> Result<bool, Error> {
    if checks.running.load(Ordering::Acquire) {
        return Ok(true);
    }
    Ok(checks
        .store
        .try_lease(BOOKS_LEASE, Duration::from_secs(1))
        .await?
        .is_none())
}

async fn run(checks: &Checks) -> Result<Check, Error> {
    let check = match super::verify(&checks.config, &checks.store).await {
        Ok(report) => Check {
            at: crate::now_ms(),
            block: report.block as i64,
            final_block: report.final_block as i64,
            lines: report.lines as i64,
            differences: report.differences.iter().map(|d| d.count as i64).sum(),
            report: serde_json::to_string(&report).unwrap_or_default(),
        },
        Err(e) => {
            tracing::warn!(error = %e, "the books could not be checked");
            Check {
                at: crate::now_ms(),
                block: 0,
                final_block: 0,
                lines: 0,
                differences: 0,
                report: serde_json::json!({ "error": e }).to_string(),
            }
        }
    };
    let kept = check.clone();
    checks
        .store
        .write(move |c| books_checks::record(c, &kept))
        .await?;
    if check.differences > 0 {
        tracing::error!(
            differences = check.differences,
            block = check.block,
            "the books differ from the chain: see the admin's Books page or lvlx books verify"
        );
    } else if !check.failed() {
        tracing::info!(
            lines = check.lines,
            block = check.block,
            "the books are the chain's"
        );
    }
    crate::metrics::books_checked(&check);
    Ok(check)
}

/// After a check that could not run, the next try comes this soon (or at the period, if
/// shorter).
const RETRY: Duration = Duration::from_secs(3600);

/// Checks the books every `books_every_hours`, from a minute after start, when the newest
/// check anyone recorded is that old (a failed one: an hour old). Runs until the process ends.
pub fn spawn(checks: &Checks) {
    let every = Duration::from_secs(checks.config.books_every_hours.saturating_mul(3600));
    if every.is_zero() || checks.config.chain.is_none() {
        return;
    }
    let checks = checks.clone();
    tokio::spawn(async move {
        tokio::time::sleep(FIRST_AFTER).await;
        loop {
            let last = checks.store.read(books_checks::latest).await.ok().flatten();
            let wait = match &last {
                Some(k) if k.failed() => RETRY.min(every),
                _ => every,
            };
            let at = last.map_or(0, |k| k.at);
            let age = Duration::from_millis(crate::now_ms().saturating_sub(at).max(0) as u64);
            if age >= wait {
                match check(&checks).await {
                    Ok(_) | Err(Error::BooksRunning) => {}
                    Err(e) => tracing::warn!(error = %e, "the books could not be checked"),
                }
                tokio::time::sleep(Duration::from_secs(60)).await;
            } else {
                tokio::time::sleep((wait - age).max(Duration::from_secs(60))).await;
            }
        }
    });
}

/// What the admin's Books page shows: the schedule, whether a check runs now, the newest check
/// with its report.
pub async fn standing(checks: &Checks) -> Result<Books, Error> {
    let latest = checks.store.read(books_checks::latest).await?;
    Ok(Books {
        available: checks.config.chain.is_some(),
        every_hours: checks.config.books_every_hours,
        running: running(checks).await?,
        latest: latest.map(|k| BooksCheck {
            summary: BooksSummary::of(&k),
            final_block: k.final_block,
            report: serde_json::from_str(&k.report).unwrap_or_default(),
        }),
    })
}

/// The admin's Books page.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Books {
    /// False without a chain configured.
    available: bool,
    every_hours: u64,
    /// A check runs now.
    running: bool,
    latest: Option<BooksCheck>,
}

/// A check of the books, in brief. `at` in milliseconds.
#[derive(Clone, serde::Serialize, utoipa::ToSchema)]
pub struct BooksSummary {
    at: i64,
    /// The block the chain was read at.
    block: i64,
    /// Lines compared.
    lines: i64,
    differences: i64,
    /// The check could not run (its report is the error).
    failed: bool,
}

impl BooksSummary {
    pub fn of(k: &books_checks::Check) -> Self {
        BooksSummary {
            at: k.at,
            block: k.block,
            lines: k.lines,
            differences: k.differences,
            failed: k.failed(),
        }
    }
}

/// The newest check with its report.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BooksCheck {
    #[serde(flatten)]
    summary: BooksSummary,
    final_block: i64,
    /// Each line compared, or `{error}`.
    report: serde_json::Value,
}

/// A check was started.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct BooksStarted {
    /// Always true.
    pub running: bool,
}
