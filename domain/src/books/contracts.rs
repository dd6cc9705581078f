//! The contracts' own figures at the verified block against the store's rows: each staking
//! contract's positions opened, rewards still reserved and principal held (the LVLX pool's
//! `totalStaked`, the NFTs of each id the NFT pool holds), and what the distributor says it
//! paid each wallet that the store has payments for. The replay proves the rows against the
//! events; this proves them against the state the events left.

use std::collections::BTreeMap;

use lvlx_core::amount::Units;
use lvlx_core::chain::{self, Contract};
use lvlx_core::staking::{Pool, PoolSums};

use crate::chain::reads::{self, Call};
use crate::chain::rpc::Rpc;
use crate::config;

/// One figure as the chain and the store have it.
pub struct Figure {
    pub name: String,
    pub chain: Units,
    pub store: Units,
}

/// What the store holds that the contracts count.
pub struct Stored {
    pub nft: PoolSums,
    pub lvlx: PoolSums,
    /// Lowercase wallet → paid in all.
    pub paid: BTreeMap<String, Units>,
}

/// Reads the contracts at `block` (blocking, on the first of `nodes` that answers, with the
/// indexer's retries) and pairs each figure with the store's.
pub fn figures(
    nodes: &[Rpc],
    c: &config::Chain,
    block: u64,
    stored: &Stored,
) -> Result<Vec<Figure>, String> {
    let mut calls: Vec<Call> = Vec::new();
    let mut expected: Vec<(String, Units)> = Vec::new();
    let staking = [
        (
            Pool::Nft,
            c.nft_staking.as_str(),
            Contract::NftStaking,
            &stored.nft,
        ),
        (
            Pool::Lvlx,
            c.lvlx_staking.as_str(),
            Contract::LvlxStaking,
            &stored.lvlx,
        ),
    ];
    for (pool, address, contract, sums) in staking {
        if address.is_empty() {
            continue;
        }
        let name = pool.name();
        calls.push((address, contract, "positionCount", vec![]));
        expected.push((format!("{name} staking positions"), sums.positions.into()));
        calls.push((address, contract, "reserved", vec![]));
        expected.push((format!("{name} staking reserved"), sums.reserved));
        let open = |kind: u32| sums.open_by_kind.get(&kind).copied().unwrap_or(0);
        match pool {
            Pool::Lvlx => {
                calls.push((address, contract, "totalStaked", vec![]));
                expected.push((
                    "lvlx staking principal".into(),
                    sums.open_by_kind.values().sum(),
                ));
            }
            Pool::Nft if !c.level_nft.is_empty() => {
                for id in pool.kinds() {
                    calls.push((
                        c.level_nft.as_str(),
                        Contract::LevelNft,
                        "balanceOf",
                        vec![address.to_string(), id.to_string()],
                    ));
                    expected.push((format!("nft staking holds id {id}"), open(id)));
                }
            }
            Pool::Nft => {}
        }
    }
    if !c.claim_distributor.is_empty() {
        for (wallet, paid) in &stored.paid {
            calls.push((
                c.claim_distributor.as_str(),
                Contract::ClaimDistributor,
                "claimed",
                vec![wallet.clone()],
            ));
            expected.push((format!("distributor paid {wallet}"), *paid));
        }
    }
    let mut out = Vec::new();
    // A batch per 200 calls: providers cap batch sizes.
    for (calls, expected) in calls.chunks(200).zip(expected.chunks(200)) {
        let answers = reads::calls_at_any(nodes, block, calls)?;
        for (answer, (name, store)) in answers.iter().zip(expected) {
            out.push(Figure {
                name: name.clone(),
                chain: chain::decode_uint(answer).map_err(|e| format!("{name}: {e}"))?,
                store: *store,
            });
        }
    }
    Ok(out)
}
