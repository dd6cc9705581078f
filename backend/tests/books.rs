//! Books that prove themselves (issue 33): `lvlx books verify` indexes the chain again into a
//! copy of the store and names every line that differs. On an honest store it finds nothing; a
//! purchase's amount changed in the store is named on both sides; a purchase on chain that the
//! store skipped (its cursor moved past it) is named as missing.

mod common;

use common::anvil::{catch_up, Anvil};
use common::world_with;
use lvlx_backend::chain::deploy;
use lvlx_backend::chain::indexer::Indexer;
use lvlx_backend::config::Chain;

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
}
