//! Staking (docs/product/staking.md): what the member pages and the admin reserve monitor read. The
//! contracts are the truth for terms, prices and the reserve (read here with one batched
//! eth_call); the index (store::stakes) holds the positions; every figure is the core's.

pub mod admin;

use lvlx_core::amount::{self, Units};
use lvlx_core::chain::{self, Contract};
use lvlx_core::staking::{self, Pool, Terms};
use serde_json::{json, Value};

use crate::chain::rpc::{Rpc, RpcError};
use crate::config;
use crate::error::Error;
use crate::store::stakes::Held;

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

/// The contracts' side of [`OnChain`]: the same for every member at a block.
#[derive(Debug, Clone)]
pub struct Offer {
    pub nfts: Vec<(Terms, Units)>,
    pub tiers: Vec<Terms>,
    pub nft_reserve: Reserve,
    pub lvlx_reserve: Reserve,
}

/// A wallet's side of [`OnChain`]: NFTs of ids 1–11 held, and its LVLX.
#[derive(Debug, Clone)]
pub struct Holdings {
    pub held: Vec<Units>,
    pub lvlx_balance: Units,
}

/// What the staking pages need, read at the node's head: the offer (shared by every page load
/// at that block) and the wallet's holdings (shared by that wallet's loads), `chain::reads`.
pub async fn on_chain(
    reads: &crate::ChainReads,
    chain: &config::Chain,
    wallet: Option<&str>,
) -> Result<OnChain, Error> {
    let rpc = Rpc::new(chain.rpc_url.expose());
    let (block, block_time) = crate::chain::reads::head(&rpc).await?;
    let offer = {
        let (rpc, chain) = (rpc.clone(), chain.clone());
        reads
            .offers
            .get("offer", block, move || read_offer(&rpc, &chain, block))
            .await?
    };
    let holdings = match wallet {
        Some(w) => {
            let (rpc, chain, owner) = (rpc.clone(), chain.clone(), w.to_string());
            Some(
                reads
                    .holdings
                    .get(&w.to_lowercase(), block, move || {
                        read_holdings(&rpc, &chain, &owner, block)
                    })
                    .await?,
            )
        }
        None => None,
    };
    Ok(OnChain {
        nfts: offer.nfts,
        tiers: offer.tiers,
        nft_reserve: offer.nft_reserve,
        lvlx_reserve: offer.lvlx_reserve,
        block_time,
        held: holdings
            .as_ref()
            .map(|h| h.held.clone())
            .unwrap_or_default(),
        lvlx_balance: holdings.map(|h| h.lvlx_balance),
    })
}

/// An eth_call of `function` on `to` at `block`.
fn call_at(
    to: &str,
    contract: Contract,
    function: &str,
    args: &[&str],
    block: u64,
) -> Result<(&'static str, Value), Error> {
    let data = chain::calldata(contract, function, args).map_err(Error::unavailable)?;
    Ok((
        "eth_call",
        json!([{"to": to, "data": data}, crate::chain::rpc::hex(block)]),
    ))
}

fn text(v: &Value) -> Result<String, Error> {
    v.as_str()
        .map(str::to_string)
        .ok_or_else(|| Error::unavailable(RpcError::Answer(v.to_string())))
}

/// Terms, NFT prices and both reserves at `block`, in one batch (blocking).
fn read_offer(rpc: &Rpc, chain: &config::Chain, block: u64) -> Result<Offer, Error> {
    let nft_ids: Vec<String> = Pool::Nft.kinds().map(|k| k.to_string()).collect();
    let tiers: Vec<String> = Pool::Lvlx.kinds().map(|k| k.to_string()).collect();
    let mut calls = Vec::new();
    for id in &nft_ids {
        calls.push(call_at(
            &chain.nft_staking,
            Contract::NftStaking,
            "terms",
            &[id],
            block,
        )?);
        calls.push(call_at(
            &chain.nft_sale,
            Contract::NftSale,
            "price",
            &[id],
            block,
        )?);
    }
    for tier in &tiers {
        calls.push(call_at(
            &chain.lvlx_staking,
            Contract::LvlxStaking,
            "terms",
            &[tier],
            block,
        )?);
    }
    for pool in [&chain.nft_staking, &chain.lvlx_staking] {
        calls.push(call_at(
            pool,
            Contract::NftStaking,
            "freeReserve",
            &[],
            block,
        )?);
        calls.push(call_at(pool, Contract::NftStaking, "reserved", &[], block)?);
    }
    let answers = rpc.batch(&calls).map_err(Error::unavailable)?;
    let mut it = answers.iter();
    let mut next = || {
        it.next()
            .ok_or_else(|| Error::unavailable("short batch answer"))
    };
    let mut nfts = Vec::new();
    for kind in Pool::Nft.kinds() {
        let terms = chain::decode_terms(kind, &text(next()?)?).map_err(Error::unavailable)?;
        let price = chain::decode_uint(&text(next()?)?).map_err(Error::unavailable)?;
        nfts.push((terms, price));
    }
    let mut offered = Vec::new();
    for kind in Pool::Lvlx.kinds() {
        let terms = chain::decode_terms(kind, &text(next()?)?).map_err(Error::unavailable)?;
        if terms.lock_seconds > 0 {
            offered.push(terms);
        }
    }
    let mut reserve = || -> Result<Reserve, Error> {
        Ok(Reserve {
            free: chain::decode_uint(&text(next()?)?).map_err(Error::unavailable)?,
            reserved: chain::decode_uint(&text(next()?)?).map_err(Error::unavailable)?,
        })
    };
    let nft_reserve = reserve()?;
    let lvlx_reserve = reserve()?;
    Ok(Offer {
        nfts,
        tiers: offered,
        nft_reserve,
        lvlx_reserve,
    })
}

/// The NFTs and LVLX `wallet` holds at `block`, in one batch (blocking).
fn read_holdings(
    rpc: &Rpc,
    chain: &config::Chain,
    wallet: &str,
    block: u64,
) -> Result<Holdings, Error> {
    let mut calls = Vec::new();
    for id in Pool::Nft.kinds().map(|k| k.to_string()) {
        calls.push(call_at(
            &chain.level_nft,
            Contract::LevelNft,
            "balanceOf",
            &[wallet, &id],
            block,
        )?);
    }
    calls.push(call_at(
        &chain.lvlx,
        Contract::Lvlx,
        "balanceOf",
        &[wallet],
        block,
    )?);
    let answers = rpc.batch(&calls).map_err(Error::unavailable)?;
    let mut values = answers
        .iter()
        .map(|v| chain::decode_uint(&text(v)?).map_err(Error::unavailable))
        .collect::<Result<Vec<Units>, Error>>()?;
    let lvlx_balance = values
        .pop()
        .ok_or_else(|| Error::unavailable("short batch answer"))?;
    Ok(Holdings {
        held: values,
        lvlx_balance,
    })
}

/// A position with its figures at a moment, for the member pages. Dates in milliseconds.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[schema(as = StakePosition)]
#[serde(rename_all = "camelCase")]
pub struct Position {
    position: u64,
    /// The NFT id or the LVLX tier.
    kind: u32,
    /// NFTs, or LVLX.
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    amount: Units,
    /// LVLX over the whole lock.
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    reward: Units,
    /// USDT value of `reward`, 2 decimals.
    reward_usdt: String,
    start_date: i64,
    /// When the principal can come back.
    withdraw_date: i64,
    /// Interest withdrawn so far.
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    withdrawn: Units,
    closed_at: Option<i64>,
    tx_hash: String,
    /// Opened in a block not final yet.
    pending: bool,
    /// Earned so far, withdrawn or not.
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    accrued: Units,
    accrued_usdt: String,
    /// What "withdraw interest" pays now (0 once closed).
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    withdrawable: Units,
    /// Whether the lock has ended.
    released: bool,
}

impl Position {
    /// `h` with its figures at `now` (seconds).
    pub fn of(h: &Held, now: u64) -> Self {
        let standing = h.core().standing(now);
        Position {
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
#[derive(serde::Serialize, utoipa::ToSchema)]
#[schema(as = StakingGlance)]
#[serde(rename_all = "camelCase")]
pub struct Glance {
    /// Open positions.
    positions: usize,
    /// NFTs in open positions.
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    nfts: Units,
    /// LVLX in open positions.
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    lvlx: Units,
    /// Rewards earned so far over every position.
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    accrued: Units,
    accrued_usdt: String,
}

/// The core's totals of `nft` and `lvlx` at `now` (seconds).
fn totals(nft: &[Held], lvlx: &[Held], now: u64) -> Result<staking::Totals, Error> {
    let stakes = |held: &[Held]| held.iter().map(Held::stake).collect::<Vec<_>>();
    staking::totals(&stakes(nft), &stakes(lvlx), now)
        .ok_or_else(|| Error::Internal("staking totals overflow".into()))
}

/// The dashboard's staking box: open positions, NFTs and LVLX staked in them, and the reward
/// earned so far over every position (accrued at `now`, seconds), exact.
pub fn glance(nft: &[Held], lvlx: &[Held], now: u64) -> Result<Glance, Error> {
    let t = totals(nft, lvlx, now)?;
    Ok(Glance {
        positions: t.positions,
        nfts: t.nfts,
        lvlx: t.lvlx,
        accrued: t.accrued,
        accrued_usdt: amount::lvlx_to_usdt(t.accrued),
    })
}

/// The open NFT positions as `(kind, quantity)`, for `lvlx_core::staking::nft_value`.
pub fn open_nfts(nft: &[Held]) -> Vec<(u32, Units)> {
    nft.iter()
        .filter(|h| h.closed_at.is_none())
        .map(|h| (h.kind, h.amount))
        .collect()
}

/// The staking part of a member's money account (`lvlx_core::account::Server`): LVLX and NFTs
/// in open positions, the next release still ahead, rewards earned and not yet withdrawn, and the
/// interest paid out over every position (open or closed).
pub fn account_part(
    nft: &[Held],
    lvlx: &[Held],
    now: u64,
) -> Result<lvlx_core::account::Server, Error> {
    let t = totals(nft, lvlx, now)?;
    Ok(lvlx_core::account::Server {
        staked: t.lvlx,
        nfts: u64::try_from(t.nfts)
            .map_err(|_| Error::Internal("staking totals overflow".into()))?,
        next_release: t.next_release,
        accrued: t.withdrawable,
        interest_paid: t.interest_paid,
        ..Default::default()
    })
}

/// The interest one position has paid out.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Interest {
    position: u64,
    kind: u32,
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    amount: Units,
    closed_at: Option<i64>,
}

/// withdrawNFTs / withdrawLVLXs (docs/product/api.md#user): the interest each position has paid out
/// and their total (LVLX).
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct Withdrawals {
    interests: Vec<Interest>,
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    total: Units,
}

/// The interest `held` positions have paid out.
pub fn withdrawals(held: &[Held]) -> Result<Withdrawals, Error> {
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
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NftOffer {
    #[serde(flatten)]
    terms: Terms,
    /// LVLX one NFT earns over its lock.
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    reward_per_nft: Units,
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    price: Units,
}

/// A staking contract's reward reserve (LVLX).
#[derive(Clone, serde::Serialize, utoipa::ToSchema)]
#[schema(as = StakeReserve)]
pub struct ReserveShown {
    /// Not promised to any position yet.
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    free: Units,
    /// Promised to open positions.
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
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
#[derive(serde::Serialize, utoipa::ToSchema)]
#[schema(as = StakeReserves)]
pub struct Reserves {
    nft: ReserveShown,
    lvlx: ReserveShown,
}

/// The member's positions in both pools.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[schema(as = StakePositions)]
pub struct Positions {
    nft: Vec<Position>,
    lvlx: Vec<Position>,
}

/// The member's staking page; only `available: false` when no staking contracts are
/// configured.
#[derive(serde::Serialize, utoipa::ToSchema)]
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
    #[schema(value_type = Option<Vec<String>>)]
    held: Option<Vec<String>>,
    /// The wallet's LVLX; null without a wallet.
    #[serde(with = "lvlx_core::amount::opt_text")]
    #[schema(schema_with = lvlx_core::amount::opt_text::schema)]
    lvlx_balance: Option<Units>,
    #[serde(skip_serializing_if = "Option::is_none")]
    positions: Option<Positions>,
}

impl StakingPage {
    fn unavailable() -> Self {
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
            reward_per_nft: staking::reward(Pool::Nft, &terms, 1).unwrap_or(0),
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
            nft: nft.iter().map(|h| Position::of(h, now)).collect(),
            lvlx: lvlx.iter().map(|h| Position::of(h, now)).collect(),
        }),
    }
}

/// One pool's line of the admin reserve monitor (LVLX).
#[derive(Clone, serde::Serialize, utoipa::ToSchema)]
#[schema(as = ReserveLine)]
#[serde(rename_all = "camelCase")]
pub struct Monitor {
    #[serde(flatten)]
    reserve: ReserveShown,
    /// Everything the contract holds for rewards.
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    funded: Units,
    /// Rewards promised in the last 30 days.
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    reserved_last30_days: Units,
    /// Weeks of stakes at that pace the free reserve covers; null when nothing was promised.
    pub weeks_covered: Option<u64>,
    /// Under the configured number of weeks.
    warning: bool,
}

/// One pool's line of the admin reserve monitor.
pub fn monitor(reserve: Reserve, reserved_last_30_days: Units, warning_weeks: u64) -> Monitor {
    let cover = staking::cover(
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
#[derive(Clone, serde::Serialize, utoipa::ToSchema)]
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

const DAY_MS: i64 = 86_400_000;

/// The member's staking page: terms and NFT prices as the contracts hold them, both reserves,
/// the wallet's NFTs and LVLX, the member's positions with their figures at `now` (seconds: the
/// later of the server's clock and the latest block's), or `{available: false}` when no
/// staking contracts are configured.
pub async fn page(
    store: &crate::Store,
    config: &config::Config,
    reads: &crate::ChainReads,
    member: &crate::user::User,
) -> Result<StakingPage, Error> {
    let Some(chain) = config.staking_chain().cloned() else {
        return Ok(StakingPage::unavailable());
    };
    let on_chain = on_chain(reads, &chain, member.wallet.as_deref()).await?;
    let user = member.id;
    let (nft, lvlx) = store
        .read(move |c| crate::store::stakes::of_member(c, user))
        .await?;
    let now = on_chain.block_time.max((crate::now_ms() / 1000) as u64);
    Ok(overview(&on_chain, &nft, &lvlx, now))
}

/// The admin's reserve monitor: per pool the free and reserved reward reserve (from the
/// chain), the rewards reserved in the last 30 days and how many weeks of stakes at that pace
/// the free reserve covers, with a warning under the configured number of weeks.
pub async fn reserve(
    store: &crate::Store,
    config: &config::Config,
    reads: &crate::ChainReads,
) -> Result<ReserveMonitor, Error> {
    use crate::store::stakes;
    let Some(chain) = config.staking_chain().cloned() else {
        return Ok(ReserveMonitor {
            available: false,
            warning_weeks: None,
            nft: None,
            lvlx: None,
        });
    };
    let weeks = chain.reserve_warning_weeks;
    let on_chain = on_chain(reads, &chain, None).await?;
    let since = crate::now_ms() - 30 * DAY_MS;
    let (nft, lvlx) = store
        .read(move |c| {
            Ok::<_, Error>((
                stakes::reserved_since(c, Pool::Nft, since)?,
                stakes::reserved_since(c, Pool::Lvlx, since)?,
            ))
        })
        .await?;
    Ok(ReserveMonitor {
        available: true,
        warning_weeks: Some(weeks),
        nft: Some(monitor(on_chain.nft_reserve, nft, weeks)),
        lvlx: Some(monitor(on_chain.lvlx_reserve, lvlx, weeks)),
    })
}
