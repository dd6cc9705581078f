//! NFT and LVLX stakes for the admin staking screens (SPEC §3 NFT user record and NFT general
//! summary, §7 statistics-nftstaking). Every figure comes from the core: the General from its
//! tally, the per-staker sums from its staking engine over the same stream the browser loads.

use lvlx_core::admin::stakes::{encode, Kind, StakerTable, Stakes, TallyBuilder};
use lvlx_core::amount;
use serde_json::{json, Value};

use crate::error::Error;

fn internal(e: impl std::fmt::Display) -> Error {
    Error::Internal(e.to_string())
}

/// The Arrow stream the admin staking screens load.
pub fn stream(kind: Kind, stakes: &Stakes) -> Result<Vec<u8>, Error> {
    encode(kind, stakes).map_err(internal)
}

/// `{General, result, initDate, lastDate}`: the summary over every stake and the first
/// `limit` stakers (user order) as SPEC §3 NFT user records (LVLX: the same shape with
/// `lvlxStaking` / `stakingLVLXs`).
pub fn statistics(stakes: &Stakes, kind: Kind, limit: u32, now: i64) -> Result<Value, Error> {
    let mut tally = TallyBuilder::default();
    for stake in &stakes.stakes {
        tally.add(stake, now).map_err(internal)?;
    }
    let (init, last) = match (stakes.stakes.first(), stakes.stakes.last()) {
        (Some(first), Some(last)) => (first.release, last.release),
        _ => (now, now),
    };
    let bytes = stream(kind, stakes)?;
    let per_staker = StakerTable::load(&bytes, kind, now).map_err(internal)?;
    let shown = per_staker.page(0, limit as usize);
    let mut entries: Vec<Vec<Value>> = vec![Vec::new(); shown.len()];
    for stake in &stakes.stakes {
        if let Some(list) = entries.get_mut(stake.staker as usize) {
            list.push(json!({
                "NFTId": (kind == Kind::Nft).then_some(stake.nft_id),
                "amount": stake.amount.to_string(),
                "startDate": stake.start,
                "withdrawDate": stake.release,
                "currentInterests": stake.interests.to_string(),
                "rewardUSDT": amount::lvlx_to_usdt(stake.interests),
                "interestWithdrawalAmount": stake.withdrawn.to_string(),
            }));
        }
    }
    let count = |text: &str| text.parse::<u64>().map_err(internal);
    let result = shown
        .into_iter()
        .zip(entries)
        .map(|(row, list)| {
            let (sums, list_name) = match kind {
                Kind::Nft => {
                    let mut sums = json!({
                        "totalNFT": count(&row.amount)?,
                        "totalStakingNFT": count(&row.staking)?,
                        "total": row.total, "totalUSDT": row.total_usdt,
                    });
                    for (i, n) in row.by_id.iter().enumerate() {
                        sums[format!("userNFTsById{}", i + 1)] = (*n).into();
                    }
                    (json!({ "nftStaking": sums }), "stakingNFTs")
                }
                Kind::Lvlx => (
                    json!({ "lvlxStaking": {
                        "totalLVLX": row.amount, "totalStakingLVLX": row.staking,
                        "total": row.total, "totalUSDT": row.total_usdt,
                    }}),
                    "stakingLVLXs",
                ),
            };
            let mut record = json!({
                "names": row.names, "email": row.email,
                "wallet": (!row.wallet.is_empty()).then_some(row.wallet),
            });
            if let (Some(record), Some(sums)) = (record.as_object_mut(), sums.as_object()) {
                record.extend(sums.clone());
                record.insert(list_name.into(), Value::Array(list));
            }
            Ok(record)
        })
        .collect::<Result<Vec<Value>, Error>>()?;
    Ok(json!({
        "General": tally.finish().to_json(kind), "result": result, "initDate": init, "lastDate": last,
    }))
}
