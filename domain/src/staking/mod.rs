//! Staking (docs/product/staking.md): what the member pages and the admin reserve monitor read. The
//! contracts are the truth for terms, prices and the reserve (read here with one batched
//! eth_call); the index (store::stakes) holds the positions; every figure is the core's.

use lvlx_core::amount::Units;
use lvlx_core::chain::{self, Contract};
use lvlx_core::staking::{Pool, Terms};

use crate::chain::reads::{calls_at, Call};
use crate::chain::rpc::Rpc;
use crate::config;
use crate::error::Error;
pub use lvlx_core::staking::page::{
    account_part, glance, monitor, open_nfts, overview, withdrawals, Glance, Monitor, OnChain,
    Reserve, ReserveMonitor, StakingPage, Withdrawals,
};

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

/// Terms, NFT prices and both reserves at `block`, in one batch (blocking).
fn read_offer(rpc: &Rpc, chain: &config::Chain, block: u64) -> Result<Offer, Error> {
    let mut calls: Vec<Call> = Vec::new();
    for id in Pool::Nft.kinds().map(|k| vec![k.to_string()]) {
        calls.push((
            &chain.nft_staking,
            Contract::NftStaking,
            "terms",
            id.clone(),
        ));
        calls.push((&chain.nft_sale, Contract::NftSale, "price", id));
    }
    for tier in Pool::Lvlx.kinds().map(|k| vec![k.to_string()]) {
        calls.push((&chain.lvlx_staking, Contract::LvlxStaking, "terms", tier));
    }
    for pool in [&chain.nft_staking, &chain.lvlx_staking] {
        calls.push((pool, Contract::NftStaking, "freeReserve", vec![]));
        calls.push((pool, Contract::NftStaking, "reserved", vec![]));
    }
    let answers = calls_at(rpc, block, &calls)?;
    let mut it = answers.iter();
    let mut next = || {
        it.next()
            .ok_or_else(|| Error::unavailable("short batch answer"))
    };
    let mut nfts = Vec::new();
    for kind in Pool::Nft.kinds() {
        let terms = chain::decode_terms(kind, next()?).map_err(Error::unavailable)?;
        let price = chain::decode_uint(next()?).map_err(Error::unavailable)?;
        nfts.push((terms, price));
    }
    let mut offered = Vec::new();
    for kind in Pool::Lvlx.kinds() {
        let terms = chain::decode_terms(kind, next()?).map_err(Error::unavailable)?;
        if terms.lock_seconds > 0 {
            offered.push(terms);
        }
    }
    let mut reserve = || -> Result<Reserve, Error> {
        Ok(Reserve {
            free: chain::decode_uint(next()?).map_err(Error::unavailable)?,
            reserved: chain::decode_uint(next()?).map_err(Error::unavailable)?,
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
    let mut calls: Vec<Call> = Pool::Nft
        .kinds()
        .map(|id| {
            let args = vec![wallet.to_string(), id.to_string()];
            (
                chain.level_nft.as_str(),
                Contract::LevelNft,
                "balanceOf",
                args,
            )
        })
        .collect();
    calls.push((
        &chain.lvlx,
        Contract::Lvlx,
        "balanceOf",
        vec![wallet.to_string()],
    ));
    let mut values = calls_at(rpc, block, &calls)?
        .iter()
        .map(|v| chain::decode_uint(v).map_err(Error::unavailable))
        .collect::<Result<Vec<Units>, Error>>()?;
    let lvlx_balance = values
        .pop()
        .ok_or_else(|| Error::unavailable("short batch answer"))?;
    Ok(Holdings {
        held: values,
        lvlx_balance,
    })
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
        return Ok(ReserveMonitor::unavailable());
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
    Ok(ReserveMonitor::of(
        (on_chain.nft_reserve, nft),
        (on_chain.lvlx_reserve, lvlx),
        weeks,
    ))
}
