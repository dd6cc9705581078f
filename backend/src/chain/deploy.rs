//! `lvlx chain deploy`: the platform's contracts on a development chain (anvil), from the
//! artifacts solc-js built (contracts/artifacts), with anvil's unlocked dev accounts sending the
//! transactions. Production contracts are deployed by their owners with their own keys; the
//! server only needs their addresses in `[chain]`.

use std::path::Path;
use std::time::{Duration, Instant};

use lvlx_core::chain::{self, Contract, DEFAULT_PRICE};
use serde_json::{json, Value};

use super::rpc::{quantity, Rpc, RpcError};
use crate::config;

const USDT_BIN: &str = include_str!("../../../contracts/artifacts/MockUSDT.bin");
const LVLX_BIN: &str = include_str!("../../../contracts/artifacts/LVLX.bin");
const SALE_BIN: &str = include_str!("../../../contracts/artifacts/IcoSale.bin");

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
    #[error("transaction {0} failed")]
    Failed(String),
    #[error("no receipt for {0} in time")]
    Timeout(String),
    #[error(transparent)]
    Encode(#[from] chain::ChainError),
    #[error("cannot write {0}: {1}")]
    Config(String, String),
}

/// Where the contracts landed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deployment {
    pub usdt: String,
    pub lvlx: String,
    pub ico_sale: String,
    /// The sale's deployment block: where indexing starts.
    pub start_block: u64,
    /// The account that owns the sale and holds the unsold supply.
    pub owner: String,
    /// Where the USDT paid goes.
    pub treasury: String,
}

/// Whether the configured sale has code on the chain at `rpc` (so a persisted dev chain is
/// reused instead of deployed again).
pub fn is_deployed(rpc: &Rpc, chain: &config::Chain) -> Result<bool, RpcError> {
    let code = rpc.call("eth_getCode", json!([chain.ico_sale, "latest"]))?;
    Ok(code.as_str().is_some_and(|c| c.len() > 2))
}

/// Sends a transaction from an unlocked account and waits for its receipt.
pub fn send(rpc: &Rpc, from: &str, to: Option<&str>, data: &str) -> Result<Value, DeployError> {
    let mut tx = json!({"from": from, "data": data});
    if let Some(to) = to {
        tx["to"] = json!(to);
    }
    let hash = rpc.call("eth_sendTransaction", json!([tx]))?;
    let hash = hash.as_str().unwrap_or_default().to_string();
    let started = Instant::now();
    loop {
        let receipt = rpc.call("eth_getTransactionReceipt", json!([hash]))?;
        if !receipt.is_null() {
            if receipt["status"] != "0x1" {
                return Err(DeployError::Failed(hash));
            }
            return Ok(receipt);
        }
        if started.elapsed() > Duration::from_secs(60) {
            return Err(DeployError::Timeout(hash));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Calls `function(args…)` on `contract` at `to` from `from`, waiting for the receipt.
pub fn transact(
    rpc: &Rpc,
    from: &str,
    to: &str,
    contract: Contract,
    function: &str,
    args: &[&str],
) -> Result<Value, DeployError> {
    send(
        rpc,
        from,
        Some(to),
        &chain::calldata(contract, function, args)?,
    )
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
/// and gives every dev account but the treasury 10^6 USDT.
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
    let checksum = |a: &str| lvlx_core::siwe::checksummed(a).unwrap_or_else(|| a.to_string());
    Ok(Deployment {
        usdt,
        lvlx,
        ico_sale,
        start_block,
        owner: checksum(&owner),
        treasury: checksum(&treasury),
    })
}

/// The `[chain]` section for a development deployment reached at `rpc_url`.
pub fn dev_section(rpc_url: &str, d: &Deployment) -> config::Chain {
    config::Chain {
        rpc_url: config::Secret::new(rpc_url),
        public_rpc_url: rpc_url.to_string(),
        explorer_url: "https://polygonscan.com".into(),
        usdt: d.usdt.clone(),
        lvlx: d.lvlx.clone(),
        ico_sale: d.ico_sale.clone(),
        start_block: d.start_block,
        confirmations: 0,
        max_block_range: 1000,
        poll_ms: 1000,
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
            owner: String::new(),
            treasury: String::new(),
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
        let config = config::Config::load(Some(file)).unwrap();
        let chain = config.chain.as_ref().unwrap();
        assert_eq!(chain.rpc_url.expose(), url);
        assert_eq!(chain.start_block, 3);
        assert_eq!(config.product, "ABC");
        let printed = serde_json::to_string(&config).unwrap() + &format!("{config:?}");
        assert!(!printed.contains("provider-api-key"), "{printed}");
    }
}
