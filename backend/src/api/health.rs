//! Liveness (`/health`: the process and its database answer) and readiness (`/ready`: this
//! instance can serve members now: its database answers and, with a chain configured, a node
//! of it answers within 2 s). A proxy or orchestrator takes an instance out of rotation while it
//! is not ready, and restarts it only when it is not alive.

use std::time::Duration;

use serde::Serialize;
use warp::filters::BoxedFilter;
use warp::http::header::{HeaderValue, CACHE_CONTROL};
use warp::http::StatusCode;
use warp::{Filter, Reply};

use super::error::reply;
use super::{ok, with, Answer};
use crate::chain::rpc;
use crate::{store, App};

/// The server is up: its version and its database's schema version.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Health {
    status: &'static str,
    version: &'static str,
    /// Schema version the database is at.
    schema: i64,
}

/// How long readiness waits for the chain's node.
const CHAIN_WITHIN: Duration = Duration::from_secs(2);

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // GET /api/v1/health — answers only when the database answers.
    let health = warp::path!("health")
        .and(warp::get())
        .and(with(&app))
        .then(health)
        .map(reply);
    // GET /api/v1/ready — 200 when the database and the chain's node answer, else 503 naming which.
    let ready = warp::path!("ready")
        .and(warp::get())
        .and(with(&app))
        .then(ready);
    health.or(ready).unify().boxed()
}

/// The last readiness, kept a second (`App::readiness`): anyone may ask, and each check asks
/// the database and the chain's nodes, so a flood of asks costs at most one check a second
/// (the rest wait for it).
pub type Readiness = tokio::sync::Mutex<Option<(std::time::Instant, bool, Option<bool>)>>;

async fn ready(app: App) -> warp::reply::Response {
    let mut last = app.readiness.lock().await;
    let (database, chain) = match *last {
        Some((at, database, chain)) if at.elapsed() < Duration::from_secs(1) => (database, chain),
        _ => {
            let (database, chain) = check(&app).await;
            *last = Some((std::time::Instant::now(), database, chain));
            (database, chain)
        }
    };
    drop(last);
    answer_ready(database, chain)
}

/// Whether the database answers, and (with a chain) whether one of its nodes does.
async fn check(app: &App) -> (bool, Option<bool>) {
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
    (database, chain)
}

/// Whether this instance can serve: its database, and its chain's node when one is configured.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = Readiness)]
pub struct Ready {
    ready: bool,
    database: bool,
    /// Null without a chain configured.
    chain: Option<bool>,
}

fn answer_ready(database: bool, chain: Option<bool>) -> warp::reply::Response {
    let ready = database && chain != Some(false);
    let status = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let mut answer = warp::reply::with_status(
        warp::reply::json(&Ready {
            ready,
            database,
            chain,
        }),
        status,
    )
    .into_response();
    answer
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    answer
}

async fn health(app: App) -> Answer {
    let schema = app.store.read(store::schema_version).await?;
    ok(&Health {
        status: "ok",
        version: env!("CARGO_PKG_VERSION"),
        schema,
    })
}
