//! Checks of the books against the chain (`crate::books`): each one's report, newest last.

use super::{Conn, Result};
use crate::args;

/// A check as kept: its figures and its report (JSON).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    pub at: i64,
    pub block: i64,
    pub final_block: i64,
    pub lines: i64,
    pub differences: i64,
    pub report: String,
}

impl Check {
    /// Whether the check could not run (its report is the error that stopped it).
    pub fn failed(&self) -> bool {
        serde_json::from_str::<serde_json::Value>(&self.report)
            .map_or(true, |v| v.get("error").is_some())
    }
}

pub fn record(c: Conn, k: &Check) -> Result<()> {
    c.execute(
        "INSERT INTO books_checks (at, block, final_block, lines, differences, report)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        args![
            k.at,
            k.block,
            k.final_block,
            k.lines,
            k.differences,
            k.report.as_str()
        ],
    )?;
    Ok(())
}

/// The newest check, if any.
pub fn latest(c: Conn) -> Result<Option<Check>> {
    c.query_opt(
        "SELECT at, block, final_block, lines, differences, report FROM books_checks
         ORDER BY id DESC LIMIT 1",
        args![],
        |r| {
            Ok(Check {
                at: r.get(0)?,
                block: r.get(1)?,
                final_block: r.get(2)?,
                lines: r.get(3)?,
                differences: r.get(4)?,
                report: r.get(5)?,
            })
        },
    )
}
