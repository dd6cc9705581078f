//! A member's money history on a real anvil: a purchase, a commission and a rank bonus from a
//! downline purchase, the sale's price changed by its owner, a stake whose interest is withdrawn
//! and which is released, and a claim paid by the distributor — every entry with its transaction
//! and its USDT value on its day, read against the contracts' own figures.

use crate::common;

use common::anvil::{catch_up, Anvil};
use lvlx_backend::chain::deploy;
use lvlx_backend::chain::indexer::Indexer;
use lvlx_backend::chain::owner;
use lvlx_core::chain::Contract;
use serde_json::{json, Value};
use warp::http::StatusCode;

const LVLX: u128 = 1_000_000_000_000_000_000;
const USDT: u128 = 1_000_000;
const DEMO_USER: (&str, &str) = ("demo@lvlx.local", "Demo#2026x");
const ANY_RELEASE: &str = "18446744073709551615";
const B_PASSWORD: &str = "Downline#2026";

fn units(v: &Value) -> u128 {
    v.as_str().unwrap_or_else(|| panic!("{v}")).parse().unwrap()
}

/// `amount` LVLX base units at `price` USDT base units per LVLX, half up (the sale's quote
/// read backwards, from the contract's own price).
fn at_price(amount: u128, price: u128) -> u128 {
    (amount * price + LVLX / 2) / LVLX
}

#[tokio::test(flavor = "multi_thread")]
async fn the_history_lists_every_credit_and_payment_valued_on_its_day() {
    let anvil = Anvil::start();
    // The server's claim key, which the distributor is born with.
    let key = "5a".repeat(32);
    let d = deploy::deploy_dev_signed(
        &anvil.rpc,
        &lvlx_backend::network::signer::ClaimSigner::new(&[0x5a; 32])
            .unwrap()
            .address(),
    )
    .unwrap();
    let a = anvil.accounts();
    let chain = deploy::dev_section(&anvil.url, &d);
    let w = common::world_with(|c| {
        c.chain = Some(chain.clone());
        c.claim_signing_key = Some(lvlx_backend::config::Secret::new(key));
    })
    .await;
    let indexer = Indexer::new(&w.app, &chain);
    let (token, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
    assert_eq!(w.link_dev_wallet(&token, 1).await, StatusCode::OK);
    let demo = w.user_id(DEMO_USER.0).await;
    let wallet = lvlx_core::siwe::checksummed(&a[2]).unwrap();
    let hash = w.app.passwords.hash(B_PASSWORD.into()).await.unwrap();
    w.sql(move |c| {
        c.execute(
            "INSERT INTO users (email, names, lastnames, password_hash, referral_code, referrer_id, wallet, created_at)
             VALUES ('b@history.test', 'Bea', 'Downline', ?1, ?2, ?3, ?4, 1700000000000)",
            lvlx_backend::args![hash, format!("{:032x}", 7), demo, wallet],
        )
    })
    .await;
    anvil.buy_node(&d, &a[1]);

    // At the deployment's price: the member buys 10 USDT of LVLX; a downline purchase of 1,500
    // USDT brings a commission and the Bronze bonus.
    anvil.buy(&d, &a[1], 10 * USDT, None);
    anvil.buy(&d, &a[2], 1_500 * USDT, None);
    // An hour later the owner raises the price to 0.25 USDT: what comes later is worth more.
    anvil.set_next_time(anvil.now() + 3_600);
    owner::transact(
        &anvil.rpc,
        &d.owner,
        &d.ico_sale,
        Contract::IcoSale,
        "setPrice",
        &["250000"],
    )
    .unwrap();
    let price = anvil.read_uint(&d.ico_sale, Contract::IcoSale, "price", &[]);
    assert_eq!(price, 250_000);
    // 50 LVLX staked for the first tier; interest withdrawn halfway, the rest at the release.
    let staked = (50 * LVLX).to_string();
    owner::transact(
        &anvil.rpc,
        &a[1],
        &d.lvlx,
        Contract::Lvlx,
        "approve",
        &[&d.lvlx_staking, &staked],
    )
    .unwrap();
    owner::transact(
        &anvil.rpc,
        &a[1],
        &d.lvlx_staking,
        Contract::LvlxStaking,
        "stake",
        &["1", &staked, "0", ANY_RELEASE],
    )
    .unwrap();
    catch_up(&indexer).await;
    let position = w
        .call("GET", "/api/v1/staking", Some(&token), None)
        .await
        .body["positions"]["lvlx"][0]
        .clone();
    // The page's dates are milliseconds; the chain's seconds.
    let seconds = |field: &str| position[field].as_u64().unwrap() / 1000;
    let (start, release) = (seconds("startDate"), seconds("withdrawDate"));
    anvil.set_next_time((start + release) / 2);
    owner::transact(
        &anvil.rpc,
        &a[1],
        &d.lvlx_staking,
        Contract::LvlxStaking,
        "withdrawInterest",
        &["1"],
    )
    .unwrap();
    anvil.set_next_time(release + 60);
    owner::transact(
        &anvil.rpc,
        &a[1],
        &d.lvlx_staking,
        Contract::LvlxStaking,
        "release",
        &["1"],
    )
    .unwrap();
    catch_up(&indexer).await;
    // The commission and the bonus, claimed and paid.
    let asked = w
        .call("POST", "/api/v1/claims", Some(&token), Some(json!({})))
        .await;
    assert_eq!(asked.status, StatusCode::OK, "{}", asked.body);
    let body =
        json!({"attempt": asked.body["attempt"], "claimCode": w.last_code_of(DEMO_USER.0, 6)});
    let voucher = w
        .call("POST", "/api/v1/claims/confirm", Some(&token), Some(body))
        .await;
    assert_eq!(voucher.status, StatusCode::OK, "{}", voucher.body);
    let calldata = voucher.body["calldata"].as_str().unwrap();
    let wallet1 = lvlx_core::siwe::checksummed(&a[1]).unwrap();
    owner::send(&anvil.rpc, &wallet1, Some(&d.claim_distributor), calldata).unwrap();
    catch_up(&indexer).await;

    let answer = w
        .call("GET", "/api/v1/wallet/history", Some(&token), None)
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    let entries = answer.body["entries"].as_array().unwrap().clone();
    let prices = answer.body["prices"].as_array().unwrap();
    assert_eq!(
        prices.len(),
        2,
        "the deployment's and the new one: {prices:?}"
    );
    let of = |kind: &str| -> Vec<Value> {
        entries
            .iter()
            .filter(|e| e["kind"] == kind)
            .cloned()
            .collect()
    };
    // Newest first.
    let times: Vec<i64> = entries.iter().map(|e| e["at"].as_i64().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "{times:?}");
    // The activation node: a payment in USDT, its price.
    let node = &of("node-purchase")[0];
    let node_price = anvil.read_uint(&d.activation_node, Contract::ActivationNode, "price", &[]);
    assert_eq!(
        (units(&node["amount"]), units(&node["usdtValue"])),
        (node_price, node_price)
    );
    assert_eq!(node["asset"], "USDT");
    assert_eq!(answer.body["wholeFrom"], Value::Null);
    // The purchase: valued at what was paid, 10 USDT for 100 LVLX.
    let purchase = of("purchase");
    assert_eq!(purchase.len(), 1, "{entries:?}");
    assert_eq!(units(&purchase[0]["amount"]), 100 * LVLX);
    assert_eq!(units(&purchase[0]["usdtValue"]), 10 * USDT);
    // The commission and the bonus, credited at 0.1 USDT; the bonus has no transaction.
    let (commission, bonus) = (&of("commission")[0], &of("bonus")[0]);
    assert_eq!(
        units(&commission["usdtValue"]),
        at_price(units(&commission["amount"]), 100_000)
    );
    assert!(commission["txHash"].as_str().unwrap().starts_with("0x"));
    assert_eq!(units(&bonus["amount"]), 100 * LVLX);
    assert_eq!(units(&bonus["usdtValue"]), 10 * USDT);
    assert_eq!(bonus["txHash"], Value::Null);
    // After the price change: interest twice (withdrawn, then at the release), the 50 LVLX back,
    // the claim of commission + bonus, each at the contract's 0.25 USDT.
    let interest = of("interest");
    assert_eq!(interest.len(), 2, "{entries:?}");
    let reward = units(&position["reward"]);
    assert_eq!(
        interest.iter().map(|e| units(&e["amount"])).sum::<u128>(),
        reward
    );
    let release_entry = &of("release")[0];
    assert_eq!(
        (
            units(&release_entry["amount"]),
            release_entry["asset"].as_str()
        ),
        (50 * LVLX, Some("LVLX"))
    );
    let claim = &of("claim")[0];
    assert_eq!(
        units(&claim["amount"]),
        units(&commission["amount"]) + units(&bonus["amount"])
    );
    for e in interest.iter().chain([release_entry, claim]) {
        assert_eq!(
            units(&e["usdtValue"]),
            at_price(units(&e["amount"]), price),
            "{e}"
        );
        assert!(e["txHash"].as_str().unwrap().starts_with("0x"));
        assert_eq!(e["pending"], false);
    }

    // As CSV (the core's, as the page makes it): a line per entry, exact decimals.
    let valued: Vec<lvlx_core::history::Valued> =
        serde_json::from_value(Value::Array(entries.clone())).unwrap();
    let csv = lvlx_core::history::csv(&valued, 18);
    assert_eq!(csv.lines().count(), entries.len() + 1);
    assert!(csv.contains(",release,50,LVLX,12.5,0x"), "{csv}");

    // Another member's history holds only their own purchase; nobody's without a session.
    let (b_token, _) = w.login("b@history.test", B_PASSWORD).await;
    let theirs = w
        .call("GET", "/api/v1/wallet/history", Some(&b_token), None)
        .await
        .body;
    let kinds: Vec<&str> = theirs["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, vec!["purchase"]);
    let anonymous = w.call("GET", "/api/v1/wallet/history", None, None).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}
