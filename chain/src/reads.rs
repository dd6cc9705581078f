//! Chain reads shared across requests (GET /staking made a ~46-call JSON-RPC batch per
//! page load and the network page read the node's terms per load; 16 connections for 15 s cost
//! the node more CPU than the server, and a paid provider bills every call).
//!
//! A page load now asks the node for its head (one call); what it reads at that block is kept
//! and shared: the contracts' terms, prices and reserves by every page load at that block, a
//! wallet's holdings by that wallet's loads. A new block reads again, so what a page shows is
//! never older than the head it was loaded at. Concurrent loads of the same block and key wait
//! for one read instead of each making it (one account reloading in a loop costs the node one
//! call a load).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::rpc::Rpc;

/// Why a shared read failed. The layer above turns it into its own error ([`AtBlock::get`],
/// which runs the caller's read, answers in the caller's error).
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The node cannot be reached, or answered a call with an error (logged).
    #[error("the chain is not available")]
    Unavailable,
    /// The task that read failed (it panicked, or the runtime is stopping).
    #[error("{0}")]
    Task(String),
}

/// The node's head: (block number, its time in seconds), read off the async runtime. A node
/// that does not answer is `Unavailable` (logged).
pub async fn head(rpc: &Rpc) -> Result<(u64, u64), ReadError> {
    let rpc = rpc.clone();
    tokio::task::spawn_blocking(move || super::rpc::head(&rpc))
        .await
        .map_err(|e| ReadError::Task(e.to_string()))?
        .map_err(|e| {
            tracing::warn!(error = %e, "chain read failed");
            ReadError::Unavailable
        })
}

/// One contract call: the contract's address, its ABI, the function and its arguments.
pub type Call<'a> = (
    &'a str,
    lvlx_core::chain::Contract,
    &'static str,
    Vec<String>,
);

/// The answers (hex) of `calls` at `block`, in one JSON-RPC batch (blocking). A node that does
/// not answer, or answers a call with an error, is `Unavailable` (logged).
pub fn calls_at(rpc: &Rpc, block: u64, calls: &[Call]) -> Result<Vec<String>, ReadError> {
    let unavailable = |e: String| {
        tracing::warn!(error = %e, "chain read failed");
        ReadError::Unavailable
    };
    let requests = requests_at(block, calls).map_err(unavailable)?;
    let answers = rpc
        .batch(&requests)
        .map_err(|e| unavailable(e.to_string()))?;
    Ok(hex_answers(&answers))
}

/// [`calls_at`] on the first of `nodes` that answers, with the indexer's retries
/// ([`super::rpc::with_nodes`]); the error says what the last node answered.
pub fn calls_at_any(nodes: &[Rpc], block: u64, calls: &[Call]) -> Result<Vec<String>, String> {
    let requests = requests_at(block, calls)?;
    super::rpc::with_nodes(nodes, |r| r.batch(&requests))
        .map(|answers| hex_answers(&answers))
        .map_err(|e| format!("the contracts could not be read at block {block}: {e}"))
}

fn hex_answers(answers: &[serde_json::Value]) -> Vec<String> {
    answers
        .iter()
        .map(|v| v.as_str().unwrap_or("0x").to_string())
        .collect()
}

/// The `eth_call`s of `calls` at `block`.
fn requests_at(
    block: u64,
    calls: &[Call],
) -> Result<Vec<(&'static str, serde_json::Value)>, String> {
    calls
        .iter()
        .map(|(to, contract, function, args)| {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let data = lvlx_core::chain::calldata(*contract, function, &args)
                .map_err(|e| e.to_string())?;
            Ok((
                "eth_call",
                serde_json::json!([{"to": to, "data": data}, super::rpc::hex(block)]),
            ))
        })
        .collect()
}

/// Keys kept before unused ones are dropped.
const KEYS: usize = 4096;

type Slot<V> = Arc<tokio::sync::Mutex<Option<(u64, V)>>>;

/// Values read at a block, by key.
pub struct AtBlock<V> {
    slots: Mutex<HashMap<String, Slot<V>>>,
}

impl<V> Default for AtBlock<V> {
    fn default() -> Self {
        AtBlock {
            slots: Mutex::new(HashMap::new()),
        }
    }
}

impl<V: Clone + Send + 'static> AtBlock<V> {
    /// The value of `key` at `block` (or a later block another load saw), read by `read` (a
    /// blocking call, run off the async threads) when none is kept.
    pub async fn get<E: From<ReadError> + Send + 'static>(
        &self,
        key: &str,
        block: u64,
        read: impl FnOnce() -> Result<V, E> + Send + 'static,
    ) -> Result<V, E> {
        let slot = {
            let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
            if slots.len() >= KEYS && !slots.contains_key(key) {
                slots.retain(|_, slot| Arc::strong_count(slot) > 1);
            }
            slots.entry(key.to_string()).or_default().clone()
        };
        let mut kept = slot.lock().await;
        if let Some((at, value)) = kept.as_ref() {
            if *at >= block {
                return Ok(value.clone());
            }
        }
        let value = tokio::task::spawn_blocking(read)
            .await
            .map_err(|e| ReadError::Task(format!("chain read task: {e}")))??;
        *kept = Some((block, value.clone()));
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    #[tokio::test]
    async fn a_block_is_read_once_whoever_asks() {
        let reads = Arc::new(AtomicU32::new(0));
        let shared: Arc<AtBlock<u64>> = Arc::default();
        let ask = |block: u64| {
            let (reads, shared) = (reads.clone(), shared.clone());
            async move {
                shared
                    .get("terms", block, move || {
                        reads.fetch_add(1, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(20));
                        Ok::<_, ReadError>(block)
                    })
                    .await
                    .unwrap()
            }
        };
        let answers = futures_util::future::join_all((0..50).map(|_| ask(7))).await;
        assert!(answers.iter().all(|&a| a == 7));
        assert_eq!(
            reads.load(Ordering::SeqCst),
            1,
            "fifty loads of one block, one read"
        );
        assert_eq!(ask(8).await, 8, "a new block reads again");
        assert_eq!(
            ask(7).await,
            8,
            "a load that saw an older head gets the newer value"
        );
        assert_eq!(reads.load(Ordering::SeqCst), 2);
    }
}
