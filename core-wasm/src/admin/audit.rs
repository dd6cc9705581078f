//! The admin audit as an export: one CSV line per change (RFC 4180, formula-defused like every
//! admin export), times in ISO-8601 UTC, the change's before and after as the JSON it was.

use serde::Serialize;

use super::declared::{self, Column, Kind};

/// The audit's columns as the page and the CSV show them (docs/product/admin.md#audit): each a
/// field of the row the server lists (`store::audit::Listed`), the acting admin's email written
/// as `admin`. The page shows a change as a card: the columns it does not place itself follow
/// in it with their labels.
pub const COLUMNS: &[Column] = &[
    Column::new("id", "audit-id", Kind::Count),
    Column::new("at", "audit-at", Kind::Date),
    Column::new("adminEmail", "audit-admin", Kind::Email).header("admin"),
    Column::new("subject", "audit-subject", Kind::Text),
    Column::new("item", "audit-item", Kind::Count),
    Column::new("before", "audit-before", Kind::Text),
    Column::new("after", "audit-after", Kind::Text),
];

/// The rows, as the page receives them, as CSV: header first, in the order given, each line
/// ended by CRLF.
pub fn csv<T: Serialize>(rows: &[T]) -> String {
    declared::csv_ending(
        COLUMNS,
        (0..rows.len()).map(|i| (i + 1, i as u32)),
        |_, row| serde_json::to_value(&rows[row]).unwrap_or_default(),
        "\r\n",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_json_and_defuses_formulas() {
        let rows = [serde_json::json!({
            "id": 7,
            "at": 0,
            "adminEmail": "=cmd|' /C calc'!A0",
            "adminName": "Ana",
            "subject": "rank",
            "item": 2,
            "before": null,
            "after": r#"{"name":"Gold","bonus":"1,5"}"#,
        })];
        assert_eq!(
            csv(&rows),
            "id,at,admin,subject,item,before,after\r\n7,1970-01-01T00:00:00.000Z,\"'=cmd|' /C calc'!A0\",rank,2,,\"{\"\"name\"\":\"\"Gold\"\",\"\"bonus\"\":\"\"1,5\"\"}\"\r\n"
        );
    }

    #[test]
    fn a_change_of_no_item_leaves_its_cell_empty() {
        let rows = [serde_json::json!({
            "id": 8, "at": 1, "adminEmail": "a@b.co", "subject": "content", "item": null,
            "before": "{}", "after": "{}",
        })];
        assert_eq!(
            csv(&rows).lines().nth(1).unwrap(),
            "8,1970-01-01T00:00:00.001Z,a@b.co,content,,{},{}"
        );
    }
}
