//! Sending transactions and waiting for their receipts. [`send`] and [`Unlocked`] go from an
//! account the node has unlocked (anvil's dev accounts: the development deployment, the demo's
//! purchases and the admin's owner actions where `[chain] owner` names such an account); no key
//! is held here. [`Sender`] is what a deployment sends through, unlocked or, for a real
//! network, signed here by a key from a keystore (`super::keyed`).

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
    /// What noted a transaction before it left could not (the journal could not be written).
    #[error("{0}")]
    Note(String),
}

/// Sends a transaction from an unlocked account and waits for its receipt. Its gas is what the
/// node estimates plus a fifth, as a keystore's transactions and wallets do: the estimate runs
/// at the latest block's time, and a write of the block's time that is a no-op then (the same
/// second as the value stored) costs more once mined in a later block.
pub fn send(rpc: &Rpc, from: &str, to: Option<&str>, data: &str) -> Result<Value, SendError> {
    let mut tx = json!({"from": from, "data": data});
    if let Some(to) = to {
        tx["to"] = json!(to);
    }
    let gas = super::rpc::quantity(&rpc.call("eth_estimateGas", json!([tx]))?)?;
    tx["gas"] = json!(format!("0x{:x}", gas + gas / 5));
    let hash = rpc.call("eth_sendTransaction", json!([tx]))?;
    receipt(rpc, hash.as_str().unwrap_or_default())
}

/// Waits (up to five minutes: a congested network) for the receipt of the transaction `hash`; a reverted one is an error.
pub fn receipt(rpc: &Rpc, hash: &str) -> Result<Value, SendError> {
    let hash = hash.to_string();
    let started = Instant::now();
    loop {
        let receipt = rpc.call("eth_getTransactionReceipt", json!([hash]))?;
        if !receipt.is_null() {
            if receipt["status"] != "0x1" {
                return Err(SendError::Failed(hash));
            }
            return Ok(receipt);
        }
        if started.elapsed() > Duration::from_secs(300) {
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

/// Whoever sends a deployment's transactions.
pub trait Sender {
    /// The sending account (EIP-55).
    fn address(&self) -> String;
    /// Sends `data` to `to` (a contract creation when `None`) and waits for the receipt.
    fn send(&self, rpc: &Rpc, to: Option<&str>, data: &str) -> Result<Value, SendError> {
        self.send_noted(rpc, to, data, &mut |_, _| Ok(()))
    }
    /// [`Sender::send`], telling `sent` the transaction's nonce and hash before it leaves when
    /// they are known then (a key held here signs it), so a journal holds a transaction that
    /// may be mined before its receipt is seen. An unlocked account's node picks both: it
    /// tells nothing.
    fn send_noted(
        &self,
        rpc: &Rpc,
        to: Option<&str>,
        data: &str,
        sent: &mut dyn FnMut(u64, &str) -> Result<(), SendError>,
    ) -> Result<Value, SendError>;
}

/// An account the node has unlocked (anvil's dev accounts).
pub struct Unlocked(pub String);

impl Sender for Unlocked {
    fn address(&self) -> String {
        self.0.clone()
    }

    fn send_noted(
        &self,
        rpc: &Rpc,
        to: Option<&str>,
        data: &str,
        _sent: &mut dyn FnMut(u64, &str) -> Result<(), SendError>,
    ) -> Result<Value, SendError> {
        send(rpc, &self.0, to, data)
    }
}
