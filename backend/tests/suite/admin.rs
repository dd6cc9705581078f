//! Admin statistics through the HTTP API: permissions on every admin call, the shapes of
//! docs/product/api.md#statistics, the Arrow row streams read back by the core, the seed, and the
//! ledger's bookkeeping.

use crate::common;

use common::{world, World};
use lvlx_backend::cli::accounts::{DEMO_ADMIN, DEMO_USER};
use lvlx_backend::error::Error;
use lvlx_backend::store::sql::Cell;
use lvlx_backend::store::{ledger, users, Dialect};
use lvlx_core::admin::stakes::{EntryTable, Kind, StakerTable};
use lvlx_core::admin::{ico::IcoTable, users::UserTable, Query};
use lvlx_tools::seed;
use serde_json::Value;
use warp::http::StatusCode;

/// Every GET an admin may make and nobody else: the served document's GET operations that
/// answer 403 (the `Admin` set), under `/api/v1`, their parameters filled (`id`: `user`'s).
fn admin_gets(user: i64) -> Vec<String> {
    let doc: Value = serde_json::from_str(lvlx_backend::api::openapi::document()).unwrap();
    let mut paths = Vec::new();
    for (path, operations) in doc["paths"].as_object().unwrap() {
        let Some(get) = operations.get("get") else {
            continue;
        };
        if get["responses"].get("403").is_none() {
            continue;
        }
        let mut path = format!("/api/v1{}", path.replace("{id}", &user.to_string()));
        let query = get["parameters"].as_array().into_iter().flatten();
        for p in query.filter(|p| p["in"] == "query" && p["required"] == true) {
            path.push_str(&format!("?{}=1", p["name"].as_str().unwrap()));
        }
        paths.push(path);
    }
    paths
}

const SMALL: seed::Plan = seed::Plan {
    users: 120,
    ico_tx: 1500,
    nft_stakes: 80,
    lvlx_stakes: 60,
    seed: 42,
    whales: true,
};

async fn seeded(plan: seed::Plan) -> World {
    let w = world().await;
    w.app
        .store
        .write(move |c| seed::run(c, &plan, "LVLX", "not-a-real-hash"))
        .await
        .unwrap();
    w
}

#[tokio::test]
async fn every_admin_call_refuses_anonymous_and_user_tokens() {
    let w = world().await;
    let (user, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
    let (admin, _) = w.login(DEMO_ADMIN.0, DEMO_ADMIN.1).await;
    let paths = admin_gets(w.user_id(DEMO_USER.0).await);
    // The statistics, the rows, the audit, the books, the owners' queue, the indexer, content,
    // ranks, nodes, the reserve, an account's identity, the admin's session.
    assert!(paths.len() >= 20, "{paths:?}");
    for path in &paths {
        assert_eq!(
            w.call("GET", path, None, None).await.status,
            StatusCode::UNAUTHORIZED,
            "{path}"
        );
        let as_user = w.call("GET", path, Some(&user), None).await;
        assert_eq!(as_user.status, StatusCode::FORBIDDEN, "{path}");
        assert_eq!(as_user.body["code"], "error-forbidden", "{path}");
        // Past the guard: read, or (without a chain here) the chain is not available.
        let as_admin = w.call("GET", path, Some(&admin), None).await.status;
        assert!(
            [StatusCode::OK, StatusCode::SERVICE_UNAVAILABLE].contains(&as_admin),
            "{path}: {as_admin}"
        );
    }
}

#[tokio::test]
async fn an_empty_ledger_answers_today_for_both_dates() {
    let w = world().await;
    let (admin, _) = w.login(DEMO_ADMIN.0, DEMO_ADMIN.1).await;
    let before = lvlx_backend::now_ms();
    let r = w
        .call("GET", "/api/v1/statistics-ico", Some(&admin), None)
        .await;
    assert_eq!(r.body["transactions"], Value::Array(vec![]));
    assert_eq!(r.body["General"]["totalTransactions"], 0);
    assert_eq!(r.body["General"]["totalLVLX"], "0");
    let (init, last) = (
        r.body["initDate"].as_i64().unwrap(),
        r.body["lastDate"].as_i64().unwrap(),
    );
    assert!(init >= before && last == init, "{init} {last}");
}

#[tokio::test]
async fn statistics_match_the_rows_the_core_reads() {
    let w = seeded(SMALL).await;
    let (admin, _) = w.login(DEMO_ADMIN.0, DEMO_ADMIN.1).await;

    let stats = w
        .call("GET", "/api/v1/statistics-ico", Some(&admin), None)
        .await
        .body;
    let rows = w
        .call("GET", "/api/v1/statistics-ico/rows", Some(&admin), None)
        .await;
    assert_eq!(
        rows.headers["content-type"],
        "application/vnd.apache.arrow.stream"
    );
    assert_eq!(rows.headers["cache-control"], "no-store");
    let mut table = IcoTable::load(&rows.bytes, "LVLX").unwrap();
    assert_eq!(table.len(), 1500);
    let mut totals = table.query(&Query::default()).unwrap().to_json();
    totals.as_object_mut().unwrap().remove("totalUsers");
    assert_eq!(totals, stats["General"]);
    // docs/product/api.md#calls: newest first, and the range is the first and last operation.
    let newest: Vec<i64> = stats["transactions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["createdAt"].as_i64().unwrap())
        .collect();
    assert_eq!(newest.len(), 100);
    assert!(newest.windows(2).all(|p| p[0] >= p[1]));
    assert_eq!(newest[0], stats["lastDate"].as_i64().unwrap());
    let first = table.page(0, 1)[0].created_at;
    assert_eq!(first, stats["initDate"].as_i64().unwrap());
    // A page's wallets and transactions, by the ids the stream carries: exactly those rows.
    let page = table.page(40, 10);
    let ids: Vec<String> = page.iter().map(|r| r.id.to_string()).collect();
    let trails = w
        .call(
            "GET",
            &format!("/api/v1/statistics-ico/trails?ids={}", ids.join(",")),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(trails.status, StatusCode::OK);
    let trails = trails.body.as_array().unwrap().clone();
    let mut want: Vec<u32> = page.iter().map(|r| r.id).collect();
    want.sort();
    let got: Vec<u32> = trails
        .iter()
        .map(|t| t["id"].as_u64().unwrap() as u32)
        .collect();
    assert_eq!(got, want);
    assert!(trails.iter().all(|t| {
        let hash = t["txHash"].as_str().unwrap();
        hash.len() == 66 && hash.starts_with("0x")
    }));
    let many = (1..=101)
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(",");
    for bad in ["abc", "1,,2", "-1", many.as_str()] {
        let r = w
            .call(
                "GET",
                &format!("/api/v1/statistics-ico/trails?ids={bad}"),
                Some(&admin),
                None,
            )
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{bad}");
    }

    let stats = w
        .call("GET", "/api/v1/statistics-users", Some(&admin), None)
        .await
        .body;
    let rows = w
        .call("GET", "/api/v1/statistics-users/rows", Some(&admin), None)
        .await;
    let mut users = UserTable::load(&rows.bytes).unwrap();
    // 120 seeded members and the demo user; the admin is staff, not a member.
    assert_eq!(users.len(), 121);
    assert_eq!(stats["General"]["totalUsers"], 121);
    let summary = serde_json::to_value(users.query(&Query::default()).unwrap()).unwrap();
    assert_eq!(summary, stats["General"]);
    assert!(stats["result"]
        .as_array()
        .unwrap()
        .iter()
        .all(|u| u["email"] != DEMO_ADMIN.0));
}

#[tokio::test]
async fn staking_statistics_match_the_entries_the_core_reads() {
    let w = seeded(SMALL).await;
    // Interest accrues by the second and is computed at read time, so two reads a second apart
    // differ. Positions still running are made to start a millisecond before their release: they
    // have earned nothing until it, and everything after, so every read below sees one state.
    w.sql(move |c| {
        c.execute(
            "UPDATE stake_positions SET start_date = release_date - 1 WHERE release_date > ?1",
            lvlx_backend::args![lvlx_backend::now_ms()],
        )
    })
    .await;
    let (admin, _) = w.login(DEMO_ADMIN.0, DEMO_ADMIN.1).await;
    for (path, kind, list) in [
        ("statistics-nftstaking", Kind::Nft, "stakingNFTs"),
        ("statistics-lvlxstaking", Kind::Lvlx, "stakingLVLXs"),
    ] {
        let stats = w
            .call(
                "GET",
                &format!("/api/v1/{path}?limit=5"),
                Some(&admin),
                None,
            )
            .await
            .body;
        let rows = w
            .call("GET", &format!("/api/v1/{path}/rows"), Some(&admin), None)
            .await;
        let now = lvlx_backend::now_ms();
        let mut entries = EntryTable::load(&rows.bytes, kind, now).unwrap();
        assert_eq!(entries.len(), if kind == Kind::Nft { 80 } else { 60 });
        let general = entries.query(&Query::default()).unwrap().to_json(kind);
        assert_eq!(general, stats["General"], "{path}");
        // docs/product/api.md#calls: the range is the earliest and latest withdraw date.
        let page = entries.page(0, entries.len());
        assert_eq!(stats["initDate"], page[0].withdraw_date);
        assert_eq!(stats["lastDate"], page[page.len() - 1].withdraw_date);

        // The first five stakers, each with every one of their entries.
        let result = stats["result"].as_array().unwrap();
        assert_eq!(result.len(), 5);
        let stakers = StakerTable::load(&rows.bytes, kind, now).unwrap();
        for (record, row) in result.iter().zip(stakers.page(0, 5)) {
            assert_eq!(record["email"], row.email);
            assert_eq!(record[list].as_array().unwrap().len() as u64, row.entries);
            let sums = &record[if kind == Kind::Nft {
                "nftStaking"
            } else {
                "lvlxStaking"
            }];
            assert_eq!(sums["total"], row.total);
            assert_eq!(sums["totalUSDT"], row.total_usdt);
            if kind == Kind::Nft {
                let by_id: u64 = (1..=11)
                    .map(|i| sums[format!("userNFTsById{i}")].as_u64().unwrap())
                    .sum();
                assert_eq!(by_id, sums["totalNFT"].as_u64().unwrap());
                assert_eq!(
                    record[list][0]["NFTId"]
                        .as_u64()
                        .map(|id| (1..=11).contains(&id)),
                    Some(true)
                );
            }
        }
    }
}

#[tokio::test]
async fn staking_statistics_with_no_stakes_answer_today_and_corrupt_rows_answer_500() {
    let w = world().await;
    let (admin, _) = w.login(DEMO_ADMIN.0, DEMO_ADMIN.1).await;
    let before = lvlx_backend::now_ms();
    let r = w
        .call("GET", "/api/v1/statistics-nftstaking", Some(&admin), None)
        .await;
    assert_eq!(r.body["result"], Value::Array(vec![]));
    assert_eq!(r.body["General"]["totalNFTInStake"], 0);
    let init = r.body["initDate"].as_i64().unwrap();
    assert!(init >= before && r.body["lastDate"] == init);

    // A stored amount that is not a number is the server's fault: 500, which the screen shows
    // as the 'TimeOut Connections!' notice (docs/product/api.md#errors).
    w.sql(move |c| {
        c.batch(
            "INSERT INTO stake_positions (pool, position, user_id, wallet, kind, amount, reward, start_date, release_date, tx_hash, log_index)
             SELECT 'nft', 1, id, '0x0', 3, '1', 'twelve', 0, 1, '0x1', 0 FROM users LIMIT 1",
        )
    }).await;
    let r = w
        .call("GET", "/api/v1/statistics-nftstaking", Some(&admin), None)
        .await;
    assert_eq!(r.status, StatusCode::INTERNAL_SERVER_ERROR);
}

#[tokio::test]
async fn limits_are_capped_and_unknown_parameters_refused() {
    let w = seeded(SMALL).await;
    let (admin, _) = w.login(DEMO_ADMIN.0, DEMO_ADMIN.1).await;
    let r = w
        .call(
            "GET",
            "/api/v1/statistics-ico?limit=5000",
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(r.body["transactions"].as_array().unwrap().len(), 1000);
    let r = w
        .call("GET", "/api/v1/statistics-ico?limit=3", Some(&admin), None)
        .await;
    assert_eq!(r.body["transactions"].as_array().unwrap().len(), 3);
    let r = w
        .call("GET", "/api/v1/statistics-ico?drop=1", Some(&admin), None)
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
}

/// Everything a seed wrote, as text, to compare two runs.
async fn dump(w: &World) -> String {
    w.sql(move |c| {
            let mut out = String::new();
            for sql in [
                "SELECT email, names, lastnames, referrer_id, wallet, lvlx_balance, add_rewards, rank, created_at FROM users WHERE email NOT LIKE '%@lvlx.local' ORDER BY id",
                "SELECT user_id, created_at, token, amount, tx_hash FROM ico_transactions ORDER BY id",
                "SELECT pool, position, user_id, wallet, kind, amount, reward, start_date, release_date, withdrawn FROM stake_positions ORDER BY pool, position",
            ] {
                c.query_each(sql, lvlx_backend::args![], |r| {
                    for i in 0..r.len() {
                        match r.cell(i)? {
                            Cell::Text(t) => out.push_str(t),
                            other => out.push_str(&format!("{other:?}")),
                        }
                        out.push('|');
                    }
                    out.push('\n');
                    Ok(())
                })?;
            }
            Ok(out)
        }).await
}

#[tokio::test]
async fn the_seed_is_deterministic_realistic_and_keeps_its_books() {
    // Determinism on a small plan (each seeding of SMALL takes ~40 s on PostgreSQL, a statement
    // per row); what the rows look like on SMALL.
    let tiny = seed::Plan {
        users: 30,
        ico_tx: 200,
        nft_stakes: 10,
        lvlx_stakes: 10,
        seed: 42,
        whales: true,
    };
    let (one, two) = (seeded(tiny).await, seeded(tiny).await);
    let text = dump(&one).await;
    assert!(text == dump(&two).await, "same seed, same rows");
    let other = seeded(seed::Plan { seed: 43, ..tiny }).await;
    assert!(text != dump(&other).await, "another seed, other rows");
    let a = seeded(SMALL).await;
    let text = dump(&a).await;
    // Accents in names, three languages, members without wallets, huge amounts.
    assert!(text.contains('ã') || text.contains('ç') || text.contains('ñ') || text.contains('é'));
    let facts = a
        .sql(move |c| {
            let q = |sql: &str| c.query_one(sql, lvlx_backend::args![], |r| r.get::<i64>(0));
            Ok((
                q("SELECT COUNT(DISTINCT language) FROM users WHERE role = '1'")?,
                q("SELECT COUNT(*) FROM users WHERE wallet IS NULL AND role = '1'")?,
                q("SELECT COUNT(*) FROM ico_transactions WHERE length(amount) >= 28")?,
                q("SELECT COUNT(*) FROM users WHERE referrer_id IS NOT NULL")?,
                q("SELECT (MAX(created_at) - MIN(created_at)) / 86400000 FROM ico_transactions")?,
            ))
        })
        .await;
    assert_eq!(facts.0, 3);
    assert!(facts.1 > 0, "some members have no wallet");
    assert!(facts.2 > 0, "a few amounts above 10^9 LVLX");
    assert!(facts.3 > 100, "referral trees");
    assert!(facts.4 > 3 * 365, "spread over years: {} days", facts.4);
    // The rollup equals the ledger, and each balance equals its member's entries.
    let general = a
        .app
        .store
        .read(|c| ledger::general(c, "LVLX"))
        .await
        .unwrap();
    a.sql(move |c| {
        let mut lvlx = 0u128;
        c.query_each(
            "SELECT token, amount FROM ico_transactions",
            lvlx_backend::args![],
            |r| {
                if r.get::<String>(0)? == "LVLX" {
                    lvlx += r.get::<String>(1)?.parse::<u128>().unwrap();
                }
                Ok(())
            },
        )?;
        assert_eq!(general.total_lvlx, lvlx);
        assert_eq!(general.total_transactions, 1500);
        Ok(())
    })
    .await;
    // A second seed on the same data changes nothing.
    let again = a
        .app
        .store
        .write(|c| seed::run(c, &SMALL, "LVLX", "x"))
        .await
        .unwrap();
    assert!(again.skipped);
}

#[tokio::test]
async fn a_ledger_entry_is_recorded_once_and_moves_the_balance() {
    let w = world().await;
    let user = w
        .app
        .store
        .write(|c| {
            let user = users::by_email(c, DEMO_USER.0)?.unwrap().id;
            let entry = ledger::Entry {
                user: Some(user),
                wallet: None,
                created_at: 1_700_000_000_000,
                token: "LVLX".into(),
                amount: 25 * 10u128.pow(17),
                tx_hash: "0xabc".into(),
                log_index: 3,
            };
            assert!(ledger::record(c, "LVLX", &entry)?);
            assert!(
                !ledger::record(c, "LVLX", &entry)?,
                "the same event twice is stored once"
            );
            let retire = ledger::Entry {
                token: "USDT".into(),
                amount: 100_000,
                log_index: 4,
                ..entry
            };
            assert!(ledger::record(c, "LVLX", &retire)?);
            let general = ledger::general(c, "LVLX")?;
            assert_eq!(
                (
                    general.total_transactions,
                    general.total_buy_transactions,
                    general.usdt_retired
                ),
                (2, 1, 100_000)
            );
            Ok::<_, Error>(user)
        })
        .await
        .unwrap();
    let balance: String = w
        .sql(move |c| {
            c.query_one(
                "SELECT lvlx_balance FROM users WHERE id = ?1",
                lvlx_backend::args![user.0],
                |r| r.get(0),
            )
        })
        .await;
    // 2.5 LVLX bought, 0.1 USDT (= 1 LVLX) retired.
    assert_eq!(balance, "1500000000000000000");
}

fn sealed(secret: &str) -> Value {
    serde_json::json!({ "key": lvlx_core::seal::seal_for_transport(secret, "lvlx-secret-key-transport", &[9; 12]) })
}

async fn audit_rows(w: &World) -> Vec<String> {
    w.sql(move |c| {
        c.query_all(
            "SELECT outcome FROM secret_audit ORDER BY id",
            lvlx_backend::args![],
            |r| r.get(0),
        )
    })
    .await
}

#[tokio::test]
async fn the_secret_key_tool_reveals_only_to_the_right_secret_three_times_in_five_minutes() {
    use lvlx_backend::cli::accounts::DEMO_SECRET;
    let w = world().await;
    let (user, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
    let (admin, _) = w.login(DEMO_ADMIN.0, DEMO_ADMIN.1).await;
    // Not for users, nor anonymous.
    let r = w
        .call(
            "POST",
            "/api/v1/key",
            Some(&user),
            Some(sealed(DEMO_SECRET.0)),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert_eq!(
        w.call("POST", "/api/v1/key", None, Some(sealed(DEMO_SECRET.0)))
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
    assert!(
        audit_rows(&w).await.is_empty(),
        "refused callers never reach the tool"
    );

    let r = w
        .call(
            "POST",
            "/api/v1/key",
            Some(&admin),
            Some(sealed(DEMO_SECRET.0)),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.body["privateKey"], DEMO_SECRET.1);
    assert_eq!(r.headers["cache-control"], "no-store");
    let r = w
        .call(
            "POST",
            "/api/v1/key",
            Some(&admin),
            Some(sealed("wrong secret")),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert_eq!(r.body["code"], "error-secret-wrong");
    // Sealed with another pass key (or not sealed at all): a failed attempt too.
    let forged = serde_json::json!({"key": lvlx_core::seal::seal_for_transport(DEMO_SECRET.0, "other", &[1; 12])});
    assert_eq!(
        w.call("POST", "/api/v1/key", Some(&admin), Some(forged))
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    // The fourth attempt in five minutes is refused, even with the right secret.
    let r = w
        .call(
            "POST",
            "/api/v1/key",
            Some(&admin),
            Some(sealed(DEMO_SECRET.0)),
        )
        .await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = r.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((290..=300).contains(&retry), "{retry}");
    assert_eq!(
        audit_rows(&w).await,
        ["revealed", "wrong-secret", "wrong-secret", "rate-limited"]
    );
    // The audit is append-only, and the key is not in the database in clear.
    let (update, delete, clear) = w
        .sql(move |c| {
            let update = c
                .execute(
                    "UPDATE secret_audit SET outcome = 'revealed'",
                    lvlx_backend::args![],
                )
                .is_err();
            let delete = c
                .execute("DELETE FROM secret_audit", lvlx_backend::args![])
                .is_err();
            let blobs: Vec<Vec<u8>> = c.query_all(
                "SELECT ciphertext FROM sealed_secrets",
                lvlx_backend::args![],
                |r| r.get(0),
            )?;
            let clear = blobs.iter().any(|b| {
                b.windows(10)
                    .any(|w| DEMO_SECRET.1.as_bytes().windows(10).any(|k| k == w))
            });
            Ok((update, delete, clear))
        })
        .await;
    assert!(update && delete, "audit rows cannot be changed or removed");
    assert!(!clear);
    if w.app.store.dialect() == Dialect::Sqlite {
        // The file itself (PostgreSQL's files are the server's: the column check above holds).
        let db_file = std::fs::read(w.dir.path().join("data/lvlx.sqlite3")).unwrap();
        assert!(!db_file
            .windows(64)
            .any(|win| win == &DEMO_SECRET.1.as_bytes()[2..]));
    }
}

#[tokio::test]
async fn a_secret_set_again_replaces_the_old_one() {
    let w = world().await;
    let (admin, _) = w.login(DEMO_ADMIN.0, DEMO_ADMIN.1).await;
    w.app
        .store
        .write(|c| lvlx_backend::secret::provision(c, "new secret", "0xnew"))
        .await
        .unwrap();
    let r = w
        .call(
            "POST",
            "/api/v1/key",
            Some(&admin),
            Some(sealed("new secret")),
        )
        .await;
    assert_eq!(r.body["privateKey"], "0xnew");
    let r = w
        .call(
            "POST",
            "/api/v1/key",
            Some(&admin),
            Some(sealed(lvlx_backend::cli::accounts::DEMO_SECRET.0)),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_attempts_cannot_slip_past_the_limit() {
    let w = world().await;
    let (admin, _) = w.login(DEMO_ADMIN.0, DEMO_ADMIN.1).await;
    let attempt = || w.call("POST", "/api/v1/key", Some(&admin), Some(sealed("guess")));
    let replies = tokio::join!(
        attempt(),
        attempt(),
        attempt(),
        attempt(),
        attempt(),
        attempt()
    );
    let statuses = [
        replies.0.status,
        replies.1.status,
        replies.2.status,
        replies.3.status,
        replies.4.status,
        replies.5.status,
    ];
    assert_eq!(
        statuses
            .iter()
            .filter(|s| **s == StatusCode::FORBIDDEN)
            .count(),
        3,
        "{statuses:?}"
    );
    assert_eq!(
        statuses
            .iter()
            .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
            .count(),
        3,
        "{statuses:?}"
    );
    let audit = audit_rows(&w).await;
    assert_eq!(audit.iter().filter(|o| *o == "wrong-secret").count(), 3);
}
