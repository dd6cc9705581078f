//! The running totals each member's row keeps (balance, rewards, network volume, own USDT,
//! rank, node), computed again from the rows that should explain them: the ledger folded by the
//! core's balance rule, the settled purchases, the commissions, the rank bonuses, the sponsor
//! tree and the nodes. The replay proves those rows against the chain; this proves the totals
//! against the rows, so a figure raised by hand on top of right rows is named too.

use std::collections::HashMap;

use lvlx_core::amount::Units;
use lvlx_core::ledger::balance_after;
use lvlx_core::network;

use crate::store::users::Kept;
use crate::store::{ledger, nodes, ranks, settlement, users, Conn, Result, StoreError};

/// What a member's rows give, field by field.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Derived {
    balance: Units,
    rewards: Units,
    network: Units,
    own: Units,
    achieved: Vec<u32>,
    node: bool,
}

fn add(a: &mut Units, b: Units, what: &str) -> Result<()> {
    *a = a
        .checked_add(b)
        .ok_or_else(|| StoreError::Corrupt(format!("{what} overflows")))?;
    Ok(())
}

/// One line per total that its rows do not give: `member {id}|{field}|kept|{k}|rows|{r}|`.
pub fn differences(c: Conn, product: &str) -> Result<Vec<String>> {
    let kept = users::kept(c)?;
    let mut derived: HashMap<i64, Derived> = HashMap::new();
    for (user, token, amount) in ledger::member_entries(c)? {
        let d = derived.entry(user).or_default();
        d.balance = balance_after(d.balance, product, &token, amount)
            .map_err(|e| StoreError::Corrupt(format!("member {user}'s ledger: {e:?}")))?;
    }
    let sponsors: HashMap<i64, Option<i64>> = kept.iter().map(|k| (k.id, k.referrer)).collect();
    for (buyer, usdt) in settlement::settled_all(c)? {
        add(&mut derived.entry(buyer).or_default().own, usdt, "own USDT")?;
        // Every member up the sponsor tree counts the purchase in their network volume.
        let mut at = buyer;
        let mut steps = 0;
        while let Some(Some(up)) = sponsors.get(&at) {
            steps += 1;
            if steps > sponsors.len() {
                return Err(StoreError::Corrupt(format!("sponsor cycle at {up}")));
            }
            add(&mut derived.entry(*up).or_default().network, usdt, "volume")?;
            at = *up;
        }
    }
    for (member, amount) in settlement::commissions_all(c)? {
        add(
            &mut derived.entry(member).or_default().rewards,
            amount,
            "rewards",
        )?;
    }
    for (member, rank, amount) in ranks::bonuses_all(c)? {
        let d = derived.entry(member).or_default();
        add(&mut d.rewards, amount, "rewards")?;
        d.achieved.push(rank);
    }
    for member in nodes::holders(c)? {
        derived.entry(member).or_default().node = true;
    }
    let table = ranks::table(c)?;
    let mut out = Vec::new();
    for k in &kept {
        let d = derived.remove(&k.id).unwrap_or_default();
        compare(k, &d, &table, &mut out);
    }
    for id in derived.keys() {
        out.push(format!("member {id}|rows without an account|"));
    }
    Ok(out)
}

fn compare(k: &Kept, d: &Derived, table: &[network::Rank], out: &mut Vec<String>) {
    let rank = network::standing(d.network, table, &d.achieved).rank_name();
    let fields: [(&str, String, String); 6] = [
        ("balance", k.balance.to_string(), d.balance.to_string()),
        ("rewards", k.rewards.to_string(), d.rewards.to_string()),
        ("network usdt", k.network.to_string(), d.network.to_string()),
        ("own usdt", k.own.to_string(), d.own.to_string()),
        ("rank", k.rank.clone(), rank),
        ("node", k.node.to_string(), d.node.to_string()),
    ];
    for (field, kept, rows) in fields {
        if kept != rows {
            out.push(format!("member {}|{field}|kept|{kept}|rows|{rows}|", k.id));
        }
    }
}
