//! Transactions sent from the owner's unlocked account on a development chain (anvil): the
//! deployment, the demo's purchases and the admin's owner actions where `[chain] owner` names
//! such an account. No key is held here: the node signs for an account it has unlocked.

use std::time::{Duration, Instant};

use lvlx_core::chain::{self, Contract};
use serde_json::{json, Value};

use super::rpc::{Rpc, RpcError};

#[derive(Debug, thiserror::Error)]
pub enum SendError {
    #[error(transparent)]
    Rpc(#[from] RpcError),
    #[error(transparent)]
    Encode(#[from] chain::ChainError),
    #[error("transaction {0} failed")]
    Failed(String),
    #[error("no receipt for {0} in time")]
    Timeout(String),
}

/// Sends a transaction from an unlocked account and waits for its receipt.
pub fn send(rpc: &Rpc, from: &str, to: Option<&str>, data: &str) -> Result<Value, SendError> {
    let mut tx = json!({"from": from, "data": data});
    if let Some(to) = to {
        tx["to"] = json!(to);
    }
    let hash = rpc.call("eth_sendTransaction", json!([tx]))?;
    let hash = hash.as_str().unwrap_or_default().to_string();
    let started = Instant::now();
    loop {
        let receipt = rpc.call("eth_getTransactionReceipt", json!([hash]))?;
        if !receipt.is_null() {
            if receipt["status"] != "0x1" {
                return Err(SendError::Failed(hash));
            }
            return Ok(receipt);
        }
        if started.elapsed() > Duration::from_secs(60) {
            return Err(SendError::Timeout(hash));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Calls `function(args…)` on `contract` at `to` from `from`, waiting for the receipt.
pub fn transact(
    rpc: &Rpc,
    from: &str,
    to: &str,
    contract: Contract,
    function: &str,
    args: &[&str],
) -> Result<Value, SendError> {
    send(
        rpc,
        from,
        Some(to),
        &chain::calldata(contract, function, args)?,
    )
}
