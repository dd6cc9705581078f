//! `lvlx db backup FILE` and `lvlx db restore FILE` for the SQLite store.
//!
//! A backup is `VACUUM INTO`: one read transaction of its own, so it is a consistent copy of
//! the database as of one instant even while the server writes (WAL: writers go on meanwhile),
//! compacted, in one file with no WAL beside it. It is written under a temporary name beside
//! FILE and renamed once SQLite's integrity check passes, so FILE is a whole backup or absent.
//!
//! A restore refuses while a server holds the data folder ([`DataLock`]), checks the file's
//! integrity and schema, keeps the database it replaces beside it
//! (`lvlx.sqlite3.replaced-{ms}`), and puts the backup in place by rename.
//!
//! PostgreSQL has its own tools (pg_dump, or a base backup with WAL archiving):
//! docs/operations.md#backups.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::{Connection, OpenFlags};

use super::copy::{self, Table};
use super::{Conn, FILE_NAME};

/// What a backup or a restore did.
#[derive(Debug)]
pub struct Report {
    pub file: PathBuf,
    pub bytes: u64,
    pub took: Duration,
    pub schema: i64,
    /// Every table's rows and money sums in the copy.
    pub tables: Vec<Table>,
}

#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("no SQLite database in {0}")]
    NoDatabase(String),
    #[error("{0} exists: back up into a new file")]
    Exists(String),
    #[error("a server is using {0}: stop it before restoring")]
    InUse(String),
    #[error("{0} is not a sound LVLX database: {1}")]
    Unsound(String, String),
    #[error("{0} is at schema {1}, newer than this server's {2}: restore with a newer lvlx")]
    Newer(String, i64, i64),
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("{0}")]
    Store(#[from] super::StoreError),
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
}

/// The lock a serving process holds on its data folder (`lvlx.lock`): a second server, or a
/// restore, on the same folder is refused while it lives. The operating system releases it
/// when the process ends, however it ends.
pub struct DataLock(#[allow(dead_code)] std::fs::File);

impl DataLock {
    /// Takes the folder's lock, or answers None when another process holds it.
    pub fn take(data_dir: &Path) -> std::io::Result<Option<DataLock>> {
        std::fs::create_dir_all(data_dir)?;
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(data_dir.join("lvlx.lock"))?;
        match file.try_lock() {
            Ok(()) => Ok(Some(DataLock(file))),
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            Err(std::fs::TryLockError::Error(e)) => Err(e),
        }
    }
}

/// Copies the database of `data_dir` into `file` (which must not exist), while a server may
/// be writing to it.
pub fn backup(data_dir: &Path, file: &Path) -> Result<Report, BackupError> {
    let started = Instant::now();
    let source = data_dir.join(FILE_NAME);
    if !source.exists() {
        return Err(BackupError::NoDatabase(data_dir.display().to_string()));
    }
    if file.exists() {
        return Err(BackupError::Exists(file.display().to_string()));
    }
    let temp = with_suffix(file, &format!(".part-{}", std::process::id()));
    let _ = std::fs::remove_file(&temp);
    let conn = Connection::open_with_flags(&source, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    conn.busy_timeout(Duration::from_secs(30))?;
    let written = conn.execute("VACUUM INTO ?1", [temp.to_string_lossy()]);
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(e.into());
    }
    let checked = inspect(&temp);
    let (schema, tables) = match checked {
        Ok(found) => found,
        Err(e) => {
            let _ = std::fs::remove_file(&temp);
            return Err(e);
        }
    };
    // On disk before it has its name; the name never replaces a file made meanwhile.
    std::fs::File::open(&temp)
        .and_then(|f| f.sync_all())
        .map_err(|e| io(&temp, e))?;
    let named = std::fs::hard_link(&temp, file).map_err(|e| io(file, e));
    let _ = std::fs::remove_file(&temp);
    named?;
    Ok(Report {
        bytes: size(file)?,
        file: file.to_path_buf(),
        took: started.elapsed(),
        schema,
        tables,
    })
}

/// Puts the backup `file` in place as the database of `data_dir`, keeping the one it replaces.
pub fn restore(file: &Path, data_dir: &Path) -> Result<Report, BackupError> {
    let started = Instant::now();
    let Some(_lock) = DataLock::take(data_dir).map_err(|e| io(data_dir, e))? else {
        return Err(BackupError::InUse(data_dir.display().to_string()));
    };
    let (schema, tables) = inspect(file)?;
    let current = super::migrations::SQLITE
        .iter()
        .map(|(version, _)| *version)
        .max()
        .unwrap_or(0);
    if schema > current {
        return Err(BackupError::Newer(
            file.display().to_string(),
            schema,
            current,
        ));
    }
    let target = data_dir.join(FILE_NAME);
    let temp = with_suffix(&target, ".restoring");
    std::fs::copy(file, &temp).map_err(|e| io(&temp, e))?;
    std::fs::File::open(&temp)
        .and_then(|f| f.sync_all())
        .map_err(|e| io(&temp, e))?;
    if target.exists() {
        // The database a restore replaces is kept until the operator drops it: its WAL folded
        // into it first (so no WAL of it is left beside the backup), then a second name for
        // it; the backup then takes the name in one rename, so there is never a moment
        // without a database at the name (a crash leaves the old one or the new one).
        let old = Connection::open(&target)?;
        old.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        drop(old);
        let kept = with_suffix(&target, &format!(".replaced-{}", crate::now_ms()));
        std::fs::hard_link(&target, &kept).map_err(|e| io(&kept, e))?;
        for ending in ["-wal", "-shm"] {
            let _ = std::fs::remove_file(with_suffix(&target, ending));
        }
    }
    std::fs::rename(&temp, &target).map_err(|e| io(&target, e))?;
    Ok(Report {
        bytes: size(&target)?,
        file: target,
        took: started.elapsed(),
        schema,
        tables,
    })
}

/// A database file's integrity, its schema version and every table's figures.
fn inspect(path: &Path) -> Result<(i64, Vec<Table>), BackupError> {
    let name = path.display().to_string();
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|e| BackupError::Unsound(name.clone(), e.to_string()))?;
    let integrity: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .map_err(|e| BackupError::Unsound(name.clone(), e.to_string()))?;
    if integrity != "ok" {
        return Err(BackupError::Unsound(name, integrity));
    }
    let schema = super::schema_version(Conn::sqlite(&conn))?;
    let tables = copy::books(Conn::sqlite(&conn))?;
    Ok((schema, tables))
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

fn size(path: &Path) -> Result<u64, BackupError> {
    Ok(std::fs::metadata(path).map_err(|e| io(path, e))?.len())
}

fn io(path: &Path, e: std::io::Error) -> BackupError {
    BackupError::Io(path.display().to_string(), e)
}
