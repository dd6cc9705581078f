//! Books that prove themselves: `lvlx books verify` indexes the chain again into a
//! copy of the store and names every line that differs. On an honest store it finds nothing; a
//! purchase's amount changed in the store is named on both sides; a purchase on chain that the
//! store skipped (its cursor moved past it) is named as missing.

use crate::common;

use common::anvil::{catch_up, Anvil};
use common::world_with;
use lvlx_backend::chain::deploy;
use lvlx_backend::chain::indexer::Indexer;
use lvlx_backend::cli::accounts::{DEMO_ADMIN, DEMO_USER};
use lvlx_backend::config::Chain;
use lvlx_core::chain::Contract;
use serde_json::Value;
use std::time::{Duration, Instant};

#[tokio::test(flavor = "multi_thread")]
async fn verify_finds_nothing_on_honest_books_and_names_what_was_planted() {
    let anvil = Anvil::start();
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let chain = Chain {
        poll_ms: 100,
        ..deploy::dev_section(&anvil.url, &d)
    };
    let w = world_with(|c| c.chain = Some(chain.clone())).await;
    let buyers = anvil.accounts();
    let mut bought = Vec::new();
    for (i, buyer) in buyers[1..4].iter().enumerate() {
        bought.push(anvil.buy(&d, buyer, (i as u128 + 1) * 1_000_000, None));
    }
    let indexer = Indexer::new(&w.app, &chain);
    catch_up(&indexer).await;

    // Every section a report can name has its title in each language (the Books page).
    let sections = w
        .app
        .store
        .read(lvlx_backend::store::digest::sections)
        .await
        .unwrap();
    for language in ["en", "es", "pt"] {
        let path = format!(
            "{}/../locales/{language}/{language}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let keys: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let names = sections.iter().map(|(name, _)| *name);
        for name in names.chain(["member totals", "contracts", "totals"]) {
            let key = format!("books-section-{}", name.replace(' ', "-"));
            assert!(keys[&key].is_string(), "{language}: {key}");
        }
    }
    let honest = lvlx_backend::books::verify(&w.app.config, &w.app.store)
        .await
        .unwrap();
    assert!(honest.differences.is_empty(), "{:?}", honest.differences);
    assert!(honest.lines > 3, "{honest:?}");

    // Planted in the store: a purchase's referrer (a field of the row alone).
    let first = bought[0].to_lowercase();
    let hash = first.clone();
    w.sql(move |c| {
        c.execute(
            "UPDATE ico_transactions SET referrer = '0x000000000000000000000000000000000000dead' WHERE tx_hash = ?1",
            lvlx_backend::args![hash],
        )
    })
    .await;
    let changed = lvlx_backend::books::verify(&w.app.config, &w.app.store)
        .await
        .unwrap();
    let purchases = changed
        .differences
        .iter()
        .find(|d| d.section == "purchases")
        .unwrap_or_else(|| panic!("{changed:?}"));
    assert_eq!(purchases.only_in_store.len(), 1);
    assert_eq!(purchases.only_on_chain.len(), 1);
    assert!(purchases.only_in_store[0].starts_with(&first));
    assert!(purchases.only_in_store[0].contains("dead"));
    assert!(purchases.only_on_chain[0].starts_with(&first));
    // Planted in the store: a purchase's amount, which its day's total no longer holds.
    let hash = first.clone();
    w.sql(move |c| {
        c.execute(
            "UPDATE ico_transactions SET amount = amount || '0' WHERE tx_hash = ?1",
            lvlx_backend::args![hash],
        )
    })
    .await;
    let totals = lvlx_backend::books::verify(&w.app.config, &w.app.store)
        .await
        .unwrap();
    assert_eq!(totals.differences.len(), 1, "{totals:?}");
    assert_eq!(totals.differences[0].section, "totals");
    assert!(totals.differences[0].only_in_store[0].contains("holds less"));
    let hash = first.clone();
    w.sql(move |c| {
        c.execute(
            "UPDATE ico_transactions SET amount = substr(amount, 1, length(amount) - 1), referrer = NULL WHERE tx_hash = ?1",
            lvlx_backend::args![hash],
        )
    })
    .await;
    let undone = lvlx_backend::books::verify(&w.app.config, &w.app.store)
        .await
        .unwrap();
    assert!(undone.differences.is_empty(), "{undone:?}");

    // Planted on chain: a purchase the store never recorded (its cursor moved past it).
    let skipped = anvil.buy(&d, &buyers[5], 9_000_000, None).to_lowercase();
    let head: u64 = u64::from_str_radix(
        anvil
            .rpc
            .call("eth_blockNumber", serde_json::json!([]))
            .unwrap()
            .as_str()
            .unwrap()
            .trim_start_matches("0x"),
        16,
    )
    .unwrap();
    w.sql(move |c| {
        c.execute(
            "UPDATE chain_cursor SET next_block = ?1, final_block = ?2",
            lvlx_backend::args![head as i64 + 1, head as i64],
        )
    })
    .await;
    let missed = lvlx_backend::books::verify(&w.app.config, &w.app.store)
        .await
        .unwrap();
    let purchases = missed
        .differences
        .iter()
        .find(|d| d.section == "purchases")
        .unwrap_or_else(|| panic!("{missed:?}"));
    assert!(purchases.only_in_store.is_empty());
    assert_eq!(purchases.only_on_chain.len(), 1);
    assert!(purchases.only_on_chain[0].starts_with(&skipped));
    // The live store was only read: the skipped purchase is still missing from it.
    let recorded: i64 = w
        .sql(move |c| {
            c.query_one(
                "SELECT COUNT(*) FROM ico_transactions WHERE tx_hash = ?1",
                lvlx_backend::args![skipped],
                |r| r.get(0),
            )
        })
        .await;
    assert_eq!(recorded, 0);

    // The admin's Books page: a check runs in the background and is recorded with what it
    // found; one at a time; members may not.
    let (admin, _) = w.login(DEMO_ADMIN.0, DEMO_ADMIN.1).await;
    let (member, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
    for method in ["GET", "POST"] {
        let refused = w.call(method, "/api/v1/books", Some(&member), None).await;
        assert_eq!(refused.status, 403, "{method}");
    }
    let before = w.call("GET", "/api/v1/books", Some(&admin), None).await;
    assert_eq!(before.body["latest"], Value::Null, "{}", before.body);
    let started = w.call("POST", "/api/v1/books", Some(&admin), None).await;
    assert_eq!(started.status, 202, "{}", started.body);
    let again = w.call("POST", "/api/v1/books", Some(&admin), None).await;
    assert_eq!(
        (again.status.as_u16(), again.body["code"].as_str()),
        (409, Some("error-books-running"))
    );
    let deadline = Instant::now() + Duration::from_secs(60);
    let standing = loop {
        let now = w.call("GET", "/api/v1/books", Some(&admin), None).await;
        if now.body["running"] == false && !now.body["latest"].is_null() {
            break now.body;
        }
        assert!(Instant::now() < deadline, "{}", now.body);
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let latest = &standing["latest"];
    // The skipped purchase, and its day on both sides.
    assert_eq!(latest["differences"], 3, "{latest}");
    assert_eq!(latest["report"]["differences"][0]["section"], "purchases");
    assert!(latest["lines"].as_i64().unwrap() > 3);

    // The public solvency page, without signing in: the reserves as the contracts hold them,
    // what members are owed against what the distributor holds, and that check.
    let public = w.call("GET", "/api/v1/solvency", None, None).await;
    assert_eq!(public.status, 200, "{}", public.body);
    let held = anvil.read_uint(
        &d.lvlx,
        Contract::Lvlx,
        "balanceOf",
        &[&d.claim_distributor],
    );
    assert!(held > 0);
    assert_eq!(public.body["claims"]["held"], held.to_string());
    assert_eq!(public.body["claims"]["owed"], "0");
    assert_eq!(public.body["claims"]["covered"], true);
    let free = anvil.read_uint(&d.nft_staking, Contract::NftStaking, "freeReserve", &[]);
    assert_eq!(public.body["reserves"]["nft"]["free"], free.to_string());
    assert_eq!(public.body["books"]["differences"], 3);
    // Rewards credited by hand to a member with no payments: owed now, read after 10 s at most.
    w.sql(|c| {
        c.execute(
            "UPDATE users SET add_rewards = '5000000000000000000' WHERE email = ?1",
            lvlx_backend::args![DEMO_USER.0],
        )
    })
    .await;
    let cached = w.call("GET", "/api/v1/solvency", None, None).await;
    assert_eq!(cached.body, public.body, "served again within 10 s");
}

/// `lvlx books verify` handles nodes as the indexer does: a dead primary hands over to the
/// fallback node, and a node that answers HTTP 429 now and then is asked again.
#[tokio::test(flavor = "multi_thread")]
async fn verify_uses_the_fallback_nodes_and_retries_as_the_indexer_does() {
    use common::rpc_proxy::{Faults, RpcProxy};
    use lvlx_backend::config::Secret;
    let anvil = Anvil::start();
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let chain = Chain {
        poll_ms: 100,
        ..deploy::dev_section(&anvil.url, &d)
    };
    let w = world_with(|c| c.chain = Some(chain.clone())).await;
    let buyers = anvil.accounts();
    for (i, buyer) in buyers[1..3].iter().enumerate() {
        anvil.buy(&d, buyer, (i as u128 + 1) * 1_000_000, None);
    }
    catch_up(&Indexer::new(&w.app, &chain)).await;
    let with_nodes = |primary: &str, fallbacks: Vec<String>| {
        let mut config = (*w.app.config).clone();
        config.chain = Some(Chain {
            rpc_url: Secret::new(primary.to_string()),
            fallback_rpc_urls: fallbacks.into_iter().map(Secret::new).collect(),
            ..chain.clone()
        });
        config
    };
    // Nothing listens on port 9: the primary is dead, the fallback answers.
    let dead_primary = with_nodes("http://127.0.0.1:9", vec![anvil.url.clone()]);
    let report = lvlx_backend::books::verify(&dead_primary, &w.app.store)
        .await
        .unwrap_or_else(|e| panic!("a working fallback node: {e}"));
    assert!(report.differences.is_empty(), "{:?}", report.differences);
    // One node that answers HTTP 429 to every sixth request.
    let limiting = RpcProxy::start(&anvil.url).await;
    limiting.set_faults(Faults {
        limit_every: 6,
        ..Faults::default()
    });
    let report = lvlx_backend::books::verify(&with_nodes(&limiting.url, vec![]), &w.app.store)
        .await
        .unwrap_or_else(|e| panic!("a node that limits the rate now and then: {e}"));
    assert!(report.differences.is_empty(), "{:?}", report.differences);
    assert!(limiting.done().limited > 0, "{:?}", limiting.done());
}
