//! Staking (docs/product/staking.md): the terms of each NFT id and LVLX lock tier, the whole reward
//! of a position, its accrual by the second, the quote a member sees before staking and the
//! reserve's cover. The contracts (contracts/src/RewardReserve.sol, NftStaking.sol,
//! LvlxStaking.sol) apply the same integer rules; the tests on anvil check both with the same
//! vectors.

pub mod page;

pub use page::Held;

use ethers_core::types::U256;
use serde::Serialize;

use crate::amount::{self, Units};

/// What is staked: NFTs of one id, or LVLX in one lock tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Pool {
    Nft,
    Lvlx,
}

impl Pool {
    pub fn parse(name: &str) -> Option<Pool> {
        match name {
            "nft" => Some(Pool::Nft),
            "lvlx" => Some(Pool::Lvlx),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Pool::Nft => "nft",
            Pool::Lvlx => "lvlx",
        }
    }

    /// The NFT ids or tiers the contract accepts.
    pub fn kinds(self) -> std::ops::RangeInclusive<u32> {
        match self {
            Pool::Nft => NFT_FIRST..=NFT_LAST,
            Pool::Lvlx => 1..=MAX_TIER,
        }
    }
}

pub const NFT_FIRST: u32 = 1;
pub const NFT_LAST: u32 = 11;
/// LvlxStaking's highest tier number.
pub const MAX_TIER: u32 = 8;
const DAY: u64 = 86_400;
/// LVLX base units per USDT base unit at 1 LVLX = 0.1 USDT: 10^12 · 10
/// (docs/product/money.md#price).
const LVLX_PER_USDT_UNIT: u128 = 10_000_000_000_000;

/// Terms of one NFT id or tier, as the contract's `terms(kind)` holds them. `rate_bps` is the
/// reward over the whole lock in basis points of the stake's LVLX value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = StakeTerms))]
#[serde(rename_all = "camelCase")]
pub struct Terms {
    pub kind: u32,
    /// USDT base units: an NFT's value (and its sale price); 0 for LVLX tiers.
    #[serde(with = "crate::amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::amount::text::schema))]
    pub usdt_value: Units,
    pub rate_bps: u32,
    pub lock_seconds: u64,
}

const fn nft(kind: u32, usdt: u128, rate_bps: u32, days: u64) -> Terms {
    Terms {
        kind,
        usdt_value: usdt * 1_000_000,
        rate_bps,
        lock_seconds: days * DAY,
    }
}

const fn tier(kind: u32, rate_bps: u32, days: u64) -> Terms {
    Terms {
        kind,
        usdt_value: 0,
        rate_bps,
        lock_seconds: days * DAY,
    }
}

/// The NFTs' documented defaults, written on chain by `lvlx chain deploy` (sale price = value).
pub const DEFAULT_NFT_TERMS: [Terms; 11] = [
    nft(1, 50, 1_000, 180),
    nft(2, 100, 1_000, 180),
    nft(3, 250, 1_100, 180),
    nft(4, 500, 1_200, 180),
    nft(5, 1_000, 1_800, 270),
    nft(6, 2_500, 1_900, 270),
    nft(7, 5_000, 2_000, 270),
    nft(8, 10_000, 2_100, 270),
    nft(9, 25_000, 3_000, 360),
    nft(10, 50_000, 3_200, 360),
    nft(11, 100_000, 3_500, 360),
];

/// The LVLX lock tiers' documented defaults.
pub const DEFAULT_TIERS: [Terms; 4] = [
    tier(1, 100, 30),
    tier(2, 400, 90),
    tier(3, 1_000, 180),
    tier(4, 2_400, 360),
];

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StakingError {
    #[error("{0} is not offered")]
    Unknown(u32),
    #[error("nothing to stake")]
    Zero,
    #[error("the reward does not fit 128 bits")]
    TooLarge,
    #[error("the free reserve ({free}) cannot cover a reward of {needed}")]
    ReserveShort { free: Units, needed: Units },
    #[error("the amount earns no reward")]
    NoReward,
}

impl StakingError {
    pub fn key(&self) -> &'static str {
        match self {
            StakingError::Unknown(_) => "staking-not-offered",
            StakingError::Zero => "staking-amount-zero",
            StakingError::TooLarge => "buy-amount-too-large",
            StakingError::ReserveShort { .. } => "chain-reserve-short",
            StakingError::NoReward => "staking-reward-zero",
        }
    }

    pub const KEYS: [&'static str; 4] = [
        "staking-not-offered",
        "staking-amount-zero",
        "chain-reserve-short",
        "staking-reward-zero",
    ];
}

fn fit(value: U256) -> Result<Units, StakingError> {
    if value.bits() > 128 {
        return Err(StakingError::TooLarge);
    }
    Ok(value.as_u128())
}

/// The whole LVLX reward of staking `amount` (NFTs, or LVLX base units) under `terms`: the
/// contracts' `rewardFor`, rounded down.
pub fn reward(pool: Pool, terms: &Terms, amount: Units) -> Result<Units, StakingError> {
    let amount = U256::from(amount);
    let bps = U256::from(terms.rate_bps);
    let value = match pool {
        Pool::Nft => amount * U256::from(terms.usdt_value) * U256::from(LVLX_PER_USDT_UNIT) * bps,
        Pool::Lvlx => amount * bps,
    };
    fit(value / U256::from(10_000u32))
}

/// LVLX a position of `reward` from `start` to `release` (seconds) has earned at `at`: linear by
/// the second, rounded down, the whole reward from the release on (the contracts' `accrued`).
pub fn accrued(reward: Units, start: u64, release: u64, at: u64) -> Units {
    if at >= release {
        return reward;
    }
    if at <= start {
        return 0;
    }
    let earned = U256::from(reward) * U256::from(at - start) / U256::from(release - start);
    // Less than `reward`, so it fits.
    earned.as_u128()
}

/// A position as the index holds it (times in seconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub start: u64,
    pub release: u64,
    pub reward: Units,
    pub withdrawn: Units,
}

/// A position's figures at one second, as the member pages and admin tables show them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Standing {
    /// Earned so far, withdrawn or not.
    #[serde(with = "crate::amount::text")]
    pub accrued: Units,
    /// Earned and not yet withdrawn: what "withdraw interest" pays now.
    #[serde(with = "crate::amount::text")]
    pub withdrawable: Units,
    /// USDT value of `accrued` (÷10), 2 decimals.
    pub accrued_usdt: String,
    /// Whether the lock has ended (principal can come back).
    pub released: bool,
    /// Seconds until the release (0 once released).
    pub seconds_left: u64,
}

impl Position {
    pub fn standing(&self, at: u64) -> Standing {
        let accrued = accrued(self.reward, self.start, self.release, at);
        Standing {
            accrued,
            withdrawable: accrued.saturating_sub(self.withdrawn),
            accrued_usdt: amount::lvlx_to_usdt(accrued),
            released: at >= self.release,
            seconds_left: self.release.saturating_sub(at),
        }
    }
}

/// A member's position as the totals read it: how much it holds (NFTs or LVLX), its schedule,
/// and whether it is still open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stake {
    pub amount: Units,
    pub position: Position,
    pub open: bool,
}

/// A member's staking totals at one second (`None` when a sum overflows 128 bits).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    /// Open positions in both pools.
    pub positions: usize,
    /// NFTs in open positions.
    pub nfts: Units,
    /// LVLX in open positions.
    pub lvlx: Units,
    /// Rewards earned so far over every position, open or closed, withdrawn or not.
    pub accrued: Units,
    /// Earned in open positions and not yet withdrawn.
    pub withdrawable: Units,
    /// Interest paid out over every position.
    pub interest_paid: Units,
    /// The next release still ahead among open positions (one already past is not a lock).
    pub next_release: Option<u64>,
}

/// The totals of `nft` and `lvlx` positions at `now` (seconds).
pub fn totals(nft: &[Stake], lvlx: &[Stake], now: u64) -> Option<Totals> {
    let open = || nft.iter().chain(lvlx).filter(|s| s.open);
    let held = |pool: &[Stake]| amount::sum(pool.iter().filter(|s| s.open).map(|s| s.amount));
    Some(Totals {
        positions: open().count(),
        nfts: held(nft)?,
        lvlx: held(lvlx)?,
        accrued: amount::sum(
            nft.iter()
                .chain(lvlx)
                .map(|s| s.position.standing(now).accrued),
        )?,
        withdrawable: amount::sum(open().map(|s| s.position.standing(now).withdrawable))?,
        interest_paid: amount::sum(nft.iter().chain(lvlx).map(|s| s.position.withdrawn))?,
        next_release: open()
            .map(|s| s.position.release)
            .filter(|&release| release > now)
            .min(),
    })
}

/// The USDT value (base units) of NFTs in open positions, `(kind, quantity)` each, at the NFTs'
/// terms (`usdt_value`, what the chain's terms say an NFT of that kind is worth). `None` when a
/// kind has no terms or the sum overflows 128 bits.
pub fn nft_value(staked: &[(u32, Units)], terms: &[Terms]) -> Option<Units> {
    amount::sum(
        staked
            .iter()
            .map(|&(kind, quantity)| {
                let t = terms.iter().find(|t| t.kind == kind)?;
                quantity.checked_mul(t.usdt_value)
            })
            .collect::<Option<Vec<_>>>()?,
    )
}

/// One pool's reserve as the admin's monitor reads it: everything it holds for rewards, the
/// weeks of stakes at the last 30 days' pace its free part covers, and whether that is under
/// `warning_weeks`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cover {
    pub funded: Units,
    pub weeks_covered: Option<u64>,
    pub warning: bool,
}

pub fn cover(
    free: Units,
    reserved: Units,
    reserved_last_30_days: Units,
    warning_weeks: u64,
) -> Cover {
    let weeks = weeks_covered(free, reserved_last_30_days);
    Cover {
        funded: free.saturating_add(reserved),
        weeks_covered: weeks.map(|w| w.min(u128::from(u32::MAX)) as u64),
        warning: weeks.is_some_and(|w| w < u128::from(warning_weeks)),
    }
}

/// What a stake would bring, shown before the member signs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Quote {
    #[serde(with = "crate::amount::text")]
    pub reward: Units,
    pub reward_usdt: String,
    /// Seconds (the release date if staked at `now`).
    pub release: u64,
    /// The latest release the stake accepts (its `maxRelease`): the quoted one plus
    /// [`RELEASE_SLACK`] for the transaction to be mined. With `reward` as its `minReward`,
    /// terms changed while the stake is in flight refuse it.
    pub max_release: u64,
}

/// Seconds a stake may take to be mined after its quote before the contract refuses it.
pub const RELEASE_SLACK: u64 = 3_600;
/// The contracts' limits on terms (RewardReserve's `MAX_RATE_BPS`, `MAX_LOCK_SECONDS`).
pub const MAX_RATE_BPS: u32 = 10_000;
pub const MAX_LOCK_SECONDS: u64 = 730 * DAY;

/// The quote for staking `amount` under `terms` at `now` with `free` LVLX in the free reserve;
/// refused as the contract would refuse it.
pub fn quote(
    pool: Pool,
    terms: &Terms,
    amount: Units,
    free: Units,
    now: u64,
) -> Result<Quote, StakingError> {
    if terms.lock_seconds == 0 || !pool.kinds().contains(&terms.kind) {
        return Err(StakingError::Unknown(terms.kind));
    }
    if amount == 0 {
        return Err(StakingError::Zero);
    }
    let reward = reward(pool, terms, amount)?;
    if reward == 0 {
        return Err(StakingError::NoReward);
    }
    if reward > free {
        return Err(StakingError::ReserveShort {
            free,
            needed: reward,
        });
    }
    Ok(Quote {
        reward,
        reward_usdt: amount::lvlx_to_usdt(reward),
        release: now + terms.lock_seconds,
        max_release: now + terms.lock_seconds + RELEASE_SLACK,
    })
}

/// What `quantity` NFTs cost at `price` (USDT base units each): the NFT sale's `price × quantity`.
pub fn nft_cost(price: Units, quantity: Units) -> Result<Units, StakingError> {
    price.checked_mul(quantity).ok_or(StakingError::TooLarge)
}

/// One pool's positions summed as its contract counts them: how many were opened, the rewards
/// still reserved for them (promised, not withdrawn) and the principal of those still open, by
/// kind (an NFT id, or a tier). Folded one position at a time (a pool may hold 10^6).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PoolSums {
    pub positions: u64,
    pub reserved: Units,
    pub open_by_kind: std::collections::BTreeMap<u32, Units>,
}

impl PoolSums {
    /// Counts one position of `kind` holding `principal`, promised `reward`, of which `withdrawn`
    /// was paid; its principal only while it is `open`. None when a sum overflows.
    pub fn add(
        &mut self,
        kind: u32,
        principal: Units,
        reward: Units,
        withdrawn: Units,
        open: bool,
    ) -> Option<()> {
        self.positions += 1;
        self.reserved = self
            .reserved
            .checked_add(reward.saturating_sub(withdrawn))?;
        if open {
            let sum = self.open_by_kind.entry(kind).or_default();
            *sum = sum.checked_add(principal)?;
        }
        Some(())
    }
}

/// Whole weeks of new stakes the free reserve covers at the pace of the last 30 days (rewards
/// reserved by positions opened in them); `None` when nothing was staked in them.
pub fn weeks_covered(free: Units, reserved_last_30_days: Units) -> Option<u128> {
    if reserved_last_30_days == 0 {
        return None;
    }
    // free / (reserved_30 · 7 / 30), exactly.
    let weeks = U256::from(free) * U256::from(30u32) / (U256::from(reserved_last_30_days) * 7);
    Some(if weeks.bits() > 128 {
        u128::MAX
    } else {
        weeks.as_u128()
    })
}

/// A lock as people read it: its days (rounded half up), whether that is exact (else the
/// seconds are worth showing), and a rate over it as the simple rate of a 365-day year, in
/// basis points rounded half up (1 % over 30 days reads 12.17 % a year).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LockTerms {
    pub days: u64,
    pub whole_days: bool,
    pub yearly_bps: u64,
}

pub fn lock_terms(rate_bps: u32, lock_seconds: u64) -> LockTerms {
    let half_up = |n: u128, d: u128| {
        if d == 0 {
            0
        } else {
            ((2 * n + d) / (2 * d)) as u64
        }
    };
    LockTerms {
        days: half_up(u128::from(lock_seconds), u128::from(DAY)),
        whole_days: lock_seconds.is_multiple_of(DAY),
        yearly_bps: half_up(
            u128::from(rate_bps) * 365 * u128::from(DAY),
            u128::from(lock_seconds),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pool_reserves_what_is_promised_and_not_withdrawn_and_counts_open_principal() {
        let mut sums = PoolSums::default();
        sums.add(1, 100, 30, 10, true).unwrap();
        sums.add(1, 50, 20, 20, false).unwrap();
        sums.add(2, 7, 5, 0, true).unwrap();
        assert_eq!(sums.positions, 3);
        assert_eq!(
            sums.reserved,
            20 + 5,
            "the closed one's reward was all withdrawn"
        );
        assert_eq!(
            sums.open_by_kind.get(&1),
            Some(&100),
            "a closed position's principal left"
        );
        assert_eq!(sums.open_by_kind.get(&2), Some(&7));
        assert_eq!(sums.add(1, Units::MAX, 0, 0, true), None, "overflow");
    }

    #[test]
    fn a_lock_reads_in_days_and_its_rate_by_the_year() {
        let t = lock_terms(100, 30 * DAY);
        assert_eq!((t.days, t.whole_days, t.yearly_bps), (30, true, 1_217));
        assert_eq!(lock_terms(1_000, 365 * DAY).yearly_bps, 1_000);
        let odd = lock_terms(100, 30 * DAY + DAY / 2);
        assert_eq!((odd.days, odd.whole_days), (31, false));
        assert_eq!(lock_terms(100, DAY / 2 - 1).days, 0);
        assert_eq!(
            lock_terms(100, 0),
            LockTerms {
                days: 0,
                whole_days: true,
                yearly_bps: 0
            }
        );
    }

    const LVLX: Units = 1_000_000_000_000_000_000;

    #[test]
    fn rewards_follow_value_and_rate() {
        // NFT 1: 50 USDT = 500 LVLX at 0.1 USDT, 10 % over the lock = 50 LVLX per NFT.
        let one = &DEFAULT_NFT_TERMS[0];
        assert_eq!(reward(Pool::Nft, one, 1), Ok(50 * LVLX));
        assert_eq!(reward(Pool::Nft, one, 3), Ok(150 * LVLX));
        // Tier 4: 24 % of 1000 LVLX.
        assert_eq!(
            reward(Pool::Lvlx, &DEFAULT_TIERS[3], 1000 * LVLX),
            Ok(240 * LVLX)
        );
        // Rounded down like the contract: 1 base unit at 1 % earns nothing.
        assert_eq!(reward(Pool::Lvlx, &DEFAULT_TIERS[0], 1), Ok(0));
        assert_eq!(
            reward(Pool::Lvlx, &DEFAULT_TIERS[0], u128::MAX),
            Ok(u128::MAX / 10_000 * 100 + (u128::MAX % 10_000) * 100 / 10_000)
        );
        assert_eq!(
            reward(Pool::Nft, &DEFAULT_NFT_TERMS[10], u128::MAX),
            Err(StakingError::TooLarge)
        );
    }

    #[test]
    fn accrual_is_linear_by_the_second_and_capped() {
        let r = 100 * LVLX;
        assert_eq!(accrued(r, 1000, 2000, 999), 0);
        assert_eq!(accrued(r, 1000, 2000, 1000), 0);
        assert_eq!(accrued(r, 1000, 2000, 1001), r / 1000);
        assert_eq!(accrued(r, 1000, 2000, 1500), r / 2);
        assert_eq!(accrued(r, 1000, 2000, 2000), r);
        assert_eq!(accrued(r, 1000, 2000, u64::MAX), r);
        // Rounded down: 7 units over 3 seconds.
        assert_eq!(accrued(7, 0, 3, 1), 2);
        assert_eq!(accrued(7, 0, 3, 2), 4);
        // No overflow with the largest reward.
        assert!(accrued(u128::MAX, 0, u64::MAX, u64::MAX - 1) < u128::MAX);
        let p = Position {
            start: 1000,
            release: 2000,
            reward: r,
            withdrawn: r / 4,
        };
        let s = p.standing(1500);
        assert_eq!((s.accrued, s.withdrawable), (r / 2, r / 4));
        assert_eq!(s.accrued_usdt, "5.00");
        assert!(!s.released);
        assert_eq!(s.seconds_left, 500);
        assert!(p.standing(2000).released);
    }

    #[test]
    fn quotes_refuse_what_the_reserve_cannot_cover() {
        let t = &DEFAULT_TIERS[1];
        let q = quote(Pool::Lvlx, t, 100 * LVLX, 4 * LVLX, 10).unwrap();
        assert_eq!(q.reward, 4 * LVLX);
        assert_eq!(q.release, 10 + 90 * DAY);
        assert_eq!(
            quote(Pool::Lvlx, t, 100 * LVLX, 4 * LVLX - 1, 10),
            Err(StakingError::ReserveShort {
                free: 4 * LVLX - 1,
                needed: 4 * LVLX
            })
        );
        assert_eq!(quote(Pool::Lvlx, t, 0, LVLX, 10), Err(StakingError::Zero));
        let off = Terms {
            lock_seconds: 0,
            ..*t
        };
        assert_eq!(
            quote(Pool::Lvlx, &off, 1, LVLX, 10),
            Err(StakingError::Unknown(2))
        );
        let wrong = Terms {
            kind: 12,
            ..DEFAULT_NFT_TERMS[0]
        };
        assert_eq!(
            quote(Pool::Nft, &wrong, 1, LVLX, 10),
            Err(StakingError::Unknown(12))
        );
    }

    #[test]
    fn nft_value_is_each_kind_s_value_times_quantity() {
        let terms = DEFAULT_NFT_TERMS;
        // Two 50-USDT NFTs and one of 1,000 USDT.
        assert_eq!(
            nft_value(&[(1, 2), (5, 1)], &terms),
            Some(1_100 * 1_000_000)
        );
        assert_eq!(nft_value(&[], &terms), Some(0));
        assert_eq!(nft_value(&[(12, 1)], &terms), None, "a kind without terms");
        assert_eq!(nft_value(&[(1, Units::MAX)], &terms), None, "overflow");
    }

    #[test]
    fn nft_cost_is_price_times_quantity() {
        assert_eq!(nft_cost(50_000_000, 3), Ok(150_000_000));
        assert_eq!(nft_cost(u128::MAX, 2), Err(StakingError::TooLarge));
    }

    #[test]
    fn reserve_cover_in_weeks() {
        // 30 days reserved 30 LVLX = 7 LVLX a week; 70 LVLX free lasts 10 weeks.
        assert_eq!(weeks_covered(70 * LVLX, 30 * LVLX), Some(10));
        assert_eq!(weeks_covered(69 * LVLX, 30 * LVLX), Some(9));
        assert_eq!(weeks_covered(5, 0), None);
    }
}
