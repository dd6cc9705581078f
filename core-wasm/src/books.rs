//! The books' look at members' running totals (balance, rewards, network volume, own USDT, rank,
//! node): each computed again from the rows that should explain it — the ledger folded by the
//! balance rule, the settled purchases, the commissions, the rank bonuses, the sponsor tree and
//! the nodes. The books' replay proves those rows against the chain; this proves the totals
//! against the rows, so a figure raised by hand on top of right rows is named too.

use std::collections::HashMap;

use crate::amount::Units;
use crate::ledger::balance_after;
use crate::network::{self, Rank};

/// What a member's row keeps.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Kept {
    pub id: i64,
    pub referrer: Option<i64>,
    pub balance: Units,
    pub rewards: Units,
    pub network: Units,
    pub own: Units,
    pub rank: String,
    pub node: bool,
}

/// The rows that explain the totals, each with its member's id first.
#[derive(Debug, Clone, Default)]
pub struct Rows {
    /// Ledger entries: member, token, amount.
    pub ledger: Vec<(i64, String, Units)>,
    /// Settled purchases: buyer, USDT.
    pub settled: Vec<(i64, Units)>,
    /// Commissions: member, LVLX.
    pub commissions: Vec<(i64, Units)>,
    /// Rank bonuses: member, rank id, LVLX.
    pub bonuses: Vec<(i64, u32, Units)>,
    /// Members who hold a node.
    pub node_holders: Vec<i64>,
}

/// What a member's rows give, field by field.
#[derive(Debug, Default)]
struct Derived {
    balance: Units,
    rewards: Units,
    network: Units,
    own: Units,
    achieved: Vec<u32>,
    node: bool,
}

fn add(a: &mut Units, b: Units, what: &str) -> Result<(), String> {
    *a = a
        .checked_add(b)
        .ok_or_else(|| format!("{what} overflows"))?;
    Ok(())
}

/// One line per total its rows do not give (`member {id}|{field}|kept|{k}|rows|{r}|`), one per
/// member with rows and no account; an error for rows that cannot be read (a sponsor cycle, an
/// overflow, a ledger entry the balance rule refuses).
pub fn differences(
    kept: &[Kept],
    rows: &Rows,
    product: &str,
    table: &[Rank],
) -> Result<Vec<String>, String> {
    let mut derived: HashMap<i64, Derived> = HashMap::new();
    for (user, token, amount) in &rows.ledger {
        let d = derived.entry(*user).or_default();
        d.balance = balance_after(d.balance, product, token, *amount)
            .map_err(|e| format!("member {user}'s ledger: {e:?}"))?;
    }
    let sponsors: HashMap<i64, Option<i64>> = kept.iter().map(|k| (k.id, k.referrer)).collect();
    for &(buyer, usdt) in &rows.settled {
        add(&mut derived.entry(buyer).or_default().own, usdt, "own USDT")?;
        // Every member up the sponsor tree counts the purchase in their network volume.
        let mut at = buyer;
        let mut steps = 0;
        while let Some(Some(up)) = sponsors.get(&at) {
            steps += 1;
            if steps > sponsors.len() {
                return Err(format!("sponsor cycle at {up}"));
            }
            add(&mut derived.entry(*up).or_default().network, usdt, "volume")?;
            at = *up;
        }
    }
    for &(member, amount) in &rows.commissions {
        add(
            &mut derived.entry(member).or_default().rewards,
            amount,
            "rewards",
        )?;
    }
    for &(member, rank, amount) in &rows.bonuses {
        let d = derived.entry(member).or_default();
        add(&mut d.rewards, amount, "rewards")?;
        d.achieved.push(rank);
    }
    for &member in &rows.node_holders {
        derived.entry(member).or_default().node = true;
    }
    let mut out = Vec::new();
    for k in kept {
        let d = derived.remove(&k.id).unwrap_or_default();
        compare(k, &d, table, &mut out);
    }
    let mut strays: Vec<&i64> = derived.keys().collect();
    strays.sort();
    out.extend(
        strays
            .into_iter()
            .map(|id| format!("member {id}|rows without an account|")),
    );
    Ok(out)
}

fn compare(k: &Kept, d: &Derived, table: &[Rank], out: &mut Vec<String>) {
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

#[cfg(test)]
mod tests {
    use super::*;

    const USDT: Units = 1_000_000;

    /// A buyer (2) under a sponsor (1): the buyer's own USDT, the sponsor's volume, a commission.
    fn two_members() -> (Vec<Kept>, Rows) {
        let none = network::NO_RANK.to_string();
        let kept = vec![
            Kept {
                id: 1,
                rewards: 5,
                network: 100 * USDT,
                rank: none.clone(),
                ..Kept::default()
            },
            Kept {
                id: 2,
                referrer: Some(1),
                own: 100 * USDT,
                rank: none,
                ..Kept::default()
            },
        ];
        let rows = Rows {
            settled: vec![(2, 100 * USDT)],
            commissions: vec![(1, 5)],
            ..Rows::default()
        };
        (kept, rows)
    }

    #[test]
    fn totals_their_rows_give_have_no_difference() {
        let (kept, rows) = two_members();
        assert_eq!(differences(&kept, &rows, "LVLX", &[]), Ok(vec![]));
    }

    #[test]
    fn a_total_raised_by_hand_is_named_with_both_figures() {
        let (mut kept, rows) = two_members();
        kept[0].rewards = 6;
        kept[1].node = true;
        assert_eq!(
            differences(&kept, &rows, "LVLX", &[]),
            Ok(vec![
                "member 1|rewards|kept|6|rows|5|".to_string(),
                "member 2|node|kept|true|rows|false|".to_string(),
            ])
        );
    }

    #[test]
    fn rows_of_no_account_are_named_and_a_sponsor_cycle_is_an_error() {
        let (mut kept, mut rows) = two_members();
        rows.commissions.push((9, 1));
        assert_eq!(
            differences(&kept, &rows, "LVLX", &[]),
            Ok(vec!["member 9|rows without an account|".to_string()])
        );
        kept[0].referrer = Some(2);
        assert!(differences(&kept, &rows, "LVLX", &[])
            .unwrap_err()
            .starts_with("sponsor cycle"));
    }
}
