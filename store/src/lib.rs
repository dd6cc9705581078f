//! The store: every SQL statement of the server lives below this module, one file per business
//! noun (users, sessions, codes, ledger, stakes, content, wallets …). Each function takes a
//! [`Conn`] and returns [`StoreError`]; the domain and the HTTP handlers call these functions and
//! never see SQL or a database client.
//!
//! Two backends answer the same functions (docs/architecture.md#the-server), chosen by
//! `database_url`:
//! - SQLite (the embedded default): one file in the data folder, WAL, writes through one
//!   connection ([`Store::write`]), reads through a small pool of read-only connections
//!   ([`Store::read`]) so they never queue behind a write.
//! - PostgreSQL ([`postgres`](self::pg)): the same, over a pool of kept client connections;
//!   writes of every instance take one advisory lock, so they run one at a time as SQLite's do.
//!
//! Store functions write SQL once, in the dialect both share ([`sql`]). Blocking calls run on
//! tokio's blocking pool, never on the async runtime.

pub mod audit;
pub mod backup;
pub mod blocks;
pub mod books_checks;
pub mod captchas;
pub mod claims;
pub mod codes;
pub mod content;
pub mod copy;
pub mod cursors;
pub mod digest;
pub mod faq;
pub mod history;
pub mod kyc;
pub mod ledger;
pub mod lockouts;
pub mod nodes;
pub mod notify;
pub mod onramp;
pub mod owner_proposals;
pub mod pg;
pub mod ranks;
pub mod rate_limits;
pub mod referrals;
pub mod registrations;
pub mod reversals;
pub mod secrets;
pub mod sessions;
pub mod settlement;
pub mod snapshots;
pub mod sql;
pub mod stakes;
pub mod tables;
pub mod uploads;
pub mod user;
pub mod users;
pub mod wallets;

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use lvlx_core::amount::{self, Units};
use rusqlite::{Connection, OpenFlags};
use rusqlite_migration::{Migrations, M};

pub use sql::{Arg, Row};

/// The numbered migrations of both databases, from the files in `migrations/` (build.rs).
/// Never edit one that has landed: add the next. PostgreSQL's first brings an empty database
/// to SQLite's version 10 at once.
pub(crate) mod migrations {
    include!(concat!(env!("OUT_DIR"), "/migrations.rs"));
}

pub const FILE_NAME: &str = "lvlx.sqlite3";

/// The wall clock, milliseconds since the Unix epoch (the store's and the server's one clock).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
/// Read-only connections, and so reads running at once: more wait for one (measured with
/// bench:load: with 4 kept and any number running, 64 concurrent requests opened and
/// dropped a connection each, and session checks ran at half the speed of GET health).
const READERS: usize = 8;

/// What storage can fail with. Callers turn it into their own error (the domain's `Error`
/// wraps it as an internal failure: details are logged, never sent).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed a statement; what kind of failure, whichever backend.
    #[error("database: {detail}")]
    Database { failure: Failure, detail: String },
    /// A statement that must answer one row answered none.
    #[error("database: no row")]
    NoRow,
    /// A stored value the rules cannot read (an amount that is not base-unit text, an overflow).
    #[error("stored value: {0}")]
    Corrupt(String),
    #[error("database task: {0}")]
    Task(String),
}

/// The kinds of database failure the domain tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// The disk (or the database's quota) is full: the write was rolled back, nothing is lost,
    /// and the same write succeeds once space returns.
    Full,
    /// A unique key refused the write (the row is already there).
    Duplicate,
    /// Anything else (logged, answered as an internal failure).
    Other,
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        let failure = match &e {
            rusqlite::Error::SqliteFailure(f, _) => match f.code {
                rusqlite::ErrorCode::DiskFull => Failure::Full,
                rusqlite::ErrorCode::ConstraintViolation => Failure::Duplicate,
                _ => Failure::Other,
            },
            _ => Failure::Other,
        };
        StoreError::Database {
            failure,
            detail: e.to_string(),
        }
    }
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> Self {
        use tokio_postgres::error::SqlState;
        let failure = match e.code() {
            Some(c) if *c == SqlState::DISK_FULL => Failure::Full,
            Some(c) if *c == SqlState::UNIQUE_VIOLATION => Failure::Duplicate,
            _ => Failure::Other,
        };
        StoreError::Database {
            failure,
            detail: e.to_string(),
        }
    }
}

impl StoreError {
    /// The disk (or the database's quota) is full: the write was rolled back, nothing is lost,
    /// and the same write succeeds once space returns.
    pub fn is_full(&self) -> bool {
        matches!(
            self,
            StoreError::Database {
                failure: Failure::Full,
                ..
            }
        )
    }

    /// A unique key refused the write (the row is already there).
    pub fn is_duplicate(&self) -> bool {
        matches!(
            self,
            StoreError::Database {
                failure: Failure::Duplicate,
                ..
            }
        )
    }
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// Which SQL a backend speaks, for the few statements written twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// A connection lent to one unit of work: a store function's only way to the database.
#[derive(Clone, Copy)]
pub struct Conn<'a>(Link<'a>);

#[derive(Clone, Copy)]
enum Link<'a> {
    Sqlite(&'a Connection),
    Postgres(&'a RefCell<pg::Session>),
}

impl<'a> Conn<'a> {
    pub fn sqlite(conn: &'a Connection) -> Conn<'a> {
        Conn(Link::Sqlite(conn))
    }

    pub(crate) fn postgres(session: &'a RefCell<pg::Session>) -> Conn<'a> {
        Conn(Link::Postgres(session))
    }

    pub fn dialect(self) -> Dialect {
        match self.0 {
            Link::Sqlite(_) => Dialect::Sqlite,
            Link::Postgres(_) => Dialect::Postgres,
        }
    }

    fn session(session: &RefCell<pg::Session>) -> Result<std::cell::RefMut<'_, pg::Session>> {
        session
            .try_borrow_mut()
            .map_err(|_| StoreError::Task("a statement inside another's rows".into()))
    }

    /// Runs one statement; answers how many rows it changed.
    pub fn execute(self, sql: &str, args: &[Arg]) -> Result<usize> {
        match self.0 {
            Link::Sqlite(c) => Ok(c
                .prepare_cached(sql)?
                .execute(rusqlite::params_from_iter(args))?),
            Link::Postgres(s) => Conn::session(s)?.execute(sql, args),
        }
    }

    /// Runs statements without arguments, one after another (schema work and tests).
    pub fn batch(self, sql: &str) -> Result<()> {
        match self.0 {
            Link::Sqlite(c) => Ok(c.execute_batch(sql)?),
            Link::Postgres(s) => Conn::session(s)?.batch(sql),
        }
    }

    /// Calls `each` with every row of the answer, in order, as they come (not all held at once).
    pub fn query_each(
        self,
        sql: &str,
        args: &[Arg],
        mut each: impl FnMut(&Row) -> Result<()>,
    ) -> Result<()> {
        match self.0 {
            Link::Sqlite(c) => {
                let mut stmt = c.prepare_cached(sql)?;
                let mut rows = stmt.query(rusqlite::params_from_iter(args))?;
                while let Some(r) = rows.next()? {
                    each(&Row::Sqlite(r))?;
                }
                Ok(())
            }
            Link::Postgres(s) => Conn::session(s)?.query_each(sql, args, each),
        }
    }

    /// Every row of the answer, each made by `make`.
    pub fn query_all<T>(
        self,
        sql: &str,
        args: &[Arg],
        mut make: impl FnMut(&Row) -> Result<T>,
    ) -> Result<Vec<T>> {
        let mut out = Vec::new();
        self.query_each(sql, args, |r| {
            out.push(make(r)?);
            Ok(())
        })?;
        Ok(out)
    }

    /// The answer's first row, if any, made by `make`.
    pub fn query_opt<T>(
        self,
        sql: &str,
        args: &[Arg],
        make: impl FnOnce(&Row) -> Result<T>,
    ) -> Result<Option<T>> {
        match self.0 {
            Link::Sqlite(c) => {
                let mut stmt = c.prepare_cached(sql)?;
                let mut rows = stmt.query(rusqlite::params_from_iter(args))?;
                match rows.next()? {
                    Some(r) => Ok(Some(make(&Row::Sqlite(r))?)),
                    None => Ok(None),
                }
            }
            Link::Postgres(s) => {
                let row = Conn::session(s)?.query_opt(sql, args)?;
                row.map(|r| make(&Row::Postgres(&r))).transpose()
            }
        }
    }

    /// The answer's one row, made by `make`; [`StoreError::NoRow`] when there is none.
    pub fn query_one<T>(
        self,
        sql: &str,
        args: &[Arg],
        make: impl FnOnce(&Row) -> Result<T>,
    ) -> Result<T> {
        self.query_opt(sql, args, make)?.ok_or(StoreError::NoRow)
    }

    /// Runs `work` in a transaction: committed when it returns `Ok`, rolled back otherwise.
    pub fn transaction<T, E: From<StoreError>>(
        self,
        work: impl FnOnce(Conn<'_>) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E> {
        match self.0 {
            Link::Sqlite(c) => {
                let tx = c.unchecked_transaction().map_err(StoreError::from)?;
                let out = work(Conn::sqlite(&tx))?;
                tx.commit().map_err(StoreError::from)?;
                Ok(out)
            }
            Link::Postgres(s) => {
                Conn::session(s)?.begin()?;
                let out = work(self);
                let mut session = Conn::session(s)?;
                match out {
                    Ok(out) => {
                        session.commit()?;
                        Ok(out)
                    }
                    Err(e) => {
                        session.rollback()?;
                        Err(e)
                    }
                }
            }
        }
    }
}

#[derive(Clone)]
pub struct Store {
    backend: Backend,
    /// Answers kept until the database changes (the admin statistics).
    pub snapshots: snapshots::Snapshots,
}

#[derive(Clone)]
enum Backend {
    Sqlite(Arc<Sqlite>),
    Postgres(Arc<pg::Pool>),
}

struct Sqlite {
    writer: Mutex<Connection>,
    path: PathBuf,
    /// Read-only connections kept warm (their page caches survive requests).
    readers: Mutex<Vec<Connection>>,
    /// One per reader: a read waits here, off the blocking pool, until a connection is free.
    permits: Arc<tokio::sync::Semaphore>,
}

/// Work one instance at a time: always this one's on SQLite (one instance per file), a
/// database lease on PostgreSQL.
pub enum Lease {
    Local,
    Postgres(pg::Lease),
}

impl Lease {
    pub async fn held(&self) -> bool {
        match self {
            Lease::Local => true,
            Lease::Postgres(lease) => lease.held().await,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("cannot create data folder {0}: {1}")]
    Folder(String, std::io::Error),
    #[error("cannot open database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("cannot migrate database: {0}")]
    Migrate(#[from] rusqlite_migration::Error),
    #[error("cannot open database: {0}")]
    Store(#[from] StoreError),
    /// PostgreSQL before 14 has no `idle_session_timeout`, which the write lock and the
    /// indexer's lease rely on to end a frozen instance's hold.
    #[error("PostgreSQL {0} is too old: 14 or newer is needed (idle_session_timeout)")]
    PostgresTooOld(String),
}

impl Store {
    /// The store `database_url` names (`postgres://…`), or SQLite in `data_dir` when unset.
    pub async fn open_configured(
        data_dir: &Path,
        database_url: Option<&str>,
    ) -> Result<Store, OpenError> {
        match database_url {
            Some(url) => Store::open_postgres(url).await,
            None => Store::open(data_dir),
        }
    }

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
        let snapshots = snapshots::Snapshots::sqlite(&path)?;
        Ok(Store {
            snapshots,
            backend: Backend::Sqlite(Arc::new(Sqlite {
                writer: Mutex::new(conn),
                path,
                readers: Mutex::new(Vec::new()),
                permits: Arc::new(tokio::sync::Semaphore::new(READERS)),
            })),
        })
    }

    /// Connects to the PostgreSQL database at `url` and brings its schema up to date.
    pub async fn open_postgres(url: &str) -> Result<Store, OpenError> {
        let url = url.to_owned();
        let handle = tokio::runtime::Handle::current();
        tokio::task::spawn_blocking(move || {
            let pool = Arc::new(pg::Pool::open(&url, READERS, handle)?);
            Ok(Store {
                snapshots: snapshots::Snapshots::postgres(pool.clone()),
                backend: Backend::Postgres(pool),
            })
        })
        .await
        .map_err(|e| StoreError::Task(e.to_string()))?
    }

    /// Takes the lease `key` unless another instance holds it. On PostgreSQL it lapses `ttl`
    /// after its holder stops renewing it (dead, frozen, cut off).
    pub async fn try_lease(&self, key: i64, ttl: std::time::Duration) -> Result<Option<Lease>> {
        match &self.backend {
            Backend::Sqlite(_) => Ok(Some(Lease::Local)),
            Backend::Postgres(pool) => Ok(pool.try_lease(key, ttl).await?.map(Lease::Postgres)),
        }
    }

    pub fn dialect(&self) -> Dialect {
        match self.backend {
            Backend::Sqlite(_) => Dialect::Sqlite,
            Backend::Postgres(_) => Dialect::Postgres,
        }
    }

    /// Runs work that writes, on the one writing connection, off the async runtime.
    pub async fn write<T, E, F>(&self, work: F) -> std::result::Result<T, E>
    where
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
        F: FnOnce(Conn<'_>) -> std::result::Result<T, E> + Send + 'static,
    {
        let backend = self.backend.clone();
        tokio::task::spawn_blocking(move || match backend {
            Backend::Sqlite(db) => {
                let conn = db
                    .writer
                    .lock()
                    .map_err(|_| StoreError::Task("database lock poisoned".into()))?;
                work(Conn::sqlite(&conn))
            }
            Backend::Postgres(pool) => pool.write(work),
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
        let (permits, backend) = match &self.backend {
            Backend::Sqlite(db) => (db.permits.clone(), self.backend.clone()),
            Backend::Postgres(pool) => (pool.permits.clone(), self.backend.clone()),
        };
        let permit = permits
            .acquire_owned()
            .await
            .map_err(|e| StoreError::Task(e.to_string()))?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            match backend {
                Backend::Sqlite(db) => {
                    let pooled = db.readers.lock().ok().and_then(|mut pool| pool.pop());
                    let conn = match pooled {
                        Some(conn) => conn,
                        None => reader(&db.path)?,
                    };
                    let result = work(Conn::sqlite(&conn));
                    if let Ok(mut pool) = db.readers.lock() {
                        if pool.len() < READERS {
                            pool.push(conn);
                        }
                    }
                    result
                }
                Backend::Postgres(pool) => pool.read(work),
            }
        })
        .await
        .map_err(|e| StoreError::Task(e.to_string()))?
    }
}

/// The store a test runs on: SQLite in `data_dir`, or, when `LVLX_TEST_POSTGRES` names a
/// server (`postgres://…/postgres`, as `scripts/pg.sh` prints), a new empty database of its own
/// there. The test command runs the storage and HTTP suites both ways.
#[doc(hidden)]
pub async fn open_for_test(data_dir: &Path) -> Store {
    match test_database().await {
        Some(url) => Store::open_postgres(&url)
            .await
            .expect("the test database opens"),
        None => Store::open(data_dir).expect("the test database opens"),
    }
}

/// A new empty database on the `LVLX_TEST_POSTGRES` server, by URL; None when it is unset.
#[doc(hidden)]
pub async fn test_database() -> Option<String> {
    let server = std::env::var("LVLX_TEST_POSTGRES").ok()?;
    if server.is_empty() {
        return None;
    }
    let (client, connection) = tokio_postgres::connect(&server, tokio_postgres::NoTls)
        .await
        .expect("LVLX_TEST_POSTGRES answers");
    let connection = tokio::spawn(connection);
    let name = format!("t{}_{:016x}", std::process::id(), rand::random::<u64>());
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await
        .expect("a test database");
    drop(client);
    let _ = connection.await;
    let (base, _) = server.rsplit_once('/').expect("a URL with a database");
    Some(format!("{base}/{name}"))
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
    Migrations::new(
        migrations::SQLITE
            .iter()
            .map(|(_, sql)| M::up(sql))
            .collect(),
    )
}

/// The schema version the database is at (answered by the health check): the number of
/// SQLite migrations applied, or the SQLite version PostgreSQL's schema matches.
pub fn schema_version(c: Conn) -> Result<i64> {
    match c.dialect() {
        Dialect::Sqlite => c.query_one("PRAGMA user_version", args![], |r| r.get(0)),
        Dialect::Postgres => c.query_one(
            "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
            args![],
            |r| r.get(0),
        ),
    }
}

/// A stored amount: base units as decimal text (docs/product/money.md#base-units), read by the
/// core's parser.
pub fn units(text: &str) -> Result<Units> {
    amount::parse_base(text).map_err(|e| StoreError::Corrupt(format!("amount {text:?}: {e}")))
}

/// A sum that left the 128-bit range: refused, never wrapped.
pub fn overflow(what: &str) -> StoreError {
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
                let mode: String = c.query_one("PRAGMA journal_mode", args![], |r| r.get(0))?;
                Ok::<_, StoreError>((mode, schema_version(c)?))
            })
            .await
            .unwrap();
        assert_eq!(mode, "wal");
        assert_eq!(version, migrations::SQLITE.len() as i64);
        assert!(dir.path().join(FILE_NAME).exists());
        // A reader sees what the writer committed.
        let read: i64 = store.read(schema_version).await.unwrap();
        assert_eq!(read, version);
        // Opening again is a no-op, not an error.
        drop(store);
        Store::open(dir.path()).unwrap();
    }

    #[test]
    fn both_databases_migrate_to_the_same_numbered_version() {
        let versions = |list: &[(i64, &str)]| list.iter().map(|(v, _)| *v).collect::<Vec<_>>();
        let sqlite = versions(migrations::SQLITE);
        assert_eq!(sqlite, (1..=sqlite.len() as i64).collect::<Vec<_>>());
        let postgres = versions(migrations::POSTGRES);
        let first = postgres[0];
        assert_eq!(
            postgres,
            (first..first + postgres.len() as i64).collect::<Vec<_>>()
        );
        assert_eq!(
            postgres.last(),
            sqlite.last(),
            "a migration written for one database only"
        );
    }
}
