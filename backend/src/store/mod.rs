//! The store: every SQL statement of the server lives below this module, one file per business
//! noun (users, sessions, codes, ledger, stakes, content, wallets …). Each function takes a
//! [`Conn`] and returns [`StoreError`]; the domain and the HTTP handlers call these functions and
//! never see SQL or rusqlite. A second backend (PostgreSQL, DESIGN §9) is a second
//! implementation of these modules' functions, not a rewrite of their callers.
//!
//! SQLite: one file in the data folder, WAL, migrations embedded and applied at start. Writes go
//! through one connection ([`Store::write`]); reads through a small pool of read-only
//! connections ([`Store::read`]), so they never queue behind a write (WAL lets them overlap).
//! Blocking calls run on tokio's blocking pool, never on the async runtime.

pub mod captchas;
pub mod codes;
pub mod content;
pub mod cursors;
pub mod faq;
pub mod kyc;
pub mod ledger;
pub mod lockouts;
pub mod network;
pub mod onramp;
pub mod registrations;
pub mod secrets;
pub mod seed;
pub mod sessions;
pub mod snapshots;
pub mod stakes;
pub mod users;
pub mod wallets;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use lvlx_core::amount::{self, Units};
use rusqlite::{Connection, OpenFlags};
use rusqlite_migration::{Migrations, M};

/// Numbered migrations, in order. Never edit one that has landed: add the next.
const MIGRATIONS: &[&str] = &[
    include_str!("../../migrations/0001_users.sql"),
    include_str!("../../migrations/0002_sessions_codes.sql"),
    include_str!("../../migrations/0003_ledger_stakes_content.sql"),
    include_str!("../../migrations/0004_wallet_nonces.sql"),
    include_str!("../../migrations/0005_chain_index.sql"),
    include_str!("../../migrations/0006_staking_positions.sql"),
    include_str!("../../migrations/0007_network.sql"),
    include_str!("../../migrations/0008_kyc_faq_onramp.sql"),
    include_str!("../../migrations/0009_table_versions.sql"),
];

pub const FILE_NAME: &str = "lvlx.sqlite3";
/// Read-only connections, and so reads running at once: more wait for one (measured with
/// bench:load, issue 16: with 4 kept and any number running, 64 concurrent requests opened and
/// dropped a connection each, and session checks ran at half the speed of GET health).
const READERS: usize = 8;

/// What storage can fail with. Callers turn it into their own error (the domain's `Error`
/// wraps it as an internal failure: details are logged, never sent).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A stored value the rules cannot read (an amount that is not base-unit text, an overflow).
    #[error("stored value: {0}")]
    Corrupt(String),
    #[error("database task: {0}")]
    Task(String),
}

impl StoreError {
    /// The disk (or the database's quota) is full: the write was rolled back, nothing is lost,
    /// and the same write succeeds once space returns.
    pub fn is_full(&self) -> bool {
        matches!(
            self,
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::DiskFull
        )
    }
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// A connection lent to one unit of work: a store function's only way to the database.
#[derive(Clone, Copy)]
pub struct Conn<'a>(&'a Connection);

impl Conn<'_> {
    /// Runs `work` in a transaction: committed when it returns `Ok`, rolled back otherwise.
    pub fn transaction<T, E: From<StoreError>>(
        self,
        work: impl FnOnce(Conn<'_>) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E> {
        let tx = self.0.unchecked_transaction().map_err(StoreError::from)?;
        let out = work(Conn(&tx))?;
        tx.commit().map_err(StoreError::from)?;
        Ok(out)
    }
}

#[derive(Clone)]
pub struct Store {
    writer: Arc<Mutex<Connection>>,
    path: Arc<PathBuf>,
    /// Read-only connections kept warm (their page caches survive requests).
    readers: Arc<Mutex<Vec<Connection>>>,
    /// One per reader: a read waits here, off the blocking pool, until a connection is free.
    permits: Arc<tokio::sync::Semaphore>,
    /// Answers kept until the database changes (the admin statistics).
    pub snapshots: snapshots::Snapshots,
}

#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("cannot create data folder {0}: {1}")]
    Folder(String, std::io::Error),
    #[error("cannot open database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("cannot migrate database: {0}")]
    Migrate(#[from] rusqlite_migration::Error),
}

impl Store {
    /// Opens (creating if needed) `data_dir/lvlx.sqlite3` and brings its schema up to date.
    pub fn open(data_dir: &Path) -> Result<Store, OpenError> {
        std::fs::create_dir_all(data_dir)
            .map_err(|e| OpenError::Folder(data_dir.display().to_string(), e))?;
        let path = data_dir.join(FILE_NAME);
        let mut conn = Connection::open(&path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(Duration::from_secs(5))?;
        migrations().to_latest(&mut conn)?;
        let snapshots = snapshots::Snapshots::open(&path)?;
        Ok(Store {
            snapshots,
            writer: Arc::new(Mutex::new(conn)),
            path: Arc::new(path),
            readers: Arc::new(Mutex::new(Vec::new())),
            permits: Arc::new(tokio::sync::Semaphore::new(READERS)),
        })
    }

    /// Runs work that writes, on the one writing connection, off the async runtime.
    pub async fn write<T, E, F>(&self, work: F) -> std::result::Result<T, E>
    where
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
        F: FnOnce(Conn<'_>) -> std::result::Result<T, E> + Send + 'static,
    {
        let writer = self.writer.clone();
        tokio::task::spawn_blocking(move || {
            let conn = writer
                .lock()
                .map_err(|_| StoreError::Task("database lock poisoned".into()))?;
            work(Conn(&conn))
        })
        .await
        .map_err(|e| StoreError::Task(e.to_string()))?
    }

    /// Runs work that only reads, on a read-only connection of its own, so writers and other
    /// requests are not queued behind it (an export of 10^6 rows, or a session check).
    pub async fn read<T, E, F>(&self, work: F) -> std::result::Result<T, E>
    where
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
        F: FnOnce(Conn<'_>) -> std::result::Result<T, E> + Send + 'static,
    {
        let path = self.path.clone();
        let readers = self.readers.clone();
        let permit = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| StoreError::Task(e.to_string()))?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let pooled = readers.lock().ok().and_then(|mut pool| pool.pop());
            let conn = match pooled {
                Some(conn) => conn,
                None => reader(&path)?,
            };
            let result = work(Conn(&conn));
            if let Ok(mut pool) = readers.lock() {
                if pool.len() < READERS {
                    pool.push(conn);
                }
            }
            result
        })
        .await
        .map_err(|e| StoreError::Task(e.to_string()))?
    }
}

fn reader(path: &Path) -> Result<Connection> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(Duration::from_secs(5))?;
    conn.pragma_update(None, "cache_size", -65_536)?; // 64 MiB
    Ok(conn)
}

fn migrations() -> Migrations<'static> {
    Migrations::new(MIGRATIONS.iter().map(|sql| M::up(sql)).collect())
}

/// The schema version the database is at (answered by the health check).
pub fn schema_version(c: Conn) -> Result<i64> {
    Ok(c.0.query_row("PRAGMA user_version", [], |r| r.get(0))?)
}

/// A stored amount: base units as decimal text (DESIGN §3), read by the core's parser.
pub(crate) fn units(text: &str) -> Result<Units> {
    amount::parse_base(text).map_err(|e| StoreError::Corrupt(format!("amount {text:?}: {e}")))
}

/// The text of column `i` of a row as base units.
pub(crate) fn units_at(r: &rusqlite::Row, i: usize) -> Result<Units> {
    let text = r
        .get_ref(i)?
        .as_str()
        .map_err(|e| StoreError::Corrupt(format!("amount column {i}: {e}")))?;
    units(text)
}

/// A sum that left the 128-bit range: refused, never wrapped.
pub(crate) fn overflow(what: &str) -> StoreError {
    StoreError::Corrupt(format!("{what} overflows 128 bits"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_are_valid() {
        migrations()
            .validate()
            .expect("migrations apply to an empty database");
    }

    #[tokio::test]
    async fn opens_a_file_in_wal_mode_and_migrates() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let (mode, version) = store
            .write(|c| {
                let mode: String = c.0.query_row("PRAGMA journal_mode", [], |r| r.get(0))?;
                Ok::<_, StoreError>((mode, schema_version(c)?))
            })
            .await
            .unwrap();
        assert_eq!(mode, "wal");
        assert_eq!(version, MIGRATIONS.len() as i64);
        assert!(dir.path().join(FILE_NAME).exists());
        // A reader sees what the writer committed.
        let read: i64 = store.read(schema_version).await.unwrap();
        assert_eq!(read, version);
        // Opening again is a no-op, not an error.
        drop(store);
        Store::open(dir.path()).unwrap();
    }
}
