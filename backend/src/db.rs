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
];

pub const FILE_NAME: &str = "lvlx.sqlite3";

#[derive(Clone)]
pub struct Db {
    conn: Arc<Mutex<Connection>>,
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
        let mut conn = Connection::open(data_dir.join(FILE_NAME))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(Duration::from_secs(5))?;
        migrations().to_latest(&mut conn)?;
        Ok(Db {
            conn: Arc::new(Mutex::new(conn)),
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
