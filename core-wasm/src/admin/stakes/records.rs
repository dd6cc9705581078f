//! What the statistics-nftstaking and statistics-lvlxstaking calls answer
//! (docs/product/api.md#statistics): the General from the tally, the first stakers' records (the
//! NFT user record; LVLX: the same shape under LVLX names) from the staker table over the same
//! stream the browser loads.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{encode, Kind, LvlxSummary, NftSummary, StakerRow, StakerTable, Stakes, TallyBuilder};
use crate::admin::TableError;
use crate::amount::{self, Units};

/// One stake of a staker's record (an NFT user record, docs/product/api.md#statistics), dates in
/// milliseconds.
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct StakeShown {
    /// The NFT id; null for LVLX stakes.
    #[serde(rename = "NFTId")]
    #[cfg_attr(feature = "openapi", schema(required = true))]
    nft_id: Option<u32>,
    /// NFTs, or LVLX base units.
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    amount: Units,
    start_date: i64,
    withdraw_date: i64,
    /// LVLX earned so far.
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    current_interests: Units,
    #[serde(rename = "rewardUSDT")]
    reward_usdt: String,
    /// LVLX withdrawn so far.
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    interest_withdrawal_amount: Units,
}

/// A staker's NFT sums.
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct NftSums {
    #[serde(rename = "totalNFT")]
    total_nft: u64,
    /// Still locked.
    #[serde(rename = "totalStakingNFT")]
    total_staking_nft: u64,
    /// LVLX rewards so far, base units.
    #[cfg_attr(feature = "openapi", schema(pattern = "^[0-9]+$"))]
    total: String,
    #[serde(rename = "totalUSDT")]
    total_usdt: String,
    /// `userNFTsById1` … one count per NFT id.
    #[serde(flatten)]
    by_id: BTreeMap<String, u32>,
}

/// A staker's LVLX sums (base units).
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct LvlxSums {
    #[serde(rename = "totalLVLX")]
    #[cfg_attr(feature = "openapi", schema(pattern = "^[0-9]+$"))]
    total_lvlx: String,
    /// Still locked.
    #[serde(rename = "totalStakingLVLX")]
    #[cfg_attr(feature = "openapi", schema(pattern = "^[0-9]+$"))]
    total_staking_lvlx: String,
    /// LVLX rewards so far.
    #[cfg_attr(feature = "openapi", schema(pattern = "^[0-9]+$"))]
    total: String,
    #[serde(rename = "totalUSDT")]
    total_usdt: String,
}

/// An NFT user record (docs/product/api.md#statistics).
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct NftStaker {
    names: String,
    email: String,
    wallet: Option<String>,
    nft_staking: NftSums,
    #[serde(rename = "stakingNFTs")]
    staking_nfts: Vec<StakeShown>,
}

/// The LVLX staker's record: the NFT record's shape under LVLX names.
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct LvlxStaker {
    names: String,
    email: String,
    wallet: Option<String>,
    lvlx_staking: LvlxSums,
    #[serde(rename = "stakingLVLXs")]
    staking_lvlxs: Vec<StakeShown>,
}

/// statistics-nftstaking (docs/product/api.md#calls): the summary over every stake, the first
/// stakers (user order), and the release dates' range.
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct NftStatistics {
    #[serde(rename = "General")]
    general: NftSummary,
    result: Vec<NftStaker>,
    init_date: i64,
    last_date: i64,
}

/// statistics-lvlxstaking: the NFT statistics' shape under LVLX names.
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct LvlxStatistics {
    #[serde(rename = "General")]
    general: LvlxSummary,
    result: Vec<LvlxStaker>,
    init_date: i64,
    last_date: i64,
}

/// Either pool's statistics.
#[derive(Serialize)]
#[serde(untagged)]
pub enum Statistics {
    Nft(NftStatistics),
    Lvlx(LvlxStatistics),
}

/// The summary over every stake and the first `limit` stakers (user order) as the NFT user
/// records of docs/product/api.md#statistics (LVLX: the same shape with `lvlxStaking` /
/// `stakingLVLXs`).
pub fn statistics(
    stakes: &Stakes,
    kind: Kind,
    limit: u32,
    now: i64,
) -> Result<Statistics, TableError> {
    let mut tally = TallyBuilder::default();
    for stake in &stakes.stakes {
        tally.add(stake, now)?;
    }
    let (init_date, last_date) = match (stakes.stakes.first(), stakes.stakes.last()) {
        (Some(first), Some(last)) => (first.release, last.release),
        _ => (now, now),
    };
    let bytes = encode(kind, stakes)?;
    let per_staker = StakerTable::load(&bytes, kind, now)?;
    let shown = per_staker.page(0, limit as usize);
    let mut entries: Vec<Vec<StakeShown>> = (0..shown.len()).map(|_| Vec::new()).collect();
    for stake in &stakes.stakes {
        if let Some(list) = entries.get_mut(stake.staker as usize) {
            list.push(StakeShown {
                nft_id: (kind == Kind::Nft).then_some(stake.nft_id),
                amount: stake.amount,
                start_date: stake.start,
                withdraw_date: stake.release,
                current_interests: stake.interests,
                reward_usdt: amount::lvlx_to_usdt(stake.interests),
                interest_withdrawal_amount: stake.withdrawn,
            });
        }
    }
    let tally = tally.finish();
    let rows = shown.into_iter().zip(entries);
    Ok(match kind {
        Kind::Nft => Statistics::Nft(NftStatistics {
            general: tally.nft_summary(),
            result: rows.map(nft_staker).collect::<Result<_, _>>()?,
            init_date,
            last_date,
        }),
        Kind::Lvlx => Statistics::Lvlx(LvlxStatistics {
            general: tally.lvlx_summary(),
            result: rows.map(lvlx_staker).collect(),
            init_date,
            last_date,
        }),
    })
}

fn wallet(row: &StakerRow) -> Option<String> {
    (!row.wallet.is_empty()).then(|| row.wallet.clone())
}

fn nft_staker((row, list): (StakerRow, Vec<StakeShown>)) -> Result<NftStaker, TableError> {
    let count = |text: &str| text.parse::<u64>().map_err(|_| TableError::Overflow);
    Ok(NftStaker {
        names: row.names.clone(),
        email: row.email.clone(),
        wallet: wallet(&row),
        nft_staking: NftSums {
            total_nft: count(&row.amount)?,
            total_staking_nft: count(&row.staking)?,
            by_id: (row.by_id.iter().enumerate())
                .map(|(i, n)| (format!("userNFTsById{}", i + 1), *n))
                .collect(),
            total: row.total,
            total_usdt: row.total_usdt,
        },
        staking_nfts: list,
    })
}

fn lvlx_staker((row, list): (StakerRow, Vec<StakeShown>)) -> LvlxStaker {
    LvlxStaker {
        names: row.names.clone(),
        email: row.email.clone(),
        wallet: wallet(&row),
        lvlx_staking: LvlxSums {
            total_lvlx: row.amount,
            total_staking_lvlx: row.staking,
            total: row.total,
            total_usdt: row.total_usdt,
        },
        staking_lvlxs: list,
    }
}
