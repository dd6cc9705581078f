//! `lvlx books verify`: the books the platform shows, derived again from the chain
//! alone and compared with the store, line by line.
//!
//! - A consistent copy of the store is taken: SQLite's `store::backup`, or one snapshot of
//!   PostgreSQL copied into a scratch SQLite file (`store::copy::into_sqlite`).
//! - Every member's running totals are computed again from their rows (`totals`): a figure
//!   raised by hand on top of right rows is named there.
//! - The contracts' state at the copy's block (positions, reserved rewards, principal, what
//!   the distributor paid) is compared with the rows' sums (`contracts`).
//! - Everything the copy recorded from the chain is taken back and indexed again from the start
//!   block, as of the head and final block the copy's cursor held (so events after the copy
//!   are not differences); every purchase, settlement, commission, rank bonus, member figure,
//!   day total, stake position and claim payment (`store::digest`'s sections) before and after
//!   are compared. A line only the store has is a figure the chain does not explain; a line
//!   only the replay has is an event the store missed.
//!
//! The copy is deleted afterwards; the live database is only read.

use std::path::PathBuf;

use serde::Serialize;

use crate::chain::indexer::{IndexError, Indexer};
use crate::chain::rpc::Rpc;
use crate::config::Config;
use crate::store::{backup, claims, copy, cursors, digest, stakes, Dialect, Store};
use lvlx_core::staking::Pool;
use std::os::unix::fs::DirBuilderExt;

mod contracts;
pub mod schedule;
mod totals;

/// At most this many lines are named per section and side.
const NAMED: usize = 20;

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Difference {
    pub section: &'static str,
    /// Lines that differ in all (the lists name [`NAMED`] a side at most); a contract figure
    /// that differs is one.
    pub count: usize,
    /// In the store, not explained by the chain.
    pub only_in_store: Vec<String>,
    /// On the chain, missing from the store.
    pub only_on_chain: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// The chain as of: the last block the copy had read, and its final block.
    pub block: u64,
    pub final_block: u64,
    /// Lines compared, over every section.
    pub lines: usize,
    pub differences: Vec<Difference>,
}

/// Verifies the books of `config`'s SQLite store against its chain.
pub async fn verify(config: &Config, live: &Store) -> Result<Report, String> {
    let chain = config
        .chain
        .clone()
        .ok_or("no [chain] section: there is nothing to verify against")?;
    // A check stopped midway (the process killed) left its copy: the store's rows, private as
    // the database itself. One check runs at a time, so any other copy is stale.
    if let Ok(entries) = std::fs::read_dir(&config.data_dir) {
        for entry in entries.flatten() {
            if entry
                .file_name()
                .to_string_lossy()
                .starts_with(SCRATCH_PREFIX)
            {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    let scratch = Scratch(
        config
            .data_dir
            .join(format!("{SCRATCH_PREFIX}{}", crate::now_ms())),
    );
    verify_in(config, live, chain, &scratch.0).await
}

const SCRATCH_PREFIX: &str = "books-";

/// The check's copy of the store, deleted when the check ends however it ends.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

async fn verify_in(
    config: &Config,
    live: &Store,
    chain: crate::config::Chain,
    scratch: &std::path::Path,
) -> Result<Report, String> {
    let store = scratch_copy(config, live, scratch).await?;
    let kept = read(&store, digest::sections).await?;
    let sale = chain.ico_sale.clone();
    let cursor = read(&store, move |c| cursors::get(c, &sale)).await?;
    let (block, final_block) = cursor
        .map(|c| (c.next.saturating_sub(1), c.final_block))
        .unwrap_or((chain.start_block.saturating_sub(1), 0));
    let mut report = Report {
        block,
        final_block,
        lines: 0,
        differences: Vec::new(),
    };
    member_totals(&store, &config.product, &mut report).await?;
    same_chain(&store, &chain, block).await?;
    contract_state(&store, &chain, &mut report).await?;
    let mut scratch_config = config.clone();
    scratch_config.data_dir = scratch.to_path_buf();
    scratch_config.database_url = None;
    scratch_config.smtp = None;
    // The copy's own indexer: its own watch, and pushes no page hears.
    let parts = crate::chain::Domain::parts(
        store.clone(),
        std::sync::Arc::new(scratch_config),
        Default::default(),
        crate::live::Hub::default(),
    );
    // Taking back what the copy recorded subtracts its rows from its totals: totals that do
    // not hold their own rows (an amount changed by hand) stop it, and that is a difference. A
    // node that fails, or lags behind the copy's block, stops the check: no verdict.
    match Indexer::new(parts, &chain)
        .as_of(block, final_block)
        .replay()
        .await
    {
        Err(e @ IndexError::Store(_)) => {
            report.differences.push(Difference {
                section: "totals",
                count: 1,
                only_in_store: vec![format!("the store's totals do not hold its own rows: {e}")],
                only_on_chain: Vec::new(),
            });
            return Ok(report);
        }
        Err(e) => return Err(format!("the chain could not be read again: {e}")),
        Ok(_) => {}
    }
    let sale = chain.ico_sale.clone();
    let reached = read(&store, move |c| cursors::get(c, &sale)).await?;
    if block >= chain.start_block && reached.is_none_or(|c| c.next <= block) {
        return Err(format!(
            "the node is behind block {block}, which the store had read: check again later"
        ));
    }
    let replayed = read(&store, digest::sections).await?;
    compare(&kept, &replayed, &mut report);
    Ok(report)
}

/// One snapshot of the live store as a scratch SQLite store in `scratch` (made private): a
/// PostgreSQL store copied table by table, a SQLite one by its backup.
async fn scratch_copy(
    config: &Config,
    live: &Store,
    scratch: &std::path::Path,
) -> Result<Store, String> {
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(scratch)
        .map_err(|e| e.to_string())?;
    match live.dialect() {
        Dialect::Postgres => {
            let store = Store::open(scratch).map_err(|e| e.to_string())?;
            copy::into_sqlite(live, &store)
                .await
                .map_err(|e| e.to_string())?;
            Ok(store)
        }
        Dialect::Sqlite => {
            let copy = scratch.join(crate::store::FILE_NAME);
            backup::backup(&config.data_dir, &copy).map_err(|e| e.to_string())?;
            Store::open(scratch).map_err(|e| e.to_string())
        }
    }
}

/// The store's digest sections as kept against the same sections after the replay: each
/// section whose lines differ, with the first lines found on one side only.
fn compare(
    kept: &[(&'static str, Vec<String>)],
    replayed: &[(&'static str, Vec<String>)],
    report: &mut Report,
) {
    for ((section, before), (_, after)) in kept.iter().zip(replayed) {
        report.lines += before.len().max(after.len());
        let only = |a: &Vec<String>, b: &Vec<String>| -> Vec<String> {
            let b: std::collections::HashSet<&String> = b.iter().collect();
            a.iter().filter(|l| !b.contains(l)).cloned().collect()
        };
        let (store_only, chain_only) = (only(before, after), only(after, before));
        if !store_only.is_empty() || !chain_only.is_empty() {
            report.differences.push(Difference {
                section,
                count: store_only.len() + chain_only.len(),
                only_in_store: store_only.into_iter().take(NAMED).collect(),
                only_on_chain: chain_only.into_iter().take(NAMED).collect(),
            });
        }
    }
}

async fn read<T: Send + 'static>(
    store: &Store,
    f: impl FnOnce(crate::store::Conn) -> crate::store::Result<T> + Send + 'static,
) -> Result<T, String> {
    store.read(f).await.map_err(|e| e.to_string())
}

/// Every member's totals against their rows (`totals`).
async fn member_totals(store: &Store, product: &str, report: &mut Report) -> Result<(), String> {
    let product = product.to_string();
    let wrong = read(store, move |c| totals::differences(c, &product)).await?;
    report.lines += read(store, |c| Ok(crate::store::users::kept(c)?.len())).await?;
    if !wrong.is_empty() {
        report.differences.push(Difference {
            section: "member totals",
            count: wrong.len(),
            only_in_store: wrong.into_iter().take(NAMED).collect(),
            only_on_chain: Vec::new(),
        });
    }
    Ok(())
}

/// The configured nodes, the indexer's order: `rpc_url`, then each fallback.
fn nodes_of(chain: &crate::config::Chain) -> Vec<Rpc> {
    chain.rpc_urls().map(Rpc::new).collect()
}

/// Fails naming the cause when the nodes cannot verify the copy: their chain is not the one
/// the store indexed (its genesis block differs: a chain reset, or the wrong node), or their
/// head is below `block`, the last block the store read.
async fn same_chain(store: &Store, chain: &crate::config::Chain, block: u64) -> Result<(), String> {
    let kept = read(store, |c| crate::store::blocks::at_or_below(c, 0, 1)).await?;
    let kept = kept.into_iter().next().map(|(_, h)| h);
    let nodes = nodes_of(chain);
    let (head, genesis) = tokio::task::spawn_blocking(move || {
        crate::chain::rpc::with_nodes(&nodes, |r| {
            let answers = r.batch(&[
                ("eth_getBlockByNumber", serde_json::json!(["latest", false])),
                ("eth_getBlockByNumber", serde_json::json!(["0x0", false])),
            ])?;
            let head = crate::chain::rpc::quantity(&answers[0]["number"])?;
            Ok((head, answers[1]["hash"].as_str().map(str::to_string)))
        })
    })
    .await
    .map_err(|e| e.to_string())?
    .map_err(|e| {
        format!("no RPC node answered (every configured node was asked, with retries): {e}")
    })?;
    if let (Some(kept), Some(genesis)) = (&kept, &genesis) {
        if kept != genesis {
            return Err(format!(
                "the node serves another chain than the one the store indexed: its genesis block is {genesis}, the store's is {kept} (the chain was reset, or this is the wrong node; docs/operations.md#chain-mismatch)"
            ));
        }
    }
    if block >= chain.start_block && head < block {
        return Err(format!(
            "the node's head is block {head}, below block {block} the store read: the node is behind, or its chain was reset (docs/operations.md#chain-mismatch)"
        ));
    }
    Ok(())
}

/// The contracts' state at the report's block against the copy's rows (`contracts`).
async fn contract_state(
    store: &Store,
    chain: &crate::config::Chain,
    report: &mut Report,
) -> Result<(), String> {
    let stored = read(store, |c| {
        Ok(contracts::Stored {
            nft: stakes::pool_sums(c, Pool::Nft)?,
            lvlx: stakes::pool_sums(c, Pool::Lvlx)?,
            paid: claims::paid_by_wallet(c)?,
        })
    })
    .await?;
    let (nodes, chain, block) = (nodes_of(chain), chain.clone(), report.block);
    let figures =
        tokio::task::spawn_blocking(move || contracts::figures(&nodes, &chain, block, &stored))
            .await
            .map_err(|e| e.to_string())??;
    report.lines += figures.len();
    let differing = figures.iter().filter(|f| f.chain != f.store).count();
    let (store_side, chain_side): (Vec<String>, Vec<String>) = figures
        .iter()
        .filter(|f| f.chain != f.store)
        .take(NAMED)
        .map(|f| {
            (
                format!("{}|{}|", f.name, f.store),
                format!("{}|{}|", f.name, f.chain),
            )
        })
        .unzip();
    if !store_side.is_empty() {
        report.differences.push(Difference {
            section: "contracts",
            count: differing,
            only_in_store: store_side,
            only_on_chain: chain_side,
        });
    }
    Ok(())
}
