//! NFT and LVLX stakes as the admin staking screens read them.

use std::collections::HashMap;

use lvlx_core::admin::stakes::{Kind, Stake, Staker, Stakes};
use lvlx_core::amount::Units;

use super::{units_at, Conn, Result};

fn table(kind: Kind) -> (&'static str, &'static str, &'static str) {
    match kind {
        Kind::Nft => ("nft_stakes", "nft_id", "withdraw_date"),
        Kind::Lvlx => ("lvlx_stakes", "0", "release_date"),
    }
}

/// Every stake of `kind` in release order; stakers keyed in user order.
pub fn load(c: Conn, kind: Kind) -> Result<Stakes> {
    let (name, nft_id, release) = table(kind);
    let mut stmt = c.0.prepare_cached(&format!(
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
            Kind::Lvlx => units_at(r, 5)?,
        };
        raw.push((
            user,
            Stake {
                staker: 0,
                nft_id: r.get(4)?,
                amount,
                start: r.get(6)?,
                release: r.get(7)?,
                interests: units_at(r, 8)?,
                withdrawn: units_at(r, 9)?,
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
