//! What the staking pages, the dashboard and the money account show of a member's positions,
//! and the admin's reserve monitor: the answers built from the positions as the index holds them
//! ([`Held`]) and the chain's figures ([`OnChain`]), every figure from the rules above
//! (`super::totals`, `super::reward`, `super::cover`, a position's standing).

use serde::Serialize;

use super::{Pool, Terms};
use crate::amount::{self, Units};

/// Sums over a member's positions left the 128-bit range (no real holding reaches it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow;

impl std::fmt::Display for Overflow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("staking totals overflow")
    }
}

impl std::error::Error for Overflow {}

/// A position as the member pages show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Held {
    pub pool: Pool,
    pub position: u64,
    pub wallet: String,
    pub kind: u32,
    pub amount: Units,
    pub reward: Units,
    pub start: i64,
    pub release: i64,
    pub withdrawn: Units,
    pub closed_at: Option<i64>,
    pub tx_hash: String,
    /// Opened in a block not final yet: shown, marked pending (it may still leave the chain).
    pub pending: bool,
}

impl Held {
    /// The position as the core's totals read it.
    pub fn stake(&self) -> super::Stake {
        super::Stake {
            amount: self.amount,
            position: self.core(),
            open: self.closed_at.is_none(),
        }
    }

    /// The core's position (seconds).
    pub fn core(&self) -> super::Position {
        super::Position {
            start: (self.start / 1000) as u64,
            release: (self.release / 1000) as u64,
            reward: self.reward,
            withdrawn: self.withdrawn,
        }
    }
}

/// One staking contract's reserve as the chain holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Reserve {
    pub free: Units,
    pub reserved: Units,
}

/// What the chain says now: terms, NFT prices, both reserves, the latest block's time, and
/// (for a member with a wallet) the NFTs and LVLX the wallet holds.
#[derive(Debug, Clone)]
pub struct OnChain {
    pub nfts: Vec<(Terms, Units)>,
    pub tiers: Vec<Terms>,
    pub nft_reserve: Reserve,
    pub lvlx_reserve: Reserve,
    /// Seconds.
    pub block_time: u64,
    /// NFTs of ids 1–11 the wallet holds (empty without a wallet).
    pub held: Vec<Units>,
    pub lvlx_balance: Option<Units>,
}

/// A position with its figures at a moment, for the member pages. Dates in milliseconds.
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = StakePosition))]
#[serde(rename_all = "camelCase")]
pub struct ShownPosition {
    position: u64,
    /// The NFT id or the LVLX tier.
    kind: u32,
    /// NFTs, or LVLX.
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    amount: Units,
    /// LVLX over the whole lock.
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    reward: Units,
    /// USDT value of `reward`, 2 decimals.
    reward_usdt: String,
    start_date: i64,
    /// When the principal can come back.
    withdraw_date: i64,
    /// Interest withdrawn so far.
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    withdrawn: Units,
    closed_at: Option<i64>,
    tx_hash: String,
    /// Opened in a block not final yet.
    pending: bool,
    /// Earned so far, withdrawn or not.
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    accrued: Units,
    accrued_usdt: String,
    /// What "withdraw interest" pays now (0 once closed).
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    withdrawable: Units,
    /// Whether the lock has ended.
    released: bool,
}

impl ShownPosition {
    /// `h` with its figures at `now` (seconds).
    pub fn of(h: &Held, now: u64) -> Self {
        let standing = h.core().standing(now);
        ShownPosition {
            position: h.position,
            kind: h.kind,
            amount: h.amount,
            reward: h.reward,
            reward_usdt: amount::lvlx_to_usdt(h.reward),
            start_date: h.start,
            withdraw_date: h.release,
            withdrawn: h.withdrawn,
            closed_at: h.closed_at,
            tx_hash: h.tx_hash.clone(),
            pending: h.pending,
            accrued: standing.accrued,
            accrued_usdt: standing.accrued_usdt,
            withdrawable: if h.closed_at.is_some() {
                0
            } else {
                standing.withdrawable
            },
            released: standing.released,
        }
    }
}

/// The dashboard's staking box.
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = StakingGlance))]
#[serde(rename_all = "camelCase")]
pub struct Glance {
    /// Open positions.
    positions: usize,
    /// NFTs in open positions.
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    nfts: Units,
    /// LVLX in open positions.
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    lvlx: Units,
    /// Rewards earned so far over every position.
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    accrued: Units,
    accrued_usdt: String,
}

/// The core's totals of `nft` and `lvlx` at `now` (seconds).
fn totals(nft: &[Held], lvlx: &[Held], now: u64) -> Result<super::Totals, Overflow> {
    let stakes = |held: &[Held]| held.iter().map(Held::stake).collect::<Vec<_>>();
    super::totals(&stakes(nft), &stakes(lvlx), now).ok_or(Overflow)
}

/// The dashboard's staking box: open positions, NFTs and LVLX staked in them, and the reward
/// earned so far over every position (accrued at `now`, seconds), exact.
pub fn glance(nft: &[Held], lvlx: &[Held], now: u64) -> Result<Glance, Overflow> {
    let t = totals(nft, lvlx, now)?;
    Ok(Glance {
        positions: t.positions,
        nfts: t.nfts,
        lvlx: t.lvlx,
        accrued: t.accrued,
        accrued_usdt: amount::lvlx_to_usdt(t.accrued),
    })
}

/// The open NFT positions as `(kind, quantity)`, for `super::nft_value`.
pub fn open_nfts(nft: &[Held]) -> Vec<(u32, Units)> {
    nft.iter()
        .filter(|h| h.closed_at.is_none())
        .map(|h| (h.kind, h.amount))
        .collect()
}

/// The staking part of a member's money account (`crate::account::Server`): LVLX and NFTs
/// in open positions, the next release still ahead, rewards earned and not yet withdrawn, and the
/// interest paid out over every position (open or closed).
pub fn account_part(
    nft: &[Held],
    lvlx: &[Held],
    now: u64,
) -> Result<crate::account::Server, Overflow> {
    let t = totals(nft, lvlx, now)?;
    Ok(crate::account::Server {
        staked: t.lvlx,
        nfts: u64::try_from(t.nfts).map_err(|_| Overflow)?,
        next_release: t.next_release,
        accrued: t.withdrawable,
        interest_paid: t.interest_paid,
        ..Default::default()
    })
}

/// The interest one position has paid out.
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Interest {
    position: u64,
    kind: u32,
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    amount: Units,
    closed_at: Option<i64>,
}

/// withdrawNFTs / withdrawLVLXs (docs/product/api.md#user): the interest each position has paid out
/// and their total (LVLX).
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Withdrawals {
    interests: Vec<Interest>,
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    total: Units,
}

/// The interest `held` positions have paid out.
pub fn withdrawals(held: &[Held]) -> Result<Withdrawals, Overflow> {
    let total = totals(held, &[], 0)?.interest_paid;
    let interests = held
        .iter()
        .filter(|h| h.withdrawn > 0)
        .map(|h| Interest {
            position: h.position,
            kind: h.kind,
            amount: h.withdrawn,
            closed_at: h.closed_at,
        })
        .collect();
    Ok(Withdrawals { interests, total })
}

/// An NFT on offer: its terms, what one earns over its lock and its price (USDT).
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct NftOffer {
    #[serde(flatten)]
    terms: Terms,
    /// LVLX one NFT earns over its lock.
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    reward_per_nft: Units,
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    price: Units,
}

/// A staking contract's reward reserve (LVLX).
#[derive(Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = StakeReserve))]
pub struct ReserveShown {
    /// Not promised to any position yet.
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    free: Units,
    /// Promised to open positions.
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    reserved: Units,
}

impl From<Reserve> for ReserveShown {
    fn from(r: Reserve) -> Self {
        ReserveShown {
            free: r.free,
            reserved: r.reserved,
        }
    }
}

/// Both pools' reserves.
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = StakeReserves))]
pub struct Reserves {
    nft: ReserveShown,
    lvlx: ReserveShown,
}

/// The member's positions in both pools.
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = StakePositions))]
pub struct Positions {
    nft: Vec<ShownPosition>,
    lvlx: Vec<ShownPosition>,
}

/// The member's staking page; only `available: false` when no staking contracts are
/// configured.
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct StakingPage {
    available: bool,
    /// The moment the figures are for, seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    now: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nfts: Option<Vec<NftOffer>>,
    /// The LVLX tiers.
    #[serde(skip_serializing_if = "Option::is_none")]
    tiers: Option<Vec<Terms>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reserve: Option<Reserves>,
    /// How many of each NFT id (1–11) the wallet holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Vec<String>>))]
    held: Option<Vec<String>>,
    /// The wallet's LVLX; null without a wallet.
    #[serde(with = "crate::amount::opt_text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::opt_text::schema))]
    lvlx_balance: Option<Units>,
    #[serde(skip_serializing_if = "Option::is_none")]
    positions: Option<Positions>,
}

impl StakingPage {
    /// Without staking contracts configured.
    pub fn unavailable() -> Self {
        StakingPage {
            available: false,
            now: None,
            nfts: None,
            tiers: None,
            reserve: None,
            held: None,
            lvlx_balance: None,
            positions: None,
        }
    }
}

/// The member's staking page data: terms, prices, reserves, holdings and positions.
pub fn overview(on_chain: &OnChain, nft: &[Held], lvlx: &[Held], now: u64) -> StakingPage {
    let nfts = on_chain
        .nfts
        .iter()
        .map(|&(terms, price)| NftOffer {
            terms,
            reward_per_nft: super::reward(Pool::Nft, &terms, 1).unwrap_or(0),
            price,
        })
        .collect();
    StakingPage {
        available: true,
        now: Some(now),
        nfts: Some(nfts),
        tiers: Some(on_chain.tiers.clone()),
        reserve: Some(Reserves {
            nft: on_chain.nft_reserve.into(),
            lvlx: on_chain.lvlx_reserve.into(),
        }),
        held: Some(on_chain.held.iter().map(|n| n.to_string()).collect()),
        lvlx_balance: on_chain.lvlx_balance,
        positions: Some(Positions {
            nft: nft.iter().map(|h| ShownPosition::of(h, now)).collect(),
            lvlx: lvlx.iter().map(|h| ShownPosition::of(h, now)).collect(),
        }),
    }
}

/// One pool's line of the admin reserve monitor (LVLX).
#[derive(Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = ReserveLine))]
#[serde(rename_all = "camelCase")]
pub struct Monitor {
    #[serde(flatten)]
    reserve: ReserveShown,
    /// Everything the contract holds for rewards.
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    funded: Units,
    /// Rewards promised in the last 30 days.
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    reserved_last30_days: Units,
    /// Weeks of stakes at that pace the free reserve covers; null when nothing was promised.
    pub weeks_covered: Option<u64>,
    /// Under the configured number of weeks.
    warning: bool,
}

/// One pool's line of the admin reserve monitor.
pub fn monitor(reserve: Reserve, reserved_last_30_days: Units, warning_weeks: u64) -> Monitor {
    let cover = super::cover(
        reserve.free,
        reserve.reserved,
        reserved_last_30_days,
        warning_weeks,
    );
    Monitor {
        reserve: reserve.into(),
        funded: cover.funded,
        reserved_last30_days: reserved_last_30_days,
        weeks_covered: cover.weeks_covered,
        warning: cover.warning,
    }
}

/// The admin's reserve monitor; only `available: false` without staking contracts.
#[derive(Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ReserveMonitor {
    available: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    warning_weeks: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nft: Option<Monitor>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lvlx: Option<Monitor>,
}

impl ReserveMonitor {
    /// Without staking contracts configured.
    pub fn unavailable() -> Self {
        ReserveMonitor {
            available: false,
            warning_weeks: None,
            nft: None,
            lvlx: None,
        }
    }

    /// Both pools' lines: their reserves and the rewards reserved in the last 30 days, warned
    /// under `warning_weeks` of cover.
    pub fn of(
        (nft, nft_reserved): (Reserve, Units),
        (lvlx, lvlx_reserved): (Reserve, Units),
        warning_weeks: u64,
    ) -> Self {
        ReserveMonitor {
            available: true,
            warning_weeks: Some(warning_weeks),
            nft: Some(monitor(nft, nft_reserved, warning_weeks)),
            lvlx: Some(monitor(lvlx, lvlx_reserved, warning_weeks)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const E18: Units = 1_000_000_000_000_000_000;

    fn held(pool: Pool, kind: u32, amount: Units, withdrawn: Units, closed: bool) -> Held {
        Held {
            pool,
            position: u64::from(kind),
            wallet: "0xabc".into(),
            kind,
            amount,
            // 100 LVLX over 100 seconds from 1,000 s.
            reward: 100 * E18,
            start: 1_000_000,
            release: 1_100_000,
            withdrawn,
            closed_at: closed.then_some(1_100_000),
            tx_hash: "0x01".into(),
            pending: false,
        }
    }

    /// Halfway through the lock: each position has earned 50 LVLX; a closed one counts for
    /// what it paid, not what it holds.
    #[test]
    fn a_member_s_positions_as_the_pages_show_them() {
        let nft = [
            held(Pool::Nft, 3, 2, 10 * E18, false),
            held(Pool::Nft, 5, 1, 0, true),
        ];
        let lvlx = [held(Pool::Lvlx, 2, 500 * E18, 0, false)];
        let now = 1_050;
        let v = serde_json::to_value(glance(&nft, &lvlx, now).unwrap()).unwrap();
        assert_eq!(v["positions"], 2);
        assert_eq!(v["nfts"], "2");
        assert_eq!(v["lvlx"], (500 * E18).to_string());
        assert_eq!(open_nfts(&nft), vec![(3, 2)]);
        let part = account_part(&nft, &lvlx, now).unwrap();
        assert_eq!((part.staked, part.nfts), (500 * E18, 2));
        // Earned and not withdrawn in the open positions: 50 - 10 and 50.
        assert_eq!(part.accrued, 90 * E18);
        assert_eq!(part.interest_paid, 10 * E18);
        let paid = serde_json::to_value(withdrawals(&nft).unwrap()).unwrap();
        assert_eq!(paid["total"], (10 * E18).to_string());
        assert_eq!(paid["interests"].as_array().unwrap().len(), 1);
        let shown = serde_json::to_value(ShownPosition::of(&nft[1], now)).unwrap();
        assert_eq!(
            shown["withdrawable"], "0",
            "a closed position pays nothing more"
        );
    }

    #[test]
    fn totals_past_the_integer_range_are_an_error_not_a_wrap() {
        let huge = [
            held(Pool::Lvlx, 1, Units::MAX, 0, false),
            held(Pool::Lvlx, 2, 1, 0, false),
        ];
        assert_eq!(glance(&[], &huge, 1_050).err(), Some(Overflow));
    }
}
