//! `lvlx chain deploy`: the platform's contracts from the artifacts solc-js built
//! (contracts/artifacts), one [`Plan`] for every network: on the development chain (anvil)
//! anvil's unlocked dev accounts send the transactions; on a real network a key from a keystore
//! signs them (`lvlx_rpc::keyed`, `super::rollout`).

use lvlx_core::chain::{self, Contract, DEFAULT_PRICE};
use serde_json::json;
use std::path::Path;

use lvlx_config as config;
use lvlx_rpc::owner::{transact, SendError, Sender, Unlocked};
use lvlx_rpc::rpc::{quantity, Rpc, RpcError};

use crate::journal::{Journal, JournalError, Mined};

const USDT_BIN: &str = include_str!("../../contracts/artifacts/MockUSDT.bin");
const LVLX_BIN: &str = include_str!("../../contracts/artifacts/LVLX.bin");
const SALE_BIN: &str = include_str!("../../contracts/artifacts/IcoSale.bin");
const NFT_BIN: &str = include_str!("../../contracts/artifacts/LevelNFT.bin");
const NFT_SALE_BIN: &str = include_str!("../../contracts/artifacts/NftSale.bin");
const NFT_STAKING_BIN: &str = include_str!("../../contracts/artifacts/NftStaking.bin");
const LVLX_STAKING_BIN: &str = include_str!("../../contracts/artifacts/LvlxStaking.bin");
const NODE_BIN: &str = include_str!("../../contracts/artifacts/ActivationNode.bin");
const CLAIMS_BIN: &str = include_str!("../../contracts/artifacts/ClaimDistributor.bin");
const SAFE_BIN: &str = include_str!("../../contracts/artifacts/SafeL2.bin");
const SAFE_FACTORY_BIN: &str = include_str!("../../contracts/artifacts/SafeProxyFactory.bin");
const SAFE_HANDLER_BIN: &str =
    include_str!("../../contracts/artifacts/CompatibilityFallbackHandler.bin");
/// LVLX the claim distributor holds on the development chain, and its caps (one claim, one day).
pub const DEV_CLAIMS: u128 = 10_000_000 * 10u128.pow(18);
pub const DEV_CLAIM_CAP: u128 = 1_000_000 * 10u128.pow(18);
pub const DEV_DAILY_CAP: u128 = 5_000_000 * 10u128.pow(18);
/// What one account may claim in one day on the development chain.
pub const DEV_ACCOUNT_DAILY_CAP: u128 = 2_000_000 * 10u128.pow(18);
/// The caps' floors (fixed at deployment): claims count as open for a signer change only while
/// every cap is at least its floor, so over the delay members as a whole can claim at least
/// `DEV_DAILY_MIN` a day and each member `DEV_ACCOUNT_DAILY_MIN` a day before a new signer's
/// vouchers pay.
pub const DEV_CLAIM_MIN: u128 = 100_000 * 10u128.pow(18);
pub const DEV_DAILY_MIN: u128 = 500_000 * 10u128.pow(18);
pub const DEV_ACCOUNT_DAILY_MIN: u128 = 200_000 * 10u128.pow(18);
/// Seconds the claim distributor makes higher caps, an unpause or a handover wait, and a new
/// signer wait with claims open.
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
    #[error(transparent)]
    Journal(#[from] JournalError),
    #[error("refused: {0} would go from {1} to {2}, which is less safe; the configuration file is the operator's: lower it there by hand if that is what you mean")]
    LessSafe(String, String, String),
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
    /// The account that owns the sale (unless `safe` does) and holds the unsold supply.
    pub owner: String,
    /// The Safe the deployment created and handed every contract to, if it made one.
    pub safe: Option<String>,
    /// Where the USDT paid goes.
    pub treasury: String,
    /// Every transaction sent, in order.
    pub steps: Vec<Step>,
    /// Every contract created, in order.
    pub created: Vec<Created>,
}

/// Whether the configured contracts have code on the chain at `rpc` and a Safe owns them (so a
/// persisted dev chain is reused instead of deployed again; one from before staking, the
/// network or the Safe existed is deployed afresh).
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
        if !has_code(rpc, address)? {
            return Ok(false);
        }
    }
    // A development chain deployed before the contracts were a Safe's (its owner an account)
    // is deployed afresh, so the owner pages work on it.
    let owner = rpc.call(
        "eth_call",
        json!([{"to": chain.ico_sale, "data": chain::calldata(Contract::IcoSale, "owner", &[]).map_err(|e| RpcError::Answer(e.to_string()))?}, "latest"]),
    )?;
    let owner = chain::decode_address(owner.as_str().unwrap_or_default())
        .map_err(|e| RpcError::Answer(e.to_string()))?;
    has_code(rpc, &owner)
}

fn has_code(rpc: &Rpc, address: &str) -> Result<bool, RpcError> {
    let code = rpc.call("eth_getCode", json!([address, "latest"]))?;
    Ok(code.as_str().is_some_and(|c| c.len() > 2))
}

/// One transaction of a deployment: what it did, its hash and the gas it used.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Step {
    pub what: String,
    pub hash: String,
    pub gas_used: u64,
    /// Wei paid per unit of gas (the receipt's `effectiveGasPrice`).
    pub gas_price: u128,
    /// The contract it created.
    pub address: Option<String>,
    /// Taken from the deployment journal (sent by an earlier run), not sent now.
    pub resumed: bool,
}

/// A contract a deployment created, with what an explorer's verification needs beside the
/// compiler input: its address and its ABI-encoded constructor arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Created {
    pub contract: Contract,
    pub address: String,
    /// Hex, without 0x (as explorers take them).
    pub constructor_args: String,
}

/// What a deployment sets up besides the contracts.
#[derive(Debug, Clone)]
pub struct Plan {
    /// An existing USDT (real networks); `None` deploys the development USDT and gives each of
    /// `faucet` [`FAUCET`].
    pub usdt: Option<String>,
    pub faucet: Vec<String>,
    /// Where the USDT paid goes.
    pub treasury: String,
    /// Who owns the contracts in the end. When it is not the deployer, each contract is handed
    /// over in two steps (the owner accepts with `acceptOwnership`) and the deployer's remaining
    /// LVLX goes to it.
    pub owner: String,
    /// The address whose claim vouchers the distributor pays (the server's claim key).
    pub claim_signer: Option<String>,
    /// LVLX the sale, each staking contract's reward reserve and the claim distributor receive.
    pub sale_stock: u128,
    pub staking_reserve: u128,
    pub claims_fund: u128,
    pub claim_cap: u128,
    pub daily_cap: u128,
    pub account_daily_cap: u128,
    /// The caps' floors: per claim, per day, per account per day (fixed at deployment).
    pub claim_floors: [u128; 3],
    /// Seconds the distributor makes owner changes wait (a new signer: with claims open).
    pub owner_delay: u64,
    /// A Safe to create and hand every contract to (the development chain's demo Safe: Safe's
    /// own contracts deployed first); `None` on a real network, whose Safe exists (`owner`).
    pub safe: Option<SafePlan>,
}

/// A Safe a deployment creates: its owners and how many of them must sign. The deployer
/// accepts the contracts' ownership for the Safe alone, so it is one of the owners and the
/// threshold is 1 (the Safe may raise it afterwards with `changeThreshold`).
#[derive(Debug, Clone)]
pub struct SafePlan {
    pub owners: Vec<String>,
    pub threshold: u64,
}

impl Plan {
    /// The default amounts (half the supply on sale, [`DEV_RESERVE`] per staking reserve,
    /// [`DEV_CLAIMS`] and its caps, [`OWNER_DELAY`]) with a development USDT and no signer.
    pub fn new(owner: &str, treasury: &str) -> Plan {
        Plan {
            usdt: None,
            faucet: Vec::new(),
            treasury: treasury.to_string(),
            owner: owner.to_string(),
            claim_signer: None,
            sale_stock: SALE_STOCK,
            staking_reserve: DEV_RESERVE,
            claims_fund: DEV_CLAIMS,
            claim_cap: DEV_CLAIM_CAP,
            daily_cap: DEV_DAILY_CAP,
            account_daily_cap: DEV_ACCOUNT_DAILY_CAP,
            claim_floors: [DEV_CLAIM_MIN, DEV_DAILY_MIN, DEV_ACCOUNT_DAILY_MIN],
            owner_delay: OWNER_DELAY,
            safe: None,
        }
    }

    /// The development chain's plan: mock USDT for every dev account but the last (the
    /// treasury), the first one owning everything.
    pub fn dev(accounts: &[String]) -> Result<Plan, DeployError> {
        let [owner, .., treasury] = accounts else {
            return Err(DeployError::NoAccounts);
        };
        Ok(Plan {
            faucet: accounts
                .iter()
                .filter(|a| *a != treasury)
                .cloned()
                .collect(),
            ..Plan::new(owner, treasury)
        })
    }
}

/// A deployment in progress: sends through `sender` and keeps a record of every step; with a
/// journal, takes the steps it holds from the chain (checked) instead of sending them again,
/// and notes every new one as it leaves and as it is mined.
struct Run<'a> {
    rpc: &'a Rpc,
    sender: &'a dyn Sender,
    progress: &'a dyn Fn(&Step),
    journal: Option<&'a mut Journal>,
    steps: Vec<Step>,
    created: Vec<Created>,
}

impl Run<'_> {
    fn record(
        &mut self,
        what: String,
        receipt: &serde_json::Value,
        address: Option<String>,
        resumed: bool,
    ) -> Result<(), DeployError> {
        let gas_price = receipt["effectiveGasPrice"]
            .as_str()
            .and_then(|p| u128::from_str_radix(p.trim_start_matches("0x"), 16).ok())
            .unwrap_or(0);
        let step = Step {
            what,
            hash: receipt["transactionHash"]
                .as_str()
                .unwrap_or_default()
                .into(),
            gas_used: quantity(&receipt["gasUsed"])?,
            gas_price,
            address,
            resumed,
        };
        if let (Some(journal), false) = (self.journal.as_deref_mut(), resumed) {
            let tx = self
                .rpc
                .call("eth_getTransactionByHash", json!([step.hash]))?;
            let mined = Mined {
                step: self.steps.len(),
                nonce: quantity(&tx["nonce"])?,
                what: step.what.clone(),
                hash: step.hash.clone(),
                address: step.address.clone(),
            };
            let extra = json!({
                "block": quantity(&receipt["blockNumber"])?,
                "gas_used": step.gas_used,
                "gas_price": step.gas_price.to_string(),
            });
            journal.note_mined(mined, extra)?;
        }
        (self.progress)(&step);
        self.steps.push(step);
        Ok(())
    }

    /// Sends `data` to `to` (`None`: a creation) as the next step, `what`; or, when the journal
    /// holds this step, checks that the chain mined what would be sent now and takes its
    /// receipt. Answers the receipt and whether it came from the journal.
    fn send(
        &mut self,
        to: Option<&str>,
        data: &str,
        what: &str,
    ) -> Result<(serde_json::Value, bool), DeployError> {
        let step = self.steps.len();
        let deployer = self.sender.address();
        if let Some(journal) = self.journal.as_deref_mut() {
            if let Some(done) = journal.mined.get(step).cloned() {
                let path = journal.path.display().to_string();
                if done.what != what {
                    return Err(JournalError::Step {
                        path,
                        step,
                        journal: done.what,
                        now: what.to_string(),
                    }
                    .into());
                }
                let receipt =
                    check_mined(self.rpc, &deployer, to, data, &done).map_err(|problem| {
                        JournalError::Chain {
                            path,
                            what: done.what.clone(),
                            hash: done.hash.clone(),
                            problem,
                        }
                    })?;
                return Ok((receipt, true));
            }
            let journal = &mut *journal;
            let receipt = self
                .sender
                .send_noted(self.rpc, to, data, &mut |nonce, hash| {
                    journal
                        .note_sent(step, nonce, what, hash)
                        .map_err(|e| SendError::Note(e.to_string()))
                })?;
            return Ok((receipt, false));
        }
        Ok((self.sender.send(self.rpc, to, data)?, false))
    }

    /// Creates `contract`; its address and block.
    fn create(
        &mut self,
        contract: Contract,
        bin: &str,
        args: &[&str],
    ) -> Result<(String, u64), DeployError> {
        let code = chain::creation(contract, bin, args)?;
        let what = format!("create {}({})", contract.name(), args.join(", "));
        let (receipt, resumed) = self.send(None, &code, &what)?;
        let address = receipt["contractAddress"]
            .as_str()
            .ok_or_else(|| RpcError::Answer("receipt without contractAddress".into()))?;
        let address = lvlx_core::siwe::checksummed(address)
            .ok_or_else(|| RpcError::Answer("bad contractAddress".into()))?;
        self.record(what, &receipt, Some(address.clone()), resumed)?;
        self.created.push(Created {
            contract,
            address: address.clone(),
            constructor_args: code[2 + bin.trim().len()..].to_string(),
        });
        Ok((address, quantity(&receipt["blockNumber"])?))
    }

    /// Calls `function(args…)` on `contract` at `to`.
    fn call(
        &mut self,
        to: &str,
        contract: Contract,
        function: &str,
        args: &[&str],
    ) -> Result<(), DeployError> {
        let data = chain::calldata(contract, function, args)?;
        let what = format!("{}.{function}({})", contract.name(), args.join(", "));
        let (receipt, resumed) = self.send(Some(to), &data, &what)?;
        self.record(what, &receipt, None, resumed)
    }
}

/// The receipt of the journal's `done` when the chain mined it as this deployment would send
/// it now: from `deployer`, to `to`, with `data`, successful, and (a creation) with code at the
/// address the journal names. Otherwise what differs.
fn check_mined(
    rpc: &Rpc,
    deployer: &str,
    to: Option<&str>,
    data: &str,
    done: &Mined,
) -> Result<serde_json::Value, String> {
    let same = |a: &serde_json::Value, b: Option<&str>| {
        a.as_str().map(str::to_ascii_lowercase) == b.map(str::to_ascii_lowercase)
    };
    let tx = rpc
        .call("eth_getTransactionByHash", json!([done.hash]))
        .map_err(|e| format!("cannot be asked: {e}"))?;
    if tx.is_null() {
        return Err("does not know that transaction".into());
    }
    if !same(&tx["from"], Some(deployer)) || !same(&tx["to"], to) || !same(&tx["input"], Some(data))
    {
        return Err("holds another transaction under that hash".into());
    }
    let receipt = rpc
        .call("eth_getTransactionReceipt", json!([done.hash]))
        .map_err(|e| format!("cannot be asked: {e}"))?;
    if receipt["status"] != "0x1" {
        return Err("has no successful receipt for it".into());
    }
    if to.is_none() {
        if !same(&receipt["contractAddress"], done.address.as_deref()) {
            return Err(format!(
                "created {} there, not {}",
                receipt["contractAddress"],
                done.address.as_deref().unwrap_or("-")
            ));
        }
        let code = rpc
            .call("eth_getCode", json!([done.address, "latest"]))
            .map_err(|e| format!("cannot be asked: {e}"))?;
        if code.as_str().is_none_or(|c| c.len() <= 2) {
            return Err(format!(
                "has no code at {}",
                done.address.as_deref().unwrap_or("-")
            ));
        }
    }
    Ok(receipt)
}

/// Deploys to the development chain (anvil, chain id 137) from its unlocked accounts: see
/// [`Plan::dev`] and [`deploy`].
pub fn deploy_dev(rpc: &Rpc) -> Result<Deployment, DeployError> {
    let plan = dev_plan(rpc)?;
    deploy(rpc, &Unlocked(plan.owner.clone()), &plan, &|_| {})
}

/// [`deploy_dev`] with the claim distributor born with `signer` (its first signer cannot be
/// changed at once).
pub fn deploy_dev_signed(rpc: &Rpc, signer: &str) -> Result<Deployment, DeployError> {
    let plan = Plan {
        claim_signer: Some(signer.to_string()),
        ..dev_plan(rpc)?
    };
    deploy(rpc, &Unlocked(plan.owner.clone()), &plan, &|_| {})
}

/// [`Plan::dev`] for the development chain at `rpc` (anvil, chain id 137).
pub fn dev_plan(rpc: &Rpc) -> Result<Plan, DeployError> {
    let chain_id = quantity(&rpc.call("eth_chainId", json!([]))?)?;
    if chain_id != lvlx_core::siwe::CHAIN_ID {
        return Err(DeployError::ChainId(chain_id));
    }
    let accounts: Vec<String> = serde_json::from_value(rpc.call("eth_accounts", json!([]))?)
        .map_err(|e| RpcError::Answer(e.to_string()))?;
    Plan::dev(&accounts)
}

/// Deploys LVLX (its supply to the deployer) and the sale (price 0.1 USDT), stocks the sale;
/// USDT unless the plan names one; the NFTs, their sale and both staking contracts with the
/// core's default terms (NFT sale price = the NFT's value), each reward reserve funded; the
/// activation node and the claim distributor, funded, with the plan's signer; then hands every
/// contract and the remaining LVLX to the plan's owner when that is not the deployer.
/// `progress` sees each transaction as it is mined.
pub fn deploy(
    rpc: &Rpc,
    sender: &dyn Sender,
    plan: &Plan,
    progress: &dyn Fn(&Step),
) -> Result<Deployment, DeployError> {
    deploy_journaled(rpc, sender, plan, progress, None)
}

/// [`deploy`] with a journal: the steps it holds are checked on the chain and not sent again;
/// each new one is noted as it leaves and as it is mined (`super::journal`).
pub fn deploy_journaled(
    rpc: &Rpc,
    sender: &dyn Sender,
    plan: &Plan,
    progress: &dyn Fn(&Step),
    journal: Option<&mut Journal>,
) -> Result<Deployment, DeployError> {
    let deployer = sender.address();
    let mut run = Run {
        rpc,
        sender,
        progress,
        journal,
        steps: Vec::new(),
        created: Vec::new(),
    };
    let safe = plan
        .safe
        .as_ref()
        .map(|s| create_safe(&mut run, s))
        .transpose()?;
    let usdt = match &plan.usdt {
        Some(usdt) => usdt.clone(),
        None => {
            let (usdt, _) = run.create(Contract::MockUsdt, USDT_BIN, &[])?;
            let faucet = FAUCET.to_string();
            for account in &plan.faucet {
                run.call(&usdt, Contract::MockUsdt, "mint", &[account, &faucet])?;
            }
            usdt
        }
    };
    let supply = SUPPLY.to_string();
    let (lvlx, _) = run.create(Contract::Lvlx, LVLX_BIN, &[&deployer, &supply])?;
    let price = DEFAULT_PRICE.to_string();
    let treasury = plan.treasury.as_str();
    let (ico_sale, start_block) = run.create(
        Contract::IcoSale,
        SALE_BIN,
        &[&usdt, &lvlx, treasury, &price, &deployer],
    )?;
    let stock = plan.sale_stock.to_string();
    run.call(&lvlx, Contract::Lvlx, "transfer", &[&ico_sale, &stock])?;
    let staking = deploy_staking(&mut run, plan, &usdt, &lvlx)?;
    let (activation_node, claim_distributor) =
        deploy_network(&mut run, plan, safe.as_deref(), &usdt, &lvlx)?;
    if let Some(safe) = &safe {
        hand_to_safe(&mut run, safe, &claim_distributor)?;
    }
    if plan.owner != deployer {
        hand_to_owner(&mut run, plan, &lvlx)?;
    }
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
        owner: checksum(&plan.owner),
        safe,
        treasury: checksum(treasury),
        steps: run.steps,
        created: run.created,
    })
}

/// LevelNFT, NftSale, NftStaking and LvlxStaking with the default terms and funded reserves.
fn deploy_staking(
    run: &mut Run<'_>,
    plan: &Plan,
    usdt: &str,
    lvlx: &str,
) -> Result<(String, String, String, String), DeployError> {
    use lvlx_core::staking::{DEFAULT_NFT_TERMS, DEFAULT_TIERS};
    let deployer = run.sender.address();
    let deployer = deployer.as_str();
    let treasury = plan.treasury.as_str();
    let (nft, _) = run.create(Contract::LevelNft, NFT_BIN, &[NFT_URI, deployer])?;
    let (sale, _) = run.create(
        Contract::NftSale,
        NFT_SALE_BIN,
        &[usdt, &nft, treasury, deployer],
    )?;
    let (nft_staking, _) = run.create(
        Contract::NftStaking,
        NFT_STAKING_BIN,
        &[lvlx, &nft, deployer],
    )?;
    let (lvlx_staking, _) =
        run.create(Contract::LvlxStaking, LVLX_STAKING_BIN, &[lvlx, deployer])?;
    run.call(&nft, Contract::LevelNft, "setMinter", &[&sale, "true"])?;
    let terms = |t: &lvlx_core::staking::Terms| {
        [
            t.kind.to_string(),
            t.usdt_value.to_string(),
            t.rate_bps.to_string(),
            t.lock_seconds.to_string(),
        ]
    };
    for t in &DEFAULT_NFT_TERMS {
        let (id, price) = (t.kind.to_string(), t.usdt_value.to_string());
        run.call(&sale, Contract::NftSale, "setPrice", &[&id, &price])?;
        let terms = terms(t);
        let args: Vec<&str> = terms.iter().map(String::as_str).collect();
        run.call(&nft_staking, Contract::NftStaking, "setTerms", &args)?;
    }
    for t in &DEFAULT_TIERS {
        let terms = terms(t);
        let args: Vec<&str> = terms.iter().map(String::as_str).collect();
        run.call(&lvlx_staking, Contract::LvlxStaking, "setTerms", &args)?;
    }
    let reserve = plan.staking_reserve.to_string();
    for (pool, contract) in [
        (&nft_staking, Contract::NftStaking),
        (&lvlx_staking, Contract::LvlxStaking),
    ] {
        run.call(lvlx, Contract::Lvlx, "approve", &[pool, &reserve])?;
        run.call(pool, contract, "fund", &[&reserve])?;
    }
    Ok((nft, sale, nft_staking, lvlx_staking))
}

/// The activation node (price [`DEFAULT_NODE_PRICE`], on sale) and the claim distributor (born
/// with the plan's signer, or the deployer's own address on a development chain deployed
/// without one; the plan's caps and their floors; owner changes wait the plan's delay; funded
/// with the plan's LVLX, which `checkFunds` then sees). With a `safe`, the distributor is born
/// the Safe's: handing it over later would wait the delay.
///
/// [`DEFAULT_NODE_PRICE`]: lvlx_core::network::DEFAULT_NODE_PRICE
fn deploy_network(
    run: &mut Run<'_>,
    plan: &Plan,
    safe: Option<&str>,
    usdt: &str,
    lvlx: &str,
) -> Result<(String, String), DeployError> {
    let deployer = run.sender.address();
    let price = lvlx_core::network::DEFAULT_NODE_PRICE.to_string();
    let (node, _) = run.create(
        Contract::ActivationNode,
        NODE_BIN,
        &[usdt, &plan.treasury, &price, &deployer],
    )?;
    let born_signer = plan.claim_signer.as_deref().unwrap_or(&deployer);
    let (claims, _) = run.create(
        Contract::ClaimDistributor,
        CLAIMS_BIN,
        &[
            lvlx,
            born_signer,
            &plan.claim_cap.to_string(),
            &plan.daily_cap.to_string(),
            &plan.account_daily_cap.to_string(),
            &plan.claim_floors[0].to_string(),
            &plan.claim_floors[1].to_string(),
            &plan.claim_floors[2].to_string(),
            &plan.owner_delay.to_string(),
            safe.unwrap_or(&deployer),
        ],
    )?;
    let fund = plan.claims_fund.to_string();
    run.call(lvlx, Contract::Lvlx, "transfer", &[&claims, &fund])?;
    run.call(&claims, Contract::ClaimDistributor, "checkFunds", &[])?;
    Ok((node, claims))
}

/// Offers every contract to the plan's owner (who accepts with `acceptOwnership`) and sends it
/// the LVLX the deployer has left.
fn hand_to_owner(run: &mut Run<'_>, plan: &Plan, lvlx: &str) -> Result<(), DeployError> {
    let rest = SUPPLY - plan.sale_stock - 2 * plan.staking_reserve - plan.claims_fund;
    run.call(
        lvlx,
        Contract::Lvlx,
        "transfer",
        &[&plan.owner, &rest.to_string()],
    )?;
    for created in run.created.clone() {
        if created.contract.abi().function("transferOwnership").is_ok() {
            run.call(
                &created.address,
                created.contract,
                "transferOwnership",
                &[&plan.owner],
            )?;
        }
    }
    Ok(())
}

/// Safe's contracts and a Safe of `plan`'s owners alone, sent by `sender` (a Safe to own a
/// deployment to another network, in the tests): its address.
pub fn deploy_safe(rpc: &Rpc, sender: &dyn Sender, plan: &SafePlan) -> Result<String, DeployError> {
    let mut run = Run {
        rpc,
        sender,
        progress: &|_| {},
        journal: None,
        steps: Vec::new(),
        created: Vec::new(),
    };
    create_safe(&mut run, plan)
}

/// Safe's contracts (the singleton, its proxy factory and fallback handler, as Safe built them)
/// and a Safe of `plan`'s owners: its address.
fn create_safe(run: &mut Run<'_>, plan: &SafePlan) -> Result<String, DeployError> {
    use lvlx_core::chain::safe;
    let (singleton, _) = run.create(Contract::Safe, SAFE_BIN, &[])?;
    let (factory, _) = run.create(Contract::SafeProxyFactory, SAFE_FACTORY_BIN, &[])?;
    let (handler, _) = run.create(Contract::SafeFallbackHandler, SAFE_HANDLER_BIN, &[])?;
    let owners = plan
        .owners
        .iter()
        .map(|o| chain::address(o))
        .collect::<Result<Vec<_>, _>>()?;
    let setup = safe::setup_calldata(&owners, plan.threshold, chain::address(&handler)?)?;
    let args = [singleton.as_str(), setup.as_str(), "0"];
    // The proxy's address is the call's answer (CREATE2: the same when mined next).
    let data = chain::calldata(Contract::SafeProxyFactory, "createProxyWithNonce", &args)?;
    let answer = run.rpc.call(
        "eth_call",
        json!([{"from": run.sender.address(), "to": factory, "data": data}, "latest"]),
    )?;
    let address = chain::decode_address(answer.as_str().unwrap_or_default())?;
    run.call(
        &factory,
        Contract::SafeProxyFactory,
        "createProxyWithNonce",
        &args,
    )?;
    Ok(address)
}

/// Offers every contract the deployer owns to `safe` and accepts each offer from the Safe,
/// through `execTransaction` sent by the deployer as the Safe's owner (one signer suffices on
/// the development chain). The distributor was born the Safe's.
fn hand_to_safe(run: &mut Run<'_>, safe: &str, distributor: &str) -> Result<(), DeployError> {
    use lvlx_core::chain::safe::sent_by_owner;
    let signature = chain::hex0x(&sent_by_owner(chain::address(&run.sender.address())?));
    for created in run.created.clone() {
        let owned = created.contract.abi().function("acceptOwnership").is_ok();
        if !owned || created.address == distributor {
            continue;
        }
        let to = created.address.as_str();
        run.call(to, created.contract, "transferOwnership", &[safe])?;
        let accept = chain::calldata(created.contract, "acceptOwnership", &[])?;
        run.call(
            safe,
            Contract::Safe,
            "execTransaction",
            &[
                to,
                "0",
                &accept,
                "0",
                "0",
                "0",
                "0",
                ZERO_ADDRESS,
                ZERO_ADDRESS,
                &signature,
            ],
        )?;
    }
    Ok(())
}

/// Announces `signer` as the address whose vouchers the claim distributor pays (the owner's
/// step): it applies with `applySigner` after [`OWNER_DELAY`] of open claims. The first signer
/// is the plan's, set at deployment ([`deploy_dev_signed`]).
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
        chain_id: lvlx_core::siwe::CHAIN_ID,
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
        owner: None,
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

/// `section` as a `[chain]` table, the endpoints' real values in it (serialising prints secrets
/// as "***"; the file needs the values themselves).
fn section_table(section: &config::Chain) -> Result<toml_edit::Table, String> {
    let mut doc: toml_edit::DocumentMut = toml::to_string(&serde_json::json!({ "chain": section }))
        .map_err(|e| e.to_string())?
        .parse()
        .map_err(|e: toml_edit::TomlError| e.to_string())?;
    doc["chain"]["rpc_url"] = toml_edit::value(section.rpc_url.expose());
    let fallbacks: toml_edit::Array = section
        .fallback_rpc_urls
        .iter()
        .map(|u| u.expose())
        .collect();
    doc["chain"]["fallback_rpc_urls"] = toml_edit::value(fallbacks);
    match doc.remove("chain") {
        Some(toml_edit::Item::Table(table)) => Ok(table),
        _ => Err("no [chain] table".into()),
    }
}

/// `section` as the text of a configuration file holding it alone (`[chain]` and its keys):
/// what a deployment prints to paste.
pub fn section_text(section: &config::Chain) -> Result<String, DeployError> {
    let mut doc = toml_edit::DocumentMut::new();
    doc["chain"] = toml_edit::Item::Table(
        section_table(section).map_err(|e| DeployError::Config("[chain]".into(), e))?,
    );
    Ok(doc.to_string())
}

/// The keys that say where a deployment is: a new deployment replaces them.
const DEPLOYMENT_KEYS: &[&str] = &[
    "chain_id",
    "rpc_url",
    "usdt",
    "lvlx",
    "ico_sale",
    "level_nft",
    "nft_sale",
    "nft_staking",
    "lvlx_staking",
    "activation_node",
    "claim_distributor",
    "start_block",
];

/// One change a deployment makes to the configuration file's `[chain]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// A key the file did not set, and its value.
    Added(String, String),
    /// A key, its value before and after.
    Changed(String, String, String),
    /// A retired key the file still set, and its value.
    Removed(String, String),
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Change::Added(key, value) => write!(f, "added {key} = {value}"),
            Change::Changed(key, from, to) => write!(f, "changed {key} = {from} → {to}"),
            Change::Removed(key, value) => write!(f, "removed {key} = {value} (retired)"),
        }
    }
}

/// A key's value as the file shows it (strings quoted), for the printed changes.
fn shown(item: &toml_edit::Item) -> String {
    item.as_value()
        .map(|v| v.clone().decorated("", "").to_string())
        .unwrap_or_default()
}

/// Merges `section` into `text`, a configuration file: the deployment's keys
/// ([`DEPLOYMENT_KEYS`]) take the new values; a setting the file leaves out is added; a setting
/// the file sets is kept as the operator wrote it unless `asked` names it (the command was
/// given that option), and never made less safe (fewer `confirmations`, `finalized_tag` off)
/// than the file's value, or than its default when the file has a `[chain]` without it: that
/// is refused. Answers the new text and every change, in the section's order.
pub fn merge_section(
    text: &str,
    section: &config::Chain,
    asked: &[&str],
) -> Result<(String, Vec<Change>), DeployError> {
    let fail = |e: String| DeployError::Config("the configuration".into(), e);
    let mut doc: toml_edit::DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| fail(e.to_string()))?;
    let new = section_table(section).map_err(fail)?;
    let had_chain = doc.contains_key("chain");
    if !had_chain {
        doc["chain"] = toml_edit::Item::Table(toml_edit::Table::new());
    }
    let table = doc["chain"]
        .as_table_mut()
        .ok_or_else(|| fail("[chain] is not a table".into()))?;
    let mut changes = Vec::new();
    for (key, value) in new.iter() {
        let old = table.get(key).filter(|i| !i.is_none()).cloned();
        let deployment = DEPLOYMENT_KEYS.contains(&key);
        let keep_old = match &old {
            Some(_) => !deployment && !asked.contains(&key),
            None => false,
        };
        if keep_old {
            continue;
        }
        // The operator's value, or the default a [chain] without the key runs with.
        let effective = |key: &str| -> Option<toml_edit::Item> {
            old.clone().or_else(|| {
                had_chain.then(|| match key {
                    "confirmations" => toml_edit::value(64),
                    _ => toml_edit::value(true),
                })
            })
        };
        let lower = match key {
            "confirmations" => effective(key)
                .and_then(|o| o.as_integer())
                .zip(value.as_integer())
                .is_some_and(|(from, to)| to < from),
            "finalized_tag" => {
                effective(key).and_then(|o| o.as_bool()) == Some(true)
                    && value.as_bool() == Some(false)
            }
            _ => false,
        };
        if lower {
            let from = effective(key).map(|i| shown(&i)).unwrap_or_default();
            if asked.contains(&key) {
                return Err(DeployError::LessSafe(key.to_string(), from, shown(value)));
            }
            // Not asked for: the safer value stands (the file's or the default).
            continue;
        }
        let to = shown(value);
        match old {
            None => changes.push(Change::Added(key.to_string(), to)),
            Some(old) if shown(&old) != to => {
                changes.push(Change::Changed(key.to_string(), shown(&old), to))
            }
            Some(_) => continue,
        }
        // In place: the key's comment above it and the value's beside it stay.
        match table.get_mut(key) {
            Some(item) => {
                let mut new = value.clone();
                if let (Some(to), Some(from)) = (new.as_value_mut(), item.as_value()) {
                    *to.decor_mut() = from.decor().clone();
                }
                *item = new;
            }
            None => {
                table.insert(key, value.clone());
            }
        }
    }
    if let Some(owner) = table.remove("owner") {
        changes.push(Change::Removed("owner".into(), shown(&owner)));
    }
    Ok((doc.to_string(), changes))
}

/// Writes `section` as the `[chain]` table of a configuration file at `path` that has none
/// (created if missing), leaving every other key and comment as it was ([`merge_section`]).
pub fn write_section(path: &Path, section: &config::Chain) -> Result<(), DeployError> {
    merge_into_file(path, section, &[], true).map(|_| ())
}

/// [`merge_section`] on the configuration file at `path` (created if missing), leaving every
/// other key and comment as it was: the changes made. With `write` false nothing is written
/// (the check before a deployment: it refuses what the write would).
pub fn merge_into_file(
    path: &Path,
    section: &config::Chain,
    asked: &[&str],
    write: bool,
) -> Result<Vec<Change>, DeployError> {
    let fail = |e: String| DeployError::Config(path.display().to_string(), e);
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(fail(e.to_string())),
    };
    let (text, changes) = merge_section(&text, section, asked).map_err(|e| match e {
        DeployError::Config(_, e) => fail(e),
        other => other,
    })?;
    if write && !changes.is_empty() {
        std::fs::write(path, text).map_err(|e| fail(e.to_string()))?;
    }
    Ok(changes)
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

    #[test]
    fn a_deployment_keeps_the_operators_settings_adds_what_is_missing_and_never_lowers_safety() {
        let operator = "[chain]\n# the operator's node\nrpc_url = \"http://old\"\npublic_rpc_url = \"https://wallets.example\"\nexplorer_url = \"https://polygonscan.com\"\nusdt = \"0x1\"\nlvlx = \"0x2\"\nico_sale = \"0x3\"\nstart_block = 1\nconfirmations = 64\nfinalized_tag = true\nowner = \"0x4\"\n";
        let d = Deployment {
            usdt: "0x5FbDB2315678afecb367f032d93F642f64180aa3".into(),
            lvlx: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512".into(),
            ico_sale: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0".into(),
            start_block: 3,
            ..Deployment::default()
        };
        let dev = dev_section("http://127.0.0.1:8545", &d);
        assert_eq!((dev.confirmations, dev.finalized_tag), (0, false));
        let (text, changes) = merge_section(operator, &dev, &[]).unwrap();
        let doc: toml_edit::DocumentMut = text.parse().unwrap();
        let chain = &doc["chain"];
        // The operator's settings stand; the deployment's addresses are new, each said.
        assert_eq!(chain["confirmations"].as_integer(), Some(64));
        assert_eq!(chain["finalized_tag"].as_bool(), Some(true));
        assert_eq!(
            chain["public_rpc_url"].as_str(),
            Some("https://wallets.example")
        );
        assert!(text.contains("# the operator's node"), "{text}");
        assert_eq!(chain["usdt"].as_str(), Some(d.usdt.as_str()));
        let said: Vec<String> = changes.iter().map(ToString::to_string).collect();
        assert!(
            said.contains(
                &"changed usdt = \"0x1\" → \"0x5FbDB2315678afecb367f032d93F642f64180aa3\""
                    .to_string()
            ),
            "{said:?}"
        );
        assert!(
            said.contains(
                &"changed rpc_url = \"http://old\" → \"http://127.0.0.1:8545\"".to_string()
            ),
            "{said:?}"
        );
        assert!(
            said.contains(&"added max_block_range = 1000".to_string()),
            "{said:?}"
        );
        assert!(
            said.contains(&"removed owner = \"0x4\" (retired)".to_string()),
            "{said:?}"
        );
        assert!(
            !said
                .iter()
                .any(|c| c.contains("confirmations") || c.contains("finalized_tag")),
            "{said:?}"
        );
        // Asked for (--confirmations 2), a lower value is refused; a higher one is made.
        let two = config::Chain {
            confirmations: 2,
            ..dev.clone()
        };
        assert!(matches!(
            merge_section(operator, &two, &["confirmations"]),
            Err(DeployError::LessSafe(key, from, to)) if key == "confirmations" && from == "64" && to == "2"
        ));
        let more = config::Chain {
            confirmations: 100,
            ..dev.clone()
        };
        let (_, changes) = merge_section(operator, &more, &["confirmations"]).unwrap();
        assert!(changes.contains(&Change::Changed(
            "confirmations".into(),
            "64".into(),
            "100".into()
        )));
        // A [chain] without the settings runs with the safe defaults: not lowered by adding.
        let bare = operator
            .replace("confirmations = 64\n", "")
            .replace("finalized_tag = true\n", "");
        let (text, _) = merge_section(&bare, &dev, &[]).unwrap();
        assert!(
            !text.contains("confirmations") && !text.contains("finalized_tag"),
            "{text}"
        );
        // A file without [chain] (a first development deployment) gets the section whole.
        let (text, _) = merge_section("product = \"LVLX\"\n", &dev, &[]).unwrap();
        assert!(
            text.contains("confirmations = 0") && text.contains("finalized_tag = false"),
            "{text}"
        );
    }
}
