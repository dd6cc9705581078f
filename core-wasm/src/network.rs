//! The referral network's rules (docs/product/network.md#rules), computed off chain from indexed
//! events, exactly: multi-level commissions on LVLX purchases, network volume, ranks and their
//! one-time bonuses.
//!
//! - A purchase pays level `n` of the buyer's upline (level 1 = the buyer's sponsor) `bps[n-1]`
//!   basis points of the LVLX bought, rounded down; what rounding leaves is not paid (it stays
//!   with the platform). Only a member whose activation node was active when the purchase was
//!   made earns; for a member without one the level LAPSES: it is not passed further up, and the
//!   members above still earn only their own level's share.
//! - A member's network volume is the USDT their whole downline (every depth) paid for LVLX.
//! - Ranks are thresholds on network volume, each with an LVLX bonus paid once, when the volume
//!   first reaches it. A member's rank is the highest rank they were credited; editing a rank
//!   changes what happens from then on, never what was already credited.

use serde::{Deserialize, Serialize};

use crate::amount::Units;

/// Default commission per level, in basis points of the LVLX bought: 8 %, 4 %, 2 %, 1 %,
/// 0.5 %, 0.5 % (16 % in all over six levels).
pub const DEFAULT_LEVELS_BPS: [u32; 6] = [800, 400, 200, 100, 50, 50];
/// The activation node's price on the development chain, USDT base units (50 USDT).
pub const DEFAULT_NODE_PRICE: Units = 50_000_000;
/// Most levels a configuration may name.
pub const MAX_LEVELS: usize = 20;
const BPS: u128 = 10_000;

/// Why a commission configuration is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    #[error("between 1 and {MAX_LEVELS} levels")]
    Levels,
    #[error("the levels together pay more than the purchase")]
    Over,
    #[error("rank {0}: {1}")]
    Rank(u32, &'static str),
}

impl NetworkError {
    pub const KEYS: [&'static str; 4] = [
        "network-levels-invalid",
        "ranks-id-invalid",
        "ranks-name-invalid",
        "ranks-threshold-invalid",
    ];

    pub fn key(&self) -> &'static str {
        match self {
            NetworkError::Levels | NetworkError::Over => "network-levels-invalid",
            NetworkError::Rank(_, key) => key,
        }
    }
}

/// Checks a commission configuration: 1 to [`MAX_LEVELS`] levels paying at most 100 % together.
pub fn validate_levels(bps: &[u32]) -> Result<(), NetworkError> {
    if bps.is_empty() || bps.len() > MAX_LEVELS {
        return Err(NetworkError::Levels);
    }
    if bps.iter().map(|&b| u128::from(b)).sum::<u128>() > BPS {
        return Err(NetworkError::Over);
    }
    Ok(())
}

/// `amount · bps / 10 000` rounded down, without overflow for any `amount`.
pub fn share(amount: Units, bps: u32) -> Units {
    let bps = u128::from(bps.min(BPS as u32));
    amount / BPS * bps + amount % BPS * bps / BPS
}

/// One commission a purchase pays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Commission {
    /// 1 = the buyer's sponsor.
    pub level: u32,
    /// Index into the upline given.
    pub upline: usize,
    /// LVLX base units.
    #[serde(with = "crate::amount::text")]
    pub amount: Units,
}

/// Whether a member's node counts for a purchase: a node activated at chain position `node`
/// (block, log index; its first, None without one) was active for a purchase at `purchase`
/// when its log came earlier in the chain; a seeded purchase (no chain position) counts any node.
pub fn node_active_at(node: Option<(i64, i64)>, purchase: Option<(i64, i64)>) -> bool {
    match (node, purchase) {
        (None, _) => false,
        (Some(_), None) => true,
        (Some(node), Some(purchase)) => node < purchase,
    }
}

/// The commissions a purchase of `amount` LVLX base units pays to `upline` (sponsor first;
/// `true` where that member's node was active at the purchase). Members past the configured
/// levels, members without a node and levels that would pay zero get nothing.
pub fn commissions(amount: Units, levels_bps: &[u32], upline: &[bool]) -> Vec<Commission> {
    levels_bps
        .iter()
        .zip(upline)
        .enumerate()
        .filter(|(_, (_, &active))| active)
        .map(|(i, (&bps, _))| Commission {
            level: i as u32 + 1,
            upline: i,
            amount: share(amount, bps),
        })
        .filter(|c| c.amount > 0)
        .collect()
}

/// A rank: reached when the network volume (USDT base units) is at least `threshold`; pays
/// `bonus` LVLX base units once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Rank {
    pub id: u32,
    pub name: String,
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    pub threshold: Units,
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    pub bonus: Units,
}

/// Longest rank name.
pub const RANK_NAME_MAX: usize = 40;

/// The documented default ranks: thresholds in USDT of network volume, bonuses in LVLX.
pub fn default_ranks() -> Vec<Rank> {
    const USDT: Units = 1_000_000;
    const LVLX: Units = 1_000_000_000_000_000_000;
    [
        (1, "Bronze", 1_000, 100),
        (2, "Silver", 5_000, 600),
        (3, "Gold", 25_000, 3_500),
        (4, "Platinum", 100_000, 15_000),
        (5, "Diamond", 500_000, 80_000),
    ]
    .into_iter()
    .map(|(id, name, usdt, lvlx)| Rank {
        id,
        name: name.to_string(),
        threshold: usdt * USDT,
        bonus: lvlx * LVLX,
    })
    .collect()
}

/// Checks a rank table: ids unique and positive, names 1–40 characters after trimming,
/// thresholds positive and distinct (so every volume has one rank).
pub fn validate_ranks(ranks: &[Rank]) -> Result<(), NetworkError> {
    for (i, r) in ranks.iter().enumerate() {
        if r.id == 0 || ranks[..i].iter().any(|o| o.id == r.id) {
            return Err(NetworkError::Rank(r.id, "ranks-id-invalid"));
        }
        let name = r.name.trim();
        if name.is_empty()
            || name.chars().count() > RANK_NAME_MAX
            || !crate::display::is_plain(name)
        {
            return Err(NetworkError::Rank(r.id, "ranks-name-invalid"));
        }
        if r.threshold == 0 || ranks[..i].iter().any(|o| o.threshold == r.threshold) {
            return Err(NetworkError::Rank(r.id, "ranks-threshold-invalid"));
        }
    }
    Ok(())
}

/// The ranks in order of threshold.
fn ordered(ranks: &[Rank]) -> Vec<&Rank> {
    let mut v: Vec<&Rank> = ranks.iter().collect();
    v.sort_by_key(|r| r.threshold);
    v
}

/// The ranks a volume reaches that were not credited yet (`achieved` holds credited ids), in
/// order of threshold: each pays its bonus now.
pub fn newly_reached<'a>(volume: Units, ranks: &'a [Rank], achieved: &[u32]) -> Vec<&'a Rank> {
    ordered(ranks)
        .into_iter()
        .filter(|r| r.threshold <= volume && !achieved.contains(&r.id))
        .collect()
}

/// The ranks to take back when a member's network volume falls to `volume` because purchases
/// left the chain: those credited (`credited`: rank id, volume when credited) at a volume above
/// what remains. A rank credited at or below it is still reached by what remains; one taken
/// back that the remaining volume still reaches is credited again by [`newly_reached`].
pub fn revoked(volume: Units, credited: &[(u32, Units)]) -> Vec<u32> {
    credited
        .iter()
        .filter(|(_, at)| *at > volume)
        .map(|(id, _)| *id)
        .collect()
}

/// userRankData: where a member stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = RankStanding))]
#[serde(rename_all = "camelCase")]
pub struct Standing {
    /// USDT base units.
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    pub volume: Units,
    /// The highest rank credited (by today's thresholds), if any.
    pub rank: Option<Rank>,
    /// The lowest rank not credited yet, if any.
    pub next: Option<Rank>,
    /// USDT base units of volume still missing for `next` (0 without one).
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    pub missing: Units,
    /// Progress to `next` in basis points of its threshold, from the current rank's threshold
    /// (0–10 000; 10 000 without a next rank).
    pub progress_bps: u32,
}

/// The rank a member's row names when none is credited (the users table's default).
pub const NO_RANK: &str = "None";

impl Standing {
    /// The rank name a member's row keeps: the highest credited, or [`NO_RANK`].
    pub fn rank_name(&self) -> String {
        self.rank
            .as_ref()
            .map_or_else(|| NO_RANK.to_string(), |r| r.name.clone())
    }
}

pub fn standing(volume: Units, ranks: &[Rank], achieved: &[u32]) -> Standing {
    let ordered = ordered(ranks);
    let rank = ordered
        .iter()
        .rev()
        .find(|r| achieved.contains(&r.id))
        .map(|r| (*r).clone());
    let next = ordered
        .iter()
        .find(|r| !achieved.contains(&r.id))
        .map(|r| (*r).clone());
    let (missing, progress_bps) = match &next {
        None => (0, BPS as u32),
        Some(n) => {
            let from = rank.as_ref().map_or(0, |r| r.threshold).min(n.threshold);
            let span = n.threshold - from;
            let done = volume.saturating_sub(from).min(span);
            let bps = if span == 0 {
                BPS
            } else {
                // done ≤ span, so done · 10 000 / span ≤ 10 000; split to stay exact.
                ratio_bps(done, span)
            };
            (n.threshold.saturating_sub(volume), bps as u32)
        }
    };
    Standing {
        volume,
        rank,
        next,
        missing,
        progress_bps,
    }
}

/// `part / whole` in basis points, rounded down (`part ≤ whole`, `whole > 0`).
fn ratio_bps(part: Units, whole: Units) -> u128 {
    match part.checked_mul(BPS) {
        Some(p) => p / whole,
        None => part / (whole / BPS).max(1),
    }
    .min(BPS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A member's row names the highest rank credited, or "None" (the column's default).
    #[test]
    fn a_row_names_its_rank_or_none() {
        let ranks = [Rank {
            id: 1,
            name: "Ruby".into(),
            threshold: 100,
            bonus: 1,
        }];
        assert_eq!(standing(99, &ranks, &[]).rank_name(), "None");
        assert_eq!(standing(100, &ranks, &[1]).rank_name(), "Ruby");
    }

    /// A node counts for the purchases after its own log, never for one before or at it.
    #[test]
    fn a_node_counts_from_its_log_on() {
        assert!(!node_active_at(None, Some((5, 0))));
        assert!(!node_active_at(None, None));
        assert!(
            node_active_at(Some((5, 0)), None),
            "a seeded purchase counts any node"
        );
        assert!(node_active_at(Some((5, 0)), Some((5, 1))));
        assert!(node_active_at(Some((4, 9)), Some((5, 0))));
        assert!(!node_active_at(Some((5, 1)), Some((5, 1))), "the same log");
        assert!(!node_active_at(Some((5, 2)), Some((5, 1))));
        assert!(!node_active_at(Some((6, 0)), Some((5, 9))));
    }

    /// A rank's name is shown to members as stored: no control or invisible direction marks.
    #[test]
    fn rank_names_are_plain_text() {
        let rank = |name: &str| Rank {
            id: 9,
            name: name.into(),
            threshold: 7,
            bonus: 1,
        };
        assert!(validate_ranks(&[rank("Ruby")]).is_ok());
        for name in ["\u{202e}evil\u{0}", "a\nb", "zero\u{200b}width"] {
            assert_eq!(
                validate_ranks(&[rank(name)]),
                Err(NetworkError::Rank(9, "ranks-name-invalid")),
                "{name:?}"
            );
        }
    }

    const LVLX: Units = 1_000_000_000_000_000_000;

    #[test]
    fn shares_round_down_without_overflow() {
        assert_eq!(share(10_000, 800), 800);
        assert_eq!(share(9_999, 800), 799);
        assert_eq!(share(1, 800), 0);
        assert_eq!(share(u128::MAX, 10_000), u128::MAX);
        assert_eq!(share(u128::MAX, 5_000), u128::MAX / 2);
    }

    #[test]
    fn a_level_without_a_node_lapses() {
        let paid = commissions(1_000 * LVLX, &DEFAULT_LEVELS_BPS, &[true, false, true]);
        assert_eq!(
            paid,
            [
                Commission {
                    level: 1,
                    upline: 0,
                    amount: 80 * LVLX
                },
                Commission {
                    level: 3,
                    upline: 2,
                    amount: 20 * LVLX
                },
            ]
        );
        // Beyond the configured levels nobody earns.
        assert_eq!(commissions(LVLX, &[100], &[true, true]).len(), 1);
    }

    #[test]
    fn configurations_are_checked() {
        assert!(validate_levels(&DEFAULT_LEVELS_BPS).is_ok());
        assert_eq!(validate_levels(&[]), Err(NetworkError::Levels));
        assert_eq!(validate_levels(&[6_000, 4_001]), Err(NetworkError::Over));
        assert!(validate_ranks(&default_ranks()).is_ok());
        let mut twice = default_ranks();
        twice[1].threshold = twice[0].threshold;
        assert_eq!(
            validate_ranks(&twice).unwrap_err().key(),
            "ranks-threshold-invalid"
        );
        let mut unnamed = default_ranks();
        unnamed[0].name = "  ".into();
        assert_eq!(
            validate_ranks(&unnamed).unwrap_err().key(),
            "ranks-name-invalid"
        );
    }

    #[test]
    fn a_rank_pays_once_and_standing_says_what_is_missing() {
        let ranks = default_ranks();
        let usdt = |n: Units| n * 1_000_000;
        assert!(newly_reached(usdt(999), &ranks, &[]).is_empty());
        let reached: Vec<u32> = newly_reached(usdt(6_000), &ranks, &[])
            .iter()
            .map(|r| r.id)
            .collect();
        assert_eq!(reached, [1, 2]);
        assert!(newly_reached(usdt(6_000), &ranks, &[1, 2]).is_empty());
        let s = standing(usdt(6_000), &ranks, &[1, 2]);
        assert_eq!(s.rank.map(|r| r.id), Some(2));
        assert_eq!(s.next.as_ref().map(|r| r.id), Some(3));
        assert_eq!(s.missing, usdt(19_000));
        assert_eq!(s.progress_bps, 500); // 1 000 of the 20 000 between Silver and Gold
        let top = standing(usdt(600_000), &ranks, &[1, 2, 3, 4, 5]);
        assert_eq!((top.next, top.missing, top.progress_bps), (None, 0, 10_000));
        let none = standing(0, &ranks, &[]);
        assert_eq!((none.rank, none.missing), (None, usdt(1_000)));
        // A purchase left the chain: ranks credited above the remaining volume go back.
        let credited = [(1, usdt(1_200)), (2, usdt(6_000))];
        assert_eq!(revoked(usdt(6_000), &credited), Vec::<u32>::new());
        assert_eq!(revoked(usdt(5_999), &credited), [2]);
        assert_eq!(revoked(usdt(1_000), &credited), [1, 2]);
    }
}
