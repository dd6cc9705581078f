//! Wallet linking by Sign-In-With-Ethereum through the HTTP API: a wallet's real signature links
//! it once; forged, replayed, foreign and expired messages are refused; a wallet belongs to one
//! account; purchases kept for an unlinked wallet follow it to the account.

use crate::common;

use common::{world, World};
use lvlx_backend::cli::accounts::{DEMO_ADMIN, DEMO_USER};
use lvlx_backend::routes;
use lvlx_backend::store::ledger;
use lvlx_core::siwe::dev::{address, key, sign, SigningKey};
use lvlx_core::siwe::Message;
use serde_json::{json, Value};
use warp::http::StatusCode;

const HOST: &str = "127.0.0.1:8080";

async fn post(w: &World, token: &str, path: &str, body: Value, host: &str) -> (StatusCode, Value) {
    let res = warp::test::request()
        .method("POST")
        .path(path)
        .header("host", host)
        .header("authorization", format!("Bearer {token}"))
        .header("content-type", "application/json")
        .body(body.to_string())
        .reply(&routes(w.app.clone()))
        .await;
    (
        res.status(),
        serde_json::from_slice(res.body()).unwrap_or(Value::Null),
    )
}

/// A message for a fresh nonce, as the browser builds it.
async fn message(w: &World, token: &str, signer: &SigningKey) -> Message {
    let (status, n) = post(w, token, "/api/v1/wallet/nonce", json!({}), HOST).await;
    assert_eq!(status, StatusCode::OK, "{n}");
    assert_eq!(n["nonce"].as_str().unwrap().len(), 32, "128 bits");
    Message {
        domain: HOST.into(),
        address: address(signer),
        statement: Some("Link this wallet to your LVLX account.".into()),
        uri: format!("http://{HOST}"),
        chain_id: n["chainId"].as_u64().unwrap(),
        nonce: n["nonce"].as_str().unwrap().into(),
        issued_at: n["issuedAt"].as_i64().unwrap(),
        expiration_time: Some(n["expirationTime"].as_i64().unwrap()),
        ..Message::default()
    }
}

async fn link(w: &World, token: &str, text: &str, signature: &str) -> (StatusCode, Value) {
    post(
        w,
        token,
        "/api/v1/wallet/link",
        json!({"message": text, "signature": signature}),
        HOST,
    )
    .await
}

async fn stored_wallet(w: &World, email: &'static str) -> Option<String> {
    w.sql(move |c| {
        c.query_one(
            "SELECT wallet FROM users WHERE email = ?1",
            lvlx_backend::args![email],
            |r| r.get(0),
        )
    })
    .await
}

#[tokio::test]
async fn a_real_signature_links_the_wallet_once_and_a_replay_is_refused() {
    let w = world().await;
    let (user, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
    // The demo user starts with a wallet of its own; a member without one is what linking is for.
    w.sql(move |c| {
        c.execute(
            "UPDATE users SET wallet = NULL WHERE email = ?1",
            lvlx_backend::args![DEMO_USER.0],
        )
    })
    .await;
    let k = key(0);
    let text = message(&w, &user, &k).await.to_text();
    let signature = sign(&k, &text);
    let (status, body) = link(&w, &user, &text, &signature).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["wallet"], "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    assert_eq!(
        stored_wallet(&w, DEMO_USER.0).await.as_deref(),
        Some("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")
    );

    // The same signed message again: its nonce is spent.
    let (status, body) = link(&w, &user, &text, &signature).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("error-wallet-link-expired"))
    );

    // Another wallet for the same account is refused, and so is the first wallet for another account.
    let other = message(&w, &user, &key(1)).await.to_text();
    let (status, body) = link(&w, &user, &other, &sign(&key(1), &other)).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::CONFLICT, Some("error-wallet-already-linked"))
    );
    let (admin, _) = w.login(DEMO_ADMIN.0, DEMO_ADMIN.1).await;
    let again = message(&w, &admin, &k).await.to_text();
    let (status, body) = link(&w, &admin, &again, &sign(&k, &again)).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::CONFLICT, Some("error-wallet-taken"))
    );
}

#[tokio::test]
async fn forged_foreign_and_expired_messages_are_refused_and_spend_their_nonce() {
    let w = world().await;
    let (user, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
    let before = stored_wallet(&w, DEMO_USER.0).await;
    let k = key(0);

    // Signed by another key than the address it names.
    let m = message(&w, &user, &k).await;
    let text = m.to_text();
    let (status, body) = link(&w, &user, &text, &sign(&key(1), &text)).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("error-wallet-link-failed"))
    );
    // That attempt spent the nonce: the right signature now comes too late.
    let (status, _) = link(&w, &user, &text, &sign(&k, &text)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // For another site, another chain, or a nonce never issued to this account.
    for edit in [
        |m: &mut Message| m.domain = "evil.example".into(),
        |m: &mut Message| m.chain_id = 1,
    ] {
        let mut m = message(&w, &user, &k).await;
        edit(&mut m);
        let text = m.to_text();
        let (status, body) = link(&w, &user, &text, &sign(&k, &text)).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (StatusCode::BAD_REQUEST, Some("error-wallet-link-failed")),
            "{text}"
        );
    }
    let invented = Message {
        nonce: "0123456789abcdef0123456789abcdef".into(),
        ..m.clone()
    }
    .to_text();
    let (status, _) = link(&w, &user, &invented, &sign(&k, &invented)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // An issued nonce past its 10 minutes.
    let m = message(&w, &user, &k).await;
    let nonce = m.nonce.clone();
    w.sql(move |c| {
        c.execute(
            "UPDATE wallet_nonces SET expires_at = 0 WHERE nonce = ?1",
            lvlx_backend::args![nonce],
        )
    })
    .await;
    let text = m.to_text();
    let (status, body) = link(&w, &user, &text, &sign(&k, &text)).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("error-wallet-link-expired"))
    );

    assert_eq!(
        stored_wallet(&w, DEMO_USER.0).await,
        before,
        "nothing was linked"
    );
    // Nonces are limited per account.
    let mut statuses = Vec::new();
    for _ in 0..6 {
        statuses.push(
            post(&w, &user, "/api/v1/wallet/nonce", json!({}), HOST)
                .await
                .0,
        );
    }
    assert_eq!(statuses.last(), Some(&StatusCode::TOO_MANY_REQUESTS));
    let anonymous = warp::test::request()
        .method("POST")
        .path("/api/v1/wallet/nonce")
        .reply(&routes(w.app.clone()))
        .await;
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
}

/// The outside review's attack: a phishing page has a victim's wallet sign an ordinary message
/// for the phishing site, with a nonce this server issued to the attacker; the attacker posts
/// it with `Host:` set to the phishing site. The public origins come from configuration, so it
/// is refused and the victim keeps their wallet (this answered 200 when Host was trusted).
#[tokio::test]
async fn a_message_signed_for_a_phishing_site_cannot_link_a_strangers_wallet() {
    let w = world().await;
    let (attacker, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
    w.sql(move |c| {
        c.execute(
            "UPDATE users SET wallet = NULL WHERE email = ?1",
            lvlx_backend::args![DEMO_USER.0],
        )
    })
    .await;
    let victim = key(2);
    const PHISHING: &str = "lvlx-rewards.example";
    for (domain, uri, host) in [
        (PHISHING, format!("https://{PHISHING}"), PHISHING),
        (PHISHING, format!("https://{PHISHING}"), HOST),
        // The right domain with the phishing site's URI is not this app's message either.
        (HOST, format!("https://{PHISHING}/claim"), HOST),
    ] {
        let m = Message {
            domain: domain.into(),
            uri,
            ..message(&w, &attacker, &victim).await
        };
        let text = m.to_text();
        let (status, body) = post(
            &w,
            &attacker,
            "/api/v1/wallet/link",
            json!({"message": text, "signature": sign(&victim, &text)}),
            host,
        )
        .await;
        assert_eq!(
            (status, body["code"].as_str()),
            (StatusCode::BAD_REQUEST, Some("error-wallet-link-failed")),
            "{text} with Host {host}"
        );
    }
    assert_eq!(stored_wallet(&w, DEMO_USER.0).await, None);
    // Configured origins decide: a server at https://app.example links a message for it, whatever
    // Host the request carries.
    let w = common::world_with(|c| c.public_origins = vec!["https://app.example".into()]).await;
    let (member, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
    w.sql(move |c| {
        c.execute(
            "UPDATE users SET wallet = NULL WHERE email = ?1",
            lvlx_backend::args![DEMO_USER.0],
        )
    })
    .await;
    let ours = Message {
        domain: "app.example".into(),
        uri: "https://app.example/dashboard".into(),
        ..message(&w, &member, &victim).await
    }
    .to_text();
    let (status, body) = post(
        &w,
        &member,
        "/api/v1/wallet/link",
        json!({"message": ours, "signature": sign(&victim, &ours)}),
        "10.9.9.9:1234",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test]
async fn purchases_kept_for_an_unlinked_wallet_follow_it_to_the_account() {
    let w = world().await;
    let (user, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
    w.sql(move |c| {
        c.execute(
            "UPDATE users SET wallet = NULL, lvlx_balance = '0' WHERE email = ?1",
            lvlx_backend::args![DEMO_USER.0],
        )
    })
    .await;
    let k = key(1);
    let wallet = address(&k);
    let stored = wallet.to_lowercase();
    w.app
        .store
        .write(move |c| {
            for (i, amount) in [(0, 5_000_000_000_000_000_000u128), (1, 7)] {
                ledger::record(
                    c,
                    "LVLX",
                    &ledger::Entry {
                        user: None,
                        wallet: Some(stored.clone()),
                        created_at: 1_790_000_000_000 + i,
                        token: "LVLX".into(),
                        amount,
                        tx_hash: format!("0x{:064x}", i + 1),
                        log_index: 0,
                    },
                )?;
            }
            Ok::<_, lvlx_backend::store::StoreError>(())
        })
        .await
        .unwrap();
    let text = message(&w, &user, &k).await.to_text();
    let (status, _) = link(&w, &user, &text, &sign(&k, &text)).await;
    assert_eq!(status, StatusCode::OK);
    let (balance, attached): (String, i64) = w
        .sql(move |c| {
            c.query_one("SELECT lvlx_balance, (SELECT COUNT(*) FROM ico_transactions t WHERE t.user_id = u.id) FROM users u WHERE email = ?1", lvlx_backend::args![DEMO_USER.0], |r| Ok((r.get(0)?, r.get(1)?)))
        }).await;
    assert_eq!((balance.as_str(), attached), ("5000000000000000007", 2));
}

/// A staging server on Amoy (`chain.chain_id = 80002`) links wallets for Amoy only: its nonce and
/// public settings name 80002, a message signed for Polygon's 137 is refused, one for 80002 links.
#[tokio::test]
async fn a_server_on_another_chain_links_for_that_chain_only() {
    use lvlx_backend::chain::deploy::{dev_section, Deployment};
    let section = lvlx_backend::config::Chain {
        chain_id: 80_002,
        ..dev_section("http://127.0.0.1:9", &Deployment::default())
    };
    let w = common::world_with(|c| c.chain = Some(section)).await;
    let settings = w.call("GET", "/api/v1/config", None, None).await.body;
    assert_eq!(settings["chain"]["chainId"], 80_002);
    assert_eq!(settings["chain"]["chainIdHex"], "0x13882");
    let (user, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
    let k = key(0);
    let m = message(&w, &user, &k).await;
    assert_eq!(m.chain_id, 80_002, "the nonce names the server's chain");
    let polygon = Message {
        chain_id: 137,
        ..m.clone()
    }
    .to_text();
    let (status, body) = link(&w, &user, &polygon, &sign(&k, &polygon)).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("error-wallet-link-failed"))
    );
    let m = message(&w, &user, &k).await;
    let text = m.to_text();
    let (status, body) = link(&w, &user, &text, &sign(&k, &text)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}
