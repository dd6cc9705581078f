//! The contracts on a real anvil chain, the indexer against it, and the live channel.

use crate::common;

use std::time::{Duration, Instant};

use common::anvil::{catch_up, Anvil, Relay};
use common::world_with;
use lvlx_backend::chain::deploy::{self, Deployment};
use lvlx_backend::chain::indexer::{Indexer, Progress};
use lvlx_backend::chain::owner;
use lvlx_backend::cli::accounts::{DEMO_ADMIN, DEMO_USER};
use lvlx_backend::config::Chain;
use lvlx_backend::live::Push;
use lvlx_backend::routes;
use lvlx_core::chain::{self, Contract, DEFAULT_PRICE};
use serde_json::{json, Value};

const LVLX: u128 = 1_000_000_000_000_000_000;
const ZERO: &str = "0x0000000000000000000000000000000000000000";

fn section(rpc_url: &str, d: &Deployment, range: u64, confirmations: u64) -> Chain {
    Chain {
        max_block_range: range,
        confirmations,
        poll_ms: 100,
        ..deploy::dev_section(rpc_url, d)
    }
}

/// The 4-byte selector of a custom error in a contract's ABI.
fn selector(contract: Contract, name: &str) -> String {
    chain::hex0x(&contract.abi().error(name).unwrap().signature().as_bytes()[..4])
}

#[test]
fn the_sale_sells_at_its_price_and_the_owner_can_only_steer_it() {
    let anvil = Anvil::start();
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let a = anvil.accounts();
    let (owner, buyer, referrer) = (&a[0], &a[1], &a[2]);
    let usdt_of = |who: &str| anvil.read_uint(&d.usdt, Contract::Lvlx, "balanceOf", &[who]);
    let lvlx_of = |who: &str| anvil.read_uint(&d.lvlx, Contract::Lvlx, "balanceOf", &[who]);
    let treasury_before = usdt_of(&d.treasury);

    // 2.5 USDT at 0.1 USDT per LVLX: 25 LVLX, the USDT straight to the treasury.
    let hash = anvil.buy(&d, buyer, 2_500_000, Some(referrer));
    assert_eq!(lvlx_of(buyer), 25 * LVLX);
    assert_eq!(Some(lvlx_of(buyer)), chain::quote(2_500_000, DEFAULT_PRICE));
    assert_eq!(usdt_of(&d.treasury) - treasury_before, 2_500_000);
    assert_eq!(
        usdt_of(&d.ico_sale),
        0,
        "buyers' USDT never rests in the sale"
    );
    assert_eq!(
        anvil.read_uint(&d.ico_sale, Contract::IcoSale, "price", &[]),
        DEFAULT_PRICE
    );

    // The event carries buyer, USDT paid, LVLX bought and referrer.
    let receipt = anvil
        .rpc
        .call("eth_getTransactionReceipt", json!([hash]))
        .unwrap();
    let log = receipt["logs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| {
            l["address"]
                .as_str()
                .unwrap()
                .eq_ignore_ascii_case(&d.ico_sale)
        })
        .expect("a Purchased log");
    let topics: Vec<&str> = log["topics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    let data = log["data"].as_str().unwrap();
    let Ok(chain::Event::Purchased(p)) = chain::decode(Contract::IcoSale, &topics, data) else {
        panic!("a Purchased event")
    };
    assert_eq!(p.buyer.to_lowercase(), buyer.to_lowercase());
    assert_eq!((p.usdt_paid, p.lvlx_bought), (2_500_000, 25 * LVLX));
    assert_eq!(p.referrer.unwrap().to_lowercase(), referrer.to_lowercase());

    // Only the owner steers: price, pause and the unsold stock.
    let not_owner = selector(Contract::IcoSale, "OwnableUnauthorizedAccount");
    for (function, args) in [
        ("setPrice", vec!["1"]),
        ("pause", vec![]),
        ("withdrawUnsold", vec![buyer.as_str(), "1"]),
    ] {
        let data = anvil.revert(buyer, &d.ico_sale, Contract::IcoSale, function, &args);
        assert!(data.starts_with(&not_owner), "{function}: {data}");
    }
    // A buyer's bad requests read as plain reasons.
    let approve = |amount: &str| {
        owner::transact(
            &anvil.rpc,
            buyer,
            &d.usdt,
            Contract::Lvlx,
            "approve",
            &[&d.ico_sale, amount],
        )
        .unwrap();
    };
    approve("0");
    let no_allowance = anvil.revert(
        buyer,
        &d.ico_sale,
        Contract::IcoSale,
        "buy",
        &["1000000", "0", ZERO],
    );
    assert_eq!(
        chain::revert_key(&no_allowance),
        "chain-insufficient-allowance"
    );
    approve("1000000");
    let self_ref = anvil.revert(
        buyer,
        &d.ico_sale,
        Contract::IcoSale,
        "buy",
        &["1000000", "0", buyer],
    );
    assert_eq!(chain::revert_key(&self_ref), "chain-self-referral");
    let min = (10 * LVLX).to_string();
    owner::transact(
        &anvil.rpc,
        owner,
        &d.ico_sale,
        Contract::IcoSale,
        "setPrice",
        &["200000"],
    )
    .unwrap();
    let moved = anvil.revert(
        buyer,
        &d.ico_sale,
        Contract::IcoSale,
        "buy",
        &["1000000", &min, ZERO],
    );
    assert_eq!(chain::revert_key(&moved), "chain-price-moved");
    owner::transact(
        &anvil.rpc,
        owner,
        &d.ico_sale,
        Contract::IcoSale,
        "pause",
        &[],
    )
    .unwrap();
    let paused = anvil.revert(
        buyer,
        &d.ico_sale,
        Contract::IcoSale,
        "buy",
        &["1000000", "0", ZERO],
    );
    assert_eq!(chain::revert_key(&paused), "chain-sale-paused");
    owner::transact(
        &anvil.rpc,
        owner,
        &d.ico_sale,
        Contract::IcoSale,
        "unpause",
        &[],
    )
    .unwrap();
    // After unpausing, the new price holds: 1 USDT at 0.2 buys 5 LVLX.
    let before = lvlx_of(buyer);
    owner::transact(
        &anvil.rpc,
        buyer,
        &d.ico_sale,
        Contract::IcoSale,
        "buy",
        &["1000000", &(5 * LVLX).to_string(), ZERO],
    )
    .unwrap();
    assert_eq!(lvlx_of(buyer) - before, 5 * LVLX);
}

async fn rows(
    w: &common::World,
) -> Vec<(Option<i64>, String, String, String, String, Option<String>)> {
    w.sql(move |c| {
            c.query_all(
                "SELECT user_id, wallet, tx_hash, amount, usdt_paid, referrer FROM ico_transactions WHERE usdt_paid IS NOT NULL ORDER BY id",
                lvlx_backend::args![],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)),
            )
        }).await
}

async fn balance(w: &common::World, email: &'static str) -> String {
    w.sql(move |c| {
        c.query_one(
            "SELECT lvlx_balance FROM users WHERE email = ?1",
            lvlx_backend::args![email],
            |r| r.get(0),
        )
    })
    .await
}

async fn link_wallet(w: &common::World, email: &'static str, wallet: &str) {
    let wallet = lvlx_core::siwe::checksummed(wallet).unwrap();
    w.sql(move |c| {
        c.execute(
            "UPDATE users SET wallet = ?1 WHERE email = ?2",
            lvlx_backend::args![wallet.as_str(), email],
        )
    })
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_indexer_resumes_without_gaps_or_duplicates() {
    let anvil = Anvil::start();
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let a = anvil.accounts();
    // Ranges of 2 blocks; each purchase takes 2 (approve, buy).
    let chain = section(&anvil.url, &d, 2, 0);
    let w = world_with(|c| c.chain = Some(chain.clone())).await;
    link_wallet(&w, DEMO_USER.0, &a[1]).await;
    let mut pushes = w.app.hub.subscribe();

    let mut hashes = Vec::new();
    for i in 1..=5u128 {
        hashes.push(anvil.buy(&d, &a[1], i * 100_000, None));
    }
    for _ in 0..2 {
        hashes.push(anvil.buy(&d, &a[2], 1_000_000, Some(&a[1])));
    }

    // A first indexer reads one range, then "the server restarts".
    let first = Indexer::new(&w.app, &chain);
    match first.step().await.unwrap() {
        Progress::More { from, to, .. } => {
            assert_eq!((from, to), (d.start_block, d.start_block + 1))
        }
        other => panic!("expected more, got {other:?}"),
    }
    drop(first);
    let second = Indexer::new(&w.app, &chain);
    catch_up(&second).await;

    let stored = rows(&w).await;
    let mut stored_hashes: Vec<&str> = stored.iter().map(|r| r.2.as_str()).collect();
    stored_hashes.sort();
    let mut expected: Vec<String> = hashes.iter().map(|h| h.to_lowercase()).collect();
    expected.sort();
    assert_eq!(stored_hashes, expected, "every purchase once, none missing");
    // 0.1+0.2+…+0.5 USDT = 1.5 USDT → 15 LVLX credited to the linked account, from the events.
    assert_eq!(balance(&w, DEMO_USER.0).await, (15 * LVLX).to_string());
    let unlinked: Vec<_> = stored.iter().filter(|r| r.0.is_none()).collect();
    assert_eq!(
        unlinked.len(),
        2,
        "the unlinked wallet's purchases wait for a link"
    );
    assert_eq!(unlinked[0].1.to_lowercase(), a[2].to_lowercase());
    assert_eq!(
        (unlinked[0].3.as_str(), unlinked[0].4.as_str()),
        ("10000000000000000000", "1000000")
    );
    assert_eq!(
        unlinked[0].5.as_deref().map(str::to_lowercase),
        Some(a[1].to_lowercase())
    );
    let mut pushed = 0;
    while let Ok(push) = pushes.try_recv() {
        // (The deployment's terms and reserve funding are pushed to admins too.)
        pushed += usize::from(matches!(push, Push::Purchase { .. }));
    }
    assert_eq!(pushed, 7, "one live push per recorded purchase");

    // The same events read again (cursor back at the start): stored once, credited once.
    let sale = d.ico_sale.to_lowercase();
    w.sql(move |c| {
        c.execute(
            "UPDATE chain_cursor SET next_block = ?1 WHERE contract = ?2",
            lvlx_backend::args![d.start_block as i64, sale],
        )
    })
    .await;
    assert_eq!(catch_up(&second).await, 0);
    assert_eq!(rows(&w).await.len(), 7);
    assert_eq!(balance(&w, DEMO_USER.0).await, (15 * LVLX).to_string());
    assert!(pushes.try_recv().is_err(), "nothing new, nothing pushed");

    // myActives: the member's balance and entries, newest first, from the index.
    assert_eq!(
        w.call("GET", "/api/v1/wallet/actives", None, None)
            .await
            .status,
        401
    );
    let (token, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
    let mine = w
        .call("GET", "/api/v1/wallet/actives", Some(&token), None)
        .await
        .body;
    assert_eq!(mine["balance"], (15 * LVLX).to_string());
    let entries = mine["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 5, "only the member's own purchases");
    assert_eq!(entries[0]["usdtPaid"], "500000", "newest first");
    assert_eq!(entries[0]["amount"], (5 * LVLX).to_string());
    assert_eq!(entries[0]["txHash"], hashes[4].to_lowercase());
}

#[tokio::test(flavor = "multi_thread")]
async fn the_indexer_survives_the_node_going_down() {
    let anvil = Anvil::start();
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let a = anvil.accounts();
    let relay = Relay::start(&anvil.url).await;
    let chain = section(&relay.url, &d, 1000, 0);
    let w = world_with(|c| c.chain = Some(chain.clone())).await;
    relay.set_down(true);
    let task = tokio::spawn(Indexer::new(&w.app, &chain).run());
    anvil.buy(&d, &a[1], 1_000_000, None);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(rows(&w).await.is_empty());
    assert!(!task.is_finished(), "the indexer keeps retrying");
    relay.set_down(false);
    let started = Instant::now();
    while rows(&w).await.is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(40),
            "no recovery after the node came back"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(rows(&w).await.len(), 1);
    task.abort();
}

async fn ws_message(client: &mut warp::test::WsClient) -> Value {
    let m = tokio::time::timeout(Duration::from_secs(5), client.recv())
        .await
        .expect("a message")
        .unwrap();
    serde_json::from_str(m.to_str().unwrap()).unwrap()
}

async fn ws_connect(w: &common::World, token: &str) -> warp::test::WsClient {
    let mut client = warp::test::ws()
        .path("/api/v1/ws")
        .handshake(routes(w.app.clone()))
        .await
        .unwrap();
    client
        .send_text(json!({"type": "auth", "token": token}).to_string())
        .await;
    client
}

#[tokio::test(flavor = "multi_thread")]
async fn the_live_channel_pushes_purchases_to_the_buyer_and_admins_only() {
    let w = world_with(|_| {}).await;
    let (member_token, member) = w.login(DEMO_USER.0, DEMO_USER.1).await;
    let (admin_token, _) = w.login(DEMO_ADMIN.0, DEMO_ADMIN.1).await;
    let member_id = lvlx_backend::user::UserId(member["user"]["id"].as_str().map_or_else(
        || member["user"]["id"].as_i64().unwrap(),
        |s| s.parse().unwrap(),
    ));

    let mut stranger = ws_connect(&w, "not-a-token").await;
    assert_eq!(
        ws_message(&mut stranger).await,
        json!({"type": "error", "code": "error-unauthorized"})
    );

    let mut m = ws_connect(&w, &member_token).await;
    assert_eq!(ws_message(&mut m).await["type"], "ready");
    let mut admin = ws_connect(&w, &admin_token).await;
    assert_eq!(ws_message(&mut admin).await["type"], "ready");

    let purchase = |user, hash: &str| Push::Purchase {
        user,
        tx_hash: hash.into(),
        wallet: "0xabc".into(),
        lvlx: 10 * LVLX,
        usdt: 1_000_000,
        created_at: 1,
    };
    // Someone else's purchase first: the admin sees it, the member does not.
    w.app.hub.push(purchase(None, "0x01"));
    w.app.hub.push(purchase(Some(member_id), "0x02"));
    let got = ws_message(&mut m).await;
    assert_eq!(
        (got["type"].as_str(), got["txHash"].as_str()),
        (Some("purchase"), Some("0x02"))
    );
    assert_eq!(got["lvlx"], (10 * LVLX).to_string());
    assert_eq!(ws_message(&mut admin).await["txHash"], "0x01");
    assert_eq!(ws_message(&mut admin).await["txHash"], "0x02");
}

#[tokio::test]
async fn wallets_get_the_public_rpc_never_the_servers_own() {
    let d = Deployment {
        usdt: "0x5FbDB2315678afecb367f032d93F642f64180aa3".into(),
        lvlx: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512".into(),
        ico_sale: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0".into(),
        start_block: 3,
        treasury: ZERO.into(),
        ..Deployment::default()
    };
    let chain = Chain {
        public_rpc_url: "https://polygon-rpc.example".into(),
        ..deploy::dev_section("https://node.example/v1/provider-api-key", &d)
    };
    let w = world_with(|c| c.chain = Some(chain)).await;
    let body = w.call("GET", "/api/v1/config", None, None).await.body;
    assert_eq!(body["chain"]["rpcUrl"], "https://polygon-rpc.example");
    assert_eq!(body["chain"]["chainIdHex"], "0x89");
    assert_eq!(body["chain"]["icoSale"], d.ico_sale);
    assert!(!body.to_string().contains("provider-api-key"));
}

/// The table of owner functions in docs/owners.md lists every function the contracts' sources guard
/// with `onlyOwner`, and every function an owner reaches by naming itself to a role (a LevelNFT
/// minter), under its contract, and nothing that is not one; each row says when it takes effect
/// (with the delay where the core marks the action delayed, at once otherwise), what members can
/// do meanwhile and why they are safe; and the section states the distributor's time constants
/// as the source has them.
#[test]
fn the_readme_lists_every_owner_function() {
    use std::collections::BTreeSet;
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let mut in_source = BTreeSet::new();
    let mut by_role = BTreeSet::new();
    let mut constants = Vec::new();
    for entry in std::fs::read_dir(format!("{root}/contracts/src")).unwrap() {
        let path = entry.unwrap().path();
        let contract = path.file_stem().unwrap().to_str().unwrap().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        // A function's header runs from `function` to its body's `{`.
        for function in text.split("function ").skip(1) {
            let (header, body) = function.split_once('{').unwrap_or((function, ""));
            let name = header.split('(').next().unwrap().trim().to_string();
            if header.contains("onlyOwner") {
                in_source.insert((contract.clone(), name));
            } else if body
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .is_some_and(|l| l.contains("minter[msg.sender]"))
            {
                by_role.insert((contract.clone(), name));
            }
        }
        // `uint256 public constant NAME = n days;` (or hours): docs/owners.md states them.
        for line in text.lines() {
            let Some(rest) = line.trim().strip_prefix("uint256 public constant ") else {
                continue;
            };
            let Some((name, value)) = rest.trim_end_matches(';').split_once(" = ") else {
                continue;
            };
            let said = match value.split_once(' ') {
                Some((n, "days")) => format!("{n} days"),
                Some((n, "hours")) => format!("{n} h"),
                _ => continue,
            };
            constants.push((contract.clone(), name.to_string(), said));
        }
    }
    let doc = std::fs::read_to_string(format!("{root}/docs/owners.md")).unwrap();
    let section = doc
        .split("### Owner functions")
        .nth(1)
        .expect("docs/owners.md has an owner functions section")
        .split("\n### ")
        .next()
        .unwrap();
    let mut listed = BTreeSet::new();
    let mut rows = 0;
    let header = section
        .lines()
        .find(|l| l.starts_with("| contract"))
        .expect("the table's header");
    assert_eq!(
        header,
        "| contract | owner functions | takes effect | what members can do meanwhile | why members are safe |"
    );
    for row in section
        .lines()
        .skip_while(|l| !l.starts_with("| contract"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
    {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        assert_eq!(cells.len(), 7, "five cells: {row}");
        assert!(cells[1..6].iter().all(|c| !c.is_empty()), "{row}");
        rows += 1;
        let contract = cells[1].split(' ').next().unwrap().to_string();
        let names: Vec<String> = cells[2].split(',').map(|n| n.trim().to_string()).collect();
        for name in &names {
            listed.insert((contract.clone(), name.clone()));
        }
        // When it takes effect, as the core knows the action.
        use lvlx_core::chain::{owner_actions, Contract};
        let contracts = match contract.as_str() {
            "RewardReserve" => vec![Contract::NftStaking, Contract::LvlxStaking],
            name => vec![Contract::parse(name).unwrap()],
        };
        let delayed = names.iter().any(|n| {
            contracts
                .iter()
                .any(|c| owner_actions::find(*c, n).is_some_and(|a| a.delayed))
        });
        if delayed {
            assert!(
                cells[3].contains("delay"),
                "a delayed action says so: {row}"
            );
        } else {
            assert!(
                cells[3].contains("at once"),
                "an action at once says so: {row}"
            );
        }
    }
    assert!(rows > 10, "{rows} rows");
    assert!(in_source.len() > 20, "{in_source:?}");
    let mut powers = in_source.clone();
    powers.extend(by_role.iter().cloned());
    assert_eq!(
        listed, powers,
        "docs/owners.md lists the owner functions (and what a role the owner names can do) as the sources have them"
    );
    for (contract, name, said) in &constants {
        if contract == "ClaimDistributor" {
            assert!(
                section.contains(&format!("`{name}`")) && section.contains(said.as_str()),
                "the owner section states {contract}.{name} ({said})"
            );
        }
    }
    // And the owners' Safe can be asked for each owner function from the admin's page.
    use lvlx_core::chain::{owner_actions, Contract};
    for (contract, function) in &in_source {
        let contracts = match contract.as_str() {
            "RewardReserve" => vec![Contract::NftStaking, Contract::LvlxStaking],
            name => vec![Contract::parse(name).unwrap()],
        };
        for c in contracts {
            assert!(
                owner_actions::find(c, function).is_some(),
                "{contract}.{function} is no owner action the page can propose"
            );
        }
    }
}

/// Every custom error the platform's contracts declare carries its contract's name, so a revert
/// says where it came from (`IcoSaleSoldOut`, not a `ZeroAddress` four contracts share).
#[test]
fn contract_errors_carry_their_contract_name() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../contracts/src");
    let mut seen = 0;
    for entry in std::fs::read_dir(root).unwrap() {
        let path = entry.unwrap().path();
        let contract = path.file_stem().unwrap().to_str().unwrap().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        for declared in text.split("error ").skip(1) {
            let name = declared.split('(').next().unwrap().trim();
            if name.chars().all(|c| c.is_ascii_alphanumeric()) && !name.is_empty() {
                assert!(name.starts_with(&contract), "{contract}: error {name}");
                seen += 1;
            }
        }
    }
    assert!(seen > 30, "{seen} errors");
}
