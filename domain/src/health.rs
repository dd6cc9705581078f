//! Liveness (the process and its database answer) and readiness (this instance can serve
//! members now: its database answers and, with a chain configured, its nodes do not all fail
//! and its indexer moves on the chain the store indexed). A proxy or orchestrator takes an
//! instance out of rotation while it is not ready, and restarts it only when it is not alive.
//! A slow node is not a failed one: the nodes are asked in the background and readiness
//! answers from the last answer they gave (docs/operations.md#health-and-readiness).

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::chain::rpc;
use crate::chain::watch::{self, Moving};
use crate::error::Error;
use crate::{store, Config, Store};

/// The server is up: its version and its database's schema version.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Health {
    status: &'static str,
    version: &'static str,
    /// Schema version the database is at.
    schema: i64,
}

/// Whether this instance can serve: its database, its chain's nodes and its indexer.
#[derive(Clone, Serialize, utoipa::ToSchema)]
#[schema(as = Readiness)]
pub struct Ready {
    pub ready: bool,
    database: bool,
    /// Whether one of the chain's nodes answered when last asked (a node still answering
    /// counts as answering). Null without a chain configured.
    chain: Option<bool>,
    /// Why not ready: `database`, `chain-mismatch` (the node serves another chain than the one
    /// indexed), `nodes-unreachable` or `indexer-stalled`. Null when ready.
    reason: Option<&'static str>,
    /// This instance's indexer: lag, time since it moved, whether it is stuck. Null without a
    /// chain.
    indexer: Option<Moving>,
}

/// How long a first readiness check waits for the chain's nodes; later checks answer from the
/// last answer the nodes gave at once.
const CHAIN_WITHIN: Duration = Duration::from_secs(2);

/// The last readiness, kept a second: anyone may ask, and each check asks
/// the database and the chain's nodes, so a flood of asks costs at most one check a second
/// (the rest wait for it).
#[derive(Default)]
pub struct Readiness {
    last: tokio::sync::Mutex<Option<(Instant, Ready)>>,
    nodes: Arc<std::sync::Mutex<Probe>>,
}

/// The nodes' last answer to readiness's question, and whether it is being asked.
#[derive(Default)]
struct Probe {
    answered: Option<bool>,
    asking: bool,
}

/// The process answers when its database does.
pub async fn health(store: &Store) -> Result<Health, Error> {
    let schema = store.read(store::schema_version).await?;
    Ok(Health {
        status: "ok",
        version: env!("CARGO_PKG_VERSION"),
        schema,
    })
}

/// Whether this instance can serve now (checked at most once a second, the answer kept in
/// `readiness`); `indexing`: whether this instance's indexer moves.
pub async fn ready(
    store: &Store,
    config: &Config,
    indexing: &watch::Watch,
    readiness: &Readiness,
) -> Ready {
    let mut last = readiness.last.lock().await;
    match &*last {
        Some((at, ready)) if at.elapsed() < Duration::from_secs(1) => ready.clone(),
        _ => {
            let ready = check(store, config, indexing, readiness).await;
            *last = Some((Instant::now(), ready.clone()));
            ready
        }
    }
}

/// Whether one of the chain's nodes answers: asks them in the background (each within the
/// client's own timeout) and answers the last answer; the first time, waits for it up to
/// [`CHAIN_WITHIN`] (a node not done by then counts as answering).
async fn nodes_answer(readiness: &Readiness, chain: &crate::config::Chain) -> bool {
    let probe = readiness.nodes.clone();
    let asked = {
        let mut p = probe.lock().unwrap_or_else(|e| e.into_inner());
        if p.asking {
            None
        } else {
            p.asking = true;
            let urls: Vec<String> = chain.rpc_urls().map(str::to_string).collect();
            let probe = probe.clone();
            Some(tokio::task::spawn_blocking(move || {
                // A node that limits the rate answers: it is there.
                let answers = urls.iter().any(|url| {
                    matches!(
                        rpc::head(&rpc::Rpc::new(url)),
                        Ok(_) | Err(rpc::RpcError::RateLimited(_))
                    )
                });
                let mut p = probe.lock().unwrap_or_else(|e| e.into_inner());
                p.answered = Some(answers);
                p.asking = false;
            }))
        }
    };
    let first = probe
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .answered
        .is_none();
    if let (true, Some(asked)) = (first, asked) {
        let _ = tokio::time::timeout(CHAIN_WITHIN, asked).await;
    }
    let answered = probe.lock().unwrap_or_else(|e| e.into_inner()).answered;
    answered.unwrap_or(true)
}

/// Whether the database answers, and (with a chain) whether its nodes answer and its indexer
/// moves on the right chain.
async fn check(
    store: &Store,
    config: &Config,
    indexing: &watch::Watch,
    readiness: &Readiness,
) -> Ready {
    let database = store.read(store::schema_version).await.is_ok();
    let (chain, indexer) = match config.chain.as_ref() {
        None => (None, None),
        Some(chain) => (
            Some(nodes_answer(readiness, chain).await),
            Some(indexing.check(watch::stall_after(config))),
        ),
    };
    let reason = if !database {
        Some("database")
    } else if indexer.as_ref().is_some_and(|i| i.mismatch.is_some()) {
        Some("chain-mismatch")
    } else if chain == Some(false) {
        Some("nodes-unreachable")
    } else if indexer.as_ref().is_some_and(|i| i.stalled) {
        Some("indexer-stalled")
    } else {
        None
    };
    Ready {
        ready: reason.is_none(),
        database,
        chain,
        reason,
        indexer,
    }
}
