//! The stakers table: one row a staker with the sums of their entries (and NFTs by id),
//! searched by email or name, sorted, paged.

use serde::Serialize;
use serde_json::Value;

use super::{
    add, Kind, StakeFrame, Tally, TallyBuilder, AMOUNT, EMAIL, ENTRIES, INTERESTS, NAMES, NFT_IDS,
    REWARD_USDT, STAKING, WALLET,
};
use crate::admin::declared::{self, Column, Kind as ColumnKind};
use crate::admin::engine::{sort_column, to_value, Engine, Table};
use crate::admin::{needle, BitSet, Direction, Kept, Query, TableError};
use crate::amount::{self, Units};

/// Per-staker sums over all of their entries.
#[derive(Debug, Clone, Default)]
struct StakerTotals {
    entries: u64,
    amount: Units,
    locked: Units,
    by_id: [u32; NFT_IDS],
    interests: Units,
}

/// One row of the per-staker table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StakerRow {
    pub n: usize,
    pub names: String,
    pub email: String,
    pub wallet: String,
    pub wallet_short: String,
    pub entries: u64,
    /// NFTs (a count) or LVLX base units, over every entry.
    pub amount: String,
    /// The part still locked.
    pub staking: String,
    /// NFTs of ids 1–11 (empty for LVLX).
    pub by_id: Vec<u32>,
    /// Current LVLX rewards, base units.
    pub total: String,
    /// Their USDT value.
    #[serde(rename = "totalUSDT")]
    pub total_usdt: String,
}

/// The columns every stakers table has, with the pool's amounts (and NFTs by id) where `$pool`
/// says. The rewards sort by the entries' names for them and read the row's (and the CSV's)
/// `total` and `totalUSDT`, as the API names them.
macro_rules! staker_columns {
    ($($pool:expr),*) => {
        &[
            Column::new("n", "table-n", ColumnKind::Number),
            Column::new(NAMES, "users-name", ColumnKind::Text).sorted(),
            Column::new(EMAIL, "table-email", ColumnKind::Email).sorted(),
            Column::new(WALLET, "users-wallet", ColumnKind::Wallet).sorted().optional(),
            Column::new(ENTRIES, "stakers-entries", ColumnKind::Count).sorted().optional(),
            $($pool,)*
            Column::new(INTERESTS, "users-product", ColumnKind::Lvlx)
                .sorted()
                .field("total")
                .header("total"),
            Column::new(REWARD_USDT, "users-usdt", ColumnKind::Usdt)
                .sorted()
                .spec()
                .field("totalUSDT")
                .header("totalUSDT"),
        ]
    };
}

/// The NFT stakers table's columns as the page and the CSV show them.
pub const NFT_COLUMNS: &[Column] = staker_columns!(
    Column::new(AMOUNT, "nft-total", ColumnKind::Count).sorted(),
    Column::new(STAKING, "nft-total-staking", ColumnKind::Count).sorted(),
    Column::new("byId", "nft-detail", ColumnKind::NftIds)
);

/// The LVLX stakers table's columns as the page and the CSV show them.
pub const LVLX_COLUMNS: &[Column] = staker_columns!(
    Column::new(AMOUNT, "lvlx-total", ColumnKind::Lvlx).sorted(),
    Column::new(STAKING, "lvlx-total-staking", ColumnKind::Lvlx).sorted()
);

pub struct StakerTable {
    stakes: StakeFrame,
    /// Per staker key.
    totals: Vec<StakerTotals>,
    names_lower: Vec<String>,
    emails_lower: Vec<String>,
    engine: Engine,
    tally: Tally,
}

impl StakerTable {
    pub fn load(bytes: &[u8], kind: Kind, now_ms: i64) -> Result<StakerTable, TableError> {
        let stakes = StakeFrame::load(bytes, kind, now_ms)?;
        let lower = |name| -> Result<Vec<String>, TableError> {
            Ok(stakes
                .frame
                .keyed(name)?
                .1
                .iter()
                .map(str::to_lowercase)
                .collect())
        };
        let (names_lower, emails_lower) = (lower(NAMES)?, lower(EMAIL)?);
        let mut table = StakerTable {
            totals: vec![StakerTotals::default(); stakes.stakers()],
            stakes,
            names_lower,
            emails_lower,
            engine: Engine::default(),
            tally: Tally::default(),
        };
        table.group()?;
        table.query(&Query::default())?;
        Ok(table)
    }

    fn group(&mut self) -> Result<(), TableError> {
        for row in 0..self.stakes.rows() {
            let stake = self.stakes.stake(row);
            let t = &mut self.totals[stake.staker as usize];
            t.entries += 1;
            add(&mut t.amount, stake.amount)?;
            if self.stakes.locked(stake.release) {
                add(&mut t.locked, stake.amount)?;
            }
            if stake.nft_id > 0 {
                let n = &mut t.by_id[stake.nft_id as usize - 1];
                *n = n.saturating_add(u32::try_from(stake.amount).unwrap_or(u32::MAX));
            }
            add(&mut t.interests, stake.interests)?;
        }
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.totals.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Keeps the stakers whose email or name holds the search; answers the tally of their
    /// entries.
    pub fn query(&mut self, query: &Query) -> Result<&Tally, TableError> {
        let needle = needle(&query.search);
        let mut kept = Vec::new();
        let mut wanted = BitSet::new(self.totals.len());
        for key in 0..self.totals.len() {
            if let Some(needle) = &needle {
                if !self.names_lower[key].contains(needle.as_str())
                    && !self.emails_lower[key].contains(needle.as_str())
                {
                    continue;
                }
            }
            wanted.insert(key);
            kept.push(key as u32);
        }
        let mut tally = TallyBuilder::default();
        let keys = self.stakes.frame.keyed(EMAIL)?.0;
        for (row, &key) in keys.iter().enumerate() {
            if wanted.contains(key as usize) {
                tally.add(&self.stakes.stake(row), self.stakes.now_ms)?;
            }
        }
        self.tally = tally.finish();
        self.engine.keep(Kept::Rows(kept));
        if let Some(sort) = &query.sort {
            let column = sort_column(sort, declared::sortable(Table::columns(self)))?;
            self.sort(column, sort.direction)?;
        }
        Ok(&self.tally)
    }

    fn sort(&mut self, column: &'static str, direction: Direction) -> Result<(), TableError> {
        let rows = self.len();
        let (frame, totals) = (&self.stakes.frame, &self.totals);
        self.engine.sort_by(column, direction, rows, || {
            use crate::admin::{permutation_by, permutation_by_amount, text_ranks};
            Ok(match column {
                NAMES | EMAIL | WALLET => {
                    let ranks = text_ranks(frame.keyed(column)?.1.iter());
                    permutation_by(rows, |r| ranks[r])
                }
                ENTRIES => permutation_by(rows, |r| totals[r].entries),
                AMOUNT => permutation_by_amount(rows, |r| totals[r].amount),
                STAKING => permutation_by_amount(rows, |r| totals[r].locked),
                // USDT rewards are a tenth of the LVLX rewards: the same order.
                _ => permutation_by_amount(rows, |r| totals[r].interests),
            })
        })
    }

    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    pub fn kept(&self) -> usize {
        self.engine.kept()
    }

    pub fn page(&self, from: usize, len: usize) -> Vec<StakerRow> {
        self.engine
            .page(from, len)
            .into_iter()
            .map(|(n, key)| self.row(n, key as usize))
            .collect()
    }

    fn row(&self, n: usize, key: usize) -> StakerRow {
        let t = &self.totals[key];
        let (names, email, wallet, wallet_short) = self.stakes.staker(key);
        let kind = self.stakes.kind;
        StakerRow {
            n,
            names,
            email,
            wallet,
            wallet_short,
            entries: t.entries,
            amount: t.amount.to_string(),
            staking: t.locked.to_string(),
            by_id: match kind {
                Kind::Nft => t.by_id.to_vec(),
                Kind::Lvlx => Vec::new(),
            },
            total: t.interests.to_string(),
            total_usdt: amount::lvlx_to_usdt(t.interests),
        }
    }

    /// The kept stakers in display order, exact amounts, as CSV.
    pub fn csv(&self) -> String {
        declared::csv(Table::columns(self), self.engine.rows(), |n, key| {
            to_value(&self.row(n, key)).unwrap_or_default()
        })
    }
}

impl Table for StakerTable {
    fn len(&self) -> usize {
        StakerTable::len(self)
    }
    fn columns(&self) -> &'static [Column] {
        match self.stakes.kind {
            Kind::Nft => NFT_COLUMNS,
            Kind::Lvlx => LVLX_COLUMNS,
        }
    }
    /// The stakers table has no date filter.
    fn range(&self, _offset_minutes: i32, _now_ms: i64) -> Option<(String, String)> {
        None
    }
    fn query(&mut self, query: &Query) -> Result<Value, TableError> {
        let kind = self.stakes.kind;
        let summary = StakerTable::query(self, query)?.to_json(kind);
        Ok(serde_json::json!({ "kept": self.kept(), "summary": summary }))
    }
    fn page(&self, from: usize, len: usize) -> Result<Value, TableError> {
        to_value(&StakerTable::page(self, from, len))
    }
    fn csv(&self) -> String {
        StakerTable::csv(self)
    }
}
