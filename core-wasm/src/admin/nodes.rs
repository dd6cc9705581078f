//! The admin activation-node table: every node sold — the member (while the buying
//! wallet is linked), the wallet, when, the USDT paid and the transaction — in activation order,
//! with a date range, a search by name, email or wallet, totals, sorting and CSV.

use serde::Serialize;
use serde_json::Value;

use super::columns::Frame;
use super::declared::{self, Column, Kind};
use super::engine::{date_slice, sort_column, to_value, Engine, Table};
use super::ico::base;
use super::{needle, Direction, Kept, Query, TableError};
use crate::amount::{self, Units};
use crate::display::short_wallet;
use crate::USDT_DECIMALS;

pub const CREATED_AT: &str = "createdAt";
pub const NAMES: &str = "names";
pub const EMAIL: &str = "email";
pub const WALLET: &str = "wallet";
pub const PAID: &str = "usdtPaid";
pub const TX: &str = "txHash";

/// The table's columns as the page and the CSV show them (docs/product/admin.md).
pub const COLUMNS: &[Column] = &[
    Column::new("n", "table-n", Kind::Number),
    Column::new(NAMES, "users-name", Kind::Text).sorted(),
    Column::new(EMAIL, "table-email", Kind::Email).sorted(),
    Column::new(WALLET, "users-wallet", Kind::Wallet),
    Column::new(CREATED_AT, "nodes-date", Kind::Date).sorted(),
    Column::new(PAID, "nodes-paid", Kind::UsdtUnits).sorted(),
    Column::new(TX, "tx-hash", Kind::Tx).optional(),
];

/// One node as the server writes it into the stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    pub created_at: i64,
    /// Names and lastnames; empty while the wallet is not linked.
    pub names: String,
    pub email: String,
    pub wallet: String,
    pub usdt_paid: Units,
    pub tx_hash: String,
}

/// The server's side: the rows stream in activation order.
#[cfg(not(target_arch = "wasm32"))]
pub fn encode<'a>(rows: impl IntoIterator<Item = &'a Node>) -> Result<Vec<u8>, TableError> {
    use super::columns::write;
    use arrow_array::builder::{Decimal128Builder, Int64Builder, StringBuilder};
    use arrow_array::ArrayRef;
    use std::sync::Arc;

    let schema = write::schema(vec![
        write::time(CREATED_AT),
        write::text(NAMES, false),
        write::text(EMAIL, false),
        write::text(WALLET, false),
        write::amount(PAID),
        write::text(TX, false),
    ]);
    let mut created = Int64Builder::new();
    let (mut names, mut email, mut wallet, mut tx) = (
        StringBuilder::new(),
        StringBuilder::new(),
        StringBuilder::new(),
        StringBuilder::new(),
    );
    let mut paid = Decimal128Builder::new().with_data_type(write::AMOUNT);
    for row in rows {
        created.append_value(row.created_at);
        names.append_value(&row.names);
        email.append_value(&row.email);
        wallet.append_value(&row.wallet);
        paid.append_value(i128::try_from(row.usdt_paid).map_err(|_| TableError::Overflow)?);
        tx.append_value(&row.tx_hash);
    }
    let columns: Vec<ArrayRef> = vec![
        Arc::new(created.finish()),
        Arc::new(names.finish()),
        Arc::new(email.finish()),
        Arc::new(wallet.finish()),
        Arc::new(paid.finish()),
        Arc::new(tx.finish()),
    ];
    write::encode(&write::batch(schema, columns)?)
}

/// The nodes' totals (all of them, or those a filter keeps).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub nodes: u64,
    /// Nodes whose wallet belongs to an account.
    pub linked: u64,
    /// USDT base units.
    #[serde(with = "base")]
    pub usdt_paid: Units,
    /// Six decimals, exact.
    pub usdt_paid_text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub n: usize,
    pub names: String,
    pub email: String,
    pub wallet: String,
    pub wallet_short: String,
    pub created_at: i64,
    pub usdt_paid: String,
    /// Two decimals, rounded half up.
    pub usdt_paid_text: String,
    pub tx_hash: String,
}

pub struct NodeTable {
    frame: Frame,
    /// Per row: names, email and wallet lowercased, for search.
    haystacks: Vec<String>,
    engine: Engine,
    summary: Summary,
}

impl NodeTable {
    pub fn load(bytes: &[u8]) -> Result<NodeTable, TableError> {
        let frame = Frame::decode(bytes)?;
        if frame.times(CREATED_AT)?.windows(2).any(|w| w[0] > w[1]) {
            return Err(TableError::Order);
        }
        frame.amounts(PAID)?;
        frame.texts(TX)?;
        let (names, emails, wallets) = (
            frame.texts(NAMES)?,
            frame.texts(EMAIL)?,
            frame.texts(WALLET)?,
        );
        let haystacks = (0..frame.rows())
            .map(|r| {
                format!("{}\n{}\n{}", names.get(r), emails.get(r), wallets.get(r)).to_lowercase()
            })
            .collect();
        let mut table = NodeTable {
            frame,
            haystacks,
            engine: Engine::default(),
            summary: Summary::default(),
        };
        table.query(&Query::default())?;
        Ok(table)
    }

    pub fn len(&self) -> usize {
        self.frame.rows()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn created(&self) -> &[i64] {
        self.frame.times(CREATED_AT).unwrap_or(&[])
    }

    #[allow(clippy::needless_range_loop)] // rows index three columns at once
    pub fn query(&mut self, query: &Query) -> Result<&Summary, TableError> {
        let (from, to) = date_slice(self.frame.times(CREATED_AT)?, query)?;
        let paid = self.frame.amounts(PAID)?;
        let emails = self.frame.texts(EMAIL)?;
        let needle = needle(&query.search);
        let mut kept = Vec::new();
        let mut summary = Summary::default();
        for row in from..to {
            if needle
                .as_ref()
                .is_some_and(|n| !self.haystacks[row].contains(n.as_str()))
            {
                continue;
            }
            kept.push(row as u32);
            summary.nodes += 1;
            summary.linked += u64::from(!emails.get(row).is_empty());
            summary.usdt_paid = summary
                .usdt_paid
                .checked_add(paid[row] as u128)
                .ok_or(TableError::Overflow)?;
        }
        summary.usdt_paid_text = amount::format_units(summary.usdt_paid, USDT_DECIMALS)
            .map_err(|_| TableError::Overflow)?;
        self.summary = summary;
        self.engine.keep(Kept::Rows(kept));
        if let Some(sort) = &query.sort {
            let column = sort_column(sort, declared::sortable(COLUMNS))?;
            if column == CREATED_AT {
                self.engine.by_date(sort.direction);
            } else {
                self.sort(column, sort.direction)?;
            }
        }
        Ok(&self.summary)
    }

    fn sort(&mut self, column: &'static str, direction: Direction) -> Result<(), TableError> {
        let rows = self.len();
        let frame = &self.frame;
        self.engine.sort_by(column, direction, rows, || {
            Ok(if column == PAID {
                let values = frame.amounts(PAID)?;
                super::permutation_by_amount(rows, |r| values[r] as u128)
            } else {
                let values = frame.texts(column)?;
                let ranks = super::text_ranks((0..rows).map(|r| values.get(r)));
                super::permutation_by(rows, |r| ranks[r])
            })
        })
    }

    pub fn summary(&self) -> &Summary {
        &self.summary
    }

    pub fn page(&self, from: usize, len: usize) -> Vec<Row> {
        self.engine
            .page(from, len)
            .into_iter()
            .map(|(n, row)| self.row(n, row as usize))
            .collect()
    }

    fn row(&self, n: usize, row: usize) -> Row {
        let text = |name| {
            self.frame
                .texts(name)
                .expect("checked at load")
                .get(row)
                .to_string()
        };
        let paid = self.frame.amounts(PAID).expect("checked at load")[row] as u128;
        let wallet = text(WALLET);
        Row {
            n,
            names: text(NAMES),
            email: text(EMAIL),
            wallet_short: short_wallet(&wallet),
            wallet,
            created_at: self.created()[row],
            usdt_paid: paid.to_string(),
            usdt_paid_text: amount::format_token(paid, "USDT"),
            tx_hash: text(TX),
        }
    }

    /// The kept rows in display order as CSV, amounts exact.
    pub fn csv(&self) -> String {
        declared::csv(COLUMNS, self.engine.rows(), |n, row| {
            to_value(&self.row(n, row)).unwrap_or_default()
        })
    }
}

impl Table for NodeTable {
    fn len(&self) -> usize {
        NodeTable::len(self)
    }
    fn columns(&self) -> &'static [Column] {
        COLUMNS
    }
    fn range(&self, offset_minutes: i32, now_ms: i64) -> Option<(String, String)> {
        Some(super::date_range(self.created(), offset_minutes, now_ms))
    }
    fn query(&mut self, query: &Query) -> Result<Value, TableError> {
        let summary = to_value(NodeTable::query(self, query)?)?;
        Ok(serde_json::json!({ "kept": self.engine.kept(), "summary": summary }))
    }
    fn page(&self, from: usize, len: usize) -> Result<Value, TableError> {
        to_value(&NodeTable::page(self, from, len))
    }
    fn csv(&self) -> String {
        NodeTable::csv(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(at: i64, names: &str, email: &str, wallet: &str, paid: Units) -> Node {
        Node {
            created_at: at,
            names: names.into(),
            email: email.into(),
            wallet: wallet.into(),
            usdt_paid: paid,
            tx_hash: format!("0x{at:064x}"),
        }
    }

    #[test]
    fn filters_sums_sorts_and_exports_exactly() {
        const DAY: i64 = 86_400_000;
        const T0: i64 = 1_767_225_600_000; // 2026-01-01
        let rows = [
            node(
                T0,
                "Ana Lima",
                "ana@example.com",
                "0x1111111111111111111111111111111111111111",
                50_000_000,
            ),
            node(
                T0 + DAY,
                "",
                "",
                "0x2222222222222222222222222222222222222222",
                75_000_001,
            ),
            node(
                T0 + 3 * DAY,
                "Bea Souza",
                "bea@example.com",
                "0x3333333333333333333333333333333333333333",
                50_000_000,
            ),
        ];
        let mut table = NodeTable::load(&encode(&rows).unwrap()).unwrap();
        let all = table.summary().clone();
        assert_eq!((all.nodes, all.linked, all.usdt_paid), (3, 2, 175_000_001));
        assert_eq!(all.usdt_paid_text, "175.000001");
        let q = |start: Option<&str>, end: Option<&str>, search: &str| Query {
            start: start.map(str::to_string),
            end: end.map(str::to_string),
            search: search.into(),
            ..Query::default()
        };
        let s = table
            .query(&q(Some("2026-01-02"), Some("2026-01-04"), ""))
            .unwrap()
            .clone();
        assert_eq!((s.nodes, s.usdt_paid), (2, 125_000_001));
        assert_eq!(table.query(&q(None, None, "0x2222")).unwrap().nodes, 1);
        assert_eq!(table.query(&q(None, None, "BEA")).unwrap().nodes, 1);
        assert_eq!(table.page(0, 10)[0].names, "Bea Souza");
        table
            .query(&Query {
                sort: Some(super::super::Sort {
                    column: PAID.into(),
                    direction: Direction::Desc,
                }),
                ..Query::default()
            })
            .unwrap();
        assert_eq!(table.page(0, 1)[0].usdt_paid, "75000001");
        let csv = table.csv();
        assert!(
            csv.starts_with("n,names,email,wallet,createdAt,usdtPaid,txHash\n2,,,0x2222"),
            "{csv}"
        );
        assert!(csv.contains(",75.000001,"), "{csv}");
        assert!(table
            .query(&q(Some("2026-01-05"), Some("2026-01-01"), ""))
            .is_err());
    }
}
