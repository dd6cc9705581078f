//! The staking-entries table: one row a stake, filtered by release date, sorted, paged.

use serde::Serialize;
use serde_json::Value;

use super::{
    lvlx_text, Kind, StakeFrame, Tally, TallyBuilder, AMOUNT, EMAIL, INTERESTS, NAMES, NFT_ID,
    RELEASE, REWARD_USDT, START, WALLET, WITHDRAWN,
};
use crate::admin::declared::{self, Column, Kind as ColumnKind};
use crate::admin::engine::{date_slice, sort_column, to_value, Engine, Table};
use crate::admin::{Direction, Kept, Query, TableError};
use crate::amount;

/// One row of the staking-entries table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EntryRow {
    pub n: usize,
    pub names: String,
    pub email: String,
    pub wallet: String,
    pub wallet_short: String,
    #[serde(rename = "NFTId")]
    pub nft_id: Option<u32>,
    pub amount: String,
    pub amount_text: String,
    pub start_date: i64,
    pub withdraw_date: i64,
    pub locked: bool,
    pub current_interests: String,
    pub current_interests_text: String,
    #[serde(rename = "rewardUSDT")]
    pub reward_usdt: String,
    pub interest_withdrawal_amount: String,
    /// Opened in a block not final yet: shown, marked pending.
    pub pending: bool,
}

/// The columns every entries table has, after the pool's own (`NFT_COLUMNS`, `LVLX_COLUMNS`).
macro_rules! entry_columns {
    ($($pool:expr),*) => {
        &[
            Column::new("n", "table-n", ColumnKind::Number),
            Column::new(NAMES, "users-name", ColumnKind::Text).sorted(),
            Column::new(EMAIL, "table-email", ColumnKind::Email).sorted().optional(),
            Column::new(WALLET, "users-wallet", ColumnKind::Wallet).sorted().optional(),
            $($pool,)*
            Column::new(START, "stake-start", ColumnKind::Date).sorted().spec(),
            Column::new(RELEASE, "stake-release", ColumnKind::Date).sorted(),
            Column::new(INTERESTS, "stake-rewards", ColumnKind::Lvlx).sorted(),
            Column::new(REWARD_USDT, "stake-rewards-usdt", ColumnKind::Usdt).sorted(),
            Column::new(WITHDRAWN, "staking-withdrawn", ColumnKind::Lvlx).optional(),
        ]
    };
}

/// The NFT entries table's columns as the page and the CSV show them.
pub const NFT_COLUMNS: &[Column] = entry_columns!(
    Column::new(NFT_ID, "nft-id-column", ColumnKind::Count).sorted(),
    Column::new(AMOUNT, "nft-count", ColumnKind::Count).sorted()
);

/// The LVLX entries table's columns as the page and the CSV show them.
pub const LVLX_COLUMNS: &[Column] =
    entry_columns!(Column::new(AMOUNT, "lvlx-amount", ColumnKind::Lvlx).sorted());

pub struct EntryTable {
    stakes: StakeFrame,
    engine: Engine,
    tally: Tally,
}

impl EntryTable {
    pub fn load(bytes: &[u8], kind: Kind, now_ms: i64) -> Result<EntryTable, TableError> {
        let mut table = EntryTable {
            stakes: StakeFrame::load(bytes, kind, now_ms)?,
            engine: Engine::default(),
            tally: Tally::default(),
        };
        table.query(&Query::default())?;
        Ok(table)
    }

    pub fn len(&self) -> usize {
        self.stakes.rows()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Applies the query's release-date range and sort; answers the tally of the kept entries.
    pub fn query(&mut self, query: &Query) -> Result<&Tally, TableError> {
        let (from, to) = date_slice(self.stakes.frame.times(RELEASE)?, query)?;
        let mut tally = TallyBuilder::default();
        for row in from..to {
            tally.add(&self.stakes.stake(row), self.stakes.now_ms)?;
        }
        self.tally = tally.finish();
        self.engine.keep(Kept::Range(from as u32, to as u32));
        if let Some(sort) = &query.sort {
            let column = sort_column(sort, Table::sortable(self))?;
            self.sort(column, sort.direction)?;
        }
        Ok(&self.tally)
    }

    fn sort(&mut self, column: &'static str, direction: Direction) -> Result<(), TableError> {
        if column == RELEASE {
            self.engine.by_date(direction);
            return Ok(());
        }
        // USDT rewards are a tenth of the LVLX rewards: the same order.
        let column = if column == REWARD_USDT {
            INTERESTS
        } else {
            column
        };
        let rows = self.len();
        let frame = &self.stakes.frame;
        self.engine.sort_by(column, direction, rows, || {
            use crate::admin::{permutation_by, permutation_by_amount, text_ranks};
            Ok(match column {
                NAMES | EMAIL | WALLET => {
                    let (keys, values) = frame.keyed(column)?;
                    let ranks = text_ranks(values.iter());
                    permutation_by(rows, |r| ranks[keys[r] as usize])
                }
                START => {
                    let values = frame.times(START)?;
                    permutation_by(rows, |r| values[r])
                }
                NFT_ID => {
                    let values = frame.counts(NFT_ID)?;
                    permutation_by(rows, |r| values[r])
                }
                _ => {
                    let values = frame.amounts(column)?;
                    permutation_by_amount(rows, |r| values[r] as u128)
                }
            })
        })
    }

    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    pub fn kept(&self) -> usize {
        self.engine.kept()
    }

    pub fn page(&self, from: usize, len: usize) -> Vec<EntryRow> {
        self.engine
            .page(from, len)
            .into_iter()
            .map(|(n, row)| self.row(n, row as usize))
            .collect()
    }

    fn row(&self, n: usize, row: usize) -> EntryRow {
        let stake = self.stakes.stake(row);
        let (names, email, wallet, wallet_short) = self.stakes.staker(stake.staker as usize);
        let kind = self.stakes.kind;
        EntryRow {
            n,
            names,
            email,
            wallet,
            wallet_short,
            nft_id: (kind == Kind::Nft).then_some(stake.nft_id),
            amount: stake.amount.to_string(),
            amount_text: kind.amount_text(stake.amount),
            start_date: stake.start,
            withdraw_date: stake.release,
            locked: self.stakes.locked(stake.release),
            current_interests: stake.interests.to_string(),
            current_interests_text: lvlx_text(stake.interests),
            reward_usdt: amount::lvlx_to_usdt(stake.interests),
            interest_withdrawal_amount: stake.withdrawn.to_string(),
            pending: stake.pending,
        }
    }

    /// The kept entries in display order, exact amounts, as CSV.
    pub fn csv(&self) -> String {
        declared::csv(Table::columns(self), self.engine.rows(), |n, row| {
            to_value(&self.row(n, row)).unwrap_or_default()
        })
    }
}

impl Table for EntryTable {
    fn len(&self) -> usize {
        EntryTable::len(self)
    }
    fn columns(&self) -> &'static [Column] {
        match self.stakes.kind {
            Kind::Nft => NFT_COLUMNS,
            Kind::Lvlx => LVLX_COLUMNS,
        }
    }
    /// First and last release dates, today when there are none.
    fn range(&self, offset_minutes: i32, now_ms: i64) -> Option<(String, String)> {
        Some(crate::admin::date_range(
            self.stakes.frame.times(RELEASE).unwrap_or(&[]),
            offset_minutes,
            now_ms,
        ))
    }
    fn query(&mut self, query: &Query) -> Result<Value, TableError> {
        let kind = self.stakes.kind;
        let summary = EntryTable::query(self, query)?.to_json(kind);
        Ok(serde_json::json!({ "kept": self.kept(), "summary": summary }))
    }
    fn page(&self, from: usize, len: usize) -> Result<Value, TableError> {
        to_value(&EntryTable::page(self, from, len))
    }
    fn csv(&self) -> String {
        EntryTable::csv(self)
    }
}
