//! Indexer throughput: a real anvil chain with 10^4 transactions (N from
//! LVLX_BENCH_N), purchases on the ICO sale with LVLX stakes mixed in (every fourth), indexed
//! from scratch into a fresh SQLite file. Printed against two baselines measured in the
//! same run: the node alone (eth_getLogs over the same ranges, nothing decoded or written), and
//! the indexer with ranges of 10 blocks instead of 1000.
//!
//!   cargo bench -p lvlx-backend --bench indexer

#[allow(dead_code)]
#[path = "../tests/suite/common/anvil.rs"]
mod anvil;

use std::time::{Duration, Instant};

use anvil::Anvil;
use lvlx_backend::chain::deploy::{self, Deployment};
use lvlx_backend::chain::indexer::{Indexer, Progress};
use lvlx_backend::chain::owner;
use lvlx_backend::chain::rpc::{self, Rpc};
use lvlx_backend::{App, Config, Store};
use lvlx_core::chain::{self, Contract};
use serde_json::json;

const PER_BLOCK: usize = 10;

fn fill(anvil: &Anvil, d: &Deployment, n: usize) -> Duration {
    let started = Instant::now();
    let buyers: Vec<String> = anvil.accounts()[1..9].to_vec();
    let max = u128::MAX.to_string();
    for buyer in &buyers {
        owner::transact(
            &anvil.rpc,
            buyer,
            &d.usdt,
            Contract::Lvlx,
            "approve",
            &[&d.ico_sale, &max],
        )
        .unwrap();
        owner::transact(
            &anvil.rpc,
            buyer,
            &d.lvlx,
            Contract::Lvlx,
            "approve",
            &[&d.lvlx_staking, &max],
        )
        .unwrap();
    }
    anvil.rpc.call("evm_setAutomine", json!([false])).unwrap();
    let zero = "0x0000000000000000000000000000000000000000";
    for i in 0..n {
        let from = &buyers[i % buyers.len()];
        // Every fourth transaction stakes a little of the LVLX the buyer's first purchase brought.
        let (to, data) = if i % 4 == 3 && i >= 4 * buyers.len() {
            let amount = (1_000_000_000_000 + i as u128).to_string();
            // Any reward, any release: the bench has no page quote.
            let bounds = ["0", "18446744073709551615"];
            let data = chain::calldata(
                Contract::LvlxStaking,
                "stake",
                &["1", &amount, bounds[0], bounds[1]],
            )
            .unwrap();
            (&d.lvlx_staking, data)
        } else {
            let usdt = (100_000 + i as u128 * 7).to_string();
            let data = chain::calldata(Contract::IcoSale, "buy", &[&usdt, "0", zero]).unwrap();
            (&d.ico_sale, data)
        };
        anvil
            .rpc
            .call(
                "eth_sendTransaction",
                json!([{"from": from, "to": to, "data": data, "gas": "0x40000"}]),
            )
            .unwrap();
        if (i + 1) % PER_BLOCK == 0 {
            anvil.rpc.call("evm_mine", json!([])).unwrap();
        }
    }
    anvil.rpc.call("evm_mine", json!([])).unwrap();
    anvil.rpc.call("evm_setAutomine", json!([true])).unwrap();
    started.elapsed()
}

/// The node alone: every log the indexer reads (the same filter: the sales and both staking
/// contracts, their events) fetched in ranges of `range` blocks.
fn node_only(rpc: &Rpc, d: &Deployment, range: u64) -> (usize, Duration) {
    let addresses = [&d.ico_sale, &d.nft_sale, &d.nft_staking, &d.lvlx_staking];
    let topics = chain::topics();
    let head = rpc::quantity(&rpc.call("eth_blockNumber", json!([])).unwrap()).unwrap();
    let started = Instant::now();
    let mut logs = 0;
    let mut from = d.start_block;
    while from <= head {
        let to = head.min(from + range - 1);
        let answer = rpc
            .call(
                "eth_getLogs",
                json!([{"address": addresses, "topics": [topics], "fromBlock": rpc::hex(from), "toBlock": rpc::hex(to)}]),
            )
            .unwrap();
        logs += answer.as_array().map_or(0, Vec::len);
        from = to + 1;
    }
    (logs, started.elapsed())
}

fn index(
    rt: &tokio::runtime::Runtime,
    anvil: &Anvil,
    d: &Deployment,
    range: u64,
) -> (usize, Duration) {
    let dir = tempfile::tempdir().unwrap();
    let chain = lvlx_backend::config::Chain {
        max_block_range: range,
        ..deploy::dev_section(&anvil.url, d)
    };
    let config = Config {
        data_dir: dir.path().join("data"),
        locales_dir: concat!(env!("CARGO_MANIFEST_DIR"), "/../locales").into(),
        chain: Some(chain.clone()),
        ..Config::default()
    };
    rt.block_on(async {
        let store = Store::open(&config.data_dir).unwrap();
        let app = App::new(config, store).unwrap();
        let indexer = Indexer::new(&app, &chain);
        let started = Instant::now();
        let mut recorded = 0;
        loop {
            match indexer.step().await.unwrap() {
                Progress::More { recorded: n, .. } => recorded += n,
                Progress::CaughtUp { recorded: n } => break (recorded + n, started.elapsed()),
                Progress::Behind => unreachable!("one node, never behind itself"),
            }
        }
    })
}

/// Indexes the chain into a fresh store, then times taking back the last 64 blocks' events
/// and, indexed again, every event: (events taken back, seconds) for each.
fn rollbacks(rt: &tokio::runtime::Runtime, anvil: &Anvil, d: &Deployment) -> [(i64, Duration); 2] {
    let dir = tempfile::tempdir().unwrap();
    let chain = deploy::dev_section(&anvil.url, d);
    let config = Config {
        data_dir: dir.path().join("data"),
        locales_dir: concat!(env!("CARGO_MANIFEST_DIR"), "/../locales").into(),
        chain: Some(chain.clone()),
        ..Config::default()
    };
    let head = rpc::quantity(&anvil.rpc.call("eth_blockNumber", json!([])).unwrap()).unwrap();
    rt.block_on(async {
        let store = Store::open(&config.data_dir).unwrap();
        let app = App::new(config, store.clone()).unwrap();
        let indexer = Indexer::new(&app, &chain);
        let events = || async {
            store
                .read(|c| {
                    c.query_one(
                        "SELECT (SELECT COUNT(*) FROM ico_transactions) + (SELECT COUNT(*) FROM chain_events)",
                        lvlx_backend::args![],
                        |r| r.get::<i64>(0),
                    )
                })
                .await
                .unwrap()
        };
        let mut out = Vec::new();
        for ancestor in [head - 64, d.start_block - 1] {
            anvil::catch_up(&indexer).await;
            let before = events().await;
            let started = Instant::now();
            indexer.take_back_above(ancestor).await.unwrap();
            out.push((before - events().await, started.elapsed()));
        }
        [out[0], out[1]]
    })
}

fn main() {
    let n: usize = std::env::var("LVLX_BENCH_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let anvil = Anvil::start();
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let filled = fill(&anvil, &d, n);
    let rate = |events: usize, took: Duration| events as f64 / took.as_secs_f64();
    let (logs, node) = node_only(&anvil.rpc, &d, 1000);
    println!(
        "chain: {n} transactions (purchases, every fourth an LVLX stake) in {} blocks of {PER_BLOCK}, {logs} events with the deployment's (filled in {:.1} s)",
        n.div_ceil(PER_BLOCK),
        filled.as_secs_f64()
    );
    assert!(logs >= n);
    let (indexed, full) = index(&rt, &anvil, &d, 1000);
    assert_eq!(indexed, logs, "every event indexed once");
    let (indexed_small, small) = index(&rt, &anvil, &d, 10);
    assert_eq!(indexed_small, logs);
    let n = logs;

    println!("{:<58} {:>10} {:>12}", "", "seconds", "events/s");
    println!(
        "{:<58} {:>10.3} {:>12.0}",
        "baseline: eth_getLogs only (ranges of 1000 blocks)",
        node.as_secs_f64(),
        rate(n, node)
    );
    println!(
        "{:<58} {:>10.3} {:>12.0}",
        "indexer: fetch + decode + ledger + cursor (ranges 1000)",
        full.as_secs_f64(),
        rate(n, full)
    );
    println!(
        "{:<58} {:>10.3} {:>12.0}",
        "indexer with ranges of 10 blocks",
        small.as_secs_f64(),
        rate(n, small)
    );
    println!(
        "indexer / node-only time: {:.2}x",
        full.as_secs_f64() / node.as_secs_f64()
    );
    for (what, (events, took)) in ["the last 64 blocks", "every block"]
        .iter()
        .zip(rollbacks(&rt, &anvil, &d))
    {
        println!(
            "rollback of {what}: {events} events taken back in {:.3} s ({:.0} events/s)",
            took.as_secs_f64(),
            events as f64 / took.as_secs_f64()
        );
    }
}
