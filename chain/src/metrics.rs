//! The indexer's metrics: where it reads, whether it moves, what failed. They live here, where
//! they are counted; the process's one registry (`lvlx_domain::metrics`) registers them with
//! the rest, so an operator scrapes them as before.

use std::sync::LazyLock;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct Kind {
    pub kind: String,
}

/// The indexer's and the chain's figures (each a shared handle: a clone counts into the same).
#[derive(Default)]
pub struct Metrics {
    pub chain_head: Gauge,
    pub chain_final: Gauge,
    pub indexer_next: Gauge,
    pub indexer_leader: Gauge,
    pub indexer_errors: Family<Kind, Counter>,
    pub indexer_chain_mismatch: Gauge,
    pub indexer_stalled: Gauge,
    pub indexer_idle_seconds: Gauge,
    pub final_reversals: Counter,
}

pub static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::default);
