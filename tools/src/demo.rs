//! `lvlx chain demo`: the run command's staking demo made through the contracts on the
//! development chain, so a fresh demo shows real indexed positions. Six of anvil's dev accounts
//! buy NFTs on the NFT sale and LVLX on the ICO sale and stake some of each; the indexer records
//! what they did like any member's transactions. Done once: a chain with positions is left alone.

use lvlx_core::chain::Contract;
use lvlx_core::staking::DEFAULT_NFT_TERMS;

use super::deploy::DeployError;
use lvlx_config as config;
use lvlx_rpc::owner::transact;
use lvlx_rpc::rpc::{Rpc, RpcError};

/// The demo's admin and member (email, password), which `lvlx demo` creates; the seeded
/// history's referral trees hang under the member.
pub const DEMO_ADMIN: (&str, &str) = ("admin@lvlx.local", "Admin#2026");
pub const DEMO_USER: (&str, &str) = ("demo@lvlx.local", "Demo#2026x");
/// The demo's admin secret and the operational key it unlocks (anvil's first development
/// account: public, holds nothing outside a local chain).
pub const DEMO_SECRET: (&str, &str) = (
    "demo-admin-secret",
    "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
);

/// How many dev accounts take part (accounts 2–7; 0 owns the contracts, 1 is the demo user's).
pub const WALLETS: usize = 6;
/// The demo's members stake without a page's quote: any reward above zero, any release.
const ANY_RELEASE: &str = "18446744073709551615";

/// Makes the demo's purchases and stakes; returns the wallets that took part (EIP-55), or an
/// empty list when the chain already has positions.
pub fn stake(rpc: &Rpc, chain: &config::Chain) -> Result<Vec<String>, DeployError> {
    let count = rpc.call(
        "eth_call",
        serde_json::json!([{
            "to": chain.nft_staking,
            "data": lvlx_core::chain::calldata(Contract::NftStaking, "positionCount", &[])?,
        }, "latest"]),
    )?;
    let count = lvlx_core::chain::decode_uint(count.as_str().unwrap_or("0x"))?;
    if count > 0 {
        return Ok(Vec::new());
    }
    let accounts: Vec<String> =
        serde_json::from_value(rpc.call("eth_accounts", serde_json::json!([]))?)
            .map_err(|e| RpcError::Answer(e.to_string()))?;
    let wallets: Vec<String> = accounts.iter().skip(2).take(WALLETS).cloned().collect();
    for (i, w) in wallets.iter().enumerate() {
        stake_nfts(rpc, chain, i, w)?;
        stake_lvlx(rpc, chain, i, w)?;
    }
    Ok(wallets
        .iter()
        .map(|w| lvlx_core::siwe::checksummed(w).unwrap_or_else(|| w.clone()))
        .collect())
}

/// Demo wallet `i` (`w`) buys one to three NFTs of id 1–6 and stakes all but one of them.
fn stake_nfts(rpc: &Rpc, chain: &config::Chain, i: usize, w: &str) -> Result<(), DeployError> {
    // NFTs: ids 1–6, one to three of them, all but one staked.
    let id = i as u32 % 6 + 1;
    let quantity = (i % 3 + 1) as u128;
    let cost = DEFAULT_NFT_TERMS[id as usize - 1].usdt_value * quantity;
    let (id, quantity, cost) = (id.to_string(), quantity.to_string(), cost.to_string());
    transact(
        rpc,
        w,
        &chain.usdt,
        Contract::Lvlx,
        "approve",
        &[&chain.nft_sale, &cost],
    )?;
    transact(
        rpc,
        w,
        &chain.nft_sale,
        Contract::NftSale,
        "buy",
        &[&id, &quantity, &cost],
    )?;
    transact(
        rpc,
        w,
        &chain.level_nft,
        Contract::LevelNft,
        "setApprovalForAll",
        &[&chain.nft_staking, "true"],
    )?;
    if i.is_multiple_of(2) || quantity != "1" {
        let staked = if quantity == "1" {
            "1".to_string()
        } else {
            (quantity.parse::<u128>().unwrap_or(1) - 1).to_string()
        };
        transact(
            rpc,
            w,
            &chain.nft_staking,
            Contract::NftStaking,
            "stake",
            &[&id, &staked, "0", ANY_RELEASE],
        )?;
    }
    Ok(())
}

/// Demo wallet `i` (`w`) buys LVLX with 100–600 USDT and stakes half of it in tier 1–4.
fn stake_lvlx(rpc: &Rpc, chain: &config::Chain, i: usize, w: &str) -> Result<(), DeployError> {
    // LVLX: buy with 100–600 USDT at the sale's price, stake half in tier 1–4.
    let usdt = ((i as u128 + 1) * 100_000_000).to_string();
    transact(
        rpc,
        w,
        &chain.usdt,
        Contract::Lvlx,
        "approve",
        &[&chain.ico_sale, &usdt],
    )?;
    let zero = "0x0000000000000000000000000000000000000000";
    transact(
        rpc,
        w,
        &chain.ico_sale,
        Contract::IcoSale,
        "buy",
        &[&usdt, "0", zero],
    )?;
    let lvlx = (i as u128 + 1) * 500 * 10u128.pow(18);
    let tier = (i % 4 + 1).to_string();
    let amount = lvlx.to_string();
    transact(
        rpc,
        w,
        &chain.lvlx,
        Contract::Lvlx,
        "approve",
        &[&chain.lvlx_staking, &amount],
    )?;
    transact(
        rpc,
        w,
        &chain.lvlx_staking,
        Contract::LvlxStaking,
        "stake",
        &[&tier, &amount, "0", ANY_RELEASE],
    )?;
    Ok(())
}
