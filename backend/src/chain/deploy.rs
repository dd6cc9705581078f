//! `lvlx chain deploy`: the platform's contracts on a development chain (anvil), from the
//! artifacts solc-js built (contracts/artifacts), with anvil's unlocked dev accounts sending the
//! transactions. Production contracts are deployed by their owners with their own keys; the
//! server only needs their addresses in `[chain]`.

use lvlx_core::chain::{self, Contract, DEFAULT_PRICE};
use serde_json::json;
use std::path::Path;

use super::owner::{send, transact, SendError};
use super::rpc::{quantity, Rpc, RpcError};
use crate::config;

const USDT_BIN: &str = include_str!("../../../contracts/artifacts/MockUSDT.bin");
const LVLX_BIN: &str = include_str!("../../../contracts/artifacts/LVLX.bin");
const SALE_BIN: &str = include_str!("../../../contracts/artifacts/IcoSale.bin");
const NFT_BIN: &str = include_str!("../../../contracts/artifacts/LevelNFT.bin");
const NFT_SALE_BIN: &str = include_str!("../../../contracts/artifacts/NftSale.bin");
const NFT_STAKING_BIN: &str = include_str!("../../../contracts/artifacts/NftStaking.bin");
const LVLX_STAKING_BIN: &str = include_str!("../../../contracts/artifacts/LvlxStaking.bin");
const NODE_BIN: &str = include_str!("../../../contracts/artifacts/ActivationNode.bin");
const CLAIMS_BIN: &str = include_str!("../../../contracts/artifacts/ClaimDistributor.bin");
/// LVLX the claim distributor holds on the development chain, and its caps (one claim, one day).
pub const DEV_CLAIMS: u128 = 10_000_000 * 10u128.pow(18);
pub const DEV_CLAIM_CAP: u128 = 1_000_000 * 10u128.pow(18);
pub const DEV_DAILY_CAP: u128 = 5_000_000 * 10u128.pow(18);
/// Seconds the claim distributor makes a new signer, higher caps or an unpause wait.
pub const OWNER_DELAY: u64 = 48 * 3600;
const ZERO_ADDRESS: &str = "0x0000000000000000000000000000000000000000";
/// LVLX each staking contract's reward reserve is funded with on the development chain.
pub const DEV_RESERVE: u128 = 50_000_000 * 10u128.pow(18);
/// The NFTs' metadata URI template (ERC1155 `{id}` substitution).
const NFT_URI: &str = "https://lvlx.example/nft/{id}.json";

/// LVLX minted at deployment (10^9 LVLX) and the part the sale holds (half).
const SUPPLY: u128 = 1_000_000_000 * 10u128.pow(18);
const SALE_STOCK: u128 = SUPPLY / 2;
/// Development USDT each dev account receives (10^6 USDT).
const FAUCET: u128 = 1_000_000 * 10u128.pow(6);

#[derive(Debug, thiserror::Error)]
pub enum DeployError {
    #[error(transparent)]
    Rpc(#[from] RpcError),
    #[error("the chain's id is {0}, not 137: start anvil with --chain-id 137")]
    ChainId(u64),
    #[error("the node has no unlocked accounts (is it anvil?)")]
    NoAccounts,
    #[error(transparent)]
    Send(#[from] SendError),
    #[error(transparent)]
    Encode(#[from] chain::ChainError),
    #[error("cannot write {0}: {1}")]
    Config(String, String),
}

/// Where the contracts landed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Deployment {
    pub usdt: String,
    pub lvlx: String,
    pub ico_sale: String,
    pub level_nft: String,
    pub nft_sale: String,
    pub nft_staking: String,
    pub lvlx_staking: String,
    pub activation_node: String,
    pub claim_distributor: String,
    /// The sale's deployment block: where indexing starts.
    pub start_block: u64,
    /// The account that owns the sale and holds the unsold supply.
    pub owner: String,
    /// Where the USDT paid goes.
    pub treasury: String,
}

/// Whether the configured contracts have code on the chain at `rpc` (so a persisted dev chain
/// is reused instead of deployed again; one from before staking or the network existed is
/// deployed afresh).
pub fn is_deployed(rpc: &Rpc, chain: &config::Chain) -> Result<bool, RpcError> {
    for address in [
        &chain.ico_sale,
        &chain.nft_staking,
        &chain.lvlx_staking,
        &chain.activation_node,
        &chain.claim_distributor,
    ] {
        if address.is_empty() {
            return Ok(false);
        }
        let code = rpc.call("eth_getCode", json!([address, "latest"]))?;
        if code.as_str().is_none_or(|c| c.len() <= 2) {
            return Ok(false);
        }
    }
    Ok(true)
}

fn create(
    rpc: &Rpc,
    from: &str,
    contract: Contract,
    bin: &str,
    args: &[&str],
) -> Result<(String, u64), DeployError> {
    let receipt = send(rpc, from, None, &chain::creation(contract, bin, args)?)?;
    let address = receipt["contractAddress"]
        .as_str()
        .ok_or_else(|| RpcError::Answer("receipt without contractAddress".into()))?;
    let address = lvlx_core::siwe::checksummed(address)
        .ok_or_else(|| RpcError::Answer("bad contractAddress".into()))?;
    Ok((address, quantity(&receipt["blockNumber"])?))
}

/// Deploys mock USDT, LVLX and the sale (price 0.1 USDT), stocks the sale with half the supply
/// and gives every dev account but the treasury 10^6 USDT; then the NFTs, their sale and both
/// staking contracts with the core's default terms (NFT sale price = the NFT's value), each
/// reward reserve funded with [`DEV_RESERVE`].
pub fn deploy_dev(rpc: &Rpc) -> Result<Deployment, DeployError> {
    let chain_id = quantity(&rpc.call("eth_chainId", json!([]))?)?;
    if chain_id != lvlx_core::siwe::CHAIN_ID {
        return Err(DeployError::ChainId(chain_id));
    }
    let accounts: Vec<String> = serde_json::from_value(rpc.call("eth_accounts", json!([]))?)
        .map_err(|e| RpcError::Answer(e.to_string()))?;
    let (owner, treasury) = match accounts.as_slice() {
        [owner, .., treasury] => (owner.clone(), treasury.clone()),
        _ => return Err(DeployError::NoAccounts),
    };
    let (usdt, _) = create(rpc, &owner, Contract::MockUsdt, USDT_BIN, &[])?;
    let supply = SUPPLY.to_string();
    let (lvlx, _) = create(rpc, &owner, Contract::Lvlx, LVLX_BIN, &[&owner, &supply])?;
    let price = DEFAULT_PRICE.to_string();
    let (ico_sale, start_block) = create(
        rpc,
        &owner,
        Contract::IcoSale,
        SALE_BIN,
        &[&usdt, &lvlx, &treasury, &price, &owner],
    )?;
    transact(
        rpc,
        &owner,
        &lvlx,
        Contract::Lvlx,
        "transfer",
        &[&ico_sale, &SALE_STOCK.to_string()],
    )?;
    let faucet = FAUCET.to_string();
    for account in accounts.iter().filter(|a| **a != treasury) {
        transact(
            rpc,
            &owner,
            &usdt,
            Contract::MockUsdt,
            "mint",
            &[account, &faucet],
        )?;
    }
    let staking = deploy_staking(rpc, &owner, &usdt, &lvlx, &treasury)?;
    let (activation_node, claim_distributor) =
        deploy_network(rpc, &owner, &usdt, &lvlx, &treasury)?;
    let checksum = |a: &str| lvlx_core::siwe::checksummed(a).unwrap_or_else(|| a.to_string());
    Ok(Deployment {
        usdt,
        lvlx,
        ico_sale,
        level_nft: staking.0,
        nft_sale: staking.1,
        nft_staking: staking.2,
        lvlx_staking: staking.3,
        activation_node,
        claim_distributor,
        start_block,
        owner: checksum(&owner),
        treasury: checksum(&treasury),
    })
}

/// LevelNFT, NftSale, NftStaking and LvlxStaking with the default terms and funded reserves.
fn deploy_staking(
    rpc: &Rpc,
    owner: &str,
    usdt: &str,
    lvlx: &str,
    treasury: &str,
) -> Result<(String, String, String, String), DeployError> {
    use lvlx_core::staking::{DEFAULT_NFT_TERMS, DEFAULT_TIERS};
    let (nft, _) = create(rpc, owner, Contract::LevelNft, NFT_BIN, &[NFT_URI, owner])?;
    let (sale, _) = create(
        rpc,
        owner,
        Contract::NftSale,
        NFT_SALE_BIN,
        &[usdt, &nft, treasury, owner],
    )?;
    let (nft_staking, _) = create(
        rpc,
        owner,
        Contract::NftStaking,
        NFT_STAKING_BIN,
        &[lvlx, &nft, owner],
    )?;
    let (lvlx_staking, _) = create(
        rpc,
        owner,
        Contract::LvlxStaking,
        LVLX_STAKING_BIN,
        &[lvlx, owner],
    )?;
    transact(
        rpc,
        owner,
        &nft,
        Contract::LevelNft,
        "setMinter",
        &[&sale, "true"],
    )?;
    let set_terms = |to: &str, contract, t: &lvlx_core::staking::Terms| {
        transact(
            rpc,
            owner,
            to,
            contract,
            "setTerms",
            &[
                &t.kind.to_string(),
                &t.usdt_value.to_string(),
                &t.rate_bps.to_string(),
                &t.lock_seconds.to_string(),
            ],
        )
    };
    for t in &DEFAULT_NFT_TERMS {
        let (id, price) = (t.kind.to_string(), t.usdt_value.to_string());
        transact(
            rpc,
            owner,
            &sale,
            Contract::NftSale,
            "setPrice",
            &[&id, &price],
        )?;
        set_terms(&nft_staking, Contract::NftStaking, t)?;
    }
    for t in &DEFAULT_TIERS {
        set_terms(&lvlx_staking, Contract::LvlxStaking, t)?;
    }
    let reserve = DEV_RESERVE.to_string();
    for (pool, contract) in [
        (&nft_staking, Contract::NftStaking),
        (&lvlx_staking, Contract::LvlxStaking),
    ] {
        transact(
            rpc,
            owner,
            lvlx,
            Contract::Lvlx,
            "approve",
            &[pool, &reserve],
        )?;
        transact(rpc, owner, pool, contract, "fund", &[&reserve])?;
    }
    Ok((nft, sale, nft_staking, lvlx_staking))
}

/// The activation node (price [`DEFAULT_NODE_PRICE`], on sale) and the claim distributor
/// (no signer until [`register_claim_signer`], which then acts at once; owner changes that raise
/// what can leave wait [`OWNER_DELAY`]; funded with [`DEV_CLAIMS`]).
///
/// [`DEFAULT_NODE_PRICE`]: lvlx_core::network::DEFAULT_NODE_PRICE
fn deploy_network(
    rpc: &Rpc,
    owner: &str,
    usdt: &str,
    lvlx: &str,
    treasury: &str,
) -> Result<(String, String), DeployError> {
    let price = lvlx_core::network::DEFAULT_NODE_PRICE.to_string();
    let (node, _) = create(
        rpc,
        owner,
        Contract::ActivationNode,
        NODE_BIN,
        &[usdt, treasury, &price, owner],
    )?;
    let (claims, _) = create(
        rpc,
        owner,
        Contract::ClaimDistributor,
        CLAIMS_BIN,
        &[
            lvlx,
            ZERO_ADDRESS,
            &DEV_CLAIM_CAP.to_string(),
            &DEV_DAILY_CAP.to_string(),
            &OWNER_DELAY.to_string(),
            owner,
        ],
    )?;
    transact(
        rpc,
        owner,
        lvlx,
        Contract::Lvlx,
        "transfer",
        &[&claims, &DEV_CLAIMS.to_string()],
    )?;
    Ok((node, claims))
}

/// Makes `signer` the address whose vouchers the claim distributor pays (the owner's step): at
/// once for the first signer, after [`OWNER_DELAY`] and `applySigner` for a rotation.
pub fn register_claim_signer(
    rpc: &Rpc,
    owner: &str,
    distributor: &str,
    signer: &str,
) -> Result<(), DeployError> {
    transact(
        rpc,
        owner,
        distributor,
        Contract::ClaimDistributor,
        "setSigner",
        &[signer],
    )?;
    Ok(())
}

/// The `[chain]` section for a development deployment reached at `rpc_url`.
pub fn dev_section(rpc_url: &str, d: &Deployment) -> config::Chain {
    config::Chain {
        rpc_url: config::Secret::new(rpc_url),
        fallback_rpc_urls: Vec::new(),
        public_rpc_url: rpc_url.to_string(),
        explorer_url: "https://polygonscan.com".into(),
        usdt: d.usdt.clone(),
        lvlx: d.lvlx.clone(),
        ico_sale: d.ico_sale.clone(),
        level_nft: d.level_nft.clone(),
        nft_sale: d.nft_sale.clone(),
        nft_staking: d.nft_staking.clone(),
        lvlx_staking: d.lvlx_staking.clone(),
        activation_node: d.activation_node.clone(),
        claim_distributor: d.claim_distributor.clone(),
        owner: d.owner.clone(),
        reserve_warning_weeks: 8,
        start_block: d.start_block,
        // Every event final at once: tests and tools mine as they go. The run command asks for
        // two confirmations (`chain deploy --confirmations`) on a chain mining every 2 s.
        finalized_tag: false,
        confirmations: 0,
        max_block_range: 1000,
        poll_ms: 1000,
        lease_secs: 15,
        token_image: String::new(),
    }
}

/// Writes `section` as the `[chain]` table of the configuration file at `path` (created if
/// missing), leaving every other key and comment as it was.
pub fn write_section(path: &Path, section: &config::Chain) -> Result<(), DeployError> {
    let fail = |e: String| DeployError::Config(path.display().to_string(), e);
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(fail(e.to_string())),
    };
    let mut doc: toml_edit::DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| fail(e.to_string()))?;
    let table: toml_edit::DocumentMut = toml::to_string(&serde_json::json!({ "chain": section }))
        .map_err(|e| fail(e.to_string()))?
        .parse()
        .map_err(|e: toml_edit::TomlError| fail(e.to_string()))?;
    doc["chain"] = table["chain"].clone();
    // Serialising prints secrets as "***"; the file needs the value itself.
    doc["chain"]["rpc_url"] = toml_edit::value(section.rpc_url.expose());
    let fallbacks: toml_edit::Array = section
        .fallback_rpc_urls
        .iter()
        .map(|u| u.expose())
        .collect();
    doc["chain"]["fallback_rpc_urls"] = toml_edit::value(fallbacks);
    std::fs::write(path, doc.to_string()).map_err(|e| fail(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_section_is_written_with_the_real_url_the_rest_kept_and_the_url_never_printed() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("lvlx.toml");
        std::fs::write(&file, "# operator's note\nproduct = \"ABC\"\n").unwrap();
        let d = Deployment {
            usdt: "0x5FbDB2315678afecb367f032d93F642f64180aa3".into(),
            lvlx: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512".into(),
            ico_sale: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0".into(),
            start_block: 3,
            ..Deployment::default()
        };
        let url = "https://node.example/v2/provider-api-key";
        let section = config::Chain {
            public_rpc_url: "https://polygon-rpc.example".into(),
            ..dev_section(url, &d)
        };
        write_section(&file, &section).unwrap();
        // Written again (a second deployment) it replaces the section, not appends one.
        write_section(&file, &section).unwrap();
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            text.starts_with("# operator's note\nproduct = \"ABC\"\n"),
            "{text}"
        );
        assert_eq!(text.matches("[chain]").count(), 1);
        // Inside a figment Jail: it holds the lock the configuration tests take while they set
        // LVLX_ variables, which this load would otherwise read (a test-order flake).
        #[allow(clippy::result_large_err)] // figment::Jail's closure type, not ours
        figment::Jail::expect_with(|_jail| {
            let config = config::Config::load(Some(file.clone())).unwrap();
            let chain = config.chain.as_ref().unwrap();
            assert_eq!(chain.rpc_url.expose(), url);
            assert_eq!(chain.start_block, 3);
            assert_eq!(config.product, "ABC");
            let printed = serde_json::to_string(&config).unwrap() + &format!("{config:?}");
            assert!(!printed.contains("provider-api-key"), "{printed}");
            Ok(())
        });
    }
}
