//! `lvlx db copy`: a SQLite database into an empty PostgreSQL one, table by table
//! with PostgreSQL's COPY, then verified: every table's row count and every money column's
//! sum (base units, summed exactly in 128 bits) must be equal on both sides.

use bytes::Bytes;

use super::sql::{Arg, Cell};
use super::{pg, units, Backend, Conn, Result, Store, StoreError};
use crate::args;
pub use crate::tables::NOT_COPIED;
use crate::tables::{ALL, SEEDED};

/// The names of the tables the copy moves, parents before children.
pub fn tables() -> impl Iterator<Item = &'static str> {
    ALL.iter().map(|t| t.name)
}

/// Every table with its money columns.
fn each() -> impl Iterator<Item = (&'static str, &'static [&'static str])> {
    ALL.iter().map(|t| (t.name, t.money))
}

/// Tables whose ids PostgreSQL numbers itself: their sequences continue after the copied ids.
const NUMBERED: &[&str] = &[
    "users",
    "ico_transactions",
    "secret_audit",
    "ranks",
    "admin_audit",
    "claims",
    "chain_reversals",
    "books_checks",
    "owner_proposals",
];

/// One table as both sides hold it after the copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    pub name: &'static str,
    pub rows: u64,
    /// (column, sum in base units) of each money column.
    pub sums: Vec<(&'static str, u128)>,
}

#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    #[error("{0}")]
    Store(#[from] StoreError),
    #[error("copy between a SQLite store and a PostgreSQL one")]
    Backends,
    #[error("the PostgreSQL database is not empty ({0} has rows); copy into a new database")]
    NotEmpty(&'static str),
    #[error(
        "verification failed: {table} is {source_side:?} in the source and {target:?} in the copy"
    )]
    Differs {
        table: &'static str,
        source_side: Table,
        target: Table,
    },
}

/// Copies `from` (SQLite) into `to` (PostgreSQL, freshly migrated and empty), then verifies.
/// Answers each table's figures, equal on both sides.
pub async fn copy(from: &Store, to: &Store) -> Result<Vec<Table>, CopyError> {
    let (Backend::Sqlite(sqlite), Backend::Postgres(pool)) = (&from.backend, &to.backend) else {
        return Err(CopyError::Backends);
    };
    let (sqlite, pool) = (sqlite.clone(), pool.clone());
    tokio::task::spawn_blocking(move || {
        let source = super::reader(&sqlite.path)?;
        let target = std::cell::RefCell::new(pool.session()?);
        copy_tables(Conn::sqlite(&source), &target)?;
        verify(Conn::sqlite(&source), Conn::postgres(&target))
    })
    .await
    .map_err(|e| StoreError::Task(e.to_string()))?
}

/// Copies `from` (PostgreSQL) into `to` (SQLite, freshly migrated): every table as of one
/// snapshot of `from` (a repeatable-read transaction), then verifies rows and money sums as
/// [`copy`] does. `lvlx books verify` works on such a copy of a PostgreSQL store.
pub async fn into_sqlite(from: &Store, to: &Store) -> Result<Vec<Table>, CopyError> {
    let (Backend::Postgres(pool), Backend::Sqlite(_)) = (&from.backend, &to.backend) else {
        return Err(CopyError::Backends);
    };
    let pool = pool.clone();
    to.write(move |t| {
        let session = std::cell::RefCell::new(pool.session()?);
        Conn::postgres(&session).transaction(|s| {
            s.batch("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")?;
            t.transaction(|t| copy_rows(s, t))?;
            verify(s, t)
        })
    })
    .await
}

/// A SQLite table's columns, in their order.
fn columns(c: Conn, table: &str) -> Result<Vec<String>> {
    c.query_all(
        &format!("SELECT name FROM pragma_table_info('{table}') ORDER BY cid"),
        args![],
        |r| r.get(0),
    )
}

/// Each table's figures on both sides, which must be equal.
fn verify(source: Conn, target: Conn) -> Result<Vec<Table>, CopyError> {
    let mut out = Vec::new();
    for (name, money) in each() {
        let (left, right) = (figures(source, name, money)?, figures(target, name, money)?);
        if left != right {
            return Err(CopyError::Differs {
                table: name,
                source_side: left,
                target: right,
            });
        }
        out.push(left);
    }
    Ok(out)
}

/// Every table's rows from `source` into `target` (of the same schema; what its migration
/// wrote first is replaced).
fn copy_rows(source: Conn, target: Conn) -> Result<(), CopyError> {
    // References are checked at commit: rows come in id order, but a sponsor's id may follow
    // its member's after an edit.
    target.batch("PRAGMA defer_foreign_keys = ON")?;
    for name in SEEDED {
        target.execute(&format!("DELETE FROM {name}"), args![])?;
    }
    for (name, _) in each() {
        let columns = columns(target, name)?;
        let list = columns.join(", ");
        let marks: Vec<String> = (1..=columns.len()).map(|i| format!("?{i}")).collect();
        let insert = format!("INSERT INTO {name} ({list}) VALUES ({})", marks.join(", "));
        let order = if NUMBERED.contains(&name) {
            " ORDER BY id"
        } else {
            ""
        };
        source.query_each(&format!("SELECT {list} FROM {name}{order}"), args![], |r| {
            let cells = (0..r.len())
                .map(|i| {
                    Ok(match r.cell(i)? {
                        Cell::Null => Arg::Null,
                        Cell::Int(n) => Arg::Int(n),
                        Cell::Text(s) => Arg::Text(s.into()),
                        Cell::Blob(b) => Arg::Blob(b.into()),
                    })
                })
                .collect::<Result<Vec<Arg>>>()?;
            target.execute(&insert, &cells)?;
            Ok(())
        })?;
    }
    Ok(())
}

fn copy_tables(source: Conn, target: &std::cell::RefCell<pg::Session>) -> Result<(), CopyError> {
    let t = Conn::postgres(target);
    for (name, _) in each() {
        // A new database holds only what its migration wrote: those are the source's to give.
        if !SEEDED.contains(&name) && count(t, name)? > 0 {
            return Err(CopyError::NotEmpty(name));
        }
    }
    t.transaction(|t| {
        for name in SEEDED {
            t.execute(&format!("DELETE FROM {name}"), args![])?;
        }
        for (name, _) in each() {
            let columns = columns(source, name)?;
            let list = columns.join(", ");
            let order = if NUMBERED.contains(&name) {
                " ORDER BY id"
            } else {
                ""
            };
            let mut session = target
                .try_borrow_mut()
                .map_err(|_| StoreError::Task("copy target in use".into()))?;
            session.copy_in(&format!("COPY {name} ({list}) FROM STDIN"), |send| {
                let mut chunk = String::with_capacity(1 << 20);
                source.query_each(&format!("SELECT {list} FROM {name}{order}"), args![], |r| {
                    for i in 0..r.len() {
                        if i > 0 {
                            chunk.push('\t');
                        }
                        copy_text(&mut chunk, r.cell(i)?);
                    }
                    chunk.push('\n');
                    if chunk.len() >= 1 << 20 {
                        send(Bytes::from(std::mem::take(&mut chunk)))?;
                    }
                    Ok(())
                })?;
                if !chunk.is_empty() {
                    send(Bytes::from(chunk))?;
                }
                Ok(())
            })?;
        }
        continue_numbering(t)
    })?;
    Ok(())
}

/// A cell in COPY's text format.
fn copy_text(out: &mut String, cell: Cell<'_>) {
    match cell {
        Cell::Null => out.push_str("\\N"),
        Cell::Int(i) => out.push_str(&i.to_string()),
        Cell::Text(s) => {
            for ch in s.chars() {
                match ch {
                    '\\' => out.push_str("\\\\"),
                    '\t' => out.push_str("\\t"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    _ => out.push(ch),
                }
            }
        }
        Cell::Blob(b) => {
            out.push_str("\\\\x");
            out.push_str(&hex::encode(b));
        }
    }
}

fn count(c: Conn, table: &str) -> Result<u64> {
    c.query_one(&format!("SELECT COUNT(*) FROM {table}"), args![], |r| {
        r.get(0)
    })
}

/// Every copied table's rows and money sums in one database: what a backup or a copy reports,
/// and what two databases that should hold the same books are compared by.
pub fn books(c: Conn) -> Result<Vec<Table>> {
    let exists = |name: &str| -> Result<bool> {
        let sql = match c.dialect() {
            super::Dialect::Sqlite => {
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?1"
            }
            super::Dialect::Postgres => "SELECT COUNT(*) FROM pg_tables WHERE tablename = ?1",
        };
        Ok(c.query_one(sql, args![name], |r| r.get::<i64>(0))? > 0)
    };
    // A database of an older schema (a backup before an upgrade) lacks the newer tables.
    let mut out = Vec::new();
    for (name, money) in each() {
        if exists(name)? {
            out.push(figures(c, name, money)?);
        }
    }
    Ok(out)
}

/// A table's row count and the exact sums of its money columns.
fn figures(c: Conn, name: &'static str, money: &[&'static str]) -> Result<Table> {
    let mut sums = Vec::new();
    for column in money {
        let mut sum: u128 = 0;
        c.query_each(
            &format!("SELECT {column} FROM {name} WHERE {column} IS NOT NULL"),
            args![],
            |r| {
                let value = units(r.text(0)?)?;
                sum = sum
                    .checked_add(value)
                    .ok_or_else(|| super::overflow(column))?;
                Ok(())
            },
        )?;
        sums.push((*column, sum));
    }
    Ok(Table {
        name,
        rows: count(c, name)?,
        sums,
    })
}

/// After writing explicit ids (the seed), PostgreSQL's sequences continue after them; SQLite
/// needs nothing.
pub fn continue_numbering(c: Conn) -> Result<()> {
    if c.dialect() == super::Dialect::Postgres {
        for name in NUMBERED {
            c.execute(
                &format!(
                    "SELECT setval(pg_get_serial_sequence('{name}', 'id'), COALESCE(MAX(id), 0) + 1, false) FROM {name}"
                ),
                args![],
            )?;
        }
    }
    Ok(())
}
