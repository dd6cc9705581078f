//! Admin tables at scale (DESIGN §7): rows arrive as one Arrow IPC stream, stay in columns, and
//! the core answers every question the admin screens ask (date filter, search, sort, pages,
//! summary boxes, daily series, CSV) without one object per row.
//!
//! The schemas live here, so the server that writes a stream and the browser that reads it agree
//! by construction. Rows arrive in the order the tables number them: registration or operation
//! date ascending (SPEC §9).

pub mod columns;
pub mod ico;
pub mod users;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use crate::date::parse_day;

const DAY_MS: i64 = 86_400_000;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    #[error("unreadable Arrow stream: {0}")]
    Arrow(String),
    #[error("column {0} is missing or has the wrong type")]
    Column(String),
    #[error("rows are not in date order")]
    Order,
    #[error("malformed date {0}")]
    Date(String),
    #[error("amount out of range")]
    Overflow,
    #[error("unknown sort column {0}")]
    SortColumn(String),
}

/// What a screen asks of a table: an inclusive calendar-date range in the viewer's time zone,
/// a search text and a sort. Absent bounds are open.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Query {
    pub start: Option<String>,
    pub end: Option<String>,
    /// Viewer's local time minus UTC, in minutes (east positive).
    #[serde(default)]
    pub offset_minutes: i32,
    #[serde(default)]
    pub search: String,
    pub sort: Option<Sort>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Sort {
    pub column: String,
    pub direction: Direction,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Desc,
    Asc,
}

/// The sort after a click on `column` (SPEC §2 data table: descending → ascending → none).
pub fn next_sort(current: Option<&Sort>, column: &str) -> Option<Sort> {
    let direction = match current {
        Some(s) if s.column == column => match s.direction {
            Direction::Desc => Direction::Asc,
            Direction::Asc => return None,
        },
        _ => Direction::Desc,
    };
    Some(Sort {
        column: column.to_string(),
        direction,
    })
}

/// Half-open UTC millisecond bounds of an inclusive calendar-date range seen at `offset_minutes`.
/// A date D at offset o covers UTC [D·day − o, (D+1)·day − o).
pub fn millis_bounds(query: &Query) -> Result<(i64, i64), TableError> {
    let offset_ms = i64::from(query.offset_minutes) * 60_000;
    let day_ms = |text: &String| -> Result<i64, TableError> {
        let day = parse_day(text).ok_or_else(|| TableError::Date(text.clone()))?;
        Ok(days_since_epoch(day) * DAY_MS)
    };
    let lo = match &query.start {
        Some(s) => day_ms(s)? - offset_ms,
        None => i64::MIN,
    };
    let hi = match &query.end {
        Some(e) => day_ms(e)? + DAY_MS - offset_ms,
        None => i64::MAX,
    };
    Ok((lo, hi))
}

fn days_since_epoch(day: NaiveDate) -> i64 {
    i64::from(day.signed_duration_since(NaiveDate::default()).num_days() as i32)
}

/// Case-insensitive search needle; empty means no search.
pub(crate) fn needle(search: &str) -> Option<String> {
    let trimmed = search.trim();
    (!trimmed.is_empty()).then(|| trimmed.to_lowercase())
}

/// A set of row (or key) numbers.
#[derive(Debug, Clone)]
pub(crate) struct BitSet(Vec<u64>);

impl BitSet {
    pub fn new(len: usize) -> BitSet {
        BitSet(vec![0; len.div_ceil(64)])
    }
    #[inline]
    pub fn insert(&mut self, i: usize) -> bool {
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        let fresh = self.0[word] & bit == 0;
        self.0[word] |= bit;
        fresh
    }
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.0[i / 64] & (1u64 << (i % 64)) != 0
    }
}

/// The rows a query kept, in date order, and the order the screen shows them in.
#[derive(Debug, Clone, Default)]
pub(crate) struct View {
    /// Kept rows, ascending (= date order). A row's N° is its position here plus one.
    pub kept: Vec<u32>,
    /// Kept rows in display order; `None` while unsorted (display order = `kept`).
    pub sorted: Option<Vec<u32>>,
}

impl View {
    pub fn len(&self) -> usize {
        self.kept.len()
    }

    /// Rows `from..from + len` of the display order, each with its N°.
    pub fn page(&self, from: usize, len: usize) -> Vec<(usize, u32)> {
        let order = self.sorted.as_deref().unwrap_or(&self.kept);
        order
            .iter()
            .skip(from)
            .take(len)
            .map(|&row| (self.number(row), row))
            .collect()
    }

    /// Every kept row in display order.
    pub fn rows(&self) -> impl Iterator<Item = (usize, u32)> + '_ {
        let order = self.sorted.as_deref().unwrap_or(&self.kept);
        order.iter().map(|&row| (self.number(row), row))
    }

    fn number(&self, row: u32) -> usize {
        self.kept.binary_search(&row).map_or(0, |i| i + 1)
    }

    /// Sorts the kept rows by a whole-table ascending permutation of the column.
    pub fn sort_by(&mut self, ascending: &[u32], direction: Direction, total_rows: usize) {
        let mut keep = BitSet::new(total_rows);
        for &row in &self.kept {
            keep.insert(row as usize);
        }
        let pick = |row: &&u32| keep.contains(**row as usize);
        self.sorted = Some(match direction {
            Direction::Asc => ascending.iter().filter(pick).copied().collect(),
            Direction::Desc => ascending.iter().rev().filter(pick).copied().collect(),
        });
    }
}

/// A stable ascending permutation of rows by `key`.
pub(crate) fn permutation_by<K: Ord + Copy>(rows: usize, key: impl Fn(usize) -> K) -> Vec<u32> {
    let mut keyed: Vec<(K, u32)> = (0..rows).map(|r| (key(r), r as u32)).collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, r)| r).collect()
}

/// Ranks of strings in ascending (case-insensitive, then exact) order, for sorting by a text
/// column through its dictionary.
pub(crate) fn text_ranks<'a>(values: impl Iterator<Item = &'a str>) -> Vec<u32> {
    let values: Vec<&str> = values.collect();
    let mut order: Vec<u32> = (0..values.len() as u32).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (values[a as usize], values[b as usize]);
        a.to_lowercase().cmp(&b.to_lowercase()).then(a.cmp(b))
    });
    let mut ranks = vec![0; values.len()];
    for (rank, &i) in order.iter().enumerate() {
        ranks[i as usize] = rank as u32;
    }
    ranks
}

/// Quotes a CSV field when it needs it (RFC 4180), and defuses spreadsheet formulas.
pub(crate) fn csv_field(out: &mut String, text: &str) {
    let formula = text.starts_with(['=', '+', '-', '@']);
    if formula || text.contains([',', '"', '\n', '\r']) {
        out.push('"');
        if formula {
            out.push('\'');
        }
        out.push_str(&text.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(text);
    }
}

/// ISO-8601 UTC text of a millisecond timestamp, for exports.
pub(crate) fn iso(ms: i64) -> String {
    chrono::DateTime::<chrono::Utc>::from_timestamp_millis(ms)
        .map(|t| t.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(start: &str, end: &str, offset: i32) -> Query {
        Query {
            start: Some(start.into()),
            end: Some(end.into()),
            offset_minutes: offset,
            ..Query::default()
        }
    }

    #[test]
    fn bounds_follow_the_viewer_calendar() {
        // 2024-03-01 in UTC-03:00 starts at 03:00 UTC.
        let (lo, hi) = millis_bounds(&q("2024-03-01", "2024-03-01", -180)).unwrap();
        assert_eq!(lo, 1_709_262_000_000);
        assert_eq!(hi - lo, DAY_MS);
        for ms in [lo, lo + 1, hi - 1, lo - 1, hi] {
            let inside = ms >= lo && ms < hi;
            assert_eq!(
                Some(inside),
                crate::date::timestamp_in_range(ms, -180, Some("2024-03-01"), Some("2024-03-01"))
            );
        }
        assert!(millis_bounds(&q("2024-02-30", "2024-03-01", 0)).is_err());
    }

    #[test]
    fn sort_cycles_desc_asc_none() {
        let first = next_sort(None, "amount").unwrap();
        assert_eq!(first.direction, Direction::Desc);
        let second = next_sort(Some(&first), "amount").unwrap();
        assert_eq!(second.direction, Direction::Asc);
        assert_eq!(next_sort(Some(&second), "amount"), None);
        assert_eq!(
            next_sort(Some(&second), "email").unwrap().direction,
            Direction::Desc
        );
    }

    #[test]
    fn csv_quotes_and_defuses() {
        let mut out = String::new();
        csv_field(&mut out, "=HYPERLINK(\"x\")");
        assert_eq!(out, "\"'=HYPERLINK(\"\"x\"\")\"");
    }
}
