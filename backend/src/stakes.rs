//! NFT and LVLX stakes for the admin staking screens (SPEC §3 NFT user record and NFT general
//! summary, §7 statistics-nftstaking). Every figure comes from the core: the General from its
//! tally, the per-staker sums from its staking engine over the same stream the browser loads.

use std::collections::HashMap;

use lvlx_core::admin::stakes::{Kind, Side, Stake, StakeTable, Staker, Stakes, TallyBuilder};
use lvlx_core::amount::{self, Units};
use rusqlite::Connection;
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::now_ms;

fn table(kind: Kind) -> (&'static str, &'static str, &'static str) {
    match kind {
        Kind::Nft => ("nft_stakes", "nft_id", "withdraw_date"),
        Kind::Lvlx => ("lvlx_stakes", "0", "release_date"),
    }
}

fn units(text: &str) -> Result<Units, ApiError> {
    amount::parse_base(text).map_err(|e| ApiError::Internal(format!("stored amount {text:?}: {e}")))
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::Internal(e.to_string())
}

/// Every stake of `kind` in release order; stakers keyed in user order.
pub fn load(c: &Connection, kind: Kind) -> Result<Stakes, ApiError> {
    let (name, nft_id, release) = table(kind);
    let mut stmt = c.prepare_cached(&format!(
        "SELECT s.user_id, u.names || ' ' || u.lastnames, u.email, u.wallet, {nft_id}, s.amount,
                s.start_date, s.{release}, s.current_interests, s.interest_withdrawn
         FROM {name} s JOIN users u ON u.id = s.user_id ORDER BY s.{release}, s.id"
    ))?;
    let mut rows = stmt.query([])?;
    let mut users: HashMap<i64, Staker> = HashMap::new();
    let mut raw: Vec<(i64, Stake)> = Vec::new();
    while let Some(r) = rows.next()? {
        let user: i64 = r.get(0)?;
        if let std::collections::hash_map::Entry::Vacant(slot) = users.entry(user) {
            slot.insert(Staker {
                names: r.get(1)?,
                email: r.get(2)?,
                wallet: r.get(3)?,
            });
        }
        // The NFT amount is an integer count; LVLX amounts are base-unit text.
        let amount = match kind {
            Kind::Nft => Units::from(r.get::<_, u32>(5)?),
            Kind::Lvlx => units(&r.get::<_, String>(5)?)?,
        };
        raw.push((
            user,
            Stake {
                staker: 0,
                nft_id: r.get(4)?,
                amount,
                start: r.get(6)?,
                release: r.get(7)?,
                interests: units(&r.get::<_, String>(8)?)?,
                withdrawn: units(&r.get::<_, String>(9)?)?,
            },
        ));
    }
    let mut ids: Vec<i64> = users.keys().copied().collect();
    ids.sort_unstable();
    let keys: HashMap<i64, u32> = ids
        .iter()
        .enumerate()
        .map(|(k, &id)| (id, k as u32))
        .collect();
    let stakers = ids
        .iter()
        .map(|id| users.remove(id).expect("every id has its staker"))
        .collect();
    let stakes = raw
        .into_iter()
        .map(|(user, mut stake)| {
            stake.staker = keys[&user];
            stake
        })
        .collect();
    Ok(Stakes { stakers, stakes })
}

/// The Arrow stream the admin staking screens load.
pub fn stream(c: &Connection, kind: Kind) -> Result<Vec<u8>, ApiError> {
    lvlx_core::admin::stakes::encode(kind, &load(c, kind)?).map_err(internal)
}

/// `{General, result, initDate, lastDate}`: the summary over every stake and the first
/// `limit` stakers (user order) as SPEC §3 NFT user records (LVLX: the same shape with
/// `lvlxStaking` / `stakingLVLXs`).
pub fn statistics(c: &Connection, kind: Kind, limit: u32) -> Result<Value, ApiError> {
    let stakes = load(c, kind)?;
    let now = now_ms();
    let mut tally = TallyBuilder::default();
    for stake in &stakes.stakes {
        tally.add(stake, now).map_err(internal)?;
    }
    let (init, last) = match (stakes.stakes.first(), stakes.stakes.last()) {
        (Some(first), Some(last)) => (first.release, last.release),
        _ => (now, now),
    };
    let bytes = lvlx_core::admin::stakes::encode(kind, &stakes).map_err(internal)?;
    let per_staker = StakeTable::load(&bytes, kind, Side::Stakers, now).map_err(internal)?;
    let shown = per_staker.stakers_page(0, limit as usize);
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
    let result: Vec<Value> = shown
        .into_iter()
        .zip(entries)
        .map(|(row, list)| {
            let (sums, list_name) = match kind {
                Kind::Nft => {
                    let mut sums = json!({
                        "totalNFT": row.amount.parse::<u64>().unwrap_or(0),
                        "totalStakingNFT": row.staking.parse::<u64>().unwrap_or(0),
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
            record
        })
        .collect();
    Ok(json!({
        "General": tally.finish().to_json(kind), "result": result, "initDate": init, "lastDate": last,
    }))
}
