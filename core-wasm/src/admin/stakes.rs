//! The admin staking screens (SPEC §2 "Admin NFT staking screen", §3 NFT user record and NFT
//! general summary; DESIGN §6): NFT stakes (ids 1–11, the amount is a count of NFTs) and LVLX
//! stakes (the amount is LVLX base units) follow one pattern, so one engine serves both.
//!
//! The stream holds one row per staking entry in release-date order; the staker's email, name
//! and wallet are dictionary-encoded with the staker as the key, so the per-staker table (the
//! searchable one, with the NFT detail) is grouped from the entries in the core.
//!
//! Meanings the spec leaves open (documented in the README and the issue note):
//! - an entry is *locked* while its release (withdraw) date is ahead of `now`;
//! - `totalNFTInStake` counts every staked NFT, `totalNFTStakingProcess` the locked ones,
//!   `totalNFTInStakeById{n}` every staked NFT of id n, `totalUserNFTStaking` the stakers;
//! - `totalLVLXByNFT` sums the current LVLX rewards, `totalUSDTByNFT` is their USDT value
//!   (LVLX ÷ 10, DESIGN §6), and likewise per staker (`total`, `totalUSDT`) and per entry.

use serde::Serialize;
use serde_json::{json, Value};

use super::columns::{Frame, Texts};
use super::engine::{csv, date_slice, sort_column, to_value, Engine, Table};
use super::{needle, BitSet, Direction, Kept, Query, TableError};
use crate::amount::{self, Units};
use crate::display::short_wallet;
use crate::LVLX_DECIMALS;

pub const RELEASE: &str = "withdrawDate";
pub const START: &str = "startDate";
pub const EMAIL: &str = "email";
pub const NAMES: &str = "names";
pub const WALLET: &str = "wallet";
pub const NFT_ID: &str = "nftId";
pub const AMOUNT: &str = "amount";
pub const INTERESTS: &str = "currentInterests";
pub const WITHDRAWN: &str = "interestWithdrawalAmount";
/// Derived columns the screens may sort by.
pub const REWARD_USDT: &str = "rewardUSDT";
pub const ENTRIES: &str = "entries";
pub const STAKING: &str = "staking";

pub const NFT_IDS: usize = 11;

/// Which stakes a stream carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Nft,
    Lvlx,
}

impl Kind {
    pub fn parse(text: &str) -> Option<Kind> {
        match text {
            "nft" => Some(Kind::Nft),
            "lvlx" => Some(Kind::Lvlx),
            _ => None,
        }
    }

    /// Display text of an entry amount: a count of NFTs, or LVLX at two decimals.
    fn amount_text(self, units: Units) -> String {
        match self {
            Kind::Nft => units.to_string(),
            Kind::Lvlx => lvlx_text(units),
        }
    }
}

fn lvlx_text(units: Units) -> String {
    amount::format_lvlx(units)
}

/// A staker as the server writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Staker {
    /// Names and lastnames.
    pub names: String,
    pub email: String,
    pub wallet: Option<String>,
}

/// One staking entry; `staker` indexes [`Stakes::stakers`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stake {
    pub staker: u32,
    /// 1–11 for NFTs, 0 for LVLX.
    pub nft_id: u32,
    pub amount: Units,
    pub start: i64,
    pub release: i64,
    pub interests: Units,
    pub withdrawn: Units,
}

#[derive(Debug, Clone, Default)]
pub struct Stakes {
    pub stakers: Vec<Staker>,
    /// In release-date order.
    pub stakes: Vec<Stake>,
}

/// The server's side: the entries stream (release date ascending).
#[cfg(not(target_arch = "wasm32"))]
pub fn encode(kind: Kind, stakes: &Stakes) -> Result<Vec<u8>, TableError> {
    use super::columns::write::{self, keyed_text};
    use arrow_array::types::UInt32Type;
    use arrow_array::{
        ArrayRef, Decimal128Array, DictionaryArray, Int64Array, StringArray, UInt32Array,
    };
    use arrow_schema::DataType;
    use std::sync::Arc;

    let arrow = |e: arrow_schema::ArrowError| TableError::Arrow(e.to_string());
    let keys: Vec<u32> = stakes.stakes.iter().map(|s| s.staker).collect();
    let keyed = |values: Vec<&str>| -> Result<ArrayRef, TableError> {
        Ok(Arc::new(
            DictionaryArray::<UInt32Type>::try_new(
                UInt32Array::from(keys.clone()),
                Arc::new(StringArray::from(values)),
            )
            .map_err(arrow)?,
        ))
    };
    let units = |f: fn(&Stake) -> Units| -> Result<ArrayRef, TableError> {
        let values = stakes
            .stakes
            .iter()
            .map(|s| i128::try_from(f(s)).map_err(|_| TableError::Overflow))
            .collect::<Result<Vec<i128>, _>>()?;
        Ok(Arc::new(
            Decimal128Array::from(values).with_data_type(write::AMOUNT),
        ))
    };
    let times = |f: fn(&Stake) -> i64| -> ArrayRef {
        Arc::new(Int64Array::from_iter_values(stakes.stakes.iter().map(f)))
    };
    let mut fields = vec![
        write::time(RELEASE),
        write::time(START),
        keyed_text(EMAIL, DataType::UInt32),
        keyed_text(NAMES, DataType::UInt32),
        keyed_text(WALLET, DataType::UInt32),
    ];
    let mut columns: Vec<ArrayRef> = vec![
        times(|s| s.release),
        times(|s| s.start),
        keyed(stakes.stakers.iter().map(|s| s.email.as_str()).collect())?,
        keyed(stakes.stakers.iter().map(|s| s.names.as_str()).collect())?,
        keyed(
            stakes
                .stakers
                .iter()
                .map(|s| s.wallet.as_deref().unwrap_or(""))
                .collect(),
        )?,
    ];
    if kind == Kind::Nft {
        fields.push(write::count(NFT_ID));
        columns.push(Arc::new(UInt32Array::from_iter_values(
            stakes.stakes.iter().map(|s| s.nft_id),
        )));
    }
    fields.extend([
        write::amount(AMOUNT),
        write::amount(INTERESTS),
        write::amount(WITHDRAWN),
    ]);
    columns.extend([
        units(|s| s.amount)?,
        units(|s| s.interests)?,
        units(|s| s.withdrawn)?,
    ]);
    write::encode(&write::batch(write::schema(fields), columns)?)
}

/// Sums over a set of entries: the general and filtered summary boxes of both screens, and
/// the server's General.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    pub entries: u64,
    pub stakers: u64,
    /// NFTs, or LVLX base units.
    pub amount: Units,
    /// The part still locked at `now`.
    pub locked: Units,
    /// NFTs per id (index 0 = id 1).
    pub by_id: [Units; NFT_IDS],
    pub interests: Units,
    pub withdrawn: Units,
}

/// Accumulates a [`Tally`], counting each staker once.
#[derive(Debug, Default)]
pub struct TallyBuilder {
    tally: Tally,
    seen: Vec<u64>,
}

fn add(to: &mut Units, units: Units) -> Result<(), TableError> {
    *to = to.checked_add(units).ok_or(TableError::Overflow)?;
    Ok(())
}

impl TallyBuilder {
    pub fn add(&mut self, stake: &Stake, now_ms: i64) -> Result<(), TableError> {
        let (word, bit) = (stake.staker as usize / 64, 1u64 << (stake.staker % 64));
        if word >= self.seen.len() {
            self.seen.resize(word + 1, 0);
        }
        if self.seen[word] & bit == 0 {
            self.seen[word] |= bit;
            self.tally.stakers += 1;
        }
        let t = &mut self.tally;
        t.entries += 1;
        add(&mut t.amount, stake.amount)?;
        if stake.release > now_ms {
            add(&mut t.locked, stake.amount)?;
        }
        if (1..=NFT_IDS as u32).contains(&stake.nft_id) {
            add(&mut t.by_id[stake.nft_id as usize - 1], stake.amount)?;
        }
        add(&mut t.interests, stake.interests)?;
        add(&mut t.withdrawn, stake.withdrawn)
    }

    pub fn finish(self) -> Tally {
        self.tally
    }
}

impl Tally {
    /// The summary box in the screen's names: SPEC §3 "NFT general summary" for NFTs (every id,
    /// not only 1–4), the same measures under LVLX names for LVLX stakes. Amounts are base-unit
    /// strings (NFT counts are numbers); USDT values have two decimals.
    pub fn to_json(&self, kind: Kind) -> Value {
        let rewards_usdt = amount::lvlx_to_usdt(self.interests);
        match kind {
            Kind::Nft => {
                let count = |u: Units| u64::try_from(u).unwrap_or(u64::MAX);
                let mut value = json!({
                    "totalNFTStakingProcess": count(self.locked),
                    "totalNFTInStake": count(self.amount),
                    "totalUserNFTStaking": self.stakers,
                    "totalStakes": self.entries,
                    "totalLVLXByNFT": self.interests.to_string(),
                    "totalUSDTByNFT": rewards_usdt,
                    "totalLVLXWithdrawnByNFT": self.withdrawn.to_string(),
                });
                for (i, n) in self.by_id.iter().enumerate() {
                    value[format!("totalNFTInStakeById{}", i + 1)] = count(*n).into();
                }
                value
            }
            Kind::Lvlx => json!({
                "totalLVLXStakes": self.entries,
                "totalUserLVLXStaking": self.stakers,
                "totalLVLXInStake": self.amount.to_string(),
                "totalLVLXInStakeUSDT": amount::lvlx_to_usdt(self.amount),
                "totalLVLXStaking": self.locked.to_string(),
                "totalLVLXRewards": self.interests.to_string(),
                "totalUSDTRewards": rewards_usdt,
                "totalLVLXRewardsWithdrawn": self.withdrawn.to_string(),
            }),
        }
    }
}

/// Per-staker sums over all of their entries (the searchable table and the NFT modal).
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
    pub amount_text: String,
    /// The part still locked.
    pub staking: String,
    pub staking_text: String,
    /// NFTs of ids 1–11 (empty for LVLX).
    pub by_id: Vec<u32>,
    /// Current LVLX rewards, base units.
    pub total: String,
    pub total_text: String,
    #[serde(rename = "totalUSDT")]
    pub total_usdt: String,
}

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
}

/// Which of the two tables an instance answers for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Entries: date range on the release date, sort, pages.
    Entries,
    /// Stakers: search on email or name, sort, pages.
    Stakers,
}

pub struct StakeTable {
    kind: Kind,
    side: Side,
    now_ms: i64,
    frame: Frame,
    /// Per staker key.
    totals: Vec<StakerTotals>,
    names_lower: Vec<String>,
    emails_lower: Vec<String>,
    engine: Engine,
    tally: Tally,
}

const ENTRY_SORTS: [&str; 9] = [
    NAMES,
    EMAIL,
    WALLET,
    NFT_ID,
    AMOUNT,
    START,
    RELEASE,
    INTERESTS,
    REWARD_USDT,
];
const STAKER_SORTS: [&str; 8] = [
    NAMES,
    EMAIL,
    WALLET,
    ENTRIES,
    AMOUNT,
    STAKING,
    INTERESTS,
    REWARD_USDT,
];

impl StakeTable {
    pub fn load(
        bytes: &[u8],
        kind: Kind,
        side: Side,
        now_ms: i64,
    ) -> Result<StakeTable, TableError> {
        let frame = Frame::decode(bytes)?;
        if frame.times(RELEASE)?.windows(2).any(|w| w[0] > w[1]) {
            return Err(TableError::Order);
        }
        frame.times(START)?;
        let (keys, emails) = frame.keyed(EMAIL)?;
        for name in [NAMES, WALLET] {
            let (other, values) = frame.keyed(name)?;
            if other != keys || values.len() != emails.len() {
                return Err(TableError::Column(name.into()));
            }
        }
        if kind == Kind::Nft {
            let ids = frame.counts(NFT_ID)?;
            if ids.iter().any(|id| !(1..=NFT_IDS as u32).contains(id)) {
                return Err(TableError::Column(NFT_ID.into()));
            }
        }
        frame.amounts(AMOUNT)?;
        frame.amounts(INTERESTS)?;
        frame.amounts(WITHDRAWN)?;
        let lower = |texts: &Texts| texts.iter().map(str::to_lowercase).collect::<Vec<_>>();
        let names_lower = lower(frame.keyed(NAMES)?.1);
        let emails_lower = lower(emails);
        let mut table = StakeTable {
            kind,
            side,
            now_ms,
            totals: vec![StakerTotals::default(); emails.len()],
            frame,
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
        for row in 0..self.frame.rows() {
            let stake = self.stake(row);
            let t = &mut self.totals[stake.staker as usize];
            t.entries += 1;
            add(&mut t.amount, stake.amount)?;
            if stake.release > self.now_ms {
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

    /// Entry `row`, read from the columns (validated at load).
    fn stake(&self, row: usize) -> Stake {
        let f = &self.frame;
        let units = |name| f.amounts(name).map_or(0, |v| v[row] as u128);
        Stake {
            staker: f.keyed(EMAIL).map_or(0, |(k, _)| k[row]),
            nft_id: f.counts(NFT_ID).map_or(0, |v| v[row]),
            amount: units(AMOUNT),
            start: f.times(START).map_or(0, |v| v[row]),
            release: f.times(RELEASE).map_or(0, |v| v[row]),
            interests: units(INTERESTS),
            withdrawn: units(WITHDRAWN),
        }
    }

    pub fn kind(&self) -> Kind {
        self.kind
    }

    pub fn side(&self) -> Side {
        self.side
    }

    /// Rows of this side: entries or stakers.
    pub fn len(&self) -> usize {
        match self.side {
            Side::Entries => self.frame.rows(),
            Side::Stakers => self.totals.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// First and last release dates (entries), today when there are none. The stakers table
    /// has no date filter: `None`.
    pub fn range(&self, offset_minutes: i32, now_ms: i64) -> Option<(String, String)> {
        (self.side == Side::Entries).then(|| {
            super::date_range(
                self.frame.times(RELEASE).unwrap_or(&[]),
                offset_minutes,
                now_ms,
            )
        })
    }

    /// Applies the query; answers the tally of the kept entries (entries side) or of the
    /// kept stakers' entries (stakers side).
    pub fn query(&mut self, query: &Query) -> Result<&Tally, TableError> {
        let mut tally = TallyBuilder::default();
        let kept = match self.side {
            Side::Entries => {
                let (from, to) = date_slice(self.frame.times(RELEASE)?, query)?;
                for row in from..to {
                    tally.add(&self.stake(row), self.now_ms)?;
                }
                Kept::Range(from as u32, to as u32)
            }
            Side::Stakers => {
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
                let keys = self.frame.keyed(EMAIL)?.0;
                for (row, &key) in keys.iter().enumerate() {
                    if wanted.contains(key as usize) {
                        tally.add(&self.stake(row), self.now_ms)?;
                    }
                }
                Kept::Rows(kept)
            }
        };
        self.tally = tally.finish();
        self.engine.keep(kept);
        if let Some(sort) = &query.sort {
            let column = sort_column(sort, Table::sortable(self))?;
            self.sort(column, sort.direction)?;
        }
        Ok(&self.tally)
    }

    fn sort(&mut self, column: &'static str, direction: Direction) -> Result<(), TableError> {
        if self.side == Side::Entries && column == RELEASE {
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
        let (side, frame, totals) = (self.side, &self.frame, &self.totals);
        self.engine.sort_by(column, direction, rows, || {
            Ok(match (side, column) {
                (_, NAMES | EMAIL | WALLET) => {
                    let (keys, values) = frame.keyed(column)?;
                    let ranks = super::text_ranks(values.iter());
                    match side {
                        Side::Entries => super::permutation_by(rows, |r| ranks[keys[r] as usize]),
                        Side::Stakers => super::permutation_by(rows, |r| ranks[r]),
                    }
                }
                (Side::Entries, START) => {
                    let values = frame.times(START)?;
                    super::permutation_by(rows, |r| values[r])
                }
                (Side::Entries, NFT_ID) => {
                    let values = frame.counts(NFT_ID)?;
                    super::permutation_by(rows, |r| values[r])
                }
                (Side::Entries, _) => {
                    let values = frame.amounts(column)?;
                    super::permutation_by_amount(rows, |r| values[r] as u128)
                }
                (Side::Stakers, ENTRIES) => super::permutation_by(rows, |r| totals[r].entries),
                (Side::Stakers, AMOUNT) => super::permutation_by_amount(rows, |r| totals[r].amount),
                (Side::Stakers, STAKING) => {
                    super::permutation_by_amount(rows, |r| totals[r].locked)
                }
                (Side::Stakers, _) => super::permutation_by_amount(rows, |r| totals[r].interests),
            })
        })
    }

    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    pub fn kept(&self) -> usize {
        self.engine.kept()
    }

    pub fn entries_page(&self, from: usize, len: usize) -> Vec<EntryRow> {
        self.engine
            .page(from, len)
            .into_iter()
            .map(|(n, row)| self.entry_row(n, row as usize))
            .collect()
    }

    pub fn stakers_page(&self, from: usize, len: usize) -> Vec<StakerRow> {
        self.engine
            .page(from, len)
            .into_iter()
            .map(|(n, key)| self.staker_row(n, key as usize))
            .collect()
    }

    fn staker_text(&self, name: &str, key: usize) -> String {
        self.frame
            .keyed(name)
            .map(|(_, values)| values.get(key).to_string())
            .unwrap_or_default()
    }

    fn wallet_short(wallet: &str) -> String {
        if wallet.is_empty() {
            String::new()
        } else {
            short_wallet(wallet)
        }
    }

    fn entry_row(&self, n: usize, row: usize) -> EntryRow {
        let stake = self.stake(row);
        let key = stake.staker as usize;
        let wallet = self.staker_text(WALLET, key);
        EntryRow {
            n,
            names: self.staker_text(NAMES, key),
            email: self.staker_text(EMAIL, key),
            wallet_short: Self::wallet_short(&wallet),
            wallet,
            nft_id: (self.kind == Kind::Nft).then_some(stake.nft_id),
            amount: stake.amount.to_string(),
            amount_text: self.kind.amount_text(stake.amount),
            start_date: stake.start,
            withdraw_date: stake.release,
            locked: stake.release > self.now_ms,
            current_interests: stake.interests.to_string(),
            current_interests_text: lvlx_text(stake.interests),
            reward_usdt: amount::lvlx_to_usdt(stake.interests),
            interest_withdrawal_amount: stake.withdrawn.to_string(),
        }
    }

    fn staker_row(&self, n: usize, key: usize) -> StakerRow {
        let t = &self.totals[key];
        let wallet = self.staker_text(WALLET, key);
        StakerRow {
            n,
            names: self.staker_text(NAMES, key),
            email: self.staker_text(EMAIL, key),
            wallet_short: Self::wallet_short(&wallet),
            wallet,
            entries: t.entries,
            amount: t.amount.to_string(),
            amount_text: self.kind.amount_text(t.amount),
            staking: t.locked.to_string(),
            staking_text: self.kind.amount_text(t.locked),
            by_id: match self.kind {
                Kind::Nft => t.by_id.to_vec(),
                Kind::Lvlx => Vec::new(),
            },
            total: t.interests.to_string(),
            total_text: lvlx_text(t.interests),
            total_usdt: amount::lvlx_to_usdt(t.interests),
        }
    }

    /// The kept rows in display order, exact amounts, as CSV.
    pub fn csv(&self) -> String {
        let lvlx = |units: Units| amount::format_units(units, LVLX_DECIMALS).expect("18 decimals");
        let kind = self.kind;
        let exact = move |units: Units| match kind {
            Kind::Nft => units.to_string(),
            Kind::Lvlx => lvlx(units),
        };
        let nft = self.kind == Kind::Nft;
        match self.side {
            Side::Entries => {
                let header = format!(
                    "n,names,email,wallet,{}amount,startDate,withdrawDate,currentInterests,rewardUSDT,interestWithdrawalAmount",
                    if nft { "NFTId," } else { "" }
                );
                csv(&header, self.engine.rows(), |out, row| {
                    let stake = self.stake(row);
                    let r = self.entry_row(0, row);
                    for field in [&r.names, &r.email, &r.wallet] {
                        out.push(',');
                        super::csv_field(out, field);
                    }
                    if let Some(id) = r.nft_id {
                        out.push_str(&format!(",{id}"));
                    }
                    out.push_str(&format!(
                        ",{},{},{},{},{},{}",
                        exact(stake.amount),
                        super::iso(stake.start),
                        super::iso(stake.release),
                        lvlx(stake.interests),
                        r.reward_usdt,
                        lvlx(stake.withdrawn),
                    ));
                })
            }
            Side::Stakers => {
                let ids: String = (1..=NFT_IDS).map(|id| format!("NFT{id},")).collect();
                let header = format!(
                    "n,names,email,wallet,entries,amount,staking,{}total,totalUSDT",
                    if nft { ids.as_str() } else { "" }
                );
                csv(&header, self.engine.rows(), |out, key| {
                    let t = &self.totals[key];
                    let r = self.staker_row(0, key);
                    for field in [&r.names, &r.email, &r.wallet] {
                        out.push(',');
                        super::csv_field(out, field);
                    }
                    out.push_str(&format!(
                        ",{},{},{},",
                        t.entries,
                        exact(t.amount),
                        exact(t.locked)
                    ));
                    for count in &r.by_id {
                        out.push_str(&format!("{count},"));
                    }
                    out.push_str(&format!("{},{}", lvlx(t.interests), r.total_usdt));
                })
            }
        }
    }
}

impl Table for StakeTable {
    fn len(&self) -> usize {
        StakeTable::len(self)
    }
    fn sortable(&self) -> Vec<&'static str> {
        let allowed: &[&'static str] = match self.side {
            Side::Entries => &ENTRY_SORTS,
            Side::Stakers => &STAKER_SORTS,
        };
        let kind = self.kind;
        allowed
            .iter()
            .copied()
            .filter(|c| *c != NFT_ID || kind == Kind::Nft)
            .collect()
    }
    fn range(&self, offset_minutes: i32, now_ms: i64) -> Option<(String, String)> {
        StakeTable::range(self, offset_minutes, now_ms)
    }
    fn query(&mut self, query: &Query) -> Result<Value, TableError> {
        let kind = self.kind;
        let summary = StakeTable::query(self, query)?.to_json(kind);
        Ok(serde_json::json!({ "kept": self.kept(), "summary": summary }))
    }
    fn page(&self, from: usize, len: usize) -> Result<Value, TableError> {
        match self.side {
            Side::Entries => to_value(&self.entries_page(from, len)),
            Side::Stakers => to_value(&self.stakers_page(from, len)),
        }
    }
    fn csv(&self) -> String {
        StakeTable::csv(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::admin::Sort;

    const DAY: i64 = 86_400_000;
    /// Day numbers count from 2024-01-01.
    const BASE: i64 = 19_723;
    const E18: Units = 1_000_000_000_000_000_000;

    fn sample() -> Stakes {
        let staker = |names: &str, email: &str, wallet: Option<&str>| Staker {
            names: names.into(),
            email: email.into(),
            wallet: wallet.map(Into::into),
        };
        let stake = |staker, nft_id, amount, day: i64, interests| Stake {
            staker,
            nft_id,
            amount,
            start: (BASE + day - 30) * DAY,
            release: (BASE + day) * DAY,
            interests,
            withdrawn: interests / 2,
        };
        Stakes {
            stakers: vec![
                staker(
                    "José Álvarez",
                    "jose@example.com",
                    Some("0x1111111111111111111111111111111111111111"),
                ),
                staker("Ana Souza", "ana@example.com", None),
                staker(
                    "Bob Stone",
                    "bob@example.com",
                    Some("0x2222222222222222222222222222222222222222"),
                ),
            ],
            stakes: vec![
                stake(0, 1, 2, 100, 5 * E18),
                stake(1, 2, 1, 101, 7),
                stake(0, 11, 3, 102, 10u128.pow(27) + 7),
                stake(2, 1, 1, 103, 0),
                stake(0, 2, 4, 200, E18 / 10),
            ],
        }
    }

    fn load(side: Side) -> StakeTable {
        let bytes = encode(Kind::Nft, &sample()).unwrap();
        // "now" between the 4th and 5th releases: only the last entry is locked.
        StakeTable::load(&bytes, Kind::Nft, side, (BASE + 150) * DAY).unwrap()
    }

    #[test]
    fn general_tally_counts_every_entry_once() {
        let table = load(Side::Entries);
        let t = table.tally();
        assert_eq!((t.entries, t.stakers, t.amount, t.locked), (5, 3, 11, 4));
        assert_eq!(t.by_id[0], 3);
        assert_eq!(t.by_id[1], 5);
        assert_eq!(t.by_id[10], 3);
        assert_eq!(t.interests, 10u128.pow(27) + 7 + 5 * E18 + 7 + E18 / 10);
        let json = t.to_json(Kind::Nft);
        assert_eq!(json["totalNFTInStake"], 11);
        assert_eq!(json["totalNFTStakingProcess"], 4);
        assert_eq!(json["totalNFTInStakeById11"], 3);
        assert_eq!(json["totalUserNFTStaking"], 3);
        assert_eq!(json["totalLVLXByNFT"], "1000000005100000000000000014");
        assert_eq!(json["totalUSDTByNFT"], "100000000.51");
    }

    #[test]
    fn release_date_filter_is_inclusive_and_tallies_the_kept_entries() {
        let mut table = load(Side::Entries);
        let day = |d: i64| crate::date::calendar_date((BASE + d) * DAY, 0).unwrap();
        let t = table
            .query(&Query {
                start: Some(day(101)),
                end: Some(day(102)),
                ..Query::default()
            })
            .unwrap()
            .clone();
        assert_eq!((t.entries, t.stakers, t.amount), (2, 2, 4));
        let page = table.entries_page(0, 10);
        assert_eq!(page.iter().map(|r| r.n).collect::<Vec<_>>(), vec![1, 2]);
        assert_eq!(page[0].names, "Ana Souza");
        assert_eq!(page[1].nft_id, Some(11));
        assert_eq!(page[1].reward_usdt, "100000000.00");
        assert!(table.csv().contains(",1000000000.000000000000000007,"));
    }

    #[test]
    fn stakers_are_grouped_searched_and_sorted() {
        let mut table = load(Side::Stakers);
        assert_eq!(table.len(), 3);
        let all = table.stakers_page(0, 10);
        assert_eq!(all[0].by_id, vec![2, 4, 0, 0, 0, 0, 0, 0, 0, 0, 3]);
        assert_eq!(
            (all[0].amount.as_str(), all[0].staking.as_str()),
            ("9", "4")
        );
        assert_eq!(all[1].wallet_short, "");
        let t = table
            .query(&Query {
                search: "  JOSÉ ".into(),
                ..Query::default()
            })
            .unwrap()
            .clone();
        assert_eq!((t.entries, t.stakers, t.amount), (3, 1, 9));
        assert_eq!(table.stakers_page(0, 10)[0].email, "jose@example.com");
        table
            .query(&Query {
                sort: Some(Sort {
                    column: AMOUNT.into(),
                    direction: Direction::Asc,
                }),
                ..Query::default()
            })
            .unwrap();
        let order: Vec<usize> = table.stakers_page(0, 10).iter().map(|r| r.n).collect();
        assert_eq!(
            order,
            vec![2, 3, 1],
            "amounts 1, 1, 9; N° stays the table position"
        );
        assert!(table
            .query(&Query {
                sort: Some(Sort {
                    column: START.into(),
                    direction: Direction::Asc
                }),
                ..Query::default()
            })
            .is_err());
    }

    #[test]
    fn lvlx_streams_have_no_nft_column_and_amounts_are_lvlx() {
        let mut stakes = sample();
        for s in &mut stakes.stakes {
            s.nft_id = 0;
            s.amount *= E18;
        }
        let bytes = encode(Kind::Lvlx, &stakes).unwrap();
        let table =
            StakeTable::load(&bytes, Kind::Lvlx, Side::Entries, (BASE + 150) * DAY).unwrap();
        let row = &table.entries_page(0, 1)[0];
        assert_eq!((row.nft_id, row.amount_text.as_str()), (None, "2.00"));
        assert_eq!(
            table.tally().to_json(Kind::Lvlx)["totalLVLXInStake"],
            (11 * E18).to_string()
        );
        assert!(StakeTable::load(&bytes, Kind::Nft, Side::Entries, 0).is_err());
    }

    #[test]
    fn entries_out_of_release_order_are_refused() {
        let mut stakes = sample();
        stakes.stakes.swap(0, 1);
        let bytes = encode(Kind::Nft, &stakes).unwrap();
        assert!(matches!(
            StakeTable::load(&bytes, Kind::Nft, Side::Entries, 0),
            Err(TableError::Order)
        ));
    }
}
