//! Staking (DESIGN §6): what the member pages and the admin reserve monitor read. The
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

fn unavailable(e: impl std::fmt::Display) -> Error {
    tracing::warn!(error = %e, "chain read failed");
    Error::ChainUnavailable
}

/// The chain section, when the staking contracts are configured.
pub fn contracts(config: &config::Config) -> Option<&config::Chain> {
    config.chain.as_ref().filter(|c| {
        !c.nft_staking.is_empty() && !c.lvlx_staking.is_empty() && !c.nft_sale.is_empty()
    })
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
    app: &crate::App,
    chain: &config::Chain,
    wallet: Option<&str>,
) -> Result<OnChain, Error> {
    let rpc = Rpc::new(chain.rpc_url.expose());
    let (block, block_time) = crate::chain::reads::head(&rpc).await?;
    let offer = {
        let (rpc, chain) = (rpc.clone(), chain.clone());
        app.chain_reads
            .offers
            .get("offer", block, move || read_offer(&rpc, &chain, block))
            .await?
    };
    let holdings = match wallet {
        Some(w) => {
            let (rpc, chain, owner) = (rpc.clone(), chain.clone(), w.to_string());
            Some(
                app.chain_reads
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
    let data = chain::calldata(contract, function, args).map_err(unavailable)?;
    Ok((
        "eth_call",
        json!([{"to": to, "data": data}, crate::chain::rpc::hex(block)]),
    ))
}

fn text(v: &Value) -> Result<String, Error> {
    v.as_str()
        .map(str::to_string)
        .ok_or_else(|| unavailable(RpcError::Answer(v.to_string())))
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
    let answers = rpc.batch(&calls).map_err(unavailable)?;
    let mut it = answers.iter();
    let mut next = || it.next().ok_or_else(|| unavailable("short batch answer"));
    let mut nfts = Vec::new();
    for kind in Pool::Nft.kinds() {
        let terms = chain::decode_terms(kind, &text(next()?)?).map_err(unavailable)?;
        let price = chain::decode_uint(&text(next()?)?).map_err(unavailable)?;
        nfts.push((terms, price));
    }
    let mut offered = Vec::new();
    for kind in Pool::Lvlx.kinds() {
        let terms = chain::decode_terms(kind, &text(next()?)?).map_err(unavailable)?;
        if terms.lock_seconds > 0 {
            offered.push(terms);
        }
    }
    let mut reserve = || -> Result<Reserve, Error> {
        Ok(Reserve {
            free: chain::decode_uint(&text(next()?)?).map_err(unavailable)?,
            reserved: chain::decode_uint(&text(next()?)?).map_err(unavailable)?,
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
    let answers = rpc.batch(&calls).map_err(unavailable)?;
    let mut values = answers
        .iter()
        .map(|v| chain::decode_uint(&text(v)?).map_err(unavailable))
        .collect::<Result<Vec<Units>, Error>>()?;
    let lvlx_balance = values
        .pop()
        .ok_or_else(|| unavailable("short batch answer"))?;
    Ok(Holdings {
        held: values,
        lvlx_balance,
    })
}

/// A position with its figures at `now` (seconds), for the member pages.
pub fn position_json(h: &Held, now: u64) -> Value {
    let standing = h.core().standing(now);
    json!({
        "position": h.position,
        "kind": h.kind,
        "amount": h.amount.to_string(),
        "reward": h.reward.to_string(),
        "rewardUsdt": amount::lvlx_to_usdt(h.reward),
        "startDate": h.start,
        "withdrawDate": h.release,
        "withdrawn": h.withdrawn.to_string(),
        "closedAt": h.closed_at,
        "txHash": h.tx_hash,
        "pending": h.pending,
        "accrued": standing.accrued.to_string(),
        "accruedUsdt": standing.accrued_usdt,
        "withdrawable": if h.closed_at.is_some() { "0".to_string() } else { standing.withdrawable.to_string() },
        "released": standing.released,
    })
}

/// The dashboard's staking box: open positions, NFTs and LVLX staked in them, and the reward
/// earned so far over every position (accrued at `now`, seconds), exact.
pub fn glance(nft: &[Held], lvlx: &[Held], now: u64) -> Result<Value, Error> {
    let open = |h: &&Held| h.closed_at.is_none();
    let overflow = || Error::Internal("staking totals overflow".into());
    let nfts = amount::sum(nft.iter().filter(open).map(|h| h.amount)).ok_or_else(overflow)?;
    let staked = amount::sum(lvlx.iter().filter(open).map(|h| h.amount)).ok_or_else(overflow)?;
    let accrued = amount::sum(
        nft.iter()
            .chain(lvlx)
            .map(|h| h.core().standing(now).accrued),
    )
    .ok_or_else(overflow)?;
    Ok(json!({
        "positions": nft.iter().chain(lvlx).filter(open).count(),
        "nfts": nfts.to_string(),
        "lvlx": staked.to_string(),
        "accrued": accrued.to_string(),
        "accruedUsdt": amount::lvlx_to_usdt(accrued),
    }))
}

/// The staking part of a member's money account (`lvlx_core::account::Server`): LVLX and NFTs
/// in open positions, the next release still ahead, rewards earned and not yet withdrawn, and the
/// interest paid out over every position (open or closed).
pub fn account_part(
    nft: &[Held],
    lvlx: &[Held],
    now: u64,
) -> Result<lvlx_core::account::Server, Error> {
    let overflow = || Error::Internal("staking totals overflow".into());
    let open = |h: &&Held| h.closed_at.is_none();
    let nfts = amount::sum(nft.iter().filter(open).map(|h| h.amount)).ok_or_else(overflow)?;
    Ok(lvlx_core::account::Server {
        staked: amount::sum(lvlx.iter().filter(open).map(|h| h.amount)).ok_or_else(overflow)?,
        nfts: u64::try_from(nfts).map_err(|_| overflow())?,
        // The next release still ahead, of LVLX or NFTs (one already past is not a lock).
        next_release: nft
            .iter()
            .chain(lvlx)
            .filter(open)
            .map(|h| (h.release / 1000) as u64)
            .filter(|&release| release > now)
            .min(),
        accrued: amount::sum(
            nft.iter()
                .chain(lvlx)
                .filter(open)
                .map(|h| h.core().standing(now).withdrawable),
        )
        .ok_or_else(overflow)?,
        interest_paid: amount::sum(nft.iter().chain(lvlx).map(|h| h.withdrawn))
            .ok_or_else(overflow)?,
        ..Default::default()
    })
}

/// SPEC §3 withdrawNFTs / withdrawLVLXs: the interest each position has paid out (a list) and
/// their total, in 18-decimal base units.
pub fn withdrawals(held: &[Held]) -> Result<Value, Error> {
    let total = amount::sum(held.iter().map(|h| h.withdrawn))
        .ok_or_else(|| Error::Internal("withdrawn interest overflows".into()))?;
    let interests: Vec<Value> = held
        .iter()
        .filter(|h| h.withdrawn > 0)
        .map(|h| {
            json!({
                "position": h.position,
                "kind": h.kind,
                "amount": h.withdrawn.to_string(),
                "closedAt": h.closed_at,
            })
        })
        .collect();
    Ok(json!({ "interests": interests, "total": total.to_string() }))
}

fn terms_json(t: &Terms, pool: Pool) -> Value {
    let mut v = serde_json::to_value(t).unwrap_or(Value::Null);
    if pool == Pool::Nft {
        // What one NFT earns over its lock.
        v["rewardPerNft"] = json!(staking::reward(pool, t, 1).unwrap_or(0).to_string());
    }
    v
}

fn reserve_json(r: Reserve) -> Value {
    json!({"free": r.free.to_string(), "reserved": r.reserved.to_string()})
}

/// The member's staking page data: terms, prices, reserves, holdings and positions.
pub fn overview(on_chain: &OnChain, nft: &[Held], lvlx: &[Held], now: u64) -> Value {
    json!({
        "available": true,
        "now": now,
        "nfts": on_chain.nfts.iter().map(|(t, price)| {
            let mut v = terms_json(t, Pool::Nft);
            v["price"] = json!(price.to_string());
            v
        }).collect::<Vec<_>>(),
        "tiers": on_chain.tiers.iter().map(|t| terms_json(t, Pool::Lvlx)).collect::<Vec<_>>(),
        "reserve": {
            "nft": reserve_json(on_chain.nft_reserve),
            "lvlx": reserve_json(on_chain.lvlx_reserve),
        },
        "held": on_chain.held.iter().map(|n| n.to_string()).collect::<Vec<_>>(),
        "lvlxBalance": on_chain.lvlx_balance.map(|b| b.to_string()),
        "positions": {
            "nft": nft.iter().map(|h| position_json(h, now)).collect::<Vec<_>>(),
            "lvlx": lvlx.iter().map(|h| position_json(h, now)).collect::<Vec<_>>(),
        },
    })
}

/// One pool's line of the admin reserve monitor.
pub fn monitor(reserve: Reserve, reserved_last_30_days: Units, warning_weeks: u64) -> Value {
    let weeks = staking::weeks_covered(reserve.free, reserved_last_30_days);
    json!({
        "free": reserve.free.to_string(),
        "reserved": reserve.reserved.to_string(),
        "funded": reserve.free.saturating_add(reserve.reserved).to_string(),
        "reservedLast30Days": reserved_last_30_days.to_string(),
        "weeksCovered": weeks.map(|w| w.min(u128::from(u32::MAX)) as u64),
        "warning": weeks.is_some_and(|w| w < u128::from(warning_weeks)),
    })
}

const DAY_MS: i64 = 86_400_000;

/// The member's staking page: terms and NFT prices as the contracts hold them, both reserves,
/// the wallet's NFTs and LVLX, the member's positions with their figures at `now` (seconds: the
/// later of the server's clock and the latest block's), or `{available: false}` when no
/// staking contracts are configured.
pub async fn page(app: &crate::App, member: &crate::user::User) -> Result<Value, Error> {
    let Some(chain) = contracts(&app.config).cloned() else {
        return Ok(json!({ "available": false }));
    };
    let on_chain = on_chain(app, &chain, member.wallet.as_deref()).await?;
    let user = member.id;
    let (nft, lvlx) = app
        .store
        .read(move |c| crate::store::stakes::of_member(c, user))
        .await?;
    let now = on_chain.block_time.max((crate::now_ms() / 1000) as u64);
    Ok(overview(&on_chain, &nft, &lvlx, now))
}

/// The admin's reserve monitor: per pool the free and reserved reward reserve (from the
/// chain), the rewards reserved in the last 30 days and how many weeks of stakes at that pace
/// the free reserve covers, with a warning under the configured number of weeks.
pub async fn reserve(app: &crate::App) -> Result<Value, Error> {
    use crate::store::stakes;
    let Some(chain) = contracts(&app.config).cloned() else {
        return Ok(json!({ "available": false }));
    };
    let weeks = chain.reserve_warning_weeks;
    let on_chain = on_chain(app, &chain, None).await?;
    let since = crate::now_ms() - 30 * DAY_MS;
    let (nft, lvlx) = app
        .store
        .read(move |c| {
            Ok::<_, Error>((
                stakes::reserved_since(c, Pool::Nft, since)?,
                stakes::reserved_since(c, Pool::Lvlx, since)?,
            ))
        })
        .await?;
    Ok(json!({
        "available": true,
        "warningWeeks": weeks,
        "nft": monitor(on_chain.nft_reserve, nft, weeks),
        "lvlx": monitor(on_chain.lvlx_reserve, lvlx, weeks),
    }))
}
