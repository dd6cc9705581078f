//! The admin audit as an export: one CSV line per change (RFC 4180, formula-defused like every
//! admin export), times in ISO-8601 UTC, the change's before and after as the JSON it was.

/// One audit row as the export writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub id: i64,
    /// Milliseconds.
    pub at: i64,
    pub admin: String,
    pub subject: String,
    pub item: Option<i64>,
    pub before: Option<String>,
    pub after: String,
}

pub const CSV_HEADER: &str = "id,at,admin,subject,item,before,after";

/// The rows as CSV, header first, in the order given.
pub fn csv(entries: &[Entry]) -> String {
    let mut out = String::from(CSV_HEADER);
    out.push_str("\r\n");
    for e in entries {
        out.push_str(&e.id.to_string());
        out.push(',');
        out.push_str(&super::iso(e.at));
        for field in [&e.admin, &e.subject] {
            out.push(',');
            super::csv_field(&mut out, field);
        }
        out.push(',');
        if let Some(item) = e.item {
            out.push_str(&item.to_string());
        }
        out.push(',');
        super::csv_field(&mut out, e.before.as_deref().unwrap_or(""));
        out.push(',');
        super::csv_field(&mut out, &e.after);
        out.push_str("\r\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_json_and_defuses_formulas() {
        let rows = [Entry {
            id: 7,
            at: 0,
            admin: "=cmd|' /C calc'!A0".into(),
            subject: "rank".into(),
            item: Some(2),
            before: None,
            after: r#"{"name":"Gold","bonus":"1,5"}"#.into(),
        }];
        assert_eq!(
            csv(&rows),
            "id,at,admin,subject,item,before,after\r\n7,1970-01-01T00:00:00.000Z,\"'=cmd|' /C calc'!A0\",rank,2,,\"{\"\"name\"\":\"\"Gold\"\",\"\"bonus\"\":\"\"1,5\"\"}\"\r\n"
        );
    }
}
