//! Settling a purchase: its commissions to the buyer's upline, its USDT into every upline
//! member's network volume, and the bonus of every rank that volume reaches. The amounts are
//! the core's rules (`lvlx_core::network`); the store records what they decide.

use lvlx_core::amount::Units;
use lvlx_core::network::{self, Rank};

use crate::store::users::{self, Total};
use crate::store::{nodes, ranks, referrals, settlement, Conn, Result};
use crate::user::UserId;

/// What settling one purchase changed, for live pushes.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Settled {
    /// Members paid a commission, with the amount.
    pub commissions: Vec<(UserId, Units)>,
    /// Members who reached a rank, with its id.
    pub ranks: Vec<(UserId, u32)>,
    /// Every upline member whose volume moved.
    pub upline: Vec<UserId>,
}

/// Credits the bonus of every rank `volume` reaches that `user` was not credited yet, and
/// names their rank the highest credited.
fn credit_ranks(
    c: Conn,
    user: UserId,
    volume: Units,
    table: &[Rank],
    now: i64,
) -> Result<Vec<u32>> {
    let done = ranks::achieved(c, user)?;
    let reached = network::newly_reached(volume, table, &done);
    if reached.is_empty() {
        return Ok(Vec::new());
    }
    let mut ids = Vec::new();
    for rank in &reached {
        ranks::credit_bonus(c, user, rank, volume, now)?;
        users::add_to(c, user, Total::Rewards, rank.bonus)?;
        ids.push(rank.id);
    }
    let all: Vec<u32> = done.iter().chain(&ids).copied().collect();
    if let Some(top) = network::standing(volume, table, &all).rank {
        ranks::set_rank(c, user, &top.name)?;
    }
    Ok(ids)
}

/// Takes back what purchase `id`'s settlement credited, when it was settled: the buyer's own
/// USDT, its commissions, and its USDT in every upline member's network volume. Returns each
/// upline member's volume after it, for [`recheck_ranks`].
pub fn unsettle_purchase(c: Conn, id: i64) -> Result<Vec<(UserId, Units)>> {
    let Some(undone) = settlement::unsettle(c, id)? else {
        return Ok(Vec::new());
    };
    users::take_from(c, undone.buyer, Total::OwnUsdt, undone.usdt)?;
    for (member, amount) in undone.commissions {
        users::take_from(c, member, Total::Rewards, amount)?;
    }
    referrals::upline(c, undone.buyer)?
        .into_iter()
        .map(|member| {
            let volume = users::take_from(c, member, Total::NetworkUsdt, undone.usdt)?;
            Ok((member, volume))
        })
        .collect()
}

/// After `user`'s network volume fell to `volume`: takes back the bonuses of ranks credited
/// above it (the core's rule), credits again those it still reaches, and names their rank.
/// Returns whether anything moved.
pub fn recheck_ranks(
    c: Conn,
    user: UserId,
    volume: Units,
    table: &[Rank],
    now: i64,
) -> Result<bool> {
    let revoked = network::revoked(volume, &ranks::credited(c, user)?);
    for &id in &revoked {
        if let Some(bonus) = ranks::revoke(c, user, id)? {
            users::take_from(c, user, Total::Rewards, bonus)?;
        }
    }
    let again = credit_ranks(c, user, volume, table, now)?;
    let done = ranks::achieved(c, user)?;
    let name = network::standing(volume, table, &done).rank_name();
    ranks::set_rank(c, user, &name)?;
    Ok(!revoked.is_empty() || !again.is_empty())
}

/// Settles purchase `id` once: its commissions to the configured levels of the buyer's upline
/// (members whose node was active at the purchase; a level without one lapses), its USDT into
/// every upline member's network volume, and the bonus of any rank that volume reaches. Entries
/// that are not a linked member's LVLX purchase, or were settled already, change nothing.
pub fn settle_purchase(
    c: Conn,
    id: i64,
    product: &str,
    levels_bps: &[u32],
    now: i64,
) -> Result<Settled> {
    let Some(p) = settlement::purchase(c, id, product)? else {
        return Ok(Settled::default());
    };
    // The ranks in force at the purchase's block: the same whenever the chain is read.
    let table = &ranks::table_at(c, p.at_chain.map_or(i64::MAX, |(block, _)| block))?;
    if !settlement::mark_settled(c, id, p.buyer, p.usdt, now)? {
        return Ok(Settled::default());
    }
    users::add_to(c, p.buyer, Total::OwnUsdt, p.usdt)?;
    let upline = referrals::upline(c, p.buyer)?;
    let reach = upline.len().min(levels_bps.len());
    let active = upline[..reach]
        .iter()
        .map(|&m| {
            Ok(network::node_active_at(
                nodes::first_node(c, m)?,
                p.at_chain,
            ))
        })
        .collect::<Result<Vec<bool>>>()?;
    let mut out = Settled {
        upline: upline.clone(),
        ..Settled::default()
    };
    for commission in network::commissions(p.lvlx, levels_bps, &active) {
        let member = upline[commission.upline];
        if settlement::add_commission(
            c,
            id,
            commission.level,
            member,
            p.buyer,
            commission.amount,
            p.created_at,
        )? {
            users::add_to(c, member, Total::Rewards, commission.amount)?;
            out.commissions.push((member, commission.amount));
        }
    }
    for &member in &upline {
        let volume = users::add_to(c, member, Total::NetworkUsdt, p.usdt)?;
        for rank in credit_ranks(c, member, volume, table, now)? {
            out.ranks.push((member, rank));
        }
    }
    Ok(out)
}
