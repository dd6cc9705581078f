//! Answers kept until the database changes (issue 16): the admin statistics and their row
//! streams are computed once per database version, not once per request. The version is
//! SQLite's `PRAGMA data_version` read on a connection kept for just that: it moves whenever any
//! other connection commits — this server's writer, the indexer, or another process on the
//! same file (the CLI, a test's script) — so nothing written is ever hidden behind a snapshot.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use rusqlite::{Connection, OpenFlags};

use super::{Result, StoreError};

/// The newest answers by key ("statistics-users?limit=100"), each with the version it was made at.
#[derive(Clone)]
pub struct Snapshots {
    watch: Arc<Mutex<Connection>>,
    kept: Arc<Mutex<HashMap<String, (i64, Bytes)>>>,
}

impl Snapshots {
    pub(super) fn open(path: &Path) -> rusqlite::Result<Snapshots> {
        let watch = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        Ok(Snapshots {
            watch: Arc::new(Mutex::new(watch)),
            kept: Arc::new(Mutex::new(HashMap::new())),
        })
    }

    /// The database's version now: different after any commit by another connection.
    pub fn version(&self) -> Result<i64> {
        let watch = self
            .watch
            .lock()
            .map_err(|_| StoreError::Task("snapshot lock poisoned".into()))?;
        Ok(watch.pragma_query_value(None, "data_version", |r| r.get(0))?)
    }

    /// The answer kept under `key` if the database has not changed since it was made; else
    /// `make`'s, kept for the next request. `make` runs outside every lock (two requests that
    /// miss at once both make it; the later one is kept).
    pub async fn get_or<E, F, Fut>(&self, key: String, make: F) -> std::result::Result<Bytes, E>
    where
        E: From<StoreError>,
        F: FnOnce() -> Fut,
        Fut: std::future::Future<Output = std::result::Result<Bytes, E>>,
    {
        let version = self.version()?;
        if let Some((at, answer)) = self.kept.lock().ok().and_then(|k| k.get(&key).cloned()) {
            if at == version {
                return Ok(answer);
            }
        }
        let answer = make().await?;
        if let Ok(mut kept) = self.kept.lock() {
            kept.insert(key, (version, answer.clone()));
        }
        Ok(answer)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::super::{Store, StoreError, FILE_NAME};
    use super::*;

    #[tokio::test]
    async fn a_commit_by_any_connection_moves_the_version_and_remakes_the_answer() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let made = Arc::new(AtomicUsize::new(0));
        let ask = || {
            let made = made.clone();
            store.snapshots.get_or("k".into(), move || async move {
                let n = made.fetch_add(1, Ordering::SeqCst) + 1;
                Ok::<_, StoreError>(Bytes::from(n.to_string()))
            })
        };
        assert_eq!(ask().await.unwrap(), "1");
        assert_eq!(
            ask().await.unwrap(),
            "1",
            "nothing committed: the kept answer"
        );

        let v1 = store.snapshots.version().unwrap();
        store
            .write(|c| Ok::<_, StoreError>(c.0.execute_batch("CREATE TABLE scratch(x)")?))
            .await
            .unwrap();
        assert_ne!(
            store.snapshots.version().unwrap(),
            v1,
            "this server's writer"
        );
        assert_eq!(ask().await.unwrap(), "2");

        let v2 = store.snapshots.version().unwrap();
        let other = Connection::open(dir.path().join(FILE_NAME)).unwrap();
        other.execute("INSERT INTO scratch VALUES (1)", []).unwrap();
        assert_ne!(
            store.snapshots.version().unwrap(),
            v2,
            "another connection, as another process"
        );
        assert_eq!(ask().await.unwrap(), "3");
        assert_eq!(ask().await.unwrap(), "3");
    }
}
