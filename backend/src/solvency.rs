//! The platform's solvency, for anyone (GET /api/v1/solvency, no sign-in): each staking
//! contract's reward reserve (the rewards it promised and holds, what is free for new stakes
//! and how many weeks of them at the last 30 days' pace it covers), what members are owed
//! against what the claim distributor holds, and the newest check of the books. Read at most
//! once per [`FRESH`] per instance, failures included (a failing node is asked once per
//! period, not once per request), and one read at a time: requests meanwhile wait for it. So
//! the public cannot make it read the store or the chain more often than that.

use std::time::{Duration, Instant};

use lvlx_core::chain::{self, Contract};
use serde_json::{json, Value};

use crate::chain::reads;
use crate::chain::rpc::Rpc;
use crate::error::Error;
use crate::store::{books_checks, claims};
use crate::App;

/// How long an answer is served again.
pub const FRESH: Duration = Duration::from_secs(10);

/// The last answer (None: the read failed) and when it was read.
pub type Cache = tokio::sync::Mutex<Option<(Instant, Option<Value>)>>;

pub async fn read(app: &App) -> Result<Value, Error> {
    let mut last = app.solvency.lock().await;
    if let Some((at, value)) = last.as_ref() {
        if at.elapsed() < FRESH {
            return value.clone().ok_or(Error::ChainUnavailable);
        }
    }
    let value = compute(app).await;
    if let Err(e) = &value {
        tracing::warn!(error = %e, "the solvency figures could not be read");
    }
    *last = Some((Instant::now(), value.as_ref().ok().cloned()));
    value
}

async fn compute(app: &App) -> Result<Value, Error> {
    let reserves = crate::staking::reserve(app).await?;
    let (owed, books) = app
        .store
        .read(|c| Ok::<_, Error>((claims::owed(c)?, books_checks::latest(c)?)))
        .await?;
    let held = match app.config.chain.as_ref() {
        Some(c) if !c.claim_distributor.is_empty() => {
            let (rpc, lvlx, distributor) = (
                Rpc::new(c.rpc_url.expose()),
                c.lvlx.clone(),
                c.claim_distributor.clone(),
            );
            let (block, _) = reads::head(&rpc).await?;
            let answer = tokio::task::spawn_blocking(move || {
                reads::calls_at(
                    &rpc,
                    block,
                    &[(&lvlx, Contract::Lvlx, "balanceOf", vec![distributor])],
                )
            })
            .await
            .map_err(|e| Error::Internal(e.to_string()))??;
            Some(chain::decode_uint(&answer[0]).map_err(|_| Error::ChainUnavailable)?)
        }
        _ => None,
    };
    Ok(json!({
        "reserves": reserves,
        "claims": {
            "owed": owed.to_string(),
            "held": held.map(|h| h.to_string()),
            "covered": held.map(|h| h >= owed),
            "shortfall": held.map(|h| owed.saturating_sub(h).to_string()),
            "surplus": held.map(|h| h.saturating_sub(owed).to_string()),
        },
        "books": books.map(|k| json!({
            "at": k.at,
            "block": k.block,
            "lines": k.lines,
            "differences": k.differences,
            "failed": k.failed(),
        })),
        "at": crate::now_ms(),
    }))
}
