//! An admin table's columns, declared once: the order the page and the CSV show them in, each
//! column's id (the sort key, and the row's field and the CSV header unless the column names
//! others), its label's translation key, what its cells hold, whether the table sorts by it and
//! whether narrow screens hide it by default. The page
//! builds its headers and plain cells from this list (`web/src/common/declaredColumns.jsx`),
//! the CSV writes its header and fields from it and the sort check reads it, so a plain new
//! column is one line here, its field in the row, and its label in the translations.

use serde::Serialize;
use serde_json::Value;

use super::stakes::NFT_IDS;
use crate::amount::format_units;
use crate::{LVLX_DECIMALS, USDT_DECIMALS};

/// What a column's cells hold: decides how the page shows them and how the CSV writes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Kind {
    /// The row's N° in the display order.
    Number,
    /// Text as stored (names, ranks, statuses); quoted and defused in the CSV.
    Text,
    /// An email address (shown shortened with a copy button, written whole).
    Email,
    /// A wallet address (shown shortened, written whole).
    Wallet,
    /// A moment in milliseconds since the epoch: a date on the page, ISO 8601 UTC in the CSV.
    Date,
    /// A whole number.
    Count,
    /// LVLX in base units (a decimal string in the row): exact in the CSV.
    Lvlx,
    /// A USDT value already at two decimals in the row.
    Usdt,
    /// USDT in base units (a decimal string in the row): two decimals on the page, exact in the
    /// CSV.
    UsdtUnits,
    /// A transaction hash (a link to the explorer on the page, written whole).
    Tx,
    /// How many NFTs of each id (ids from 1, an array in the row): one CSV column an id, `NFT1`
    /// to `NFT11`; the page shows them in a dialog.
    NftIds,
}

/// One column of an admin table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Column {
    /// The row's field, the sort key and the CSV header.
    pub id: &'static str,
    /// The header's translation key (`{{product}}` names the token).
    pub label: &'static str,
    pub kind: Kind,
    /// The table sorts by it.
    pub sort: bool,
    /// Hidden by default where the screen is too narrow for every column (the column menu
    /// shows it).
    pub optional: bool,
    /// One the specification lists for the table: an optional column shown by default on the
    /// widest screens (`web/src/common/useColumnChoice.js`).
    pub spec: bool,
    /// The row's field the cells read, where it is not the id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<&'static str>,
    /// The CSV's header, where the export has long named the column otherwise than its sort key.
    #[serde(skip)]
    pub header: Option<&'static str>,
}

impl Column {
    /// A column shown everywhere and not sorted by.
    pub const fn new(id: &'static str, label: &'static str, kind: Kind) -> Column {
        Column {
            id,
            label,
            kind,
            sort: false,
            optional: false,
            spec: false,
            field: None,
            header: None,
        }
    }

    pub const fn sorted(self) -> Column {
        Column { sort: true, ..self }
    }

    pub const fn optional(self) -> Column {
        Column {
            optional: true,
            ..self
        }
    }

    /// Its cells read the row's `field`.
    pub const fn field(self, field: &'static str) -> Column {
        Column {
            field: Some(field),
            ..self
        }
    }

    /// Its CSV header is `header`.
    pub const fn header(self, header: &'static str) -> Column {
        Column {
            header: Some(header),
            ..self
        }
    }

    /// The row's field its cells read.
    pub fn row_field(&self) -> &'static str {
        self.field.unwrap_or(self.id)
    }

    /// Optional, but listed by the specification: shown by default on the widest screens.
    pub const fn spec(self) -> Column {
        Column {
            optional: true,
            spec: true,
            ..self
        }
    }
}

/// The ids a table sorts by, in column order.
pub fn sortable(columns: &[Column]) -> Vec<&'static str> {
    columns.iter().filter(|c| c.sort).map(|c| c.id).collect()
}

/// The CSV header: each column's header, its id unless it names one.
pub fn csv_header(columns: &[Column]) -> String {
    let mut names = Vec::new();
    for c in columns {
        match c.kind {
            Kind::NftIds => names.extend((1..=NFT_IDS).map(|id| format!("NFT{id}"))),
            _ => names.push(c.header.unwrap_or(c.id).to_string()),
        }
    }
    names.join(",")
}

/// A CSV export of `rows` (N° and row, in display order) as `value` serializes each row for the
/// page: the header, then one line a row.
pub fn csv(
    columns: &[Column],
    rows: impl Iterator<Item = (usize, u32)>,
    value: impl Fn(usize, usize) -> Value,
) -> String {
    csv_ending(columns, rows, value, "\n")
}

/// [`csv`] with each line ended by `ending` (the audit's export ends them with CRLF).
pub fn csv_ending(
    columns: &[Column],
    rows: impl Iterator<Item = (usize, u32)>,
    value: impl Fn(usize, usize) -> Value,
    ending: &str,
) -> String {
    let mut out = csv_header(columns);
    out.push_str(ending);
    for (n, row) in rows {
        csv_line(&mut out, columns, n, &value(n, row as usize));
        out.push_str(ending);
    }
    out
}

/// One CSV line from a row as the page receives it (`row`, serialized), numbered `n`.
fn csv_line(out: &mut String, columns: &[Column], n: usize, row: &Value) {
    for (i, column) in columns.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let cell = &row[column.row_field()];
        match column.kind {
            Kind::Number => out.push_str(&n.to_string()),
            // A count the row holds as a number, or as a decimal string (NFTs staked); none
            // (an audit change of no item) writes nothing.
            Kind::Count => match cell {
                Value::String(text) => out.push_str(text),
                Value::Number(number) => out.push_str(&number.to_string()),
                _ => {}
            },
            Kind::NftIds => {
                for id in 0..NFT_IDS {
                    if id > 0 {
                        out.push(',');
                    }
                    out.push_str(&cell[id].as_u64().unwrap_or_default().to_string());
                }
            }
            Kind::Date => out.push_str(&super::iso(cell.as_i64().unwrap_or_default())),
            Kind::Lvlx | Kind::UsdtUnits => {
                let decimals = if column.kind == Kind::Lvlx {
                    LVLX_DECIMALS
                } else {
                    USDT_DECIMALS
                };
                let units = cell.as_str().and_then(|s| s.parse::<u128>().ok());
                let exact = units.and_then(|u| format_units(u, decimals).ok());
                out.push_str(&exact.unwrap_or_default());
            }
            Kind::Text | Kind::Email | Kind::Wallet | Kind::Usdt | Kind::Tx => {
                super::csv_field(out, cell.as_str().unwrap_or_default())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLUMNS: &[Column] = &[
        Column::new("n", "table-n", Kind::Number),
        Column::new("name", "users-name", Kind::Text).sorted(),
        Column::new("at", "users-registered", Kind::Date)
            .sorted()
            .optional(),
        Column::new("lvlx", "users-product", Kind::Lvlx),
        Column::new("count", "users-referred", Kind::Count),
    ];

    #[test]
    fn a_row_writes_each_declared_column_by_its_kind() {
        let row = serde_json::json!({
            "name": "=cmd", "at": 0, "lvlx": "1000000000000000001", "count": 3, "extra": "x"
        });
        let out = csv(COLUMNS, [(7, 0)].into_iter(), |_, _| row.clone());
        assert_eq!(
            out,
            "n,name,at,lvlx,count\n7,\"'=cmd\",1970-01-01T00:00:00.000Z,1.000000000000000001,3\n"
        );
        assert_eq!(sortable(COLUMNS), ["name", "at"]);
    }
}
