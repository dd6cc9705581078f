//! The platform's solvency, for anyone (GET /api/v1/solvency, no sign-in): each staking
//! contract's reward reserve (the rewards it promised and holds, what is free for new stakes
//! and how many weeks of them at the last 30 days' pace it covers), what members are owed
//! against what the claim distributor holds, and the newest check of the books. Read at most
//! once per [`FRESH`] per instance, failures included (a failing node is asked once per
//! period, not once per request), and one read at a time: requests meanwhile wait for it. So
//! the public cannot make it read the store or the chain more often than that.

use std::time::{Duration, Instant};

use lvlx_core::amount::Units;
use lvlx_core::chain::{self, Contract};

use crate::chain::reads;
use crate::chain::rpc::Rpc;
use crate::error::Error;
use crate::store::{books_checks, claims};
use crate::{ChainReads, Config, Store};

/// How long an answer is served again.
pub const FRESH: Duration = Duration::from_secs(10);

/// The last answer (None: the read failed) and when it was read.
pub type Cache = tokio::sync::Mutex<Option<(Instant, Option<Solvency>)>>;

/// Whether the platform holds what it owes: the staking reserves, the claims owed against the
/// distributor's LVLX, and the newest check of the books. `at` in milliseconds.
#[derive(Clone, serde::Serialize, utoipa::ToSchema)]
pub struct Solvency {
    reserves: crate::staking::ReserveMonitor,
    claims: Cover,
    books: Option<crate::books::schedule::BooksSummary>,
    at: i64,
}

impl Solvency {
    /// Each pool's weeks of stakes the free reserve covers (None without a figure).
    pub fn weeks_covered(&self) -> [(&'static str, Option<u64>); 2] {
        let weeks = |m: &Option<crate::staking::Monitor>| m.as_ref().and_then(|m| m.weeks_covered);
        [
            ("nft", weeks(&self.reserves.nft)),
            ("lvlx", weeks(&self.reserves.lvlx)),
        ]
    }

    pub fn cover(&self) -> &Cover {
        &self.claims
    }
}

/// The claims owed (LVLX) against what the distributor holds; null fields without one.
#[derive(Clone, serde::Serialize, utoipa::ToSchema)]
pub struct Cover {
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    pub owed: Units,
    #[serde(with = "lvlx_core::amount::opt_text")]
    #[schema(schema_with = lvlx_core::amount::opt_text::schema)]
    pub held: Option<Units>,
    pub covered: Option<bool>,
    #[serde(with = "lvlx_core::amount::opt_text")]
    #[schema(schema_with = lvlx_core::amount::opt_text::schema)]
    shortfall: Option<Units>,
    #[serde(with = "lvlx_core::amount::opt_text")]
    #[schema(schema_with = lvlx_core::amount::opt_text::schema)]
    surplus: Option<Units>,
}

/// The answer is kept [`FRESH`] in `cache`.
pub async fn read(
    store: &Store,
    config: &Config,
    reads: &ChainReads,
    cache: &Cache,
) -> Result<Solvency, Error> {
    let mut last = cache.lock().await;
    if let Some((at, value)) = last.as_ref() {
        if at.elapsed() < FRESH {
            return value.clone().ok_or(Error::ChainUnavailable);
        }
    }
    let value = compute(store, config, reads).await;
    if let Err(e) = &value {
        tracing::warn!(error = %e, "the solvency figures could not be read");
    }
    *last = Some((Instant::now(), value.as_ref().ok().cloned()));
    value
}

async fn compute(store: &Store, config: &Config, reads: &ChainReads) -> Result<Solvency, Error> {
    let reserves = crate::staking::reserve(store, config, reads).await?;
    let (owed, books) = store
        .read(|c| Ok::<_, Error>((claims::owed(c)?, books_checks::latest(c)?)))
        .await?;
    let held = match config.chain.as_ref() {
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
    Ok(Solvency {
        reserves,
        claims: Cover {
            owed,
            held,
            covered: held.map(|h| h >= owed),
            shortfall: held.map(|h| owed.saturating_sub(h)),
            surplus: held.map(|h| h.saturating_sub(owed)),
        },
        books: books.as_ref().map(crate::books::schedule::BooksSummary::of),
        at: crate::now_ms(),
    })
}
