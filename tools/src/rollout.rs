//! `lvlx chain deploy --keystore`: the contracts on a real network (Polygon, Amoy or any other
//! chain) from a key in an encrypted keystore, with a dry run that plays the whole deployment on
//! a local fork of that network first (anvil `--fork-url`, as Foundry's `forge script` does) and
//! prints every transaction, its gas and the total cost without sending anything; and the
//! input an explorer needs to verify each contract.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use lvlx_core::chain::Contract;
use serde_json::json;

use super::deploy::{self, Deployment, Plan, Step};
use lvlx_rpc::keyed::{Keyed, KeystoreError};
use lvlx_rpc::rpc::{quantity, Rpc, RpcError};

/// Tether's USDT on Polygon PoS (6 decimals).
pub const POLYGON_USDT: &str = "0xc2132D05D31c914a87C6611C10748AEb04B58e8F";

/// The compiler input and version the artifacts were built from (contracts/build.mjs).
const VERIFICATION: &str = include_str!("../../contracts/artifacts/verification.json");

/// Where the contracts go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Network {
    /// Polygon PoS, chain id 137: USDT is Tether's unless `--usdt` names another.
    Polygon,
    /// Polygon's Amoy test network, chain id 80002: `--usdt` names a test USDT (or
    /// `--mock-usdt` deploys one).
    Amoy,
    /// Any other chain (a local anvil, a private network): the development USDT unless `--usdt`.
    Local,
}

impl Network {
    fn chain_id(self) -> Option<u64> {
        match self {
            Network::Polygon => Some(137),
            Network::Amoy => Some(80_002),
            Network::Local => None,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RolloutError {
    #[error(transparent)]
    Rpc(#[from] RpcError),
    #[error(transparent)]
    Keystore(#[from] KeystoreError),
    #[error(transparent)]
    Deploy(#[from] deploy::DeployError),
    #[error("the node's chain id is {found}, not {expected} ({network:?})")]
    ChainId {
        network: Network,
        expected: u64,
        found: u64,
    },
    #[error("on {0:?} name the USDT contract with --usdt (or deploy a test one with --mock-usdt)")]
    NoUsdt(Network),
    #[error("{0} is not a 6-decimal token contract on this chain")]
    NotUsdt(String),
    #[error("{0} is not an address")]
    Address(String),
    #[error("the dry run's local fork: {0}")]
    Fork(String),
    #[error("cannot write the verification input to {0}: {1}")]
    Write(String, String),
}

/// What the operator asks for.
#[derive(Debug, Clone)]
pub struct Options {
    pub network: Network,
    pub rpc_url: String,
    pub keystore: PathBuf,
    pub password: String,
    pub usdt: Option<String>,
    pub mock_usdt: bool,
    pub treasury: String,
    /// The contracts' owner in the end (the Safe's address), handed over in two steps.
    pub owner: String,
    /// The server's claim signer (`lvlx claims signer`).
    pub claim_signer: String,
    pub dry_run: bool,
    /// The anvil program the dry run forks the network with.
    pub anvil: String,
    /// Where the explorer's verification input is written (default: `verification-<chain id>`).
    pub verification_dir: Option<PathBuf>,
}

/// What a run did (or, dry, would do): every transaction and the cost at the network's price.
#[derive(Debug)]
pub struct Outcome {
    pub deployment: Deployment,
    pub chain_id: u64,
    pub deployer: String,
    /// Wei per gas: the network's current price on a dry run, each receipt's otherwise.
    pub gas_price: u128,
    pub total_gas: u64,
    /// Wei.
    pub cost: u128,
    /// The deployer's balance on the network before the run, wei.
    pub balance: u128,
    /// Where the verification input went (a real run).
    pub verification_dir: PathBuf,
}

/// Runs the deployment (or its dry run) that `options` describe.
pub fn run(options: &Options) -> Result<Outcome, RolloutError> {
    let rpc = Rpc::new(&options.rpc_url);
    let chain_id = quantity(&rpc.call("eth_chainId", json!([]))?)?;
    if let Some(expected) = options.network.chain_id() {
        if expected != chain_id {
            return Err(RolloutError::ChainId {
                network: options.network,
                expected,
                found: chain_id,
            });
        }
    }
    let usdt = usdt(&rpc, options)?;
    let checksummed = |address: &String| {
        lvlx_core::siwe::checksummed(address).ok_or_else(|| RolloutError::Address(address.clone()))
    };
    let (treasury, owner) = (
        checksummed(&options.treasury)?,
        checksummed(&options.owner)?,
    );
    let claim_signer = checksummed(&options.claim_signer)?;
    let keyed = Keyed::open(&options.keystore, &options.password, chain_id)?;
    let deployer = lvlx_rpc::owner::Sender::address(&keyed);
    let balance = wei(&rpc.call("eth_getBalance", json!([deployer, "latest"]))?)?;
    let plan = Plan {
        usdt,
        claim_signer: Some(claim_signer),
        ..Plan::new(&owner, &treasury)
    };
    let report = |step: &Step| eprintln!("  {:>9} gas  {}", step.gas_used, step.what);
    let verification_dir = options
        .verification_dir
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("verification-{chain_id}")));
    let (deployment, gas_price) = if options.dry_run {
        let fork = Fork::start(&options.anvil, &options.rpc_url)?;
        let deployment = deploy::deploy(&fork.rpc, &keyed, &plan, &report)?;
        (deployment, wei(&rpc.call("eth_gasPrice", json!([]))?)?)
    } else {
        let deployment = deploy::deploy(&rpc, &keyed, &plan, &report)?;
        write_verification(&verification_dir, chain_id, &deployment)?;
        (deployment, 0)
    };
    let total_gas = deployment.steps.iter().map(|s| s.gas_used).sum();
    let cost = deployment
        .steps
        .iter()
        .map(|s| {
            u128::from(s.gas_used)
                * if options.dry_run {
                    gas_price
                } else {
                    s.gas_price
                }
        })
        .sum();
    Ok(Outcome {
        gas_price: if options.dry_run {
            gas_price
        } else {
            cost / u128::from(total_gas).max(1)
        },
        deployment,
        chain_id,
        deployer,
        total_gas,
        cost,
        balance,
        verification_dir,
    })
}

/// The plan's USDT: the one named (checked to be a 6-decimal token), Tether's on Polygon, or
/// `None` (deploy the development one) on a local chain or with `--mock-usdt`.
fn usdt(rpc: &Rpc, options: &Options) -> Result<Option<String>, RolloutError> {
    let named = match (&options.usdt, options.network) {
        (Some(usdt), _) => usdt.clone(),
        (None, _) if options.mock_usdt => return Ok(None),
        (None, Network::Polygon) => POLYGON_USDT.to_string(),
        (None, Network::Local) => return Ok(None),
        (None, network) => return Err(RolloutError::NoUsdt(network)),
    };
    let address =
        lvlx_core::siwe::checksummed(&named).ok_or_else(|| RolloutError::Address(named.clone()))?;
    let data = lvlx_core::chain::calldata(Contract::MockUsdt, "decimals", &[])
        .map_err(deploy::DeployError::from)?;
    let answer = rpc.call("eth_call", json!([{"to": address, "data": data}, "latest"]));
    match answer
        .ok()
        .and_then(|a| a.as_str().map(lvlx_core::chain::decode_uint))
    {
        Some(Ok(6)) => Ok(Some(address)),
        _ => Err(RolloutError::NotUsdt(address)),
    }
}

/// A hex quantity in wei.
fn wei(value: &serde_json::Value) -> Result<u128, RpcError> {
    value
        .as_str()
        .and_then(|s| u128::from_str_radix(s.trim_start_matches("0x"), 16).ok())
        .ok_or_else(|| RpcError::Answer(format!("not a quantity: {value}")))
}

/// A local anvil forking the network at its latest block, stopped when dropped.
struct Fork {
    child: Child,
    rpc: Rpc,
}

impl Fork {
    fn start(anvil: &str, url: &str) -> Result<Fork, RolloutError> {
        let fail = |e: String| RolloutError::Fork(format!("{anvil}: {e}"));
        let mut child = Command::new(anvil)
            .args(["--fork-url", url, "--host", "127.0.0.1", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| {
                fail(format!(
                    "{e} (install Foundry's anvil, or name it with --anvil)"
                ))
            })?;
        let mut lines = BufReader::new(child.stdout.take().expect("piped")).lines();
        let address = loop {
            match lines.next() {
                Some(Ok(line)) => {
                    if let Some(address) = line.strip_prefix("Listening on ") {
                        break address.trim().to_string();
                    }
                }
                _ => {
                    let _ = child.kill();
                    return Err(fail("exited before listening".into()));
                }
            }
        };
        std::thread::spawn(move || for _ in lines {});
        Ok(Fork {
            child,
            rpc: Rpc::new(&format!("http://{address}")),
        })
    }
}

impl Drop for Fork {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Writes, for each contract created, `<Name>.json` with the fields of the explorers' source
/// verification API (Etherscan's `verifysourcecode`, which Polygonscan answers), and once
/// `standard-input.json`, the compiler input those fields point to.
pub fn write_verification(
    dir: &Path,
    chain_id: u64,
    deployment: &Deployment,
) -> Result<Vec<PathBuf>, RolloutError> {
    let fail = |e: std::io::Error| RolloutError::Write(dir.display().to_string(), e.to_string());
    let built: serde_json::Value = serde_json::from_str(VERIFICATION).expect("built by build.mjs");
    std::fs::create_dir_all(dir).map_err(fail)?;
    let input = dir.join("standard-input.json");
    std::fs::write(&input, built["standardJsonInput"].to_string()).map_err(fail)?;
    let mut written = vec![input];
    for created in &deployment.created {
        let name = created.contract.name();
        let request = json!({
            "chainid": chain_id.to_string(),
            "module": "contract",
            "action": "verifysourcecode",
            "contractaddress": created.address,
            "codeformat": "solidity-standard-json-input",
            "sourceCode": "standard-input.json",
            "contractname": built["contracts"][name],
            "compilerversion": built["compilerVersion"],
            // Sic: the API's own spelling.
            "constructorArguements": created.constructor_args,
        });
        let file = dir.join(format!("{name}.json"));
        std::fs::write(&file, format!("{request:#}\n")).map_err(fail)?;
        written.push(file);
    }
    Ok(written)
}
