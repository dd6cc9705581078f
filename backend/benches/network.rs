//! The network at scale, on a real anvil chain and a fresh SQLite file:
//!
//! - indexing throughput with commissions: N purchases (LVLX_BENCH_N, default 5000) by eight
//!   wallets linked to members at depth 20 of a 10^5-member tree (every other member with a
//!   node), so each purchase walks six commission levels (three pay, three lapse) and moves
//!   nineteen members' volume and ranks; beside the same
//!   purchases indexed in the same run by unlinked wallets (recorded, nothing to settle);
//! - /api/v1/network for a member with 10^4 members in their first six levels: p50/p99 over
//!   200 requests through the server's routes (the chain read of the node's terms included).
//!
//!   cargo bench -p lvlx-backend --bench network

#[path = "../tests/suite/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use common::anvil::Anvil;
use lvlx_backend::args;
use lvlx_backend::chain::deploy::{self, Deployment};
use lvlx_backend::chain::indexer::{Indexer, Progress};
use lvlx_backend::chain::owner;
use lvlx_core::chain::{self, Contract};
use serde_json::json;

const MEMBERS: usize = 100_000;
const DEPTH: usize = 20;
const BUYERS: usize = 8;
const PER_BLOCK: usize = 10;

fn fill(anvil: &Anvil, d: &Deployment, buyers: &[String], n: usize) {
    let max = u128::MAX.to_string();
    for buyer in buyers {
        owner::transact(
            &anvil.rpc,
            buyer,
            &d.usdt,
            Contract::Lvlx,
            "approve",
            &[&d.ico_sale, &max],
        )
        .unwrap();
    }
    anvil.rpc.call("evm_setAutomine", json!([false])).unwrap();
    let zero = "0x0000000000000000000000000000000000000000";
    for i in 0..n {
        let usdt = (1_000_000 + i as u128 * 7).to_string();
        let data = chain::calldata(Contract::IcoSale, "buy", &[&usdt, "0", zero]).unwrap();
        anvil
            .rpc
            .call("eth_sendTransaction", json!([{"from": buyers[i % buyers.len()], "to": d.ico_sale, "data": data, "gas": "0x40000"}]))
            .unwrap();
        if (i + 1) % PER_BLOCK == 0 {
            anvil.rpc.call("evm_mine", json!([])).unwrap();
        }
    }
    anvil.rpc.call("evm_mine", json!([])).unwrap();
    anvil.rpc.call("evm_setAutomine", json!([true])).unwrap();
}

/// 5,000 sponsor chains of depth 20 (10^5 members; every other one with a node), the buyers'
/// wallets on eight chain ends when `linked`; and under the demo member 10 + 100 + 1,000 +
/// 10,000 members on four levels.
async fn tree(w: &common::World, buyers: &[String], linked: bool) {
    let buyers = buyers.to_vec();
    w.sql(move |c| c.transaction(|tx| {
        let demo: i64 = tx.query_one("SELECT id FROM users WHERE email = 'demo@lvlx.local'", args![], |r| r.get(0))?;
        let first: i64 = tx.query_one("SELECT MAX(id) + 1 FROM users", args![], |r| r.get(0))?;
        {
            let insert =
                "INSERT INTO users (id, email, names, lastnames, password_hash, referral_code, referrer_id, wallet, created_at)
                 VALUES (?1, ?2, 'Member', 'Bench', 'x', ?3, ?4, ?5, ?6)";
            let node =
                "INSERT INTO activation_nodes (wallet, user_id, usdt_paid, block, log_index, created_at, tx_hash) VALUES (?1, ?2, '50000000', 0, 0, 0, ?3)";
            for i in 0..MEMBERS {
                let id = first + i as i64;
                let depth = i % DEPTH;
                let sponsor = (depth > 0).then_some(id - 1);
                let chain_end = depth == DEPTH - 1 && i / DEPTH < BUYERS;
                let wallet = if chain_end && linked { Some(buyers[i / DEPTH].clone()) } else { None };
                tx.execute(insert, args![id, format!("m{id}@bench.test"), format!("{id:032x}"), sponsor, wallet, id])?;
                if i % 2 == 0 {
                    tx.execute(node, args![format!("0x{id:040x}"), id, format!("0x{id:064x}")])?;
                }
            }
            // The demo member's wide network.
            let mut next = first + MEMBERS as i64;
            let mut level = vec![demo];
            for _ in 0..4 {
                let mut below = Vec::new();
                for &sponsor in &level {
                    for _ in 0..10 {
                        tx.execute(insert, args![next, format!("m{next}@bench.test"), format!("{next:032x}"), sponsor, None::<String>, next])?;
                        below.push(next);
                        next += 1;
                    }
                }
                level = below;
            }
        }
        Ok(())
    }))
    .await;
}

async fn index(w: &common::World) -> Duration {
    let indexer = Indexer::new(&w.app, w.app.config.chain.as_ref().unwrap());
    let started = Instant::now();
    loop {
        if let Progress::CaughtUp { .. } = indexer.step().await.unwrap() {
            return started.elapsed();
        }
    }
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize].as_secs_f64() * 1000.0
}

fn main() {
    let n: usize = std::env::var("LVLX_BENCH_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5_000);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let anvil = Anvil::start();
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let buyers: Vec<String> = anvil.accounts()[1..=BUYERS]
        .iter()
        .map(|a| lvlx_core::siwe::checksummed(a).unwrap())
        .collect();
    fill(&anvil, &d, &buyers, n);
    rt.block_on(async {
        let section = deploy::dev_section(&anvil.url, &d);
        let plain = common::world_with(|c| c.chain = Some(section.clone())).await;
        tree(&plain, &buyers, false).await;
        let baseline = index(&plain).await;
        let settled = common::world_with(|c| c.chain = Some(section.clone())).await;
        tree(&settled, &buyers, true).await;
        let with = index(&settled).await;
        let commissions: i64 = settled
            .sql(|c| c.query_one("SELECT COUNT(*) FROM commissions", args![], |r| r.get(0)))
            .await;
        // Of the six levels above a buyer at depth 20, every other member holds a node: three earn.
        assert_eq!(commissions as usize, n * 3, "three levels paid per purchase");
        println!("{MEMBERS} members in sponsor chains of depth {DEPTH}, {n} purchases by {BUYERS} wallets at depth {DEPTH}");
        println!("{:<62} {:>9} {:>13}", "", "seconds", "purchases/s");
        let rate = |t: Duration| n as f64 / t.as_secs_f64();
        println!("{:<62} {:>9.3} {:>13.0}", "baseline: indexed, buyers unlinked (nothing to settle)", baseline.as_secs_f64(), rate(baseline));
        println!("{:<62} {:>9.3} {:>13.0}", "indexed and settled: 6 levels (3 paid), 19 volumes, ranks", with.as_secs_f64(), rate(with));
        println!("settling costs {:.2}x the plain indexing time", with.as_secs_f64() / baseline.as_secs_f64());

        let (token, _) = settled.login("demo@lvlx.local", "Demo#2026x").await;
        let mut times = Vec::new();
        let mut members = 0;
        for _ in 0..200 {
            let started = Instant::now();
            let r = settled.call("GET", "/api/v1/network", Some(&token), None).await;
            times.push(started.elapsed());
            members = r.body["levels"].as_array().unwrap().iter().map(|l| l["members"].as_array().unwrap().len()).sum();
        }
        times.sort();
        println!(
            "GET /api/v1/network, {members} members in the first six levels: p50 {:.1} ms, p99 {:.1} ms (200 requests)",
            percentile(&times, 0.5),
            percentile(&times, 0.99)
        );
        assert_eq!(members, 11_110);
    });
}
