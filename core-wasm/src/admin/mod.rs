//! Admin tables at scale (docs/product/admin.md#tables-at-scale): rows arrive as one Arrow IPC
//! stream, stay in columns, and the core answers every question the admin screens ask (date filter,
//! search, sort, pages, summary boxes, daily series, CSV) without one object per row.
//!
//! The schemas live here, so the server that writes a stream and the browser that reads it agree
//! by construction. Rows arrive in the order the tables number them: registration or operation
//! date ascending (docs/product/admin.md#tables-at-scale).

pub mod audit;
pub mod columns;
pub mod declared;
pub mod engine;
pub mod ico;
pub mod nodes;
pub mod series;
pub mod stakes;
pub mod users;

/// Every table's columns as declared once, by the name the page asks for them with
/// (`adminColumns`, `web/src/common/declaredColumns.jsx`).
pub const DECLARED: &[(&str, &[declared::Column])] = &[
    ("users", users::COLUMNS),
    ("nodes", nodes::COLUMNS),
    ("ico", ico::COLUMNS),
    ("nft-entries", stakes::entries::NFT_COLUMNS),
    ("lvlx-entries", stakes::entries::LVLX_COLUMNS),
    ("nft-stakers", stakes::stakers::NFT_COLUMNS),
    ("lvlx-stakers", stakes::stakers::LVLX_COLUMNS),
    ("audit", audit::COLUMNS),
];

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use crate::date::parse_day;

pub(crate) const DAY_MS: i64 = 86_400_000;

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
    #[error("the start date is after the end date")]
    Reversed,
    #[error("amount out of range")]
    Overflow,
    #[error("unknown sort column {0}")]
    SortColumn(String),
    #[error("unknown filter value {0}")]
    Filter(String),
}

impl TableError {
    /// Translation key: a date a person typed, or data the screen cannot read.
    pub fn key(&self) -> &'static str {
        match self {
            TableError::Date(_) => "error-date-malformed",
            TableError::Reversed => "error-date-range",
            _ => "error-table-unreadable",
        }
    }
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
    /// The users table's KYC filter ("none" | "pending" | "approved" | "rejected"); the other
    /// tables have no KYC column and ignore it.
    #[serde(default)]
    pub kyc: Option<String>,
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

/// The sort after a click on `column` (docs/product/screens.md#data-tables: descending → ascending
/// → none).
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
    if lo >= hi {
        return Err(TableError::Reversed);
    }
    Ok((lo, hi))
}

fn days_since_epoch(day: NaiveDate) -> i64 {
    i64::from(day.signed_duration_since(NaiveDate::default()).num_days() as i32)
}

/// First and last calendar dates of date-ordered rows at the viewer's offset; today when there
/// are none (docs/product/api.md#calls).
pub(crate) fn date_range(created: &[i64], offset_minutes: i32, now_ms: i64) -> (String, String) {
    let day = |ms| crate::date::calendar_date(ms, offset_minutes).unwrap_or_default();
    match (created.first(), created.last()) {
        (Some(&first), Some(&last)) => (day(first), day(last)),
        _ => (day(now_ms), day(now_ms)),
    }
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

/// The rows a query kept, ascending (= date order). A row's N° is its position here plus one.
/// A date filter alone keeps one contiguous range, which is never materialised.
#[derive(Debug, Clone)]
pub(crate) enum Kept {
    Range(u32, u32),
    Rows(Vec<u32>),
}

impl Default for Kept {
    fn default() -> Kept {
        Kept::Range(0, 0)
    }
}

impl Kept {
    pub fn len(&self) -> usize {
        match self {
            Kept::Range(from, to) => to.saturating_sub(*from) as usize,
            Kept::Rows(rows) => rows.len(),
        }
    }
    #[inline]
    pub fn get(&self, i: usize) -> u32 {
        match self {
            Kept::Range(from, _) => from + i as u32,
            Kept::Rows(rows) => rows[i],
        }
    }
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = u32> + Clone + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
    fn position(&self, row: u32) -> Option<usize> {
        match self {
            Kept::Range(from, to) => (*from..*to).contains(&row).then(|| (row - from) as usize),
            Kept::Rows(rows) => rows.binary_search(&row).ok(),
        }
    }
}

/// Display order of the kept rows.
#[derive(Debug, Clone, Default)]
pub(crate) enum Order {
    /// Date ascending (unsorted, or sorted by date ascending).
    #[default]
    Kept,
    /// Date descending.
    Reversed,
    /// Sorted by another column.
    Rows(Vec<u32>),
}

#[derive(Debug, Clone, Default)]
pub(crate) struct View {
    pub kept: Kept,
    pub order: Order,
}

impl View {
    pub fn new(kept: Kept) -> View {
        View {
            kept,
            order: Order::Kept,
        }
    }

    pub fn len(&self) -> usize {
        self.kept.len()
    }

    fn at(&self, i: usize) -> u32 {
        match &self.order {
            Order::Kept => self.kept.get(i),
            Order::Reversed => self.kept.get(self.len() - 1 - i),
            Order::Rows(rows) => rows[i],
        }
    }

    /// Rows `from..from + len` of the display order, each with its N°.
    pub fn page(&self, from: usize, len: usize) -> Vec<(usize, u32)> {
        (from..self.len().min(from.saturating_add(len)))
            .map(|i| {
                let row = self.at(i);
                (self.number(row), row)
            })
            .collect()
    }

    /// Every kept row in display order.
    pub fn rows(&self) -> impl Iterator<Item = (usize, u32)> + '_ {
        (0..self.len()).map(|i| {
            let row = self.at(i);
            (self.number(row), row)
        })
    }

    fn number(&self, row: u32) -> usize {
        self.kept.position(row).map_or(0, |i| i + 1)
    }

    /// Date order, ascending or descending: no work.
    pub fn by_date(&mut self, direction: Direction) {
        self.order = match direction {
            Direction::Asc => Order::Kept,
            Direction::Desc => Order::Reversed,
        };
    }

    /// Sorts the kept rows by a whole-table ascending permutation of the column.
    pub fn sort_by(&mut self, ascending: &[u32], direction: Direction, total_rows: usize) {
        let picked: Vec<u32> = match &self.kept {
            Kept::Range(from, to) => {
                let (from, to) = (*from, *to);
                let pick = |row: &&u32| (from..to).contains(*row);
                match direction {
                    Direction::Asc => ascending.iter().filter(pick).copied().collect(),
                    Direction::Desc => ascending.iter().rev().filter(pick).copied().collect(),
                }
            }
            Kept::Rows(rows) => {
                let mut keep = BitSet::new(total_rows);
                for &row in rows {
                    keep.insert(row as usize);
                }
                let pick = |row: &&u32| keep.contains(**row as usize);
                match direction {
                    Direction::Asc => ascending.iter().filter(pick).copied().collect(),
                    Direction::Desc => ascending.iter().rev().filter(pick).copied().collect(),
                }
            }
        };
        self.order = Order::Rows(picked);
    }
}

/// A stable ascending permutation of rows by `key`.
pub(crate) fn permutation_by<K: Ord + Copy>(rows: usize, key: impl Fn(usize) -> K) -> Vec<u32> {
    let mut keyed: Vec<(K, u32)> = (0..rows).map(|r| (key(r), r as u32)).collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, r)| r).collect()
}

/// A stable ascending permutation of rows by an amount. Comparison-sorting 10^6 (u128, row)
/// pairs takes a quarter of a second in WebAssembly; instead each row becomes one u64 that
/// sorts like its amount: the amount's bit length and leading bits (a floating-point-like key,
/// so small and huge amounts keep the same relative precision) above the row number. Those are
/// radix-sorted, and the rare rows whose keys tie but whose amounts differ are then put in
/// exact order.
pub(crate) fn permutation_by_amount(rows: usize, value: impl Fn(usize) -> u128) -> Vec<u32> {
    const LENGTH_BITS: u32 = 8;
    let row_bits = u64::BITS - (rows.max(1) as u64 - 1).leading_zeros();
    let mantissa_bits = u64::BITS - row_bits - LENGTH_BITS;
    let key = |v: u128| -> u64 {
        let length = 128 - v.leading_zeros();
        let mantissa = if length <= mantissa_bits {
            v << (mantissa_bits - length)
        } else {
            v >> (length - mantissa_bits)
        };
        (u64::from(length) << mantissa_bits) | mantissa as u64
    };
    let rows_mask = (1u64 << row_bits) - 1;
    let mut keys: Vec<u64> = (0..rows)
        .map(|r| (key(value(r)) << row_bits) | r as u64)
        .collect();
    // Stable on the amount part alone: equal amounts keep row order, and the digits that
    // hold only row numbers cost no pass.
    radsort::sort_by_key(&mut keys, |&k| k >> row_bits);
    let mut order: Vec<u32> = keys.iter().map(|k| (k & rows_mask) as u32).collect();
    // Only keys of amounts longer than the mantissa can tie without being equal.
    let exact_below = (u64::from(mantissa_bits) + 1) << (mantissa_bits + row_bits);
    let mut start = keys.partition_point(|&k| k < exact_below);
    let leading = |k: u64| k >> row_bits;
    while start < rows {
        let mut end = start + 1;
        while end < rows && leading(keys[end]) == leading(keys[start]) {
            end += 1;
        }
        if end - start > 1 {
            let run = &mut order[start..end];
            let first = value(run[0] as usize);
            if run.iter().any(|&r| value(r as usize) != first) {
                run.sort_unstable_by_key(|&r| (value(r as usize), r));
            }
        }
        start = end;
    }
    order
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
    csv_field_in(out, text, ',');
}

/// A CSV field between `separator`s: quoted when it holds the separator, a quote or a line
/// break; a text a spreadsheet would read as a formula is quoted and starts with `'`.
pub(crate) fn csv_field_in(out: &mut String, text: &str, separator: char) {
    let formula = text.starts_with(['=', '+', '-', '@']);
    if formula || text.contains([separator, '"', '\n', '\r']) {
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

    #[test]
    fn a_start_after_the_end_is_an_error_not_a_wrapped_range() {
        let query = |start: &str, end: &str| Query {
            start: Some(start.into()),
            end: Some(end.into()),
            ..Query::default()
        };
        assert!(millis_bounds(&query("2024-03-01", "2024-03-01")).is_ok());
        assert_eq!(
            millis_bounds(&query("2024-03-02", "2024-03-01")),
            Err(TableError::Reversed)
        );
        assert_eq!(TableError::Reversed.key(), "error-date-range");
        // Five-digit years are not dates a filter takes.
        assert!(matches!(
            millis_bounds(&query("20245-03-02", "2024-03-01")),
            Err(TableError::Date(_))
        ));
        assert_eq!(Kept::Range(5, 3).len(), 0);
    }

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
    fn amount_permutation_is_exact_and_stable() {
        // Values that tie in their leading bits but differ below, and exact ties.
        let values: Vec<u128> = vec![
            u128::MAX >> 1,
            5,
            (1 << 100) + 3,
            (1 << 100) + 1,
            5,
            0,
            (1 << 100) + 1,
            7,
        ];
        let got = permutation_by_amount(values.len(), |r| values[r]);
        let want = permutation_by(values.len(), |r| values[r]);
        assert_eq!(got, want);
        assert_eq!(got, vec![5, 1, 4, 7, 3, 6, 2, 0]);
    }

    #[test]
    fn amount_permutation_is_exact_when_many_rows_share_leading_bits() {
        // 5000 rows: 13 bits of row number leave 51 key bits, so amounts of ~100 bits tie in
        // their leading bits by the hundred.
        let values: Vec<u128> = (0..5000u128)
            .map(|i| (1 << 100) + ((i * 7919) % 613) * (1 << 20) + (i * 31) % 5)
            .collect();
        let got = permutation_by_amount(values.len(), |r| values[r]);
        let want = permutation_by(values.len(), |r| values[r]);
        assert_eq!(got, want);
        assert_eq!(permutation_by_amount(0, |_| 0), Vec::<u32>::new());
        // Amounts of every magnitude from 0 to 2^127, with repeats.
        let mut x: u128 = 0x9E37_79B9_7F4A_7C15;
        let mixed: Vec<u128> = (0..20_000)
            .map(|_| {
                x = x
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let v = x >> (x % 128) as u32;
                if v.is_multiple_of(7) {
                    1_000_000_000_000_000_000
                } else {
                    v
                }
            })
            .collect();
        assert_eq!(
            permutation_by_amount(mixed.len(), |r| mixed[r]),
            permutation_by(mixed.len(), |r| mixed[r])
        );
        assert_eq!(permutation_by_amount(1, |_| 9), vec![0]);
    }

    #[test]
    fn csv_quotes_and_defuses() {
        let mut out = String::new();
        csv_field(&mut out, "=HYPERLINK(\"x\")");
        assert_eq!(out, "\"'=HYPERLINK(\"\"x\"\")\"");
    }
}
