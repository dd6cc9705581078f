//! The storage suite's backend-specific parts: kept answers on whichever backend the
//! run uses, and the SQLite → PostgreSQL copy when a PostgreSQL server is given
//! (LVLX_TEST_POSTGRES, as the test command sets on its second pass).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use bytes::Bytes;
use lvlx_backend::args;
use lvlx_backend::cli::accounts;
use lvlx_backend::store::copy::{self, CopyError};
use lvlx_backend::store::{self, users, Dialect, Store, StoreError};
use lvlx_tools::seed;

const PLAN: seed::Plan = seed::Plan {
    users: 150,
    ico_tx: 900,
    nft_stakes: 40,
    lvlx_stakes: 30,
    seed: 7,
    whales: true,
};

#[tokio::test]
async fn a_kept_answer_is_remade_when_its_tables_change_and_kept_when_others_do() {
    let dir = tempfile::tempdir().unwrap();
    let store = store::open_for_test(dir.path()).await;
    let made = Arc::new(AtomicUsize::new(0));
    let ask = || {
        let made = made.clone();
        store
            .snapshots
            .get_or("k".into(), &["ico_transactions"], move || async move {
                let n = made.fetch_add(1, Ordering::SeqCst) + 1;
                Ok::<_, StoreError>(Bytes::from(n.to_string()))
            })
    };
    assert_eq!(ask().await.unwrap(), "1");
    assert_eq!(ask().await.unwrap(), "1", "nothing written");
    accounts::demo(&store).await.unwrap();
    assert_eq!(ask().await.unwrap(), "1", "other tables written");
    let write = |sql: &'static str| store.write(move |c| c.batch(sql));
    write(
        "INSERT INTO ico_transactions (wallet, created_at, token, amount, tx_hash, log_index)
         VALUES ('0xabc', 1, 'LVLX', '1', '0x01', 0)",
    )
    .await
    .unwrap();
    assert_eq!(ask().await.unwrap(), "2", "an insert into its table");
    write("UPDATE ico_transactions SET amount = '2'")
        .await
        .unwrap();
    assert_eq!(ask().await.unwrap(), "3", "an update");
    write("DELETE FROM ico_transactions").await.unwrap();
    assert_eq!(ask().await.unwrap(), "4", "a delete");
    assert_eq!(ask().await.unwrap(), "4");
    let unversioned = store
        .snapshots
        .get_or("s".into(), &["sessions"], || async {
            Ok::<_, StoreError>(Bytes::new())
        })
        .await;
    assert!(
        unversioned.is_err(),
        "a table without a version is an error, not a forever-kept answer"
    );
}

/// A SQLite store with the demo accounts and a seeded ledger, network and stakes.
async fn seeded_sqlite(dir: &std::path::Path) -> Store {
    let source = Store::open(dir).unwrap();
    accounts::demo(&source).await.unwrap();
    source
        .write(|c| seed::run(c, &PLAN, "LVLX", "not-a-real-hash"))
        .await
        .unwrap();
    source
}

#[tokio::test]
async fn a_sqlite_database_copies_into_postgresql_with_every_row_and_sum() {
    let dir = tempfile::tempdir().unwrap();
    let target = store::open_for_test(&dir.path().join("target")).await;
    if target.dialect() != Dialect::Postgres {
        eprintln!("LVLX_TEST_POSTGRES unset: the copy needs a PostgreSQL server (the test command's second pass gives one)");
        return;
    }
    let source = seeded_sqlite(&dir.path().join("source")).await;
    let tables = copy::copy(&source, &target).await.unwrap();
    let rows = |name: &str| tables.iter().find(|t| t.name == name).unwrap().rows;
    assert_eq!(
        rows("users"),
        152,
        "the seed's members and the two demo accounts"
    );
    assert_eq!(rows("ico_transactions"), 900);
    assert!(rows("commissions") > 0 && rows("rank_bonuses") > 0);
    let money = tables
        .iter()
        .find(|t| t.name == "ico_transactions")
        .unwrap()
        .sums[0]
        .1;
    assert!(money > 0);

    // The copy answers as the original does, and new rows are numbered after the copied ones.
    assert_eq!(
        source.read(users::summary).await.unwrap(),
        target.read(users::summary).await.unwrap()
    );
    let next = target
        .write(|c| {
            c.query_one(
                "INSERT INTO users (email, names, lastnames, password_hash, referral_code, created_at)
                 VALUES ('new@copy.test', 'New', 'Member', 'x', 'ffffffffffffffffffffffffffffffff', 1) RETURNING id",
                args![],
                |r| r.get::<i64>(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(next, 153);

    // A second copy into the same database is refused, and changes nothing.
    match copy::copy(&source, &target).await {
        Err(CopyError::NotEmpty("users")) => {}
        other => panic!("expected a refusal, got {other:?}"),
    }
    // And the wrong way round is refused.
    assert!(matches!(
        copy::copy(&target, &source).await,
        Err(CopyError::Backends)
    ));
}

/// Many requests asking for kept answers at once, on two runtime threads: none may wait on a
/// lock held by a thread that waits for the runtime (on PostgreSQL that stalled every request).
/// The runtime runs on a thread of its own, so a stall fails the test instead of hanging it.
#[test]
fn kept_answers_asked_at_once_never_stall_the_runtime() {
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let dir = tempfile::tempdir().unwrap();
            let store = store::open_for_test(dir.path()).await;
            let asks = (0..64).map(|i| {
                let store = store.clone();
                tokio::spawn(async move {
                    for _ in 0..20 {
                        store
                            .snapshots
                            .get_or(
                                format!("k{}", i % 4),
                                &["users", "ico_transactions"],
                                || async { Ok::<_, StoreError>(Bytes::from_static(b"answer")) },
                            )
                            .await
                            .unwrap();
                    }
                })
            });
            for ask in futures_util::future::join_all(asks).await {
                ask.unwrap();
            }
        });
        let _ = done.send(());
    });
    assert!(
        finished
            .recv_timeout(std::time::Duration::from_secs(30))
            .is_ok(),
        "1,280 kept answers asked at once did not finish in 30 s: the runtime stalled"
    );
}

/// A member's network figures are one read (one round trip on PostgreSQL): the highest payment
/// to its wallet in any letter case (compared as numbers, not as text: 9 < 12 LVLX), its first
/// node, and the ranks with the ones credited to it.
#[tokio::test]
async fn a_members_figures_and_ranks_read_at_once() {
    use lvlx_backend::store::nodes::{self, Node};
    use lvlx_backend::store::referrals::{self, Figures};
    use lvlx_backend::store::{claims, ranks};
    use lvlx_backend::user::UserId;
    const LVLX: u128 = 10u128.pow(18);
    let dir = tempfile::tempdir().unwrap();
    let store = store::open_for_test(dir.path()).await;
    accounts::demo(&store).await.unwrap();
    let (figures, ranks, achieved) = store
        .write(|c| {
            let user = users::by_email(c, "demo@lvlx.local")?.unwrap().id;
            let before = referrals::figures(c, user)?;
            assert_eq!(
                before,
                Figures {
                    volume: 0,
                    rewards: 0,
                    paid_out: 0,
                    node: None
                },
                "no wallet, no node, nothing paid"
            );
            let wallet = "0x00000000000000000000000000000000000000aB";
            users::set_wallet(c, user, wallet)?;
            c.execute(
                "UPDATE users SET network_usdt = '7000000000', add_rewards = ?1 WHERE id = ?2",
                args![(30 * LVLX).to_string(), user.0],
            )?;
            for (i, cumulative) in [9, 12, 10].into_iter().enumerate() {
                claims::record_payment(
                    c,
                    &claims::Payment {
                        tx_hash: &format!("0x{i:064x}"),
                        log_index: 0,
                        wallet: &wallet.to_lowercase(),
                        amount: LVLX,
                        cumulative: cumulative * LVLX,
                        at: 1_000 + i as i64,
                        block: i as i64 + 1,
                    },
                )?;
            }
            // Another wallet's payment is not this member's.
            claims::record_payment(
                c,
                &claims::Payment {
                    tx_hash: "0xff",
                    log_index: 0,
                    wallet: "0x01",
                    amount: LVLX,
                    cumulative: 99 * LVLX,
                    at: 5,
                    block: 4,
                },
            )?;
            nodes::record(
                c,
                &Node {
                    wallet: wallet.into(),
                    user: Some(user),
                    usdt_paid: 50_000_000,
                    block: 3,
                    log_index: 1,
                    created_at: 42,
                    tx_hash: "0xaa".into(),
                },
            )?;
            c.execute(
                "INSERT INTO rank_bonuses (user_id, rank_id, name, amount, volume, created_at)
                 VALUES (?1, 2, 'Silver', '1', '1', 7)",
                args![user.0],
            )?;
            let (ranks, achieved) = ranks::ranks_of(c, user)?;
            // Nobody else's credit counts.
            let (_, none) = ranks::ranks_of(c, UserId(user.0 + 1_000))?;
            assert!(none.is_empty());
            Ok::<_, StoreError>((referrals::figures(c, user)?, ranks, achieved))
        })
        .await
        .unwrap();
    assert_eq!(
        figures,
        Figures {
            volume: 7_000_000_000,
            rewards: 30 * LVLX,
            paid_out: 12 * LVLX,
            node: Some((42, 50_000_000)),
        }
    );
    assert_eq!(figures.claimable(), 18 * LVLX);
    assert_eq!(achieved, [2]);
    assert_eq!(
        ranks.iter().map(|r| r.id).collect::<Vec<_>>(),
        (1..=ranks.len() as u32).collect::<Vec<_>>(),
        "every rank once, in order"
    );
}

/// The copy's table list is the schema's: a table a migration adds and the list leaves out would
/// silently stay behind in a move to PostgreSQL.
#[tokio::test]
async fn the_copy_moves_every_table_the_migrations_make() {
    let dir = tempfile::tempdir().unwrap();
    let store = store::open_for_test(dir.path()).await;
    let mut schema: Vec<String> = store
        .read(|c| {
            let sql = match c.dialect() {
                Dialect::Sqlite => {
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                }
                // The migration runner's own bookkeeping is not the app's.
                Dialect::Postgres => {
                    "SELECT table_name::text FROM information_schema.tables
                     WHERE table_schema = current_schema() AND table_name <> 'schema_migrations'"
                }
            };
            c.query_all(sql, args![], |r| r.get::<String>(0))
        })
        .await
        .unwrap();
    schema.sort();
    let mut copied: Vec<String> = copy::tables()
        .chain(copy::NOT_COPIED.iter().copied())
        .map(str::to_string)
        .collect();
    copied.sort();
    assert_eq!(
        copied, schema,
        "store::copy's TABLES (with NOT_COPIED) and the schema differ"
    );
}

/// A writer frozen while it holds the write lock outside a transaction (a SIGSTOP between
/// statements that commit one by one) is ended by the database within a minute: another
/// instance's write waits for it no longer, and the frozen one, when it wakes, finds its session
/// gone and writes again on a new one.
#[tokio::test]
async fn a_writer_frozen_outside_a_transaction_holds_the_write_lock_a_minute_at_most() {
    let Some(url) = store::test_database().await else {
        eprintln!("LVLX_TEST_POSTGRES unset: the write lock is PostgreSQL's");
        return;
    };
    let a = Store::open_postgres(&url).await.unwrap();
    let b = Store::open_postgres(&url).await.unwrap();
    let (holding, held) = tokio::sync::oneshot::channel();
    let frozen = tokio::spawn(async move {
        let woke = a
            .write(move |c| {
                let limit =
                    c.query_one("SHOW idle_session_timeout", args![], |r| r.get::<String>(0))?;
                holding.send(limit).unwrap();
                std::thread::sleep(std::time::Duration::from_secs(75));
                c.batch("SELECT 1")
            })
            .await;
        (a, woke)
    });
    assert_eq!(
        held.await.unwrap(),
        "1min",
        "the lock's limit, while it is held"
    );
    let waiting = std::time::Instant::now();
    tokio::time::timeout(
        std::time::Duration::from_secs(70),
        b.write(|c| c.batch("SELECT 1")),
    )
    .await
    .expect("B's write waits for the frozen writer a minute at most")
    .unwrap();
    let waited = waiting.elapsed();
    assert!(
        waited > std::time::Duration::from_secs(50),
        "B's write waited for A's lock ({waited:?})"
    );
    let (a, woke) = frozen.await.unwrap();
    assert!(woke.is_err(), "the frozen writer's session was ended");
    a.write(|c| c.batch("SELECT 1")).await.unwrap();

    // A writer whose session the database ended writes again at once, on a new one.
    let pid = |c: store::Conn| {
        c.query_one("SELECT pg_backend_pid()::bigint", args![], |r| {
            r.get::<i64>(0)
        })
    };
    let before = b.write(pid).await.unwrap();
    b.read(move |c| {
        c.query_one(
            "SELECT pg_terminate_backend((?1::bigint)::int, 5000)::int",
            args![before],
            |r| r.get::<i64>(0),
        )
    })
    .await
    .unwrap();
    let after = b
        .write(pid)
        .await
        .expect("a write right after its session ended");
    assert_ne!(after, before, "a new session");
}
