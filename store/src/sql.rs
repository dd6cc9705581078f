//! The one call surface both storage backends answer: arguments in, cells out, in
//! the four types the schema uses (NULL, 64-bit integers, text, bytes). Store functions write
//! their SQL once, in the dialect SQLite and PostgreSQL share, with `?N` placeholders;
//! [`postgres_text`] turns it into PostgreSQL's (`$N`, `ON CONFLICT DO NOTHING`).
//!
//! Amounts never pass as numbers: base units travel as decimal text both ways
//! (docs/product/money.md#base-units).

use std::borrow::Cow;
use std::error::Error as StdError;

use lvlx_core::amount::Units;
use tokio_postgres::types::{FromSql, IsNull, ToSql, Type};

use super::{Result, StoreError};

/// A statement's argument.
#[derive(Debug, Clone)]
pub enum Arg<'a> {
    Null,
    Int(i64),
    Text(Cow<'a, str>),
    Blob(Cow<'a, [u8]>),
}

/// `args![a, b, c]`: a statement's arguments from anything [`Arg`] converts from.
#[macro_export]
macro_rules! args {
    () => { &[] as &[$crate::sql::Arg<'_>] };
    ($($a:expr),+ $(,)?) => { &[$($crate::sql::Arg::from($a)),+] as &[$crate::sql::Arg<'_>] };
}

macro_rules! int_args {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg<'_> {
            fn from(v: $t) -> Self {
                Arg::Int(i64::from(v))
            }
        }
    )*};
}
int_args!(i64, i32, u32, u16, u8, bool);

impl From<usize> for Arg<'_> {
    /// Counts and limits: far below 2^63 (a larger one is refused by the statement, as NULL).
    fn from(v: usize) -> Self {
        i64::try_from(v).map(Arg::Int).unwrap_or(Arg::Null)
    }
}

impl From<u64> for Arg<'_> {
    fn from(v: u64) -> Self {
        i64::try_from(v).map(Arg::Int).unwrap_or(Arg::Null)
    }
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(v: &'a str) -> Self {
        Arg::Text(Cow::Borrowed(v))
    }
}

impl<'a> From<&'a String> for Arg<'a> {
    fn from(v: &'a String) -> Self {
        Arg::Text(Cow::Borrowed(v))
    }
}

impl From<String> for Arg<'_> {
    fn from(v: String) -> Self {
        Arg::Text(Cow::Owned(v))
    }
}

impl<'a> From<&'a [u8]> for Arg<'a> {
    fn from(v: &'a [u8]) -> Self {
        Arg::Blob(Cow::Borrowed(v))
    }
}

impl<'a> From<&'a Vec<u8>> for Arg<'a> {
    fn from(v: &'a Vec<u8>) -> Self {
        Arg::Blob(Cow::Borrowed(v))
    }
}

impl From<Vec<u8>> for Arg<'_> {
    fn from(v: Vec<u8>) -> Self {
        Arg::Blob(Cow::Owned(v))
    }
}

impl<'a, T: Into<Arg<'a>>> From<Option<T>> for Arg<'a> {
    fn from(v: Option<T>) -> Self {
        v.map_or(Arg::Null, Into::into)
    }
}

impl<'a> From<&'a &str> for Arg<'a> {
    fn from(v: &'a &str) -> Self {
        Arg::Text(Cow::Borrowed(v))
    }
}

impl From<&i64> for Arg<'_> {
    fn from(v: &i64) -> Self {
        Arg::Int(*v)
    }
}

impl From<&Option<i64>> for Arg<'_> {
    fn from(v: &Option<i64>) -> Self {
        v.map_or(Arg::Null, Arg::Int)
    }
}

impl<'a> From<&'a Option<String>> for Arg<'a> {
    fn from(v: &'a Option<String>) -> Self {
        v.as_deref().map_or(Arg::Null, Into::into)
    }
}

impl rusqlite::ToSql for Arg<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, Value, ValueRef};
        Ok(match self {
            Arg::Null => ToSqlOutput::Borrowed(ValueRef::Null),
            Arg::Int(i) => ToSqlOutput::Owned(Value::Integer(*i)),
            Arg::Text(s) => ToSqlOutput::Borrowed(ValueRef::Text(s.as_bytes())),
            Arg::Blob(b) => ToSqlOutput::Borrowed(ValueRef::Blob(b)),
        })
    }
}

impl ToSql for Arg<'_> {
    /// Written as the type PostgreSQL inferred for the placeholder (an integer into a BIGINT,
    /// an INTEGER or a BOOLEAN; text into any text type), as SQLite would take it.
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut bytes::BytesMut,
    ) -> std::result::Result<IsNull, Box<dyn StdError + Sync + Send>> {
        match self {
            Arg::Null => Ok(IsNull::Yes),
            Arg::Int(i) => match *ty {
                Type::INT8 => i.to_sql(ty, out),
                Type::INT4 => i32::try_from(*i)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(*i)?.to_sql(ty, out),
                Type::BOOL => (*i != 0).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR => i.to_string().as_str().to_sql(ty, out),
                _ => Err(format!("an integer cannot be written as {ty}").into()),
            },
            Arg::Text(s) => match *ty {
                Type::INT8 => s.parse::<i64>()?.to_sql(ty, out),
                _ => s.as_ref().to_sql(ty, out),
            },
            Arg::Blob(b) => b.as_ref().to_sql(ty, out),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    tokio_postgres::types::to_sql_checked!();
}

/// One cell of a row, borrowed from it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cell<'a> {
    Null,
    Int(i64),
    Text(&'a str),
    Blob(&'a [u8]),
}

impl<'a> FromSql<'a> for Cell<'a> {
    fn from_sql(
        ty: &Type,
        raw: &'a [u8],
    ) -> std::result::Result<Cell<'a>, Box<dyn StdError + Sync + Send>> {
        Ok(match *ty {
            Type::INT8 => Cell::Int(i64::from_sql(ty, raw)?),
            Type::INT4 => Cell::Int(i32::from_sql(ty, raw)?.into()),
            Type::INT2 => Cell::Int(i16::from_sql(ty, raw)?.into()),
            Type::BOOL => Cell::Int(bool::from_sql(ty, raw)?.into()),
            Type::BYTEA => Cell::Blob(raw),
            Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME | Type::UNKNOWN => {
                Cell::Text(<&str>::from_sql(ty, raw)?)
            }
            _ => return Err(format!("a column of type {ty} (cast it to text or bigint)").into()),
        })
    }

    fn from_sql_null(_: &Type) -> std::result::Result<Cell<'a>, Box<dyn StdError + Sync + Send>> {
        Ok(Cell::Null)
    }

    fn accepts(_: &Type) -> bool {
        true
    }
}

/// What a cell can be read as.
pub trait Column: Sized {
    fn from_cell(cell: Cell<'_>) -> std::result::Result<Self, String>;
}

fn wrong(cell: Cell<'_>, what: &str) -> String {
    format!("{cell:?} is not {what}")
}

impl Column for i64 {
    fn from_cell(cell: Cell<'_>) -> std::result::Result<Self, String> {
        match cell {
            Cell::Int(i) => Ok(i),
            _ => Err(wrong(cell, "an integer")),
        }
    }
}

macro_rules! narrow_columns {
    ($($t:ty),*) => {$(
        impl Column for $t {
            fn from_cell(cell: Cell<'_>) -> std::result::Result<Self, String> {
                let wide = i64::from_cell(cell)?;
                <$t>::try_from(wide).map_err(|_| format!("{wide} out of range"))
            }
        }
    )*};
}
narrow_columns!(i32, u32, u16, u8, u64, usize);

impl Column for bool {
    fn from_cell(cell: Cell<'_>) -> std::result::Result<Self, String> {
        Ok(i64::from_cell(cell)? != 0)
    }
}

impl Column for String {
    fn from_cell(cell: Cell<'_>) -> std::result::Result<Self, String> {
        match cell {
            Cell::Text(s) => Ok(s.to_owned()),
            _ => Err(wrong(cell, "text")),
        }
    }
}

impl Column for Vec<u8> {
    fn from_cell(cell: Cell<'_>) -> std::result::Result<Self, String> {
        match cell {
            Cell::Blob(b) => Ok(b.to_vec()),
            _ => Err(wrong(cell, "bytes")),
        }
    }
}

impl<T: Column> Column for Option<T> {
    fn from_cell(cell: Cell<'_>) -> std::result::Result<Self, String> {
        match cell {
            Cell::Null => Ok(None),
            cell => T::from_cell(cell).map(Some),
        }
    }
}

/// A row of an answer, from either backend.
pub enum Row<'a> {
    Sqlite(&'a rusqlite::Row<'a>),
    Postgres(&'a tokio_postgres::Row),
}

impl Row<'_> {
    /// Cell `i`, borrowed.
    pub fn cell(&self, i: usize) -> Result<Cell<'_>> {
        use rusqlite::types::ValueRef;
        match self {
            Row::Sqlite(r) => Ok(match r.get_ref(i)? {
                ValueRef::Null => Cell::Null,
                ValueRef::Integer(v) => Cell::Int(v),
                ValueRef::Text(t) => Cell::Text(
                    std::str::from_utf8(t)
                        .map_err(|e| StoreError::Corrupt(format!("column {i}: {e}")))?,
                ),
                ValueRef::Blob(b) => Cell::Blob(b),
                ValueRef::Real(f) => {
                    return Err(StoreError::Corrupt(format!(
                        "column {i}: a real number {f}"
                    )))
                }
            }),
            Row::Postgres(r) => Ok(r.try_get::<_, Cell<'_>>(i)?),
        }
    }

    /// How many cells the row has.
    pub fn len(&self) -> usize {
        match self {
            Row::Sqlite(r) => r.as_ref().column_count(),
            Row::Postgres(r) => r.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Cell `i` as a `T`.
    pub fn get<T: Column>(&self, i: usize) -> Result<T> {
        T::from_cell(self.cell(i)?).map_err(|e| StoreError::Corrupt(format!("column {i}: {e}")))
    }

    /// Cell `i` as text, borrowed.
    pub fn text(&self, i: usize) -> Result<&str> {
        match self.cell(i)? {
            Cell::Text(text) => Ok(text),
            cell => Err(StoreError::Corrupt(format!(
                "column {i}: {cell:?} is not text"
            ))),
        }
    }

    /// Cell `i`, base-unit text, as units.
    pub fn units(&self, i: usize) -> Result<Units> {
        match self.cell(i)? {
            Cell::Text(text) => super::units(text),
            cell => Err(StoreError::Corrupt(format!("amount column {i}: {cell:?}"))),
        }
    }
}

/// The shared dialect as PostgreSQL reads it: `?N` → `$N`; `INSERT OR IGNORE INTO …` →
/// `INSERT INTO … ON CONFLICT DO NOTHING` (before a `RETURNING`). Quoted text is left alone.
pub fn postgres_text(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 24);
    let mut quoted = false;
    for ch in sql.chars() {
        match ch {
            '\'' => {
                quoted = !quoted;
                out.push(ch);
            }
            '?' if !quoted => out.push('$'),
            _ => out.push(ch),
        }
    }
    const IGNORE: &str = "INSERT OR IGNORE INTO";
    if let Some(at) = out.find(IGNORE) {
        out.replace_range(at..at + IGNORE.len(), "INSERT INTO");
        match out.find(" RETURNING ") {
            Some(returning) => out.insert_str(returning, " ON CONFLICT DO NOTHING"),
            None => out.push_str(" ON CONFLICT DO NOTHING"),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postgres_text_numbers_placeholders_and_ignores_conflicts() {
        assert_eq!(
            postgres_text("SELECT a FROM t WHERE b = ?1 AND c = '?' AND d = ?12"),
            "SELECT a FROM t WHERE b = $1 AND c = '?' AND d = $12"
        );
        assert_eq!(
            postgres_text("INSERT OR IGNORE INTO t (a) VALUES (?1)"),
            "INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING"
        );
        assert_eq!(
            postgres_text("INSERT OR IGNORE INTO t (a) VALUES (?1) RETURNING id"),
            "INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING RETURNING id"
        );
    }

    #[test]
    fn columns_read_what_they_are_and_refuse_the_rest() {
        assert_eq!(i64::from_cell(Cell::Int(7)), Ok(7));
        assert!(i64::from_cell(Cell::Text("7")).is_err());
        assert_eq!(Option::<String>::from_cell(Cell::Null), Ok(None));
        assert_eq!(bool::from_cell(Cell::Int(1)), Ok(true));
        assert!(u32::from_cell(Cell::Int(-1)).is_err());
    }
}
