//! Whether this instance's indexer moves (docs/operations.md#when-the-indexer-is-stuck): the
//! heads its nodes reported, when it last moved, and whether its node serves another chain
//! than the one the store indexed. The indexer writes it at every step; readiness, the admin's
//! standing and the metrics read it.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::metrics::METRICS;

/// A head reported longer ago than this no longer holds the highest one up (a node that once
/// answered a wrong, far head does not make the indexer look stuck for ever).
const HEAD_KEPT: Duration = Duration::from_secs(120);
/// How often a condition that lasts is logged again.
const LOG_AGAIN: Duration = Duration::from_secs(60);

#[derive(Debug, Default)]
struct State {
    /// Whether this instance holds the indexer's lease (only then is the rest its own).
    indexing: bool,
    /// When it took the lease, or last moved: the cursor advanced, or it read up to the
    /// highest head its nodes reported.
    moved_at: Option<Instant>,
    /// The highest head reported lately, and when.
    head: Option<(u64, Instant)>,
    /// The next block to read.
    next: u64,
    /// Why the node in use is not the chain the store indexed (None: it is, or not known).
    mismatch: Option<String>,
    mismatch_logged: Option<Instant>,
    stalled_logged: Option<Instant>,
}

/// `indexer_stall_secs` as a duration (at least a second).
pub fn stall_after(config: &lvlx_config::Config) -> Duration {
    Duration::from_secs(config.indexer_stall_secs.max(1))
}

/// This instance's indexer as seen from outside it (one per `App`).
#[derive(Debug, Default)]
pub struct Watch(Mutex<State>);

/// The indexer's standing for readiness and the admin: null parts when this instance does not
/// index.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Moving {
    /// Whether this instance holds the indexer's lease (the rest is about its indexer).
    pub indexing: bool,
    /// The highest head its nodes reported lately.
    pub head: Option<u64>,
    /// Blocks between that head and the next block to read.
    pub lag_blocks: Option<u64>,
    /// Seconds since the indexer last moved (read a range, or was caught up).
    pub seconds_since_progress: Option<u64>,
    /// The indexer has not moved for longer than `indexer_stall_secs` while its nodes report
    /// blocks it has not read.
    pub stalled: bool,
    /// Why the node serves another chain than the one the store indexed (a chain reset, the
    /// wrong node): the indexer writes nothing until an operator acts.
    pub mismatch: Option<String>,
}

impl Watch {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The lease was taken (`true`) or lost.
    pub fn indexing(&self, yes: bool) {
        let mut s = self.state();
        if yes && !s.indexing {
            s.moved_at = Some(Instant::now());
        }
        if !yes {
            // Another instance's indexer is the one to judge now.
            s.mismatch = None;
            METRICS.indexer_chain_mismatch.set(0);
            METRICS.indexer_stalled.set(0);
        }
        s.indexing = yes;
    }

    /// A node reported `head`, with `next` the next block to read. The highest head reported
    /// within the last two minutes, for the metrics (never lowered by one lower answer).
    pub fn saw(&self, head: u64, next: u64) -> u64 {
        let mut s = self.state();
        let now = Instant::now();
        let highest = match s.head {
            Some((h, at)) if h >= head && now.duration_since(at) < HEAD_KEPT => h,
            _ => {
                s.head = Some((head, now));
                head
            }
        };
        s.next = next;
        highest
    }

    /// A step read up to block `to` (the cursor moved past it), or found nothing to read up to
    /// `to` (caught up).
    pub fn moved(&self, to: u64) {
        let mut s = self.state();
        let advanced = to + 1 > s.next;
        let caught_up = s.head.is_none_or(|(h, _)| to >= h);
        s.next = s.next.max(to + 1);
        if advanced || caught_up {
            s.moved_at = Some(Instant::now());
            if s.stalled_logged.take().is_some() {
                tracing::info!(next = s.next, "the indexer moves again");
            }
        }
        if s.mismatch.take().is_some() {
            METRICS.indexer_chain_mismatch.set(0);
            tracing::info!("the node serves the indexed chain again");
        }
    }

    /// The node in use serves another chain (`why`): logged as an error at once and every
    /// minute while it lasts.
    pub fn mismatch(&self, why: &str) {
        let mut s = self.state();
        let now = Instant::now();
        let again = s
            .mismatch_logged
            .is_none_or(|at| now.duration_since(at) >= LOG_AGAIN);
        if s.mismatch.as_deref() != Some(why) || again {
            tracing::error!(
                cause = why,
                "the RPC node serves another chain than the one indexed: the indexer writes nothing (docs/operations.md#chain-mismatch)"
            );
            s.mismatch_logged = Some(now);
        }
        s.mismatch = Some(why.to_string());
        METRICS.indexer_chain_mismatch.set(1);
    }

    /// Checks whether the indexer is stuck (`after`: `indexer_stall_secs`), updating the
    /// metrics and logging a warning at once and every minute while it lasts. Returns the
    /// standing.
    pub fn check(&self, after: Duration) -> Moving {
        let mut s = self.state();
        let now = Instant::now();
        let head = s
            .head
            .filter(|(_, at)| now.duration_since(*at) < HEAD_KEPT)
            .map(|(h, _)| h);
        let lag = head.map(|h| (h + 1).saturating_sub(s.next));
        let since = s.moved_at.map(|at| now.duration_since(at));
        // (A node on another chain is its own alarm.)
        let stalled = s.indexing
            && s.mismatch.is_none()
            && lag.unwrap_or(0) > 0
            && since.is_some_and(|d| d > after);
        if s.indexing {
            METRICS.indexer_stalled.set(i64::from(stalled));
            METRICS
                .indexer_idle_seconds
                .set(since.map_or(0, |d| d.as_secs()) as i64);
        }
        if stalled {
            let again = s
                .stalled_logged
                .is_none_or(|at| now.duration_since(at) >= LOG_AGAIN);
            if again {
                tracing::warn!(
                    next = s.next,
                    head,
                    seconds_since_progress = since.map_or(0, |d| d.as_secs()),
                    "the indexer is stuck: its nodes report blocks it has not read (docs/operations.md#when-the-indexer-is-stuck)"
                );
                s.stalled_logged = Some(now);
            }
        }
        Moving {
            indexing: s.indexing,
            head: head.filter(|_| s.indexing),
            lag_blocks: lag.filter(|_| s.indexing),
            seconds_since_progress: since.filter(|_| s.indexing).map(|d| d.as_secs()),
            stalled,
            mismatch: s.mismatch.clone().filter(|_| s.indexing),
        }
    }
}
