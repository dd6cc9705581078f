//! What every admin table shares, written once: the rows a query keeps and their display order,
//! a cache of whole-table sort permutations (one per column, built on first use), pages with
//! their N°, the sort column's check and the date slice of date-ordered rows (the CSV is
//! `declared`'s, from the table's columns). Each table (ICO, users, nodes, staking entries and
//! stakers) adds only its own columns: what it filters and sums, how a column orders rows, how a
//! row reads.
//!
//! [`Table`] is what a screen does with any of them; the browser binding holds one
//! `Box<dyn Table>` whatever the table.

use std::collections::HashMap;

use serde::Serialize;
use serde_json::Value;

use super::declared::Column;
use super::{millis_bounds, Direction, Kept, Query, Sort, TableError, View};

/// A screen's table, whatever its columns.
pub trait Table {
    /// Rows held (entries, users, stakers …).
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// First and last dates of the date column at the viewer's offset (today when empty);
    /// `None` for a table without a date filter.
    fn range(&self, offset_minutes: i32, now_ms: i64) -> Option<(String, String)>;
    /// The columns as declared once (`declared`): headers, plain cells, the CSV and the sort
    /// check read them.
    fn columns(&self) -> &'static [Column];
    /// The columns a query may sort by: the one list the page's headers are made sortable from.
    fn sortable(&self) -> Vec<&'static str> {
        super::declared::sortable(self.columns())
    }
    /// Applies a query; answers `{kept, …its summary…}`.
    fn query(&mut self, query: &Query) -> Result<Value, TableError>;
    /// Rows `from..from + len` of the display order.
    fn page(&self, from: usize, len: usize) -> Result<Value, TableError>;
    /// The kept rows as a chart's series (`null` for a table without a chart).
    fn series(&self, _offset_minutes: i32) -> Result<Value, TableError> {
        Ok(Value::Null)
    }
    /// The kept rows in display order as CSV, amounts exact.
    fn csv(&self) -> String;
    /// The server's ids of the kept rows in display order, for a table whose CSV has columns
    /// the rows stream leaves out (the ICO ledger's wallets and transactions); none otherwise.
    fn ids(&self) -> Vec<u32> {
        Vec::new()
    }
    /// The CSV with those columns filled from `trails` (by id).
    fn csv_with(&self, _trails: &super::ico::Trails) -> String {
        self.csv()
    }
}

pub(crate) fn to_value(value: &impl Serialize) -> Result<Value, TableError> {
    serde_json::to_value(value).map_err(|e| TableError::Arrow(e.to_string()))
}

/// The kept rows, their display order and the cached sort permutations.
#[derive(Default)]
pub(crate) struct Engine {
    view: View,
    permutations: HashMap<&'static str, Vec<u32>>,
}

impl Engine {
    /// A new answer: these rows kept, in date order.
    pub fn keep(&mut self, kept: Kept) {
        self.view = View::new(kept);
    }

    pub fn kept(&self) -> usize {
        self.view.len()
    }

    /// The kept rows, ascending (date order).
    pub fn kept_rows(&self) -> impl DoubleEndedIterator<Item = u32> + Clone + '_ {
        self.view.kept.iter()
    }

    /// Rows `from..from + len` of the display order, each with its N°.
    pub fn page(&self, from: usize, len: usize) -> Vec<(usize, u32)> {
        self.view.page(from, len)
    }

    /// Every kept row in display order, with its N°.
    pub fn rows(&self) -> impl Iterator<Item = (usize, u32)> + '_ {
        self.view.rows()
    }

    /// Date order, ascending or descending: no work.
    pub fn by_date(&mut self, direction: Direction) {
        self.view.by_date(direction);
    }

    /// Orders the kept rows by `column`, whose ascending permutation of all `rows` is built by
    /// `build` the first time and kept.
    pub fn sort_by(
        &mut self,
        column: &'static str,
        direction: Direction,
        rows: usize,
        build: impl FnOnce() -> Result<Vec<u32>, TableError>,
    ) -> Result<(), TableError> {
        if !self.permutations.contains_key(column) {
            self.permutations.insert(column, build()?);
        }
        self.view
            .sort_by(&self.permutations[column], direction, rows);
        Ok(())
    }
}

/// The sort column asked for, if the table sorts by it.
pub(crate) fn sort_column(
    sort: &Sort,
    allowed: impl IntoIterator<Item = &'static str>,
) -> Result<&'static str, TableError> {
    allowed
        .into_iter()
        .find(|c| *c == sort.column)
        .ok_or_else(|| TableError::SortColumn(sort.column.clone()))
}

/// The rows of date-ordered `times` inside the query's inclusive date range: one slice.
pub(crate) fn date_slice(times: &[i64], query: &Query) -> Result<(usize, usize), TableError> {
    let (lo, hi) = millis_bounds(query)?;
    Ok((
        times.partition_point(|&t| t < lo),
        times.partition_point(|&t| t < hi),
    ))
}
