//! The SQLite store: one file in the data folder, WAL, migrations embedded and applied at start.
//! Blocking calls run on tokio's blocking pool through [`Db::run`], never on the async runtime.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::Connection;
use rusqlite_migration::{Migrations, M};

use crate::error::ApiError;

/// Numbered migrations, in order. Never edit one that has landed: add the next.
const MIGRATIONS: &[&str] = &[
    include_str!("../migrations/0001_users.sql"),
    include_str!("../migrations/0002_sessions_codes.sql"),
    include_str!("../migrations/0003_ledger_stakes_content.sql"),
    include_str!("../migrations/0004_wallet_nonces.sql"),
    include_str!("../migrations/0005_chain_index.sql"),
];

pub const FILE_NAME: &str = "lvlx.sqlite3";
/// Read-only connections kept for reuse.
const READERS: usize = 4;

#[derive(Clone)]
pub struct Db {
    conn: Arc<Mutex<Connection>>,
    path: Arc<std::path::PathBuf>,
    /// Read-only connections kept warm for long reads (their page caches survive requests).
    readers: Arc<Mutex<Vec<Connection>>>,
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

impl Db {
    /// Opens (creating if needed) `data_dir/lvlx.sqlite3` and brings its schema up to date.
    pub fn open(data_dir: &Path) -> Result<Db, OpenError> {
        std::fs::create_dir_all(data_dir)
            .map_err(|e| OpenError::Folder(data_dir.display().to_string(), e))?;
        let path = data_dir.join(FILE_NAME);
        let mut conn = Connection::open(&path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(Duration::from_secs(5))?;
        migrations().to_latest(&mut conn)?;
        Ok(Db {
            conn: Arc::new(Mutex::new(conn)),
            path: Arc::new(path),
            readers: Arc::new(Mutex::new(Vec::new())),
        })
    }

    /// Runs blocking database work off the async runtime.
    pub async fn run<T, F>(&self, work: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> Result<T, ApiError> + Send + 'static,
    {
        let conn = self.conn.clone();
        tokio::task::spawn_blocking(move || {
            let mut conn = conn
                .lock()
                .map_err(|_| ApiError::Internal("database lock poisoned".into()))?;
            work(&mut conn)
        })
        .await
        .map_err(|e| ApiError::Internal(format!("database task: {e}")))?
    }
}

impl Db {
    /// Runs a long read (an export of 10^6 rows) on its own read-only connection, so writers and
    /// other requests are not queued behind it (WAL lets readers and a writer overlap).
    pub async fn read<T, F>(&self, work: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, ApiError> + Send + 'static,
    {
        let path = self.path.clone();
        let readers = self.readers.clone();
        tokio::task::spawn_blocking(move || {
            let pooled = readers.lock().ok().and_then(|mut pool| pool.pop());
            let conn = match pooled {
                Some(conn) => conn,
                None => {
                    let conn = Connection::open_with_flags(
                        path.as_path(),
                        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY
                            | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
                    )?;
                    conn.busy_timeout(Duration::from_secs(5))?;
                    conn.pragma_update(None, "cache_size", -65_536)?; // 64 MiB
                    conn
                }
            };
            let result = work(&conn);
            if let Ok(mut pool) = readers.lock() {
                if pool.len() < READERS {
                    pool.push(conn);
                }
            }
            result
        })
        .await
        .map_err(|e| ApiError::Internal(format!("database task: {e}")))?
    }
}

fn migrations() -> Migrations<'static> {
    Migrations::new(MIGRATIONS.iter().map(|sql| M::up(sql)).collect())
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
        let db = Db::open(dir.path()).unwrap();
        let (mode, version) = db
            .run(|c| {
                let mode: String = c.query_row("PRAGMA journal_mode", [], |r| r.get(0))?;
                let version: i64 = c.query_row("PRAGMA user_version", [], |r| r.get(0))?;
                Ok((mode, version))
            })
            .await
            .unwrap();
        assert_eq!(mode, "wal");
        assert_eq!(version, MIGRATIONS.len() as i64);
        assert!(dir.path().join(FILE_NAME).exists());
        // Opening again is a no-op, not an error.
        drop(db);
        Db::open(dir.path()).unwrap();
    }
}
