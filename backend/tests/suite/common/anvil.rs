//! A real local chain for tests: anvil from npm (through scripts/anvil.sh, installed by
//! scripts/setup.sh) on a free loopback port with chain id 137, killed when dropped; and a
//! switchable TCP relay in front of it, to take the node "down" and bring it back.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use lvlx_backend::chain::deploy::Deployment;
use lvlx_backend::chain::indexer::{IndexError, Indexer, Progress};
use lvlx_backend::chain::owner;
use lvlx_backend::chain::rpc::{Rpc, RpcError};
use lvlx_core::chain::Contract;
use serde_json::json;

/// The anvil program the tests run (npm's, through a wrapper).
pub const ANVIL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/anvil.sh");

pub struct Anvil {
    child: Child,
    pub url: String,
    pub rpc: Rpc,
}

impl Anvil {
    pub fn start() -> Anvil {
        Anvil::start_with(10)
    }

    /// A chain with `accounts` unlocked development accounts.
    pub fn start_with(accounts: usize) -> Anvil {
        Anvil::start_on(137, accounts)
    }

    /// A chain with id `chain_id` and `accounts` unlocked development accounts.
    pub fn start_on(chain_id: u64, accounts: usize) -> Anvil {
        let accounts = accounts.to_string();
        let chain_id = chain_id.to_string();
        let mut child = Command::new(ANVIL)
            .args([
                "--chain-id",
                &chain_id,
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--accounts",
                &accounts,
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("anvil (npm @foundry-rs/anvil; run scripts/setup.sh)");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let url = loop {
            let line = lines.next().expect("anvil exited").unwrap();
            if let Some(addr) = line.strip_prefix("Listening on ") {
                break format!("http://{}", addr.trim());
            }
        };
        // Keep draining anvil's output so it never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        Anvil {
            child,
            rpc: Rpc::new(&url),
            url,
        }
    }

    pub fn accounts(&self) -> Vec<String> {
        serde_json::from_value(self.rpc.call("eth_accounts", json!([])).unwrap()).unwrap()
    }

    /// `buyer` approves and buys `usdt` base units' worth of LVLX (one block each).
    pub fn buy(&self, d: &Deployment, buyer: &str, usdt: u128, referrer: Option<&str>) -> String {
        let amount = usdt.to_string();
        owner::transact(
            &self.rpc,
            buyer,
            &d.usdt,
            Contract::Lvlx,
            "approve",
            &[&d.ico_sale, &amount],
        )
        .unwrap();
        let zero = "0x0000000000000000000000000000000000000000";
        let receipt = owner::transact(
            &self.rpc,
            buyer,
            &d.ico_sale,
            Contract::IcoSale,
            "buy",
            &[&amount, "0", referrer.unwrap_or(zero)],
        )
        .unwrap();
        receipt["transactionHash"].as_str().unwrap().to_string()
    }

    /// `wallet` approves the activation node's price and buys the node; the purchase's receipt.
    pub fn buy_node(&self, d: &Deployment, wallet: &str) -> serde_json::Value {
        let price = lvlx_core::network::DEFAULT_NODE_PRICE.to_string();
        owner::transact(
            &self.rpc,
            wallet,
            &d.usdt,
            Contract::Lvlx,
            "approve",
            &[&d.activation_node, &price],
        )
        .unwrap();
        owner::transact(
            &self.rpc,
            wallet,
            &d.activation_node,
            Contract::ActivationNode,
            "buy",
            &[&price],
        )
        .unwrap()
    }

    /// An eth_call's uint answer.
    pub fn read_uint(&self, to: &str, contract: Contract, function: &str, args: &[&str]) -> u128 {
        let data = lvlx_core::chain::calldata(contract, function, args).unwrap();
        let answer = self
            .rpc
            .call("eth_call", json!([{"to": to, "data": data}, "latest"]))
            .unwrap();
        lvlx_core::chain::decode_uint(answer.as_str().unwrap()).unwrap()
    }

    /// An eth_call's answer decoded by the function's ABI outputs.
    pub fn read(
        &self,
        to: &str,
        contract: Contract,
        function: &str,
        args: &[&str],
    ) -> Vec<ethers_core::abi::Token> {
        let data = lvlx_core::chain::calldata(contract, function, args).unwrap();
        let answer = self
            .rpc
            .call("eth_call", json!([{"to": to, "data": data}, "latest"]))
            .unwrap();
        let bytes = ethers_core::utils::hex::decode(&answer.as_str().unwrap()[2..]).unwrap();
        contract
            .abi()
            .function(function)
            .unwrap()
            .decode_output(&bytes)
            .unwrap()
    }

    /// The revert data of a call from `from` that must fail.
    pub fn revert(
        &self,
        from: &str,
        to: &str,
        contract: Contract,
        function: &str,
        args: &[&str],
    ) -> String {
        let data = lvlx_core::chain::calldata(contract, function, args).unwrap();
        match self.rpc.call(
            "eth_call",
            json!([{"from": from, "to": to, "data": data}, "latest"]),
        ) {
            Err(RpcError::Node {
                data: Some(serde_json::Value::String(data)),
                ..
            }) => data,
            other => panic!("{function} should revert, got {other:?}"),
        }
    }

    /// The next block's timestamp (seconds).
    pub fn set_next_time(&self, seconds: u64) {
        self.rpc
            .call("evm_setNextBlockTimestamp", json!([seconds]))
            .unwrap();
    }

    /// The latest block's timestamp (seconds).
    pub fn now(&self) -> u64 {
        let block = self
            .rpc
            .call("eth_getBlockByNumber", json!(["latest", false]))
            .unwrap();
        lvlx_backend::chain::rpc::quantity(&block["timestamp"]).unwrap()
    }

    /// The timestamp of the block that holds `receipt` (seconds).
    pub fn time_of(&self, receipt: &serde_json::Value) -> u64 {
        let block = self
            .rpc
            .call("eth_getBlockByHash", json!([receipt["blockHash"], false]))
            .unwrap();
        lvlx_backend::chain::rpc::quantity(&block["timestamp"]).unwrap()
    }

    pub fn mine(&self, blocks: u64) {
        self.rpc
            .call("anvil_mine", json!([format!("0x{blocks:x}")]))
            .unwrap();
    }
}

impl Drop for Anvil {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A loopback TCP relay to `target` that can refuse everything while `down`.
pub struct Relay {
    pub url: String,
    down: Arc<AtomicBool>,
}

impl Relay {
    pub async fn start(target: &str) -> Relay {
        let target = target.trim_start_matches("http://").to_string();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let down = Arc::new(AtomicBool::new(false));
        let flag = down.clone();
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                if flag.load(Ordering::SeqCst) {
                    drop(inbound); // the node is "down": the connection closes at once
                    continue;
                }
                let target = target.clone();
                tokio::spawn(async move {
                    if let Ok(mut outbound) = tokio::net::TcpStream::connect(&target).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
            }
        });
        Relay { url, down }
    }

    pub fn set_down(&self, down: bool) {
        self.down.store(down, Ordering::SeqCst);
    }
}

/// Steps `indexer` until it has read up to the head; how many pushes that made. A range read
/// while the chain moved, or refused as too large, is read again.
pub async fn catch_up(indexer: &Indexer) -> usize {
    let mut recorded = 0;
    // Bounded: an indexer that reads the same range again for ever fails the test, never hangs it.
    for _ in 0..2_000 {
        match indexer.step().await {
            Ok(Progress::More { recorded: n, .. }) => recorded += n,
            Ok(Progress::CaughtUp { recorded: n }) => return recorded + n,
            Ok(Progress::Behind) => return recorded,
            Err(IndexError::Moved(_) | IndexError::RangeTooLarge(_)) => {}
            Err(e) => panic!("indexer step: {e}"),
        }
    }
    panic!("the indexer did not catch up in 2,000 steps");
}
