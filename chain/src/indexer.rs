//! The platform's indexer (docs/product/chain.md#indexer): polls eth_getLogs for every event the
//! core lists as indexed (sales, staking, activation node, claims: one filter, one cursor) in
//! bounded block ranges up to `confirmations` below the head, decodes them with the core
//! (ethers-core) and records each once (unique tx hash + log index) in the same database
//! transaction that moves its cursor (what each event records: `recording`). A restart resumes at
//! the cursor; an unreachable node is retried with backoff; the amounts recorded are the events'.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use lvlx_core::chain::{self, Contract, Event};
use lvlx_core::staking::Pool;
use serde_json::{json, Value};

use lvlx_config as config;
use lvlx_core::chain::Place;
use lvlx_store::cursors::{self, Cursor};
use lvlx_store::ledger::Entry;
use lvlx_store::{blocks, now_ms, Conn, Store, StoreError};

use super::recording::{record_found, Found, Purchase};
use super::rollback;
use super::rpc::{self, quantity, Rpc, RpcError};
use super::watch::{self, Watch};
use crate::metrics::METRICS;
use crate::{Consumer, Parts, Push};

/// Longest pause between retries while the node is unreachable.
const MAX_BACKOFF: Duration = Duration::from_secs(30);
/// Remembered blocks compared with the chain per request while looking for a fork point.
const FORK_SEARCH: u32 = 64;
/// The newest blocks whose logs are read again one block at a time, by hash.
const TAIL_CHECK: u64 = 16;
/// At most this many (while the final block stalls far behind the head), so a step's batch
/// stays well under providers' batch limits.
const TAIL_MAX: u64 = 64;
/// Ranges read again in a row on one node before the next node is asked.
const MOVED_LIMIT: u32 = 20;
/// Pause before reading a range again after the chain moved or a shorter range was asked for.
const RETRY_SOON: Duration = Duration::from_millis(100);
/// A node behind the cursor whose genesis block was found right is not asked for it again
/// sooner than this (a backend a few blocks behind is met often).
const GENESIS_AGAIN: Duration = Duration::from_secs(5);

#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error(transparent)]
    Rpc(#[from] RpcError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("log {0}: {1}")]
    Decode(String, String),
    /// The chain moved while a range was read (block `0` differs between reads): read again.
    #[error("block {0} changed while its range was read; reading it again")]
    Moved(u64),
    /// The node refused the range's `eth_getLogs` as too large: read again `0` blocks at a time.
    #[error("the node refused the log range; reading {0} blocks at a time")]
    RangeTooLarge(u64),
    /// The cursor is no longer the one this step read: another instance indexed meanwhile (a
    /// lease holder that was frozen and woke up, or the one that took over from it). Nothing
    /// this step read is written; the next step reads on top of the new cursor.
    #[error("another instance moved the cursor since this step read it")]
    Overtaken,
    /// The node serves another chain than the one the store indexed (its genesis block
    /// differs: a chain reset, or a node of another network): nothing is written, and nothing
    /// recorded is taken back, until an operator acts (docs/operations.md#chain-mismatch).
    #[error("the node serves another chain than the one indexed: {0}")]
    Mismatch(String),
}

impl IndexError {
    /// The kind, for the metrics' labels.
    pub fn kind(&self) -> &'static str {
        match self {
            IndexError::Rpc(RpcError::Node { .. }) => "node",
            IndexError::Rpc(RpcError::RateLimited(_)) => "rate_limited",
            IndexError::Rpc(RpcError::Transport(_)) => "unreachable",
            IndexError::Rpc(RpcError::Answer(_)) => "answer",
            IndexError::Store(_) => "store",
            IndexError::Decode(..) => "decode",
            IndexError::Moved(_) => "moved",
            IndexError::RangeTooLarge(_) => "range",
            IndexError::Overtaken => "overtaken",
            IndexError::Mismatch(_) => "mismatch",
        }
    }
}

/// What a step did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// Blocks `from..=to` were read; more are ready.
    More { from: u64, to: u64, recorded: usize },
    /// Nothing left up to the head (after reading up to it, if anything).
    CaughtUp { recorded: usize },
    /// The node has not reached the block before the cursor (it lags): nothing moved.
    Behind,
}

pub struct Indexer {
    /// The configured nodes, the one in use first; a node that cannot answer hands over to
    /// the next at the following step (each step reads from one node).
    nodes: Vec<Rpc>,
    current: AtomicUsize,
    /// Blocks the next `eth_getLogs` spans: halved when a node refuses a range as too large,
    /// grown back by a quarter after each step that read one, up to `max_block_range`.
    range: AtomicU64,
    /// Steps in a row that read their range again (`IndexError::Moved`) on the node in use.
    moved: AtomicU32,
    /// The highest block the next step reads (0: the head): one below the first block a read
    /// found missing or different, so a node whose backends answer from different heads is
    /// read up to the lowest head they agree on instead of not at all.
    ceiling: AtomicU64,
    /// Whether the store holds the chain's genesis block (block 0 of `chain_blocks`), which
    /// tells the chain indexed from another one.
    genesis_kept: AtomicBool,
    /// When the node's genesis block was last found to be the kept one ([`Self::same_chain`]).
    genesis_checked: std::sync::Mutex<Option<std::time::Instant>>,
    /// Whether the indexer moves, for readiness, the admin and the metrics.
    watch: Arc<Watch>,
    /// `indexer_stall_secs`.
    stall_after: Duration,
    store: Store,
    /// What the business does with what is recorded (inside the same transactions), and
    /// where the pushes go.
    consumer: Arc<dyn Consumer>,
    product: String,
    /// Lowercase, as the cursor's key.
    sale: String,
    /// Every configured contract the filter reads: lowercase address and which contract.
    contracts: Vec<(String, Contract)>,
    chain: config::Chain,
    /// Commission per upline level (basis points).
    levels_bps: Vec<u32>,
    /// The chain as of a moment (`lvlx books verify` replays a copy to the head and final block
    /// its cursor held): no block above the first, none final above the second.
    as_of: Option<(u64, u64)>,
}

/// The store lease of the one instance that indexes ("LVLXidxr").
const INDEXER_LEASE: i64 = 0x4C56_4C58_6964_7872;
/// How often an instance without the lease asks for it.
const LEASE_RETRY: Duration = Duration::from_secs(1);

impl Indexer {
    /// The indexer of `chain`, working with `parts` (the app above passes itself).
    pub fn new(parts: impl Into<Parts>, chain: &config::Chain) -> Indexer {
        let app: Parts = parts.into();
        Indexer {
            nodes: chain.rpc_urls().map(Rpc::new).collect(),
            current: AtomicUsize::new(0),
            range: AtomicU64::new(chain.max_block_range.max(1)),
            moved: AtomicU32::new(0),
            ceiling: AtomicU64::new(0),
            genesis_kept: AtomicBool::new(false),
            genesis_checked: Default::default(),
            stall_after: watch::stall_after(&app.config),
            watch: app.watch,
            store: app.store,
            consumer: app.consumer,
            product: app.config.product.clone(),
            sale: chain.ico_sale.to_lowercase(),
            contracts: chain
                .owned()
                .into_iter()
                .map(|(address, contract)| (address.to_lowercase(), contract))
                .collect(),
            chain: chain.clone(),
            levels_bps: app.config.commission_levels_bps.clone(),
            as_of: None,
        }
    }

    /// Starts the indexer on the runtime when a chain is configured. It never stops on errors.
    pub fn spawn(parts: impl Into<Parts>) -> Option<tokio::task::JoinHandle<()>> {
        let parts: Parts = parts.into();
        let chain = parts.config.chain.clone()?;
        let indexer = Indexer::new(parts, &chain);
        Some(tokio::spawn(indexer.run()))
    }

    /// Indexes for as long as the server runs. Exactly one instance indexes at a time: each
    /// step is taken under the store's indexer lease; an instance without it tries again every
    /// second, and takes over within a second of the holder's death, or within `lease_secs` of
    /// the holder freezing or losing its host. Every step is idempotent (the cursor and the (tx
    /// hash, log index) keys are in the store) and commits only on top of the cursor it read,
    /// so a step a dying or frozen holder half-did is neither lost nor counted twice.
    pub async fn run(self) {
        let idle = Duration::from_millis(self.chain.poll_ms.max(100));
        let mut backoff = Duration::from_secs(1);
        let mut lease = None;
        tracing::info!(sale = %self.sale, from = self.chain.start_block, "indexer started");
        loop {
            let held = match &lease {
                Some(l) => lvlx_store::Lease::held(l).await,
                None => false,
            };
            if !held {
                if lease.take().is_some() {
                    tracing::warn!("indexer lease lost: another instance may index now");
                    self.watch.indexing(false);
                }
                METRICS.indexer_leader.set(0);
                lease = match self
                    .store
                    .try_lease(INDEXER_LEASE, Duration::from_secs(self.chain.lease_secs))
                    .await
                {
                    Ok(Some(l)) => {
                        tracing::info!("indexer lease taken: this instance indexes");
                        METRICS.indexer_leader.set(1);
                        self.watch.indexing(true);
                        Some(l)
                    }
                    Ok(None) => None,
                    Err(e) => {
                        tracing::warn!(error = %e, "cannot ask for the indexer lease");
                        None
                    }
                };
                if lease.is_none() {
                    tokio::time::sleep(LEASE_RETRY).await;
                    continue;
                }
            }
            let stepped = self.step().await;
            if let Err(e) = &stepped {
                METRICS
                    .indexer_errors
                    .get_or_create(&crate::metrics::Kind {
                        kind: e.kind().into(),
                    })
                    .inc();
            }
            self.watch.check(self.stall_after);
            match stepped {
                Ok(Progress::More { .. }) => backoff = Duration::from_secs(1),
                Ok(Progress::CaughtUp { .. } | Progress::Behind) => {
                    backoff = Duration::from_secs(1);
                    tokio::time::sleep(idle).await;
                }
                // The chain moved under a read, the node wants a shorter range, or another
                // instance indexed meanwhile: again soon.
                Err(
                    e @ (IndexError::Moved(_)
                    | IndexError::RangeTooLarge(_)
                    | IndexError::Overtaken),
                ) => {
                    tracing::debug!(error = %e, "indexer step read again");
                    tokio::time::sleep(RETRY_SOON).await;
                }
                // Logged by the watch; asked again every second, so pointing the server at
                // the right node is seen at once.
                Err(IndexError::Mismatch(_)) => tokio::time::sleep(idle.max(LEASE_RETRY)).await,
                Err(e) => {
                    tracing::warn!(error = %e, retry_in_ms = backoff.as_millis() as u64, "indexer step failed");
                    tokio::time::sleep(backoff).await;
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                }
            }
        }
    }

    async fn rpc<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Rpc) -> Result<T, RpcError> + Send + 'static,
    ) -> Result<T, RpcError> {
        let rpc = self.nodes[self.current.load(Ordering::Relaxed) % self.nodes.len()].clone();
        tokio::task::spawn_blocking(move || work(&rpc))
            .await
            .map_err(|e| RpcError::Transport(format!("task: {e}")))?
    }

    /// Where the chain stands: its head, the highest final block, and the hash of block
    /// `parent` (None when the node has no such block).
    async fn chain_state(
        &self,
        parent: Option<u64>,
    ) -> Result<(u64, u64, Option<String>), IndexError> {
        let tag = self.chain.finalized_tag;
        let confirmations = self.chain.confirmations;
        Ok(self
            .rpc(move |r| {
                let mut calls = vec![("eth_getBlockByNumber", json!(["latest", false]))];
                if let Some(p) = parent {
                    calls.push(("eth_getBlockByNumber", json!([rpc::hex(p), false])));
                }
                let answers = r.batch(&calls)?;
                let head = quantity(&answers[0]["number"])?;
                let parent_hash = answers
                    .get(1)
                    .and_then(|b| b["hash"].as_str())
                    .map(str::to_string);
                // A node without the tag answers null or a JSON-RPC error about it: confirmations
                // decide. A node that could not be reached, or that limits the rate, fails the
                // step instead (a final block guessed too high is never lowered again).
                let tagged = if tag {
                    match r.call("eth_getBlockByNumber", json!(["finalized", false])) {
                        Ok(b) if b.is_null() => None,
                        Ok(b) => Some(quantity(&b["number"])?),
                        Err(RpcError::Node { .. }) => None,
                        Err(e) => return Err(e),
                    }
                } else {
                    None
                };
                let final_block = tagged
                    .unwrap_or_else(|| head.saturating_sub(confirmations))
                    .min(head);
                Ok((head, final_block, parent_hash))
            })
            .await?)
    }

    /// The highest block at or below `below` whose remembered hash the chain still has: where
    /// it forked from what was recorded. One below the start block when none is left.
    async fn fork_point(&self, below: u64) -> Result<u64, IndexError> {
        let mut below = below;
        loop {
            let remembered = self
                .store
                .read(move |c| blocks::at_or_below(c, below, FORK_SEARCH))
                .await?;
            let Some(&(lowest, _)) = remembered.last() else {
                return Ok(self.chain.start_block.saturating_sub(1));
            };
            let numbers: Vec<u64> = remembered.iter().map(|(n, _)| *n).collect();
            let hashes = self
                .rpc(move |r| {
                    let calls: Vec<(&str, Value)> = numbers
                        .iter()
                        .map(|n| ("eth_getBlockByNumber", json!([rpc::hex(*n), false])))
                        .collect();
                    r.batch(&calls)
                })
                .await?;
            for ((number, hash), block) in remembered.iter().zip(&hashes) {
                match block["hash"].as_str() {
                    Some(h) if h == hash => return Ok(*number),
                    // Not even the genesis block is the one indexed: no reorganisation, another
                    // chain. What was recorded stays until an operator acts.
                    Some(h) if *number == 0 => {
                        return Err(IndexError::Mismatch(format!(
                            "its genesis block is {h}, the indexed chain's is {hash}"
                        )))
                    }
                    Some(_) => {}
                    // A node that does not have a block it had (lagging, or a backend behind
                    // the others) says nothing about a fork: ask again later.
                    None => return Err(IndexError::Moved(*number)),
                }
            }
            if lowest == 0 {
                return Ok(self.chain.start_block.saturating_sub(1));
            }
            below = lowest - 1;
        }
    }

    /// Takes back everything recorded above the fork point below `cursor.next`, in one
    /// transaction, and moves the cursor there.
    async fn roll_back(
        &self,
        seen: Option<Cursor>,
        cursor: Cursor,
    ) -> Result<Progress, IndexError> {
        let ancestor = self.fork_point(cursor.next.saturating_sub(2)).await?;
        self.roll_back_to(ancestor, cursor.next.saturating_sub(1), Some(seen))
            .await?;
        Ok(Progress::More {
            from: ancestor + 1,
            to: ancestor,
            recorded: 0,
        })
    }

    /// Takes back everything recorded above block `ancestor` in one transaction and moves the
    /// cursor there (`read_to`: the last block read, for the log). With `seen`, only when the
    /// stored cursor is still that one (see [`IndexError::Overtaken`]).
    async fn roll_back_to(
        &self,
        ancestor: u64,
        read_to: u64,
        seen: Option<Option<Cursor>>,
    ) -> Result<(), IndexError> {
        // Only a reorganisation comes with the cursor it found; a replay or a bench asks for it.
        let reorganised = seen.is_some();
        let start = self.chain.start_block;
        let key = self.sale.clone();
        let product = self.product.clone();
        let consumer = self.consumer.clone();
        let nft_staking = self.chain.nft_staking.to_lowercase();
        let now = now_ms();
        let taken = self
            .store
            .write(move |c| {
                c.transaction(|tx| {
                    if let Some(seen) = &seen {
                        unchanged(tx, &key, seen)?;
                    }
                    let hash = blocks::at_or_below(tx, ancestor, 1)?
                        .into_iter()
                        .find(|(n, _)| *n == ancestor)
                        .map(|(_, h)| h);
                    let kept = cursors::get(tx, &key)?.map_or(0, |c| c.final_block);
                    let taken = rollback::rollback(
                        tx,
                        &*consumer,
                        &product,
                        &nft_staking,
                        ancestor,
                        kept,
                        now,
                    )?;
                    let next = Cursor {
                        next: (ancestor + 1).max(start),
                        last_hash: hash.filter(|_| ancestor >= start),
                        final_block: kept.min(ancestor),
                    };
                    cursors::set(tx, &key, &next, now)?;
                    Ok::<_, IndexError>(taken)
                })
            })
            .await?;
        let pushes = taken.pushes;
        if reorganised && !taken.final_ones.is_empty() {
            // Credits members saw as final are gone: the chain reorganised deeper than the
            // finality the indexer trusted. Each member has a line saying so in their history.
            METRICS
                .final_reversals
                .inc_by(taken.final_ones.len() as u64);
            for (user, event, tx_hash) in &taken.final_ones {
                tracing::error!(
                    user = user.map(|u| u.0),
                    event,
                    tx_hash,
                    fork_block = ancestor,
                    "an event shown final was taken back by a reorganisation deeper than finality (docs/operations.md#final-reversals)"
                );
            }
        }
        if reorganised {
            tracing::warn!(
                from = ancestor + 1,
                to = read_to,
                taken_back = pushes.len(),
                "blocks left the chain: what they recorded was taken back"
            );
        } else {
            tracing::info!(
                from = ancestor + 1,
                taken_back = pushes.len(),
                "recorded events taken back, to be indexed again"
            );
        }
        for push in pushes {
            self.consumer.push(push);
        }
        Ok(())
    }

    /// Takes back everything recorded above block `ancestor`, as a reorganisation forking
    /// there would, and moves the cursor to it (the benches time it).
    pub async fn take_back_above(&self, ancestor: u64) -> Result<(), IndexError> {
        self.roll_back_to(ancestor, u64::MAX, None).await
    }

    /// Takes back everything recorded from the chain and indexes it again from the start
    /// block; the digest of the state after it is the chain's alone (the tests compare it with
    /// the state steps and rollbacks left). Not with a running server's indexer: it takes no
    /// lease.
    pub async fn replay(&self) -> Result<usize, IndexError> {
        let start = self.chain.start_block;
        self.roll_back_to(start.saturating_sub(1), u64::MAX, None)
            .await?;
        let mut recorded = 0;
        // The indexer's node handling: a node that cannot answer, or is behind, hands over to
        // the next (`step`); when every node failed, a pause and every node again, as many
        // rounds as one-off reads make (`rpc::with_nodes`).
        let (mut failed, mut behind, mut pause) = (0, 0, Duration::from_millis(500));
        let nodes = self.nodes.len() as u32;
        loop {
            match self.step().await {
                Ok(Progress::More { recorded: n, .. }) => {
                    recorded += n;
                    (failed, behind) = (0, 0);
                }
                Ok(Progress::CaughtUp { recorded: n }) => return Ok(recorded + n),
                Ok(Progress::Behind) if behind + 1 < nodes => behind += 1,
                Ok(Progress::Behind) => return Ok(recorded),
                Err(IndexError::Moved(_) | IndexError::RangeTooLarge(_)) => failed = 0,
                Err(IndexError::Rpc(e))
                    if e.is_node_trouble() && failed + 1 < rpc::NODE_ROUNDS * nodes =>
                {
                    failed += 1;
                    if failed % nodes == 0 {
                        tokio::time::sleep(pause).await;
                        pause = (pause * 2).min(Duration::from_secs(8));
                    }
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// The same indexer, reading the chain only up to block `head`, with nothing final above
    /// `final_block`.
    pub fn as_of(mut self, head: u64, final_block: u64) -> Indexer {
        self.as_of = Some((head, final_block));
        self
    }

    /// Reads the next bounded range up to the head and records its events (pending until the
    /// final block passes them), settles the purchases that became final, and takes back what
    /// left the chain when the block before the cursor is no longer the one read.
    pub async fn step(&self) -> Result<Progress, IndexError> {
        let result = self.step_on_node().await;
        if !matches!(result, Err(IndexError::Moved(_))) {
            self.moved.store(0, Ordering::Relaxed);
        }
        match &result {
            Err(IndexError::Rpc(e)) if e.is_node_trouble() => self.next_node(&e.to_string()),
            // A node behind the cursor: the next one may not be.
            Ok(Progress::Behind) => self.next_node("behind the indexed block"),
            // A node on another chain: the next one may be on the right one.
            Err(IndexError::Mismatch(why)) => {
                if self.as_of.is_none() {
                    self.watch.mismatch(why);
                }
                self.next_node("it serves another chain");
            }
            // A node whose answers keep disagreeing with each other: another may not.
            Err(IndexError::Moved(_))
                if self.moved.fetch_add(1, Ordering::Relaxed) + 1 >= MOVED_LIMIT =>
            {
                self.moved.store(0, Ordering::Relaxed);
                self.next_node("its answers keep disagreeing");
            }
            // A whole range was read: the next may be longer.
            Ok(Progress::More { .. }) => {
                let max = self.chain.max_block_range.max(1);
                let range = self.range.load(Ordering::Relaxed);
                self.range
                    .store(max.min(range + (range / 4).max(1)), Ordering::Relaxed);
            }
            _ => {}
        }
        result
    }

    /// Hands over to the next configured node (when there is another).
    fn next_node(&self, why: &str) {
        if self.nodes.len() > 1 {
            let next = (self.current.fetch_add(1, Ordering::Relaxed) + 1) % self.nodes.len();
            tracing::warn!(node = next, why, "indexer moves to another RPC node");
        }
    }

    /// Blocks the next `eth_getLogs` spans.
    pub fn range(&self) -> u64 {
        self.range.load(Ordering::Relaxed)
    }

    async fn step_on_node(&self) -> Result<Progress, IndexError> {
        let key = self.sale.clone();
        let start = self.chain.start_block;
        // What the store holds now; every write below happens only while it still does.
        let seen = self.store.read(move |c| cursors::get(c, &key)).await?;
        let cursor = seen.clone().unwrap_or(Cursor {
            next: start,
            last_hash: None,
            final_block: start.saturating_sub(1),
        });
        let from = cursor.next;
        let parent = (from > start).then(|| from - 1);
        let (head, reported_final, parent_hash) = self.chain_state(parent).await?;
        let (head, reported_final) = match self.as_of {
            Some((h, f)) => (head.min(h), reported_final.min(f)),
            None => (head, reported_final),
        };
        self.show_heights(head, reported_final.max(cursor.final_block), from);
        // A node whose head is below what was read (it lags, claims an older head, or serves
        // another chain: the genesis block tells) moves nothing; another node may be ahead.
        if head + 1 < from {
            self.same_chain().await?;
            return Ok(Progress::Behind);
        }
        if let (Some(_), Some(kept)) = (parent, &cursor.last_hash) {
            match &parent_hash {
                // A node behind what was read (lagging, a shorter chain not yet longer again,
                // or another chain): nothing moves until it has the block.
                None => {
                    self.same_chain().await?;
                    return Ok(Progress::Behind);
                }
                Some(hash) if hash != kept => return self.roll_back(seen, cursor).await,
                Some(_) => {}
            }
        }
        // The node agrees with what was read: the chain's genesis block is learnt if the
        // store has not kept it yet.
        if !self.genesis_kept.load(Ordering::Relaxed) {
            self.keep_genesis().await?;
        }
        // The final block never goes back on a node's word (a lagging node's older one);
        // only a rollback lowers it.
        let final_block = reported_final.max(cursor.final_block);
        if from > head {
            let settled = self.settle_final(seen, &cursor, final_block).await?;
            self.moved_to(from - 1);
            return Ok(Progress::CaughtUp { recorded: settled });
        }
        let ceiling = match self.ceiling.load(Ordering::Relaxed) {
            c if c >= from => c,
            _ => u64::MAX,
        };
        let uncapped = head.min(from + self.range().max(1) - 1);
        let to = uncapped.min(ceiling);
        // The blocks checked one by one: those not final yet, and at least the newest
        // `TAIL_CHECK` (a backend behind the head answers a range without their logs). Below a
        // ceiling, the newest `TAIL_CHECK` of the range too: the backend that made the ceiling
        // may be further behind than `TAIL_CHECK`, and its range answer is not trusted alone.
        let mut tail = (final_block + 1)
            .min(head.saturating_sub(TAIL_CHECK - 1))
            .max(head.saturating_sub(TAIL_MAX - 1));
        if to < uncapped {
            tail = tail.min(to.saturating_sub(TAIL_CHECK - 1));
        }
        let (logs, blocks_read) = match self.read_range(from, to, parent, tail).await {
            // The blocks below the first one missing or different were read alike: the next
            // step reads up to there (a backend behind the others holds nothing back).
            Err(IndexError::Moved(n)) if n > from && n <= to => {
                self.ceiling.store(n - 1, Ordering::Relaxed);
                return Err(IndexError::Moved(n));
            }
            other => other?,
        };
        if let (Some(p), Some(kept)) = (parent, &cursor.last_hash) {
            if blocks_read.get(&p).map(|(_, h)| h) != Some(kept) {
                return Err(IndexError::Moved(p));
            }
        }
        let found = logs
            .iter()
            .map(|log| self.decode(log, &blocks_read))
            .collect::<Result<Vec<_>, _>>()?;
        let step = Step::of(
            found,
            &blocks_read,
            from..=to,
            final_block,
            cursor.final_block,
        );
        let recorded = self.record_step(seen, step).await?;
        self.ceiling.store(0, Ordering::Relaxed);
        self.moved_to(to);
        let count = recorded.len();
        for push in recorded {
            self.consumer.push(push);
        }
        if count > 0 {
            tracing::info!(from, to, recorded = count, "indexed events");
        }
        Ok(if to == head {
            Progress::CaughtUp { recorded: count }
        } else {
            Progress::More {
                from,
                to,
                recorded: count,
            }
        })
    }

    /// The heights the node reports and the next block to read, for the metrics: the live
    /// indexer's only (a replay of the past, the books, is not where the platform stands).
    fn show_heights(&self, head: u64, final_block: u64, next: u64) {
        if self.as_of.is_none() {
            // The highest head reported lately: one lower answer does not move it back.
            let head = self.watch.saw(head, next);
            METRICS.chain_head.set(head as i64);
            METRICS.chain_final.set(final_block as i64);
            METRICS.indexer_next.set(next as i64);
        }
    }

    /// The live indexer read (or was caught up) to block `to`.
    fn moved_to(&self, to: u64) {
        if self.as_of.is_none() {
            self.watch.moved(to);
        }
    }

    /// Fails with [`IndexError::Mismatch`] when the node's genesis block is not the one the
    /// store kept (nothing is known before it is kept).
    async fn same_chain(&self) -> Result<(), IndexError> {
        let recently =
            |at: &Option<std::time::Instant>| at.is_some_and(|at| at.elapsed() < GENESIS_AGAIN);
        if recently(
            &self
                .genesis_checked
                .lock()
                .unwrap_or_else(|e| e.into_inner()),
        ) {
            return Ok(());
        }
        let kept = self
            .store
            .read(|c| blocks::at_or_below(c, 0, 1))
            .await?
            .into_iter()
            .next()
            .map(|(_, h)| h);
        let Some(kept) = kept else { return Ok(()) };
        let genesis = self
            .rpc(|r| r.call("eth_getBlockByNumber", json!(["0x0", false])))
            .await?;
        match genesis["hash"].as_str() {
            Some(h) if h != kept => Err(IndexError::Mismatch(format!(
                "its genesis block is {h}, the indexed chain's is {kept}; its head is below the next block to index"
            ))),
            _ => {
                *self
                    .genesis_checked
                    .lock()
                    .unwrap_or_else(|e| e.into_inner()) = Some(std::time::Instant::now());
                Ok(())
            }
        }
    }

    /// Keeps the chain's genesis block hash (block 0 of `chain_blocks`) when the store has
    /// none yet; called only once the node agrees with the block before the cursor.
    async fn keep_genesis(&self) -> Result<(), IndexError> {
        let kept = self.store.read(|c| blocks::at_or_below(c, 0, 1)).await?;
        if kept.is_empty() {
            let genesis = self
                .rpc(|r| r.call("eth_getBlockByNumber", json!(["0x0", false])))
                .await?;
            if let Some(hash) = genesis["hash"].as_str().map(str::to_string) {
                self.store.write(move |c| blocks::put(c, 0, &hash)).await?;
            } else {
                return Ok(());
            }
        }
        self.genesis_kept.store(true, Ordering::Relaxed);
        Ok(())
    }

    /// Writes what one step read, in one transaction while the cursor is still `seen`: the
    /// purchases that became final first, then this range's events in chain order, the blocks
    /// a reorganisation can reach, and the cursor past the range. The pushes it made.
    async fn record_step(&self, seen: Option<Cursor>, step: Step) -> Result<Vec<Push>, IndexError> {
        let key = self.sale.clone();
        let product = self.product.clone();
        let levels = self.levels_bps.clone();
        let consumer = self.consumer.clone();
        let now = now_ms();
        self.store
            .write(move |c| {
                c.transaction(|tx| {
                    unchanged(tx, &key, &seen)?;
                    let Step {
                        found,
                        remembered,
                        last_hash,
                        from,
                        to,
                        final_block,
                        before,
                    } = step;
                    let mut pushes = rollback::finalize(
                        tx,
                        &*consumer,
                        &product,
                        &levels,
                        before,
                        final_block.min(from.saturating_sub(1)).max(before),
                        now,
                    )?;
                    for f in found {
                        pushes.extend(record_found(
                            tx,
                            &*consumer,
                            &product,
                            &levels,
                            final_block,
                            f,
                        )?);
                    }
                    for (number, hash) in &remembered {
                        blocks::put(tx, *number, hash)?;
                    }
                    // (This range's final purchases were settled as they were recorded.)
                    blocks::forget_final(tx, final_block)?;
                    let next = Cursor {
                        next: to + 1,
                        last_hash,
                        final_block: final_block.min(to).max(before),
                    };
                    cursors::set(tx, &key, &next, now)?;
                    Ok::<_, IndexError>(pushes)
                })
            })
            .await
    }

    /// With nothing new to read: settles the purchases the final block passed since the last
    /// step. Returns how many pushes that made.
    async fn settle_final(
        &self,
        seen: Option<Cursor>,
        cursor: &Cursor,
        final_block: u64,
    ) -> Result<usize, IndexError> {
        let upto = final_block.min(cursor.next.saturating_sub(1));
        if upto <= cursor.final_block {
            return Ok(0);
        }
        let key = self.sale.clone();
        let product = self.product.clone();
        let levels = self.levels_bps.clone();
        let consumer = self.consumer.clone();
        let cursor = cursor.clone();
        let now = now_ms();
        let pushes = self
            .store
            .write(move |c| {
                c.transaction(|tx| {
                    unchanged(tx, &key, &seen)?;
                    let pushes = rollback::finalize(
                        tx,
                        &*consumer,
                        &product,
                        &levels,
                        cursor.final_block,
                        upto,
                        now,
                    )?;
                    blocks::forget_final(tx, upto)?;
                    cursors::set(
                        tx,
                        &key,
                        &Cursor {
                            final_block: upto,
                            ..cursor
                        },
                        now,
                    )?;
                    Ok::<_, IndexError>(pushes)
                })
            })
            .await?;
        let count = pushes.len();
        for push in pushes {
            self.consumer.push(push);
        }
        Ok(count)
    }

    /// The logs of blocks `from..=to` and the blocks they sit in, as one consistent view: block
    /// `to` is read before and after the logs and must not change, and every log's block hash
    /// must be the block read for its number (a reorganisation between the reads, or a
    /// provider answering from two nodes on different forks, makes the step fail and retry).
    /// The blocks read: number → (time in seconds, hash), with `parent` and `to` among them.
    async fn read_range(
        &self,
        from: u64,
        to: u64,
        parent: Option<u64>,
        tail: u64,
    ) -> Result<(Vec<Value>, BTreeMap<u64, (u64, String)>), IndexError> {
        let addresses: Vec<String> = self.contracts.iter().map(|(a, _)| a.clone()).collect();
        let addresses_again = addresses.clone();
        let filter = json!([{
            "address": addresses,
            "topics": [chain::topics()],
            "fromBlock": rpc::hex(from),
            "toBlock": rpc::hex(to),
        }]);
        let read = self
            .rpc(move |r| {
                let before = r.call("eth_getBlockByNumber", json!([rpc::hex(to), false]))?;
                let logs = r.call("eth_getLogs", filter)?;
                let logs = logs.as_array().cloned().unwrap_or_default();
                let numbers = logs
                    .iter()
                    .filter_map(|l| quantity(&l["blockNumber"]).ok())
                    .chain(parent)
                    .chain([to])
                    .chain(tail.max(from)..=to);
                let blocks = blocks_of(r, numbers)?;
                let newest = tail.max(from)..=to;
                let incomplete = first_incomplete(r, &addresses_again, &logs, &blocks, newest)?;
                Ok((
                    logs,
                    blocks,
                    before["hash"].as_str().map(str::to_string),
                    incomplete,
                ))
            })
            .await;
        let (logs, blocks, before, incomplete) = match read {
            Err(e) if e.is_range_too_large() => {
                let span = to - from + 1;
                if span == 1 {
                    // Even one block is refused: this node cannot index here, another may.
                    return Err(
                        RpcError::Transport(format!("one block's logs refused: {e}")).into(),
                    );
                }
                let shorter = (span / 2).max(1);
                self.range.store(shorter, Ordering::Relaxed);
                return Err(IndexError::RangeTooLarge(shorter));
            }
            other => other?,
        };
        if before.is_none() || blocks.get(&to).map(|(_, h)| h) != before.as_ref() {
            return Err(IndexError::Moved(to));
        }
        if let Some(number) = incomplete {
            return Err(IndexError::Moved(number));
        }
        consistent(&logs, &blocks, from..=to)?;
        Ok((logs, blocks))
    }

    fn decode(
        &self,
        log: &Value,
        blocks: &BTreeMap<u64, (u64, String)>,
    ) -> Result<Found, IndexError> {
        let tx_hash = log["transactionHash"]
            .as_str()
            .unwrap_or_default()
            .to_lowercase();
        let bad = |e: String| IndexError::Decode(tx_hash.clone(), e);
        if log["removed"] == json!(true) {
            return Err(bad("removed log below the confirmation depth".into()));
        }
        let topics: Vec<&str> = log["topics"]
            .as_array()
            .map(|t| t.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let block = quantity(&log["blockNumber"]).map_err(|e| bad(e.to_string()))?;
        let log_index = quantity(&log["logIndex"]).map_err(|e| bad(e.to_string()))? as i64;
        let (seconds, _) = blocks
            .get(&block)
            .ok_or_else(|| bad(format!("block {block} not fetched")))?;
        let at = *seconds as i64 * 1000;
        let data = log["data"].as_str().unwrap_or("0x");
        let contract = log["address"].as_str().unwrap_or_default().to_lowercase();
        let (_, which) = self
            .contracts
            .iter()
            .find(|(a, _)| *a == contract)
            .ok_or_else(|| bad(format!("log of an unknown contract {contract}")))?;
        let event = chain::decode(*which, &topics, data).map_err(|e| bad(e.to_string()))?;
        let place = |contract| Place {
            contract,
            tx_hash: tx_hash.clone(),
            log_index,
            at,
            block: block as i64,
        };
        Ok(match event {
            Event::Purchased(p) => Found::Purchase(Purchase {
                entry: Entry {
                    user: None,
                    wallet: Some(p.buyer),
                    created_at: at,
                    token: self.product.clone(),
                    amount: p.lvlx_bought,
                    tx_hash: tx_hash.clone(),
                    log_index,
                },
                usdt_paid: p.usdt_paid,
                referrer: p.referrer,
                block: block as i64,
            }),
            Event::PriceChanged(price) => Found::Price(price, place(contract)),
            Event::NftPurchased(p) => Found::NftPurchase(p, place(contract)),
            Event::Staking(e) => {
                let pool = match which {
                    Contract::NftStaking => Pool::Nft,
                    _ => Pool::Lvlx,
                };
                Found::Staking(e, pool, place(contract))
            }
            Event::Network(e) => Found::Network(e, place(contract)),
        })
    }
}

/// Records a purchase once in the ledger and, for a linked member, settles its commissions;
/// the pushes for the pages it changes when it is new.
/// Fails with [`IndexError::Overtaken`] unless the stored cursor is still `seen`. Writes are one
/// at a time on either database (SQLite's one writer, PostgreSQL's write lock), so a step that
/// passes this inside its transaction commits on top of exactly what it read, whoever holds
/// the lease by then.
fn unchanged(tx: Conn, contract: &str, seen: &Option<Cursor>) -> Result<(), IndexError> {
    if &cursors::get(tx, contract)? == seen {
        Ok(())
    } else {
        Err(IndexError::Overtaken)
    }
}

/// The blocks `numbers` (any order, repeats allowed) by number: (timestamp, hash), in one batch.
/// A block the node does not have is left out.
fn blocks_of(
    r: &Rpc,
    numbers: impl Iterator<Item = u64>,
) -> Result<BTreeMap<u64, (u64, String)>, RpcError> {
    let mut numbers: Vec<u64> = numbers.collect();
    numbers.sort_unstable();
    numbers.dedup();
    let calls: Vec<(&str, Value)> = numbers
        .iter()
        .map(|n| ("eth_getBlockByNumber", json!([rpc::hex(*n), false])))
        .collect();
    let answers = r.batch(&calls)?;
    let mut blocks = BTreeMap::new();
    for (number, b) in numbers.iter().zip(&answers) {
        if let Some(hash) = b["hash"].as_str() {
            blocks.insert(*number, (quantity(&b["timestamp"])?, hash.to_string()));
        }
    }
    Ok(blocks)
}

/// The newest blocks' logs again, each by its hash (EIP-234): a node that does not have the
/// block answers an error instead of an empty list, so logs a backend behind the head left out
/// of the range's answer (`logs`) are noticed. The first block of `newest` whose logs differ,
/// or that the node does not have yet.
fn first_incomplete(
    r: &Rpc,
    addresses: &[String],
    logs: &[Value],
    blocks: &BTreeMap<u64, (u64, String)>,
    newest: std::ops::RangeInclusive<u64>,
) -> Result<Option<u64>, RpcError> {
    // (Empty when the range ends before the newest blocks: `newest` starts past its end.)
    let tail: Vec<(u64, &String)> = blocks
        .iter()
        .filter(|(n, _)| newest.contains(n))
        .map(|(n, (_, h))| (*n, h))
        .collect();
    let calls: Vec<(&str, Value)> = tail
        .iter()
        .map(|(_, h)| {
            let f = json!([{"address": addresses, "topics": [chain::topics()], "blockHash": h}]);
            ("eth_getLogs", f)
        })
        .collect();
    match r.batch(&calls) {
        Ok(answers) => Ok(tail.iter().zip(&answers).find_map(|((number, _), answer)| {
            let found = logs
                .iter()
                .filter(|l| quantity(&l["blockNumber"]).ok() == Some(*number))
                .count();
            (answer.as_array().map_or(0, Vec::len) != found).then_some(*number)
        })),
        // A block this node does not have (yet): read again.
        Err(RpcError::Node { message, .. })
            if ["unknown block", "not found"]
                .iter()
                .any(|w| message.to_lowercase().contains(w)) =>
        {
            Ok(tail.first().map(|(n, _)| *n))
        }
        // A node that refuses logs by block hash cannot index here: another may.
        Err(RpcError::Node { code, message, .. }) => Err(RpcError::Transport(format!(
            "eth_getLogs by block hash refused ({code}: {message})"
        ))),
        Err(e) => Err(e),
    }
}

/// Every log of `range` is in a block read, with that block's hash, and not removed.
fn consistent(
    logs: &[Value],
    blocks: &BTreeMap<u64, (u64, String)>,
    range: std::ops::RangeInclusive<u64>,
) -> Result<(), IndexError> {
    for log in logs {
        let number = quantity(&log["blockNumber"])?;
        if !range.contains(&number) {
            return Err(IndexError::Moved(number));
        }
        let read = blocks.get(&number).map(|(_, h)| h.as_str());
        if log["removed"] == json!(true) || log["blockHash"].as_str() != read {
            return Err(IndexError::Moved(number));
        }
    }
    Ok(())
}

/// What one step read from blocks `from..=to`, to be written together.
struct Step {
    found: Vec<Found>,
    /// The blocks a reorganisation can still reach, and the range's last.
    remembered: Vec<(u64, String)>,
    /// Block `to`'s hash.
    last_hash: Option<String>,
    from: u64,
    to: u64,
    /// The final block as the node reports it (never below the cursor's).
    final_block: u64,
    /// The cursor's final block before this step.
    before: u64,
}

impl Step {
    fn of(
        found: Vec<Found>,
        blocks_read: &BTreeMap<u64, (u64, String)>,
        range: std::ops::RangeInclusive<u64>,
        final_block: u64,
        before: u64,
    ) -> Step {
        let (from, to) = range.into_inner();
        Step {
            found,
            last_hash: blocks_read.get(&to).map(|(_, h)| h.clone()),
            // Blocks a reorganisation can still reach, and the range's last (the fork point of
            // last resort); final ones are never looked at again.
            remembered: blocks_read
                .iter()
                .filter(|(n, _)| **n >= from && (**n > final_block || **n == to))
                .map(|(n, (_, h))| (*n, h.clone()))
                .collect(),
            from,
            to,
            final_block,
            before,
        }
    }
}
