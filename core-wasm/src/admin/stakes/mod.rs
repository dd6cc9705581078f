//! The admin staking screens (docs/product/admin.md#staking-screens; the NFT user record and
//! NFT general summary of docs/product/api.md#statistics): NFT stakes (ids 1–11, the amount is a
//! count of NFTs) and LVLX stakes (the amount is LVLX base units) follow one pattern, so one engine
//! serves both.
//!
//! The stream holds one row per staking entry in release-date order; the staker's email, name
//! and wallet are dictionary-encoded with the staker as the key, so the per-staker table (the
//! searchable one, with the NFT detail) is grouped from the entries in the core.
//!
//! Meanings the spec leaves open (docs/product/admin.md#staking-screens):
//! - an entry is *locked* while its release (withdraw) date is ahead of `now`;
//! - `totalNFTInStake` counts every staked NFT, `totalNFTStakingProcess` the locked ones,
//!   `totalNFTInStakeById{n}` every staked NFT of id n, `totalUserNFTStaking` the stakers;
//! - `totalLVLXByNFT` sums the current LVLX rewards, `totalUSDTByNFT` is their USDT value
//!   (LVLX ÷ 10, docs/product/money.md#price), and likewise per staker (`total`, `totalUSDT`)
//!   and per entry.

use serde::Serialize;
use serde_json::Value;

use super::columns::Frame;
use super::engine::Table;
use super::TableError;
use crate::amount::{self, Units};
use crate::display::short_wallet;

pub mod entries;
/// The server's statistics answers (the browser loads the stream instead).
#[cfg(not(target_arch = "wasm32"))]
pub mod records;
pub mod stakers;

pub use entries::{EntryRow, EntryTable};
pub use stakers::{StakerRow, StakerTable};

pub const RELEASE: &str = "withdrawDate";
pub const START: &str = "startDate";
pub const EMAIL: &str = "email";
pub const NAMES: &str = "names";
pub const WALLET: &str = "wallet";
/// The NFT id column (the row's field and the CSV header, as the API names it).
pub const NFT_ID: &str = "NFTId";
pub const AMOUNT: &str = "amount";
pub const INTERESTS: &str = "currentInterests";
pub const WITHDRAWN: &str = "interestWithdrawalAmount";
/// 1 for an entry opened in a block not final yet (it may still leave the chain), else 0.
pub const PENDING: &str = "pending";
/// Derived columns the screens may sort by.
pub const REWARD_USDT: &str = "rewardUSDT";
pub const ENTRIES: &str = "entries";
pub const STAKING: &str = "staking";

/// How many NFT ids there are (1..=NFT_LAST), one count column each.
pub const NFT_IDS: usize = crate::staking::NFT_LAST as usize;

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
    /// Opened in a block not final yet.
    pub pending: bool,
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
        write::count(PENDING),
    ]);
    columns.extend([
        units(|s| s.amount)?,
        units(|s| s.interests)?,
        units(|s| s.withdrawn)?,
        Arc::new(UInt32Array::from_iter_values(
            stakes.stakes.iter().map(|s| u32::from(s.pending)),
        )),
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
    /// The summary box in the screen's names: the NFT general summary
    /// (docs/product/api.md#statistics) for NFTs (every id, not only 1–4), the same measures under
    /// LVLX names for LVLX stakes. Amounts are base-unit strings (NFT counts are numbers); USDT
    /// values have two decimals.
    pub fn to_json(&self, kind: Kind) -> Value {
        match kind {
            Kind::Nft => serde_json::to_value(self.nft_summary()),
            Kind::Lvlx => serde_json::to_value(self.lvlx_summary()),
        }
        .unwrap_or_default()
    }

    pub fn nft_summary(&self) -> NftSummary {
        let count = |u: Units| u64::try_from(u).unwrap_or(u64::MAX);
        NftSummary {
            locked: count(self.locked),
            in_stake: count(self.amount),
            stakers: self.stakers,
            entries: self.entries,
            rewards: self.interests,
            rewards_usdt: amount::lvlx_to_usdt(self.interests),
            withdrawn: self.withdrawn,
            by_id: (self.by_id.iter().enumerate())
                .map(|(i, n)| (format!("totalNFTInStakeById{}", i + 1), count(*n)))
                .collect(),
        }
    }

    pub fn lvlx_summary(&self) -> LvlxSummary {
        LvlxSummary {
            entries: self.entries,
            stakers: self.stakers,
            in_stake: self.amount,
            in_stake_usdt: amount::lvlx_to_usdt(self.amount),
            locked: self.locked,
            rewards: self.interests,
            rewards_usdt: amount::lvlx_to_usdt(self.interests),
            withdrawn: self.withdrawn,
        }
    }
}

/// The NFT general summary (docs/product/api.md#statistics), for every NFT id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NftSummary {
    /// NFTs still locked.
    #[serde(rename = "totalNFTStakingProcess")]
    pub locked: u64,
    #[serde(rename = "totalNFTInStake")]
    pub in_stake: u64,
    #[serde(rename = "totalUserNFTStaking")]
    pub stakers: u64,
    #[serde(rename = "totalStakes")]
    pub entries: u64,
    /// LVLX rewards earned so far.
    #[serde(rename = "totalLVLXByNFT", with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    pub rewards: Units,
    #[serde(rename = "totalUSDTByNFT")]
    pub rewards_usdt: String,
    #[serde(rename = "totalLVLXWithdrawnByNFT", with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    pub withdrawn: Units,
    /// `totalNFTInStakeById1` … one count per NFT id.
    #[serde(flatten)]
    pub by_id: std::collections::BTreeMap<String, u64>,
}

/// The LVLX staking summary: the NFT summary's measures under LVLX names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LvlxSummary {
    #[serde(rename = "totalLVLXStakes")]
    pub entries: u64,
    #[serde(rename = "totalUserLVLXStaking")]
    pub stakers: u64,
    #[serde(rename = "totalLVLXInStake", with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    pub in_stake: Units,
    #[serde(rename = "totalLVLXInStakeUSDT")]
    pub in_stake_usdt: String,
    /// LVLX still locked.
    #[serde(rename = "totalLVLXStaking", with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    pub locked: Units,
    #[serde(rename = "totalLVLXRewards", with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    pub rewards: Units,
    #[serde(rename = "totalUSDTRewards")]
    pub rewards_usdt: String,
    #[serde(rename = "totalLVLXRewardsWithdrawn", with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    pub withdrawn: Units,
}

/// The validated entries stream both tables read: one [`Stake`] a row, the staker's texts
/// by key.
pub(crate) struct StakeFrame {
    kind: Kind,
    now_ms: i64,
    frame: Frame,
}

impl StakeFrame {
    fn load(bytes: &[u8], kind: Kind, now_ms: i64) -> Result<StakeFrame, TableError> {
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
        if frame.counts(PENDING)?.iter().any(|p| *p > 1) {
            return Err(TableError::Column(PENDING.into()));
        }
        Ok(StakeFrame {
            kind,
            now_ms,
            frame,
        })
    }

    fn rows(&self) -> usize {
        self.frame.rows()
    }

    /// Distinct stakers (keys of the staker columns).
    fn stakers(&self) -> usize {
        self.frame.keyed(EMAIL).map_or(0, |(_, v)| v.len())
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
            pending: f.counts(PENDING).is_ok_and(|v| v[row] == 1),
        }
    }

    /// Staker `key`'s names, email or wallet.
    fn staker_text(&self, name: &str, key: usize) -> String {
        self.frame
            .keyed(name)
            .map(|(_, values)| values.get(key).to_string())
            .unwrap_or_default()
    }

    /// Staker `key`'s names, email, wallet and short wallet (empty without a wallet).
    fn staker(&self, key: usize) -> (String, String, String, String) {
        let wallet = self.staker_text(WALLET, key);
        let short = if wallet.is_empty() {
            String::new()
        } else {
            short_wallet(&wallet)
        };
        (
            self.staker_text(NAMES, key),
            self.staker_text(EMAIL, key),
            wallet,
            short,
        )
    }

    /// Whether an entry released at `release` is still locked.
    fn locked(&self, release: i64) -> bool {
        release > self.now_ms
    }
}

/// The table a screen asked for: `"entries"` or `"stakers"`.
pub fn load(
    bytes: &[u8],
    kind: Kind,
    side: &str,
    now_ms: i64,
) -> Result<Box<dyn Table>, TableError> {
    Ok(match side {
        "entries" => Box::new(EntryTable::load(bytes, kind, now_ms)?),
        "stakers" => Box::new(StakerTable::load(bytes, kind, now_ms)?),
        _ => return Err(TableError::Column(side.into())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::admin::{Direction, Query, Sort};

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
            pending: day == 101,
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

    /// "now" between the 4th and 5th releases: only the last entry is locked.
    const NOW: i64 = (BASE + 150) * DAY;

    fn entries() -> EntryTable {
        EntryTable::load(&encode(Kind::Nft, &sample()).unwrap(), Kind::Nft, NOW).unwrap()
    }

    fn stakers() -> StakerTable {
        StakerTable::load(&encode(Kind::Nft, &sample()).unwrap(), Kind::Nft, NOW).unwrap()
    }

    #[test]
    fn general_tally_counts_every_entry_once() {
        let table = entries();
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
        let mut table = entries();
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
        let page = table.page(0, 10);
        assert_eq!(page.iter().map(|r| r.n).collect::<Vec<_>>(), vec![1, 2]);
        assert_eq!(page[0].names, "Ana Souza");
        // The entry opened in a block not final yet carries its mark through the stream.
        assert_eq!((page[0].pending, page[1].pending), (true, false));
        assert_eq!(page[1].nft_id, Some(11));
        assert_eq!(page[1].reward_usdt, "100000000.00");
        assert!(table.csv().contains(",1000000000.000000000000000007,"));
    }

    #[test]
    fn stakers_are_grouped_searched_and_sorted() {
        let mut table = stakers();
        assert_eq!(table.len(), 3);
        let all = table.page(0, 10);
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
        assert_eq!(table.page(0, 10)[0].email, "jose@example.com");
        table
            .query(&Query {
                sort: Some(Sort {
                    column: AMOUNT.into(),
                    direction: Direction::Asc,
                }),
                ..Query::default()
            })
            .unwrap();
        let order: Vec<usize> = table.page(0, 10).iter().map(|r| r.n).collect();
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
        let table = EntryTable::load(&bytes, Kind::Lvlx, NOW).unwrap();
        let row = &table.page(0, 1)[0];
        assert_eq!((row.nft_id, row.amount_text.as_str()), (None, "2.00"));
        assert_eq!(
            table.tally().to_json(Kind::Lvlx)["totalLVLXInStake"],
            (11 * E18).to_string()
        );
        assert!(EntryTable::load(&bytes, Kind::Nft, 0).is_err());
    }

    /// The stakers CSVs, every byte: the columns the page shows (names as the API names them),
    /// the NFT counts by id on the NFT screen, amounts exact.
    #[test]
    fn the_stakers_csvs_keep_their_columns() {
        let mut table = stakers();
        table
            .query(&Query {
                sort: Some(Sort {
                    column: REWARD_USDT.into(),
                    direction: Direction::Desc,
                }),
                ..Query::default()
            })
            .unwrap();
        assert_eq!(
            table.csv(),
            "n,names,email,wallet,entries,amount,staking,NFT1,NFT2,NFT3,NFT4,NFT5,NFT6,NFT7,\
             NFT8,NFT9,NFT10,NFT11,total,totalUSDT\n\
             1,José Álvarez,jose@example.com,0x1111111111111111111111111111111111111111,3,9,4,\
             2,4,0,0,0,0,0,0,0,0,3,1000000005.100000000000000007,100000000.51\n\
             2,Ana Souza,ana@example.com,,1,1,0,0,1,0,0,0,0,0,0,0,0,0,0.000000000000000007,0.00\n\
             3,Bob Stone,bob@example.com,0x2222222222222222222222222222222222222222,1,1,0,\
             1,0,0,0,0,0,0,0,0,0,0,0,0.00\n"
        );
        let mut stakes = sample();
        for s in &mut stakes.stakes {
            s.nft_id = 0;
            s.amount *= E18;
        }
        let bytes = encode(Kind::Lvlx, &stakes).unwrap();
        let table = StakerTable::load(&bytes, Kind::Lvlx, NOW).unwrap();
        assert_eq!(
            table.csv(),
            "n,names,email,wallet,entries,amount,staking,total,totalUSDT\n\
             1,José Álvarez,jose@example.com,0x1111111111111111111111111111111111111111,3,9,4,\
             1000000005.100000000000000007,100000000.51\n\
             2,Ana Souza,ana@example.com,,1,1,0,0.000000000000000007,0.00\n\
             3,Bob Stone,bob@example.com,0x2222222222222222222222222222222222222222,1,1,0,0,0.00\n"
        );
    }

    /// The stakers' columns are declared once (`stakers::NFT_COLUMNS`, `LVLX_COLUMNS`): each is
    /// a field of the row the page receives.
    #[test]
    fn the_stakers_columns_are_the_rows_fields() {
        let row = serde_json::to_value(&stakers().page(0, 1)[0]).unwrap();
        for column in stakers::NFT_COLUMNS.iter().chain(stakers::LVLX_COLUMNS) {
            assert!(
                row.get(column.row_field()).is_some(),
                "{} is not a row field",
                column.id
            );
        }
    }

    #[test]
    fn entries_out_of_release_order_are_refused() {
        let mut stakes = sample();
        stakes.stakes.swap(0, 1);
        let bytes = encode(Kind::Nft, &stakes).unwrap();
        assert!(matches!(
            EntryTable::load(&bytes, Kind::Nft, 0),
            Err(TableError::Order)
        ));
    }
}
