//! Answers kept until their tables change: the admin statistics and their row
//! streams are computed once per version of the tables they read, not once per request.
//!
//! Two versions, read on a connection kept for just that. SQLite's `PRAGMA data_version` moves
//! whenever any other connection commits (this server's writer, the indexer, another process on
//! the same file): while it stands still, a kept answer is current, at no cost. When it moves,
//! the versions of the answer's own tables (`table_versions`, moved by triggers on every insert,
//! update and delete: migration 0009) say whether the commit touched them: sign-ins, codes and
//! lockouts, written all day, do not remake a 10^6-row stream.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use rusqlite::{Connection, OpenFlags};
use tokio::sync::Semaphore;

use super::{pg, Conn, Result, StoreError};

/// An answer and the versions it was made at.
#[derive(Clone)]
struct Kept {
    data_version: Option<i64>,
    tables_version: i64,
    answer: Bytes,
}

/// Where the versions are read.
enum Watch {
    /// A connection kept for just that (its `data_version` is this connection's view).
    Sqlite(Mutex<Connection>),
    /// PostgreSQL has no `data_version`: the table versions are read every time (one indexed
    /// read of three rows), on the pool's readers, a few at once.
    Postgres(Arc<pg::Pool>, Arc<Semaphore>),
}

/// The newest answers by key ("statistics-users?limit=100").
#[derive(Clone)]
pub struct Snapshots {
    watch: Arc<Watch>,
    kept: Arc<Mutex<HashMap<String, Kept>>>,
    /// Per key, held while its answer is made: requests that miss together wait for one making
    /// instead of each making it (64 at once after a change held every reader for half a second).
    making: Arc<Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>>,
}

/// Version reads on PostgreSQL at once (each holds a reader while it runs).
const POSTGRES_WATCHERS: usize = 4;

impl Snapshots {
    pub(super) fn sqlite(path: &Path) -> rusqlite::Result<Snapshots> {
        let watch = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        Ok(Snapshots::new(Watch::Sqlite(Mutex::new(watch))))
    }

    pub(super) fn postgres(pool: Arc<pg::Pool>) -> Snapshots {
        Snapshots::new(Watch::Postgres(
            pool,
            Arc::new(Semaphore::new(POSTGRES_WATCHERS)),
        ))
    }

    fn new(watch: Watch) -> Snapshots {
        Snapshots {
            watch: Arc::new(watch),
            kept: Arc::new(Mutex::new(HashMap::new())),
            making: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    fn sqlite_watch(c: &Mutex<Connection>) -> Result<std::sync::MutexGuard<'_, Connection>> {
        c.lock()
            .map_err(|_| StoreError::Task("snapshot lock poisoned".into()))
    }

    /// The database's version now: different after any commit by another connection (SQLite
    /// only; `None` on PostgreSQL).
    pub fn version(&self) -> Result<Option<i64>> {
        match &*self.watch {
            Watch::Sqlite(c) => Ok(Some(Snapshots::sqlite_watch(c)?.pragma_query_value(
                None,
                "data_version",
                |r| r.get(0),
            )?)),
            Watch::Postgres(..) => Ok(None),
        }
    }

    /// The versions of `tables` now, as one number: each only grows, so their sum moves exactly
    /// when one of them does.
    pub async fn tables_version(&self, tables: &[&str]) -> Result<i64> {
        match &*self.watch {
            Watch::Sqlite(c) => {
                let watch = Snapshots::sqlite_watch(c)?;
                versions(Conn::sqlite(&watch), tables)
            }
            Watch::Postgres(pool, permits) => {
                // The client waits for its answer off the runtime's threads, on one of the
                // pool's kept readers: its permit, like every read's, guarantees one is free
                // (without it, a read beyond them connected anew: 190 ms tails under load).
                let task = |e: tokio::sync::AcquireError| StoreError::Task(e.to_string());
                let _mine = permits.acquire().await.map_err(task)?;
                let reader = pool.permits.clone().acquire_owned().await.map_err(task)?;
                let pool = pool.clone();
                let tables: Vec<String> = tables.iter().map(|t| t.to_string()).collect();
                tokio::task::spawn_blocking(move || {
                    let _reader = reader;
                    let tables: Vec<&str> = tables.iter().map(String::as_str).collect();
                    pool.read(|c| versions(c, &tables))
                })
                .await
                .map_err(|e| StoreError::Task(e.to_string()))?
            }
        }
    }

    /// The answer kept under `key` if none of `tables` (those it reads) has changed since it
    /// was made; else `make`'s, kept for the next request. Requests that miss at once make it
    /// once: the others wait, then take it if it was made at their versions or later. The
    /// versions are read before `make` reads, so a write landing meanwhile makes the next
    /// request remake it.
    pub async fn get_or<E, F, Fut>(
        &self,
        key: String,
        tables: &[&str],
        make: F,
    ) -> std::result::Result<Bytes, E>
    where
        E: From<StoreError>,
        F: FnOnce() -> Fut,
        Fut: std::future::Future<Output = std::result::Result<Bytes, E>>,
    {
        let data_version = self.version()?;
        let kept = self.kept.lock().ok().and_then(|k| k.get(&key).cloned());
        if let Some(kept) = &kept {
            if data_version.is_some() && kept.data_version == data_version {
                return Ok(kept.answer.clone());
            }
        }
        let tables_version = self.tables_version(tables).await?;
        if let Some(kept) = kept {
            if kept.tables_version == tables_version {
                // Other tables moved: still current, and checked at no cost until the next commit.
                self.keep(key, data_version, tables_version, kept.answer.clone());
                return Ok(kept.answer);
            }
        }
        let making = self
            .making
            .lock()
            .map_err(|_| StoreError::Task("snapshot lock poisoned".into()))?
            .entry(key.clone())
            .or_default()
            .clone();
        let _making = making.lock().await;
        let made = self.kept.lock().ok().and_then(|k| k.get(&key).cloned());
        if let Some(made) = made.filter(|m| m.tables_version >= tables_version) {
            return Ok(made.answer);
        }
        let answer = make().await?;
        self.keep(key, data_version, tables_version, answer.clone());
        Ok(answer)
    }

    fn keep(&self, key: String, data_version: Option<i64>, tables_version: i64, answer: Bytes) {
        if let Ok(mut kept) = self.kept.lock() {
            kept.insert(
                key,
                Kept {
                    data_version,
                    tables_version,
                    answer,
                },
            );
        }
    }
}

/// The sum of `tables`' versions, in one query.
fn versions(c: Conn, tables: &[&str]) -> Result<i64> {
    let places: Vec<String> = (1..=tables.len()).map(|i| format!("?{i}")).collect();
    let sql = format!(
        "SELECT count(*), CAST(coalesce(sum(version), 0) AS BIGINT) FROM table_versions WHERE name IN ({})",
        places.join(", ")
    );
    let args: Vec<super::sql::Arg> = tables.iter().map(|t| super::sql::Arg::from(*t)).collect();
    let (found, sum): (i64, i64) = c.query_one(&sql, &args, |r| Ok((r.get(0)?, r.get(1)?)))?;
    if found != tables.len() as i64 {
        return Err(StoreError::Corrupt(format!(
            "no version kept for one of {tables:?}"
        )));
    }
    Ok(sum)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::super::{Store, StoreError, FILE_NAME};
    use super::*;

    #[tokio::test]
    async fn an_answer_is_remade_when_its_tables_change_and_kept_when_others_do() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
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
        let buy = |n: i64| {
            format!(
                "INSERT INTO ico_transactions (wallet, created_at, token, amount, tx_hash, log_index)
                 VALUES ('0xabc', {n}, 'LVLX', '1', '0x{n:064x}', 0)"
            )
        };
        assert_eq!(ask().await.unwrap(), "1");
        assert_eq!(
            ask().await.unwrap(),
            "1",
            "nothing committed: the kept answer"
        );

        let v1 = store.snapshots.version().unwrap();
        store
            .write(|c| c.batch("CREATE TABLE scratch(x)"))
            .await
            .unwrap();
        assert_ne!(
            store.snapshots.version().unwrap(),
            v1,
            "this server's writer"
        );
        assert_eq!(
            ask().await.unwrap(),
            "1",
            "a commit to another table: still current"
        );

        store.write(move |c| c.batch(&buy(1))).await.unwrap();
        assert_eq!(ask().await.unwrap(), "2", "its own table, by this server");

        let v2 = store.snapshots.version().unwrap();
        let other = Connection::open(dir.path().join(FILE_NAME)).unwrap();
        other.execute("INSERT INTO scratch VALUES (1)", []).unwrap();
        assert_ne!(
            store.snapshots.version().unwrap(),
            v2,
            "another connection, as another process"
        );
        assert_eq!(ask().await.unwrap(), "2");
        other
            .execute("UPDATE ico_transactions SET amount = '2'", [])
            .unwrap();
        assert_eq!(
            ask().await.unwrap(),
            "3",
            "its own table, by another process"
        );
        other.execute("DELETE FROM ico_transactions", []).unwrap();
        assert_eq!(ask().await.unwrap(), "4", "a delete");
        assert_eq!(ask().await.unwrap(), "4");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn requests_that_miss_together_make_the_answer_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let made = Arc::new(AtomicUsize::new(0));
        let mut asks = tokio::task::JoinSet::new();
        for _ in 0..16 {
            let (store, made) = (store.clone(), made.clone());
            asks.spawn(async move {
                store
                    .snapshots
                    .get_or("k".into(), &["users"], move || async move {
                        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                        let n = made.fetch_add(1, Ordering::SeqCst) + 1;
                        Ok::<_, StoreError>(Bytes::from(n.to_string()))
                    })
                    .await
                    .unwrap()
            });
        }
        while let Some(answer) = asks.join_next().await {
            assert_eq!(answer.unwrap(), "1");
        }
        assert_eq!(made.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_table_without_a_version_is_an_error_not_a_forever_kept_answer() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        assert!(store.snapshots.tables_version(&["sessions"]).await.is_err());
        assert!(store
            .snapshots
            .tables_version(&["users", "ico_transactions", "ico_daily"])
            .await
            .is_ok());
    }
}
