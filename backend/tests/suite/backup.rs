//! Backups that restore: `lvlx db backup` copies the SQLite database while the
//! server writes, and `lvlx db restore` puts a copy back. Three backups are taken under a
//! steady stream of purchases (each one a transaction that adds a ledger row, the day's total
//! and the buyer's balance); each restores into a new data folder, passes SQLite's integrity
//! check, and its books agree with themselves to the base unit (the balance grew by exactly
//! what the ledger and the day totals hold): a copy torn between two writes would not.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use lvlx_backend::store::backup::{self, BackupError, DataLock};
use lvlx_backend::store::copy::{books, Table};
use lvlx_backend::store::ledger::{self, Entry};
use lvlx_backend::store::{users, Conn, Store, StoreError};

const LVLX: u128 = 1_000_000_000_000_000_000;

fn sum(tables: &[Table], table: &str, column: &str) -> u128 {
    tables
        .iter()
        .find(|t| t.name == table)
        .and_then(|t| t.sums.iter().find(|(c, _)| *c == column))
        .map(|(_, s)| *s)
        .unwrap()
}

fn rows(tables: &[Table], table: &str) -> u64 {
    tables.iter().find(|t| t.name == table).unwrap().rows
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn backups_taken_while_the_server_writes_restore_with_exact_books() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let store = Store::open(&data).unwrap();
    lvlx_backend::cli::accounts::demo(&store).await.unwrap();
    let buyer = store
        .read(|c| users::by_email(c, "demo@lvlx.local"))
        .await
        .unwrap()
        .unwrap()
        .id;
    let before = store.read(books).await.unwrap();
    let balance0 = store.read(move |c| users::balance(c, buyer)).await.unwrap();

    // The server's writes: a purchase a transaction, as fast as the store takes them.
    let writing = Arc::new(AtomicBool::new(true));
    let written = Arc::new(AtomicU64::new(0));
    let writer = {
        let (store, writing, written) = (store.clone(), writing.clone(), written.clone());
        tokio::spawn(async move {
            let mut n: u64 = 0;
            while writing.load(Ordering::Relaxed) {
                let entry = Entry {
                    user: Some(buyer),
                    wallet: None,
                    created_at: 1_700_000_000_000 + n as i64 * 3_600_000,
                    token: "LVLX".into(),
                    amount: (n as u128 % 97 + 1) * LVLX + n as u128,
                    tx_hash: format!("0x{n:064x}"),
                    log_index: 0,
                };
                store
                    .write(move |c: Conn| c.transaction(|tx| ledger::record(tx, "LVLX", &entry)))
                    .await
                    .map_err(|e: StoreError| e)
                    .unwrap();
                n += 1;
                written.store(n, Ordering::Relaxed);
            }
        })
    };
    let mut copies = Vec::new();
    // Each copy waits for purchases written after the previous copy ended (not for a fixed
    // count: a fast writer had passed all three counts before the first copy, and two copies
    // then held the same purchases).
    let mut least = 150;
    for i in 0..3 {
        while written.load(Ordering::Relaxed) < least {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        let file = dir.path().join(format!("backup-{i}.sqlite3"));
        let (data, target) = (data.clone(), file.clone());
        let report = tokio::task::spawn_blocking(move || backup::backup(&data, &target))
            .await
            .unwrap()
            .unwrap();
        eprintln!(
            "backup {i}: {} bytes in {:.0} ms, {} purchases written so far",
            report.bytes,
            report.took.as_secs_f64() * 1000.0,
            written.load(Ordering::Relaxed)
        );
        copies.push(file);
        least = written.load(Ordering::Relaxed) + 150;
    }
    writing.store(false, Ordering::Relaxed);
    writer.await.unwrap();
    let total = written.load(Ordering::Relaxed);
    assert!(
        matches!(
            backup::backup(&data, &copies[0]),
            Err(BackupError::Exists(_))
        ),
        "a backup never overwrites a file"
    );

    let mut seen = 0;
    for (i, file) in copies.iter().enumerate() {
        let restored = dir.path().join(format!("restored-{i}"));
        let report = backup::restore(file, &restored).unwrap();
        let opened = Store::open(&restored).unwrap();
        let books = opened.read(books).await.unwrap();
        assert_eq!(books, report.tables, "what restore reported is what opens");
        let purchases = rows(&books, "ico_transactions") - rows(&before, "ico_transactions");
        assert!(
            purchases > seen && purchases <= total,
            "copy {i}: {purchases} of {total}"
        );
        seen = purchases;
        let bought =
            sum(&books, "ico_transactions", "amount") - sum(&before, "ico_transactions", "amount");
        let balance = opened
            .read(move |c| users::balance(c, buyer))
            .await
            .unwrap();
        assert_eq!(
            balance,
            balance0 + bought,
            "copy {i}: the buyer's balance is exactly the ledger's sum"
        );
        assert_eq!(
            sum(&books, "ico_daily", "amount") - sum(&before, "ico_daily", "amount"),
            bought,
            "copy {i}: the day totals are exactly the ledger's sum"
        );
    }

    // A restore refuses while a server holds the folder, and keeps what it replaces.
    let folder = dir.path().join("restored-0");
    let held = DataLock::take(&folder).unwrap().unwrap();
    assert!(matches!(
        backup::restore(&copies[2], &folder),
        Err(BackupError::InUse(_))
    ));
    drop(held);
    backup::restore(&copies[2], &folder).unwrap();
    let kept: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| {
            n.starts_with("lvlx.sqlite3.replaced-") && !n.ends_with("-wal") && !n.ends_with("-shm")
        })
        .collect();
    assert_eq!(kept.len(), 1, "the replaced database is kept: {kept:?}");

    // A damaged backup is refused and the database in place is left as it was.
    let damaged = dir.path().join("damaged.sqlite3");
    let mut bytes = std::fs::read(&copies[1]).unwrap();
    let middle = bytes.len() / 2;
    for b in &mut bytes[middle..middle + 4096] {
        *b ^= 0x5a;
    }
    std::fs::write(&damaged, bytes).unwrap();
    let in_place = std::fs::read(folder.join("lvlx.sqlite3")).unwrap();
    assert!(matches!(
        backup::restore(&damaged, &folder),
        Err(BackupError::Unsound(..))
    ));
    assert_eq!(
        std::fs::read(folder.join("lvlx.sqlite3")).unwrap(),
        in_place
    );
}

/// A backup before an upgrade: a database of an older schema (here without the tables of
/// migrations 0015 and 0016) backs up and restores; its report names the tables it has.
#[test]
fn a_database_of_an_older_schema_backs_up() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    drop(Store::open(&data).unwrap());
    let conn = rusqlite::Connection::open(data.join("lvlx.sqlite3")).unwrap();
    conn.execute_batch("DROP TABLE uploads; DROP TABLE audit_chain; PRAGMA user_version = 14;")
        .unwrap();
    drop(conn);
    let file = dir.path().join("old.sqlite3");
    let report = backup::backup(&data, &file).unwrap();
    assert_eq!(report.schema, 14);
    assert!(!report.tables.iter().any(|t| t.name == "uploads"));
    assert!(report.tables.iter().any(|t| t.name == "users"));
    backup::restore(&file, &dir.path().join("restored")).unwrap();
}
