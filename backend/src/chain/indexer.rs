//! The platform's indexer (DESIGN §5): polls eth_getLogs for every event the core lists as
//! indexed (sales, staking, activation node, claims: one filter, one cursor) in bounded
//! block ranges up to `confirmations` below the head, decodes them with the core (ethers-core)
//! and records each once (unique tx hash + log index) in the same database transaction that
//! moves its cursor. A restart resumes at the cursor; an unreachable node is retried with
//! backoff; the amounts recorded are the events'.

use std::collections::BTreeMap;
use std::time::Duration;

use lvlx_core::chain::{self, Contract, Event, NetworkEvent, NftPurchase, StakingEvent};
use lvlx_core::staking::Pool;
use serde_json::{json, Value};

use super::rpc::{self, quantity, Rpc, RpcError};
use crate::live::{Hub, Push};
use crate::network;
use crate::store::ledger::{self, Entry};
use crate::store::stakes::{self, Opened};
use crate::store::{cursors, users, Conn, Store, StoreError};
use crate::{config, now_ms, App};

/// Longest pause between retries while the node is unreachable.
const MAX_BACKOFF: Duration = Duration::from_secs(30);

#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error(transparent)]
    Rpc(#[from] RpcError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("log {0}: {1}")]
    Decode(String, String),
}

/// What a step did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// Blocks `from..=to` were read; more are ready.
    More { from: u64, to: u64, recorded: usize },
    /// Nothing left below the confirmation depth (after reading up to `to`, if anything).
    CaughtUp { recorded: usize },
}

pub struct Indexer {
    rpc: Rpc,
    store: Store,
    hub: Hub,
    product: String,
    /// Lowercase, as the cursor's key.
    sale: String,
    /// Every configured contract the filter reads: lowercase address and which contract.
    contracts: Vec<(String, Contract)>,
    chain: config::Chain,
    /// Commission per upline level (basis points).
    levels_bps: Vec<u32>,
}

/// One decoded purchase, ready for the ledger.
struct Purchase {
    entry: Entry,
    usdt_paid: u128,
    referrer: Option<String>,
    block: i64,
}

/// Where a staking or NFT-sale event sits.
struct Place {
    /// Lowercase address of the contract that emitted it.
    contract: String,
    tx_hash: String,
    log_index: i64,
    /// Block time, milliseconds.
    at: i64,
}

enum Found {
    Purchase(Purchase),
    NftPurchase(NftPurchase, Place),
    Staking(StakingEvent, Pool, Place),
    Network(NetworkEvent, network::events::Logged),
}

/// The store lease of the one instance that indexes ("LVLXidxr").
const INDEXER_LEASE: i64 = 0x4C56_4C58_6964_7872;
/// How often an instance without the lease asks for it.
const LEASE_RETRY: Duration = Duration::from_secs(1);

impl Indexer {
    pub fn new(app: &App, chain: &config::Chain) -> Indexer {
        Indexer {
            rpc: Rpc::new(chain.rpc_url.expose()),
            store: app.store.clone(),
            hub: app.hub.clone(),
            product: app.config.product.clone(),
            sale: chain.ico_sale.to_lowercase(),
            contracts: chain
                .owned()
                .into_iter()
                .map(|(address, contract)| (address.to_lowercase(), contract))
                .collect(),
            chain: chain.clone(),
            levels_bps: app.config.commission_levels_bps.clone(),
        }
    }

    /// Starts the indexer on the runtime when a chain is configured. It never stops on errors.
    pub fn spawn(app: &App) -> Option<tokio::task::JoinHandle<()>> {
        let chain = app.config.chain.clone()?;
        let indexer = Indexer::new(app, &chain);
        Some(tokio::spawn(indexer.run()))
    }

    /// Indexes for as long as the server runs. Exactly one instance indexes at a time: each
    /// step is taken under the store's indexer lease; an instance without it tries
    /// again every second, and takes over within a second of the holder's death. Every step is
    /// idempotent (the cursor and the (tx hash, log index) keys are in the store), so a step a
    /// dying holder half-did is neither lost nor counted twice.
    pub async fn run(self) {
        let idle = Duration::from_millis(self.chain.poll_ms.max(100));
        let mut backoff = Duration::from_secs(1);
        let mut lease = None;
        tracing::info!(sale = %self.sale, from = self.chain.start_block, "indexer started");
        loop {
            let held = match &lease {
                Some(l) => crate::store::Lease::held(l).await,
                None => false,
            };
            if !held {
                lease = match self.store.try_lease(INDEXER_LEASE).await {
                    Ok(Some(l)) => {
                        tracing::info!("indexer lease taken: this instance indexes");
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
            match self.step().await {
                Ok(Progress::More { .. }) => backoff = Duration::from_secs(1),
                Ok(Progress::CaughtUp { .. }) => {
                    backoff = Duration::from_secs(1);
                    tokio::time::sleep(idle).await;
                }
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
        let rpc = self.rpc.clone();
        tokio::task::spawn_blocking(move || work(&rpc))
            .await
            .map_err(|e| RpcError::Transport(format!("task: {e}")))?
    }

    /// Reads the next bounded range (if any is confirmed) and records its purchases.
    pub async fn step(&self) -> Result<Progress, IndexError> {
        let sale = self.sale.clone();
        let start = self.chain.start_block;
        let cursor = self
            .store
            .read(move |c| cursors::get(c, &sale))
            .await?
            .unwrap_or((start, None));
        let (mut from, last_hash) = cursor;
        let head = quantity(&self.rpc(|r| r.call("eth_blockNumber", json!([]))).await?)?;
        // A block read earlier that is no longer on the chain: a reorganisation deeper than the
        // confirmation depth, or a development chain started afresh. Read again from the start;
        // the ledger keeps each event once, so nothing is counted twice.
        if let (Some(hash), true) = (last_hash, from > start) {
            let number = rpc::hex(from - 1);
            let block = self
                .rpc(move |r| r.call("eth_getBlockByNumber", json!([number, false])))
                .await?;
            if block["hash"].as_str() != Some(hash.as_str()) {
                tracing::warn!(
                    block = from - 1,
                    "indexed block is gone from the chain; indexing again from the start block"
                );
                from = start;
            }
        }
        let Some(safe) = head.checked_sub(self.chain.confirmations) else {
            return Ok(Progress::CaughtUp { recorded: 0 });
        };
        if from > safe {
            return Ok(Progress::CaughtUp { recorded: 0 });
        }
        let to = safe.min(from + self.chain.max_block_range.max(1) - 1);
        let addresses: Vec<&str> = self.contracts.iter().map(|(a, _)| a.as_str()).collect();
        let filter = json!([{
            "address": addresses,
            "topics": [chain::topics()],
            "fromBlock": rpc::hex(from),
            "toBlock": rpc::hex(to),
        }]);
        let (logs, blocks) = self
            .rpc(move |r| {
                let logs = r.call("eth_getLogs", filter)?;
                let logs = logs.as_array().cloned().unwrap_or_default();
                // Times of the blocks the logs sit in, and the range's last block (its hash is
                // the cursor's check), in one request.
                let mut numbers: Vec<String> = logs
                    .iter()
                    .filter_map(|l| l["blockNumber"].as_str().map(str::to_string))
                    .collect();
                numbers.push(rpc::hex(to));
                numbers.dedup();
                let calls: Vec<(&str, Value)> = numbers
                    .iter()
                    .map(|n| ("eth_getBlockByNumber", json!([n, false])))
                    .collect();
                let answers = r.batch(&calls)?;
                let blocks: BTreeMap<u64, (u64, String)> = answers
                    .iter()
                    .map(|b| {
                        Ok((
                            quantity(&b["number"])?,
                            (
                                quantity(&b["timestamp"])?,
                                b["hash"].as_str().unwrap_or("").to_string(),
                            ),
                        ))
                    })
                    .collect::<Result<_, RpcError>>()?;
                Ok((logs, blocks))
            })
            .await?;
        let found = logs
            .iter()
            .map(|log| self.decode(log, &blocks))
            .collect::<Result<Vec<_>, _>>()?;
        let last_hash = blocks
            .get(&to)
            .map(|(_, h)| h.clone())
            .filter(|h| !h.is_empty());
        let sale = self.sale.clone();
        let product = self.product.clone();
        let levels = self.levels_bps.clone();
        let next = to + 1;
        let recorded = self
            .store
            .write(move |c| {
                c.transaction(|tx| {
                    let mut pushes = Vec::new();
                    for f in found {
                        match f {
                            Found::Purchase(p) => {
                                pushes.extend(record_purchase(tx, &product, &levels, p)?)
                            }
                            Found::Staking(event, pool, at) => {
                                pushes.extend(record_staking(tx, event, pool, at)?)
                            }
                            Found::NftPurchase(p, at) => {
                                pushes.extend(record_nft_purchase(tx, p, at)?)
                            }
                            Found::Network(event, log) => {
                                pushes.extend(network::events::record(tx, event, &log)?)
                            }
                        }
                    }
                    cursors::set(tx, &sale, next, last_hash.as_deref(), now_ms())?;
                    Ok::<_, StoreError>(pushes)
                })
            })
            .await?;
        let count = recorded.len();
        for push in recorded {
            self.hub.push(push);
        }
        if count > 0 {
            tracing::info!(from, to, recorded = count, "indexed events");
        }
        Ok(if to == safe {
            Progress::CaughtUp { recorded: count }
        } else {
            Progress::More {
                from,
                to,
                recorded: count,
            }
        })
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
            Event::NftPurchased(p) => Found::NftPurchase(p, place(contract)),
            Event::Staking(e) => {
                let pool = match which {
                    Contract::NftStaking => Pool::Nft,
                    _ => Pool::Lvlx,
                };
                Found::Staking(e, pool, place(contract))
            }
            Event::Network(e) => Found::Network(
                e,
                network::events::Logged {
                    tx_hash: tx_hash.clone(),
                    log_index,
                    block: block as i64,
                    at,
                },
            ),
        })
    }
}

/// Records a purchase once in the ledger and, for a linked member, settles its commissions;
/// the pushes for the pages it changes when it is new.
fn record_purchase(
    tx: Conn,
    product: &str,
    levels_bps: &[u32],
    mut f: Purchase,
) -> Result<Vec<Push>, StoreError> {
    // The account that linked the buying wallet, if any (else the entry waits for the link).
    // Both sides are EIP-55, so the unique index answers.
    f.entry.user = users::by_wallet(tx, f.entry.wallet.as_deref().unwrap_or_default())?;
    if !ledger::record(tx, product, &f.entry)? {
        return Ok(Vec::new());
    }
    let id = ledger::set_payment(
        tx,
        &f.entry.tx_hash,
        f.entry.log_index,
        f.usdt_paid,
        f.referrer.as_deref(),
        f.block,
    )?;
    let mut pushes = match f.entry.user {
        Some(_) => network::events::settle(tx, product, levels_bps, id, f.entry.created_at)?,
        None => Vec::new(),
    };
    pushes.push(Push::Purchase {
        user: f.entry.user,
        tx_hash: f.entry.tx_hash,
        wallet: f.entry.wallet.unwrap_or_default(),
        lvlx: f.entry.amount,
        usdt: f.usdt_paid,
        created_at: f.entry.created_at,
    });
    Ok(pushes)
}

/// Applies a staking event once; the push for its pages when it is new.
fn record_staking(
    tx: Conn,
    event: StakingEvent,
    pool: Pool,
    s: Place,
) -> Result<Option<Push>, StoreError> {
    let (name, amount) = match &event {
        StakingEvent::Staked { amount, .. } => ("staked", Some(*amount)),
        StakingEvent::InterestWithdrawn { amount, .. } => ("interest", Some(*amount)),
        StakingEvent::Released { interest, .. } => ("released", Some(*interest)),
        StakingEvent::ReserveFunded { amount, .. } => ("funded", Some(*amount)),
        StakingEvent::ReserveWithdrawn { amount, .. } => ("defunded", Some(*amount)),
        StakingEvent::TermsChanged { .. } => ("terms", None),
    };
    if !stakes::event_once(tx, &s.tx_hash, s.log_index, &s.contract, name, amount, s.at)? {
        return Ok(None);
    }
    let push = |user, position: u64| {
        Some(Push::Stake {
            user,
            pool: Some(pool),
            event: name,
            position,
            amount: amount.unwrap_or(0),
            at: s.at,
        })
    };
    Ok(match event {
        StakingEvent::Staked {
            position,
            owner,
            kind,
            amount,
            reward,
            start,
            release,
        } => {
            let user = users::by_wallet(tx, &owner)?;
            stakes::open(
                tx,
                &Opened {
                    pool,
                    position,
                    user,
                    wallet: owner,
                    kind,
                    amount,
                    reward,
                    start: start as i64 * 1000,
                    release: release as i64 * 1000,
                    tx_hash: s.tx_hash.clone(),
                    log_index: s.log_index,
                },
            )?;
            push(user, position)
        }
        StakingEvent::InterestWithdrawn {
            position, amount, ..
        } => {
            stakes::add_withdrawn(tx, pool, position, amount)?;
            push(stakes::owner(tx, pool, position)?.flatten(), position)
        }
        StakingEvent::Released { position, .. } => {
            stakes::close(tx, pool, position, s.at)?;
            push(stakes::owner(tx, pool, position)?.flatten(), position)
        }
        // Reserve and terms changes: recorded above; the reserve monitor reads the chain.
        _ => push(None, 0),
    })
}

/// Records an NFT sale's purchase once; the push for its pages when it is new.
fn record_nft_purchase(tx: Conn, p: NftPurchase, s: Place) -> Result<Option<Push>, StoreError> {
    let name = "nft-purchased";
    let at = s.at;
    if !stakes::event_once(
        tx,
        &s.tx_hash,
        s.log_index,
        &s.contract,
        name,
        Some(p.quantity),
        at,
    )? {
        return Ok(None);
    }
    let user = users::by_wallet(tx, &p.buyer)?;
    stakes::record_nft_purchase(
        tx,
        &s.tx_hash,
        s.log_index,
        user,
        &p.buyer,
        p.id,
        p.quantity,
        p.usdt_paid,
        at,
    )?;
    Ok(Some(Push::Stake {
        user,
        pool: None,
        event: name,
        position: u64::from(p.id),
        amount: p.quantity,
        at,
    }))
}
