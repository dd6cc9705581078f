//! Where the indexer stands, for the admin pages: what is indexed, what is final, what is
//! pending and what reorganisations took back lately.

use serde::Serialize;

use lvlx_config::Config;
use lvlx_store::{cursors, ledger, now_ms, reversals, Store, StoreError};

use super::watch::{self, Moving, Watch};

/// The window `reversals_day` counts.
const DAY_MS: i64 = 86_400_000;

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[schema(as = IndexerStanding)]
#[serde(rename_all = "camelCase")]
pub struct Standing {
    /// The next block to read (None before the first step, or without a chain).
    pub next_block: Option<u64>,
    pub final_block: Option<u64>,
    /// Purchases recorded above the final block: shown, not yet counted.
    pub pending: i64,
    /// Events taken back in the last 24 hours.
    pub reversals_day: i64,
    /// Of those, events that had been shown final (a reorganisation deeper than finality).
    pub final_reversals_day: i64,
    /// This instance's indexer: the head its nodes report, its lag, the seconds since it
    /// moved, whether it is stuck or its node serves another chain (null without a chain).
    pub moving: Option<Moving>,
}

/// The standing of the chain `config` names, indexed into `store`, this instance's indexer
/// as `watch` sees it.
pub async fn read(store: &Store, config: &Config, watch: &Watch) -> Result<Standing, StoreError> {
    let sale = config.chain.as_ref().map(|c| c.ico_sale.to_lowercase());
    let since = now_ms() - DAY_MS;
    let moving = config
        .chain
        .as_ref()
        .map(|_| watch.check(watch::stall_after(config)));
    store
        .read(move |c| {
            let cursor = match &sale {
                Some(sale) => cursors::get(c, sale)?,
                None => None,
            };
            let final_block = cursor.as_ref().map(|k| k.final_block);
            Ok::<_, StoreError>(Standing {
                next_block: cursor.as_ref().map(|k| k.next),
                final_block,
                pending: ledger::pending(c, final_block.unwrap_or(u64::MAX))?,
                reversals_day: reversals::since(c, since)?,
                final_reversals_day: reversals::final_since(c, since)?,
                moving,
            })
        })
        .await
}
