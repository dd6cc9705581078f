//! Liveness (the process and its database answer) and readiness (this instance can serve
//! members now: its database answers and, with a chain configured, a node of it answers within
//! 2 s). A proxy or orchestrator takes an instance out of rotation while it is not ready, and
//! restarts it only when it is not alive.

use std::time::Duration;

use serde::Serialize;

use crate::chain::rpc;
use crate::error::Error;
use crate::{store, App};

/// The server is up: its version and its database's schema version.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Health {
    status: &'static str,
    version: &'static str,
    /// Schema version the database is at.
    schema: i64,
}

/// Whether this instance can serve: its database, and its chain's node when one is configured.
#[derive(Clone, Copy, Serialize, utoipa::ToSchema)]
#[schema(as = Readiness)]
pub struct Ready {
    pub ready: bool,
    database: bool,
    /// Null without a chain configured.
    chain: Option<bool>,
}

/// How long readiness waits for the chain's node.
const CHAIN_WITHIN: Duration = Duration::from_secs(2);

/// The last readiness, kept a second (`App::readiness`): anyone may ask, and each check asks
/// the database and the chain's nodes, so a flood of asks costs at most one check a second
/// (the rest wait for it).
pub type Readiness = tokio::sync::Mutex<Option<(std::time::Instant, Ready)>>;

/// The process answers when its database does.
pub async fn health(app: &App) -> Result<Health, Error> {
    let schema = app.store.read(store::schema_version).await?;
    Ok(Health {
        status: "ok",
        version: env!("CARGO_PKG_VERSION"),
        schema,
    })
}

/// Whether this instance can serve now (checked at most once a second).
pub async fn ready(app: &App) -> Ready {
    let mut last = app.readiness.lock().await;
    match *last {
        Some((at, ready)) if at.elapsed() < Duration::from_secs(1) => ready,
        _ => {
            let ready = check(app).await;
            *last = Some((std::time::Instant::now(), ready));
            ready
        }
    }
}

/// Whether the database answers, and (with a chain) whether one of its nodes does.
async fn check(app: &App) -> Ready {
    let database = app.store.read(store::schema_version).await.is_ok();
    let chain = match app.config.chain.as_ref() {
        None => None,
        Some(chain) => {
            let urls: Vec<String> = chain.rpc_urls().map(str::to_string).collect();
            let asked = tokio::task::spawn_blocking(move || {
                urls.iter()
                    .any(|url| rpc::head(&rpc::Rpc::new(url)).is_ok())
            });
            Some(matches!(
                tokio::time::timeout(CHAIN_WITHIN, asked).await,
                Ok(Ok(true))
            ))
        }
    };
    Ready {
        ready: database && chain != Some(false),
        database,
        chain,
    }
}
