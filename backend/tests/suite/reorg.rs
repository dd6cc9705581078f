//! A chain that reorganises, stalls and rate-limits, on a real anvil: events count once final
//! and show as pending until then; blocks that leave the chain take back everything recorded
//! from them (purchase, balance, commission, volume, rank and its bonus, stake position, node),
//! checked against a replay of the chain from its first block; a reorganisation between the
//! indexer's reads neither records a dropped purchase nor loses a real one; and nodes that
//! drop, rate-limit, cap log ranges or claim an old head lose nothing and count nothing twice.

use crate::common;

use common::anvil::{catch_up, Anvil};
use common::rpc_proxy::{Faults, RpcProxy};
use common::{world_with, World};
use lvlx_backend::chain::deploy::{self, Deployment};
use lvlx_backend::chain::indexer::{IndexError, Indexer, Progress};
use lvlx_backend::chain::owner;
use lvlx_backend::config::{Chain, Secret};
use lvlx_backend::live::Push;
use lvlx_core::chain::Contract;
use serde_json::json;
use std::time::Duration;

const LVLX: u128 = 1_000_000_000_000_000_000;
const USDT: u128 = 1_000_000;
const DEMO_USER: (&str, &str) = ("demo@lvlx.local", "Demo#2026x");
const ANY_RELEASE: &str = "18446744073709551615";

fn section(url: &str, d: &Deployment, confirmations: u64) -> Chain {
    Chain {
        confirmations,
        poll_ms: 100,
        ..deploy::dev_section(url, d)
    }
}

/// A member sponsored by `sponsor`, with `wallet` linked (or not yet).
async fn member(w: &World, n: u32, sponsor: i64, wallet: Option<&str>) -> i64 {
    let wallet = wallet.map(|a| lvlx_core::siwe::checksummed(a).unwrap());
    w.sql(move |c| {
        c.query_one(
            "INSERT INTO users (email, names, lastnames, password_hash, referral_code, referrer_id, wallet, created_at)
             VALUES (?1, 'Member', 'Reorg', 'x', ?2, ?3, ?4, 1700000000000) RETURNING id",
            lvlx_backend::args![format!("m{n}@reorg.test"), format!("{n:032x}"), sponsor, wallet],
            |r| r.get(0),
        )
    })
    .await
}

/// (own USDT, network USDT, rewards, rank, LVLX balance, node) of an account.
async fn figures(w: &World, id: i64) -> (String, String, String, String, String, i64) {
    w.sql(move |c| {
        c.query_one(
            "SELECT own_usdt, network_usdt, add_rewards, rank, lvlx_balance, activation_node FROM users WHERE id = ?1",
            lvlx_backend::args![id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)),
        )
    })
    .await
}

/// `buyer` lets the sale take up to 1,000 USDT, so each purchase is one transaction.
fn approve_sale(anvil: &Anvil, d: &Deployment, buyer: &str) {
    let allowance = (1_000 * USDT).to_string();
    owner::transact(
        &anvil.rpc,
        buyer,
        &d.usdt,
        Contract::Lvlx,
        "approve",
        &[&d.ico_sale, &allowance],
    )
    .unwrap();
}

/// One purchase of `usdt` base units (after [`approve_sale`]); its receipt.
fn buy_once(anvil: &Anvil, d: &Deployment, buyer: &str, usdt: &str) -> serde_json::Value {
    let zero = "0x0000000000000000000000000000000000000000";
    owner::transact(
        &anvil.rpc,
        buyer,
        &d.ico_sale,
        Contract::IcoSale,
        "buy",
        &[usdt, "0", zero],
    )
    .unwrap()
}

async fn digest(w: &World) -> String {
    w.app
        .store
        .read(lvlx_backend::store::digest::chain_state)
        .await
        .unwrap()
}

/// What the wallet link does for a member whose wallet bought before (api::wallet).
async fn link_late(w: &World, id: i64, wallet: &str) {
    let wallet = lvlx_core::siwe::checksummed(wallet).unwrap();
    let levels = w.app.config.commission_levels_bps.clone();
    w.app
        .store
        .write(move |c| {
            c.execute(
                "UPDATE users SET wallet = ?1 WHERE id = ?2",
                lvlx_backend::args![wallet.as_str(), id],
            )?;
            let user = lvlx_backend::user::UserId(id);
            lvlx_backend::store::ledger::attach_wallet(c, "LVLX", user, &wallet)?;
            lvlx_backend::store::stakes::attach_wallet(c, user, &wallet)?;
            lvlx_backend::network::events::on_link(c, "LVLX", &levels, user, &wallet, 1)
        })
        .await
        .unwrap();
}

/// `from` stakes `amount` LVLX for the first tier (approve, then stake); the stake's receipt.
fn stake_lvlx(anvil: &Anvil, d: &Deployment, from: &str, amount: u128) -> serde_json::Value {
    let amount = amount.to_string();
    owner::transact(
        &anvil.rpc,
        from,
        &d.lvlx,
        Contract::Lvlx,
        "approve",
        &[&d.lvlx_staking, &amount],
    )
    .unwrap();
    owner::transact(
        &anvil.rpc,
        from,
        &d.lvlx_staking,
        Contract::LvlxStaking,
        "stake",
        &["1", &amount, "0", ANY_RELEASE],
    )
    .unwrap()
}

/// Whether the member's newest LVLX position is marked pending on their staking page.
async fn position_pending(w: &World, token: &str) -> serde_json::Value {
    w.call("GET", "/api/v1/staking", Some(token), None)
        .await
        .body["positions"]["lvlx"][0]["pending"]
        .clone()
}

/// How many of the admin's ICO entries 1-6 are marked pending.
async fn pending_trails(w: &World, admin: &str) -> usize {
    let body = w
        .call(
            "GET",
            "/api/v1/statistics-ico/trails?ids=1,2,3,4,5,6",
            Some(admin),
            None,
        )
        .await
        .body;
    body.as_array()
        .unwrap()
        .iter()
        .filter(|t| t["pending"] == json!(true))
        .count()
}

#[tokio::test(flavor = "multi_thread")]
async fn purchases_show_pending_and_count_once_final() {
    let anvil = Anvil::start();
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let a = anvil.accounts();
    let chain = section(&anvil.url, &d, 6);
    let w = world_with(|c| c.chain = Some(chain.clone())).await;
    let (token, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
    assert_eq!(
        w.link_dev_wallet(&token, 1).await,
        warp::http::StatusCode::OK
    );
    let demo = w.user_id(DEMO_USER.0).await;
    let buyer = member(&w, 1, demo, Some(&a[2])).await;
    anvil.buy_node(&d, &a[1]);
    let indexer = Indexer::new(&w.app, &chain);
    anvil.mine(6);
    catch_up(&indexer).await;
    let mut pushes = w.app.hub.subscribe();

    // 1,500 USDT: the demo member's first-level commission and the Bronze rank, once final.
    anvil.buy(&d, &a[2], 1_500 * USDT, None);
    anvil.buy(&d, &a[1], USDT, None);
    // The demo member stakes the 10 LVLX it bought: a position pending like the purchase.
    stake_lvlx(&anvil, &d, &a[1], 10 * LVLX);
    catch_up(&indexer).await;
    assert_eq!(position_pending(&w, &token).await, json!(true));
    let (own, network, rewards, rank, balance, _) = figures(&w, buyer).await;
    assert_eq!(
        balance,
        (15_000 * LVLX).to_string(),
        "a pending purchase is held at once"
    );
    assert_eq!(
        (own.as_str(), rank.as_str()),
        ("0", "None"),
        "but does not count yet"
    );
    let (_, network_demo, rewards_demo, rank_demo, _, _) = figures(&w, demo).await;
    assert_eq!(
        (
            network_demo.as_str(),
            rewards_demo.as_str(),
            rank_demo.as_str()
        ),
        ("0", "0", "None"),
        "no commission, volume or rank from a pending purchase ({network} {rewards})"
    );
    let mine = w
        .call("GET", "/api/v1/wallet/actives", Some(&token), None)
        .await
        .body;
    assert_eq!(mine["entries"][0]["pending"], json!(true), "{mine}");
    // Admins read the indexer's standing; members may not.
    let (admin, _) = w.login("admin@lvlx.local", "Admin#2026").await;
    let standing = w
        .call("GET", "/api/v1/admin/indexer", Some(&admin), None)
        .await;
    assert_eq!(standing.status, 200);
    assert_eq!(standing.body["pending"], 2, "{}", standing.body);
    // The admin's ICO rows say which entries are pending.
    assert_eq!(pending_trails(&w, &admin).await, 2);
    assert!(
        standing.body["finalBlock"].as_u64().unwrap()
            < standing.body["nextBlock"].as_u64().unwrap()
    );
    let refused = w
        .call("GET", "/api/v1/admin/indexer", Some(&token), None)
        .await;
    assert_eq!(refused.status, 403);

    anvil.mine(6);
    catch_up(&indexer).await;
    let (own, ..) = figures(&w, buyer).await;
    assert_eq!(own, (1_500 * USDT).to_string());
    let (_, network_demo, rewards_demo, rank_demo, _, _) = figures(&w, demo).await;
    assert_eq!(network_demo, (1_500 * USDT).to_string());
    assert_eq!(rank_demo, "Bronze");
    assert!(
        rewards_demo.parse::<u128>().unwrap() > 100 * LVLX,
        "commission and bonus"
    );
    let mine = w
        .call("GET", "/api/v1/wallet/actives", Some(&token), None)
        .await
        .body;
    assert_eq!(mine["entries"][0]["pending"], json!(false));
    let standing = w
        .call("GET", "/api/v1/admin/indexer", Some(&admin), None)
        .await;
    assert_eq!(standing.body["pending"], 0);
    assert_eq!(pending_trails(&w, &admin).await, 0);
    assert_eq!(position_pending(&w, &token).await, json!(false));
    let mut finals = 0;
    while let Ok(push) = pushes.try_recv() {
        finals += usize::from(matches!(push, Push::Chain { event: "final", .. }));
    }
    assert_eq!(
        finals, 3,
        "each buyer told their purchase is final, the staker its position"
    );
    // Indexing again changes nothing.
    let before = digest(&w).await;
    assert_eq!(catch_up(&indexer).await, 0);
    assert_eq!(digest(&w).await, before);

    // A purchase still pending that a reorganisation takes back is not one shown final.
    anvil.buy(&d, &a[1], USDT, None);
    catch_up(&indexer).await;
    anvil.rpc.call("anvil_reorg", json!([1, []])).unwrap();
    anvil.mine(1);
    catch_up(&indexer).await;
    let mine = w
        .call("GET", "/api/v1/wallet/actives", Some(&token), None)
        .await
        .body;
    assert_eq!(mine["reversals"][0]["event"], "purchase", "{mine}");
    assert_eq!(mine["reversals"][0]["wasFinal"], json!(false), "{mine}");
}

/// What a reorganisation left: the demo member's and B's figures, the stake positions, and
/// whether everything equals the store before the scenario began.
struct Left {
    network: String,
    rewards: String,
    rank: String,
    node: i64,
    own_b: String,
    balance_b: String,
    positions: i64,
    as_before: bool,
    /// The demo member's history says a credit it had seen final was taken back.
    demo_told_final: bool,
}

/// The scenario under a reorganisation `depth` blocks deep: the demo member (node) sponsors B
/// (linked) who sponsors C (linked only after buying); B buys enough for the demo member's
/// Bronze, C buys, B stakes LVLX. Whatever the depth, B is told at once and has a line in their
/// history, and every figure equals a replay of the chain; what is left is each test's to say.
async fn reorganised(depth: u64) -> Left {
    let anvil = Anvil::start();
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let a = anvil.accounts();
    // Room below the scenario for the deepest reorganisation to stay above the deployment.
    anvil.mine(70);
    let chain = section(&anvil.url, &d, 0);
    let w = world_with(|c| c.chain = Some(chain.clone())).await;
    let demo = w.user_id(DEMO_USER.0).await;
    w.sql({
        let wallet = lvlx_core::siwe::checksummed(&a[1]).unwrap();
        move |c| {
            c.execute(
                "UPDATE users SET wallet = ?1 WHERE id = ?2",
                lvlx_backend::args![wallet.as_str(), demo],
            )
        }
    })
    .await;
    let b = member(&w, 1, demo, Some(&a[2])).await;
    let c = member(&w, 2, b, None).await;
    let indexer = Indexer::new(&w.app, &chain);
    catch_up(&indexer).await;
    let before = (digest(&w).await, figures(&w, demo).await);

    anvil.buy_node(&d, &a[1]); // blocks 8 and 7 from the end
    anvil.buy(&d, &a[2], 1_500 * USDT, None); // 6, 5
    anvil.buy(&d, &a[3], 200 * USDT, None); // 4, 3
    let stake = (100 * LVLX).to_string();
    for (to, contract, function, args) in [
        (
            &d.lvlx,
            Contract::Lvlx,
            "approve",
            vec![d.lvlx_staking.as_str(), &stake],
        ),
        (
            &d.lvlx_staking,
            Contract::LvlxStaking,
            "stake",
            vec!["1", &stake, "0", ANY_RELEASE],
        ),
    ] {
        owner::transact(&anvil.rpc, &a[2], to, contract, function, &args).unwrap();
        // 2, 1
    }
    catch_up(&indexer).await;
    link_late(&w, c, &a[3]).await;
    let (_, network, _, rank, _, node) = figures(&w, demo).await;
    assert_eq!(
        (network, rank.as_str(), node),
        ((1_700 * USDT).to_string(), "Bronze", 1)
    );
    let positions = w.count("stake_positions").await;
    assert_eq!(positions, 1);
    let mut pushes = w.app.hub.subscribe();

    anvil.rpc.call("anvil_reorg", json!([depth, []])).unwrap();
    anvil.mine(1);
    catch_up(&indexer).await;
    let after = digest(&w).await;
    let (_, network, rewards, rank, _, node) = figures(&w, demo).await;
    let (own_b, _, _, _, balance_b, _) = figures(&w, b).await;
    let left = Left {
        as_before: (after.clone(), figures(&w, demo).await) == before,
        network,
        rewards,
        rank,
        node,
        own_b,
        balance_b,
        positions: w.count("stake_positions").await,
        demo_told_final: false,
    };
    let told: i64 = w
        .sql(move |c| {
            c.query_one(
                "SELECT COUNT(*) FROM chain_reversals WHERE user_id = ?1",
                lvlx_backend::args![b],
                |r| r.get(0),
            )
        })
        .await;
    assert!(told >= 1, "B has a line in their history");
    // Every event was final (no confirmations): each line says it had been shown final, and
    // the admin's standing counts them.
    let told_final: i64 = w
        .sql(move |c| {
            c.query_one(
                "SELECT COUNT(*) FROM chain_reversals WHERE user_id = ?1 AND was_final = 1",
                lvlx_backend::args![b],
                |r| r.get(0),
            )
        })
        .await;
    assert_eq!(told_final, told, "B is told the credits had been final");
    let (admin, _) = w.login("admin@lvlx.local", "Admin#2026").await;
    let standing = w
        .call("GET", "/api/v1/admin/indexer", Some(&admin), None)
        .await
        .body;
    assert!(
        standing["finalReversalsDay"].as_i64().unwrap_or(0) >= told,
        "{standing}"
    );
    let (token, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
    let mine = w
        .call("GET", "/api/v1/wallet/actives", Some(&token), None)
        .await
        .body;
    let demo_told_final = mine["reversals"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["wasFinal"] == json!(true));
    let left = Left {
        demo_told_final,
        ..left
    };
    let mut chain_pushes = 0;
    while let Ok(push) = pushes.try_recv() {
        chain_pushes += usize::from(matches!(push, Push::Chain { user: Some(u), .. } if u.0 == b));
    }
    assert!(chain_pushes >= 1, "B is told at once");

    // Every figure equals a replay of the chain from its first block.
    indexer.replay().await.unwrap();
    assert_eq!(
        digest(&w).await,
        after,
        "depth {depth}: replay from the first block"
    );
    left
}

#[tokio::test(flavor = "multi_thread")]
async fn a_reorganisation_one_block_deep_takes_back_the_stake() {
    let left = reorganised(1).await;
    assert_eq!(left.positions, 0, "the stake left the chain");
    assert_eq!(left.rank, "Bronze", "the purchases stay");
    assert_eq!(
        left.balance_b,
        (15_000 * LVLX).to_string(),
        "B's LVLX back in the wallet"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_reorganisation_five_blocks_deep_takes_back_purchases_commission_and_rank() {
    let left = reorganised(5).await;
    assert_eq!(
        (left.network.as_str(), left.rank.as_str(), left.rewards.as_str(), left.node),
        ("0", "None", "0", 1),
        "B's and C's purchases, the commission, the volume, the rank and its bonus are gone; the node stays"
    );
    assert_eq!((left.own_b.as_str(), left.balance_b.as_str()), ("0", "0"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_reorganisation_64_blocks_deep_takes_back_everything_since() {
    let left = reorganised(64).await;
    assert!(
        left.as_before,
        "everything since the scenario began is gone"
    );
    assert_eq!(left.node, 0);
    assert!(
        left.demo_told_final,
        "the demo member's node, shown final, is named as taken back"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_reorganisation_between_the_indexers_reads_loses_nothing() {
    let anvil = Anvil::start();
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let a = anvil.accounts();
    let proxy = RpcProxy::start(&anvil.url).await;
    let chain = section(&proxy.url, &d, 0);
    let w = world_with(|c| c.chain = Some(chain.clone())).await;
    // Both buyers approve the sale once, so a purchase is one transaction.
    for buyer in [&a[1], &a[2]] {
        approve_sale(&anvil, &d, buyer);
    }
    let indexer = Indexer::new(&w.app, &chain);
    catch_up(&indexer).await;
    let zero = "0x0000000000000000000000000000000000000000";
    let buy = |usdt: u128| {
        lvlx_core::chain::calldata(
            Contract::IcoSale,
            "buy",
            &[&(usdt * USDT).to_string(), "0", zero],
        )
        .unwrap()
    };
    // Two purchases that the reorganisation will drop, one block each.
    let mut dropped = Vec::new();
    for n in 1..=2 {
        let r = buy_once(&anvil, &d, &a[1], &(n * USDT).to_string());
        dropped.push(r["transactionHash"].as_str().unwrap().to_lowercase());
    }
    // After the indexer's eth_getLogs saw them and before it reads their blocks, the last two
    // blocks are replaced by three real purchases of another buyer.
    let (rpc, sale, from) = (anvil.rpc.clone(), d.ico_sale.clone(), a[2].clone());
    let txs: Vec<_> = (0..3)
        .map(|i| json!([{"from": from, "to": sale, "data": buy(10 + i), "gas": "0x100000"}, i / 2]))
        .collect();
    proxy.after_next_logs(move || {
        rpc.call("anvil_reorg", json!([2, txs])).unwrap();
    });
    catch_up(&indexer).await;
    assert!(
        proxy.done().logs_calls >= 2,
        "the moved range was read again"
    );
    let stored: Vec<(String, String)> = w
        .sql(|c| {
            c.query_all(
                "SELECT tx_hash, usdt_paid FROM ico_transactions WHERE block IS NOT NULL ORDER BY block, log_index",
                lvlx_backend::args![],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
        })
        .await;
    for hash in &dropped {
        assert!(
            !stored.iter().any(|(h, _)| h == hash),
            "a dropped purchase was recorded"
        );
    }
    let paid: Vec<&str> = stored.iter().map(|(_, u)| u.as_str()).collect();
    assert_eq!(
        paid,
        ["10000000", "11000000", "12000000"],
        "every real purchase, once"
    );
    let before = digest(&w).await;
    indexer.replay().await.unwrap();
    assert_eq!(digest(&w).await, before);
}

/// Two instances index one store when a lease holder froze mid-step and another took over:
/// the frozen one wakes with a range read before the other moved the cursor. Its
/// step must write nothing; every purchase stays recorded once.
#[tokio::test(flavor = "multi_thread")]
async fn an_indexer_overtaken_during_its_step_writes_nothing() {
    let anvil = Anvil::start();
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let a = anvil.accounts();
    let proxy = RpcProxy::start(&anvil.url).await;
    let slow = section(&proxy.url, &d, 0);
    let w = world_with(|c| c.chain = Some(slow.clone())).await;
    approve_sale(&anvil, &d, &a[1]);
    let frozen = Indexer::new(&w.app, &slow);
    catch_up(&frozen).await;
    let mut bought = Vec::new();
    for n in 1..=3 {
        let r = buy_once(&anvil, &d, &a[1], &(n * USDT).to_string());
        bought.push(r["transactionHash"].as_str().unwrap().to_lowercase());
    }
    // Between the frozen instance's eth_getLogs and its write, the other catches up.
    let other = Indexer::new(&w.app, &section(&anvil.url, &d, 0));
    let runtime = tokio::runtime::Handle::current();
    let (told, heard) = std::sync::mpsc::channel();
    proxy.after_next_logs(move || {
        told.send(runtime.block_on(catch_up(&other))).unwrap();
    });
    let woke = frozen.step().await;
    assert_eq!(
        heard.recv().unwrap(),
        3,
        "the other instance recorded the purchases"
    );
    assert!(
        matches!(woke, Err(IndexError::Overtaken)),
        "the woken step wrote on top of a cursor it did not read: {woke:?}"
    );
    let after_other = digest(&w).await;
    assert_eq!(catch_up(&frozen).await, 0, "nothing left to record");
    assert_eq!(digest(&w).await, after_other);
    let stored: Vec<String> = w
        .sql(|c| {
            c.query_all(
                "SELECT tx_hash FROM ico_transactions WHERE block IS NOT NULL ORDER BY block, log_index",
                lvlx_backend::args![],
                |r| r.get(0),
            )
        })
        .await;
    assert_eq!(stored, bought, "every purchase once");
    frozen.replay().await.unwrap();
    assert_eq!(digest(&w).await, after_other);
}

#[tokio::test(flavor = "multi_thread")]
async fn misbehaving_nodes_lose_nothing_and_count_nothing_twice() {
    let anvil = Anvil::start();
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let a = anvil.accounts();
    let buyers = [a[1].clone(), a[2].clone(), a[3].clone()];
    for buyer in &buyers {
        approve_sale(&anvil, &d, buyer);
    }
    // Two nodes: the first will claim an old head, the second drops and rate-limits requests,
    // refuses log ranges over 3 blocks and answers slowly.
    let first = RpcProxy::start(&anvil.url).await;
    let second = RpcProxy::start(&anvil.url).await;
    let chain = Chain {
        rpc_url: Secret::new(first.url.clone()),
        fallback_rpc_urls: vec![Secret::new(second.url.clone())],
        max_block_range: 50,
        ..section(&anvil.url, &d, 0)
    };
    let w = world_with(|c| c.chain = Some(chain.clone())).await;
    let indexer = Indexer::new(&w.app, &chain);
    catch_up(&indexer).await;
    let head =
        lvlx_backend::chain::rpc::quantity(&anvil.rpc.call("eth_blockNumber", json!([])).unwrap())
            .unwrap();
    first.set_faults(Faults {
        stale_head: Some(head - 5),
        ..Faults::default()
    });
    second.set_faults(Faults {
        drop_every: 9,
        limit_every: 13,
        max_log_range: Some(3),
        delay: Duration::from_millis(5),
        ..Faults::default()
    });
    let mut bought = Vec::new();
    let mut failed = 0;
    for i in 0..24u128 {
        let buyer = &buyers[i as usize % 3];
        let usdt = ((i + 1) * USDT).to_string();
        let r = buy_once(&anvil, &d, buyer, &usdt);
        bought.push(r["transactionHash"].as_str().unwrap().to_lowercase());
        // Six purchases (six blocks) at a time: more than the second node's log range.
        if i % 6 == 5 {
            for _ in 0..12 {
                failed += usize::from(indexer.step().await.is_err());
            }
        }
    }
    let during = w.count("ico_transactions").await;
    assert!(
        during > 0,
        "the second node indexed while the first claimed an old head"
    );
    assert!(failed > 0, "faults were met");
    let (stale, flaky) = (first.done(), second.done());
    assert!(stale.stale_heads > 0, "{stale:?}");
    assert!(
        flaky.dropped > 0 && flaky.limited > 0 && flaky.ranges_refused > 0,
        "{flaky:?}"
    );

    // The faults stop: everything is caught up, each purchase once.
    first.set_faults(Faults::default());
    second.set_faults(Faults::default());
    let mut caught_up = 0;
    for _ in 0..500 {
        if let Ok(Progress::CaughtUp { .. }) = indexer.step().await {
            caught_up += 1;
            if caught_up == 2 {
                break;
            }
        }
    }
    assert_eq!(caught_up, 2, "caught up after the faults stopped");
    let mut stored: Vec<String> = w
        .sql(|c| {
            c.query_all(
                "SELECT tx_hash FROM ico_transactions WHERE block IS NOT NULL",
                lvlx_backend::args![],
                |r| r.get(0),
            )
        })
        .await;
    stored.sort();
    bought.sort();
    assert_eq!(stored, bought, "every purchase, once, none missing");
    let before = digest(&w).await;
    indexer.replay().await.unwrap();
    assert_eq!(
        digest(&w).await,
        before,
        "the same state as a replay on healthy nodes"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn logs_a_lagging_backend_leaves_out_are_read_again() {
    let anvil = Anvil::start();
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let a = anvil.accounts();
    approve_sale(&anvil, &d, &a[1]);
    let proxy = RpcProxy::start(&anvil.url).await;
    let chain = section(&proxy.url, &d, 0);
    let w = world_with(|c| c.chain = Some(chain.clone())).await;
    let indexer = Indexer::new(&w.app, &chain);
    catch_up(&indexer).await;
    let head =
        lvlx_backend::chain::rpc::quantity(&anvil.rpc.call("eth_blockNumber", json!([])).unwrap())
            .unwrap();
    // eth_getLogs now reaches a backend still at `head`; block reads reach one that is not.
    proxy.set_faults(Faults {
        logs_behind: Some(head),
        ..Faults::default()
    });
    for usdt in [1, 2, 3] {
        buy_once(&anvil, &d, &a[1], &(usdt * USDT).to_string());
    }
    // First the backend answering by hash is up to date (only the counts disagree), then it
    // lags too (it answers "unknown block").
    for honest_by_hash in [true, false] {
        proxy.set_faults(Faults {
            logs_behind: Some(head),
            honest_by_hash,
            ..Faults::default()
        });
        for _ in 0..5 {
            assert!(
                matches!(indexer.step().await, Err(IndexError::Moved(_))),
                "a range whose newest logs are missing is read again, never passed"
            );
        }
        assert_eq!(w.count("ico_transactions").await, 0);
    }
    assert!(proxy.done().logs_hidden > 0);
    proxy.set_faults(Faults::default());
    catch_up(&indexer).await;
    assert_eq!(w.count("ico_transactions").await, 3, "nothing lost");
}

/// A demo seeded with staking positions beside a real chain: the chain's first position (id 1)
/// is recorded as the chain opened it, not taken for a seeded one.
#[tokio::test(flavor = "multi_thread")]
async fn seeded_positions_never_take_a_chain_position_s_id() {
    use lvlx_tools::seed;
    let anvil = Anvil::start();
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let a = anvil.accounts();
    let chain = section(&anvil.url, &d, 0);
    let w = world_with(|c| c.chain = Some(chain.clone())).await;
    let plan = seed::Plan {
        users: 20,
        ico_tx: 10,
        nft_stakes: 3,
        lvlx_stakes: 3,
        seed: 1,
        whales: false,
    };
    w.app
        .store
        .write(move |c| seed::run(c, &plan, "LVLX", "not-a-real-hash"))
        .await
        .unwrap();
    anvil.buy(&d, &a[1], 10 * USDT, None);
    let staked = stake_lvlx(&anvil, &d, &a[1], 10 * LVLX);
    let indexer = Indexer::new(&w.app, &chain);
    catch_up(&indexer).await;
    let hash = staked["transactionHash"].as_str().unwrap().to_string();
    let recorded: Vec<(i64, i64)> = w
        .sql(move |c| {
            c.query_all(
                "SELECT position, (tx_hash = ?1) FROM stake_positions WHERE pool = 'lvlx' ORDER BY position",
                lvlx_backend::args![hash],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
        })
        .await;
    assert_eq!(
        recorded.len(),
        4,
        "three seeded and the chain's: {recorded:?}"
    );
    assert_eq!(recorded[0], (1, 1), "the chain's position 1 is the chain's");
    assert!(recorded[1..]
        .iter()
        .all(|(id, _)| *id as u64 > seed::FIRST_SEEDED_POSITION));
}

/// A provider whose backends alternate (every second request answered by one 6 blocks behind
/// the head, as load-balanced providers do) does not stall the indexer: it reads up to the
/// lowest head the answers agree on, and every purchase is recorded once.
#[tokio::test(flavor = "multi_thread")]
async fn backends_that_alternate_heads_do_not_stall_the_indexer() {
    let anvil = Anvil::start();
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let a = anvil.accounts();
    approve_sale(&anvil, &d, &a[1]);
    let proxy = RpcProxy::start(&anvil.url).await;
    // Polygon's settings: events count once the node's `finalized` block passes them.
    let chain = Chain {
        finalized_tag: true,
        ..section(&proxy.url, &d, 0)
    };
    let w = world_with(|c| c.chain = Some(chain.clone())).await;
    let indexer = Indexer::new(&w.app, &chain);
    catch_up(&indexer).await;
    proxy.set_faults(Faults {
        alternate_lag: Some((2, 6)),
        ..Faults::default()
    });
    let running = tokio::spawn(Indexer::new(&w.app, &chain).run());
    let mut bought = Vec::new();
    for usdt in 1..=10u128 {
        let r = buy_once(&anvil, &d, &a[1], &(usdt * USDT).to_string());
        bought.push(r["transactionHash"].as_str().unwrap().to_lowercase());
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // The chain moves on (a block every 200 ms), as Polygon's does.
    let started = std::time::Instant::now();
    let mut recorded = 0;
    while started.elapsed() < Duration::from_secs(20) {
        anvil.mine(1);
        recorded = w.count("ico_transactions").await;
        if recorded == 10 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    running.abort();
    assert!(proxy.done().lagged > 0, "{:?}", proxy.done());
    assert_eq!(
        recorded,
        10,
        "every purchase recorded within 20 s behind alternating backends ({:?})",
        proxy.done()
    );
    let mut stored: Vec<String> = w
        .sql(|c| {
            c.query_all(
                "SELECT tx_hash FROM ico_transactions",
                lvlx_backend::args![],
                |r| r.get(0),
            )
        })
        .await;
    stored.sort();
    bought.sort();
    assert_eq!(stored, bought, "each once");
}
