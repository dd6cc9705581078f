//! `lvlx chain deploy --keystore`: the contracts on a real network (Polygon, Amoy or any other
//! chain) from a key in an encrypted keystore, with a dry run that plays the whole deployment on
//! a local fork of that network first (anvil `--fork-url`, as Foundry's `forge script` does,
//! the deployer funded there whatever it holds) and prints every transaction, its gas, the POL
//! it needs and what is missing without sending anything; a journal of every transaction so an
//! interrupted deployment resumes; the owner checked to be a contract (a Safe's owners and
//! threshold printed) before anything is sent; and the input an explorer needs to verify each
//! contract.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use lvlx_core::chain::Contract;
use serde_json::json;

use super::deploy::{self, Deployment, Plan, Step};
use super::journal::{Journal, JournalError, Mined};
use lvlx_config as config;
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

    /// The RPC offered to wallets and the explorer, unless the operator names others (a local
    /// chain: its own URL, no explorer).
    fn public_urls(self, rpc_url: &str) -> (String, String) {
        match self {
            Network::Polygon => (
                "https://polygon-rpc.com".into(),
                "https://polygonscan.com".into(),
            ),
            Network::Amoy => (
                "https://rpc-amoy.polygon.technology".into(),
                "https://amoy.polygonscan.com".into(),
            ),
            Network::Local => (rpc_url.into(), String::new()),
        }
    }
}

/// What the contracts' owner (`--owner`) is on the chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OwnerKind {
    /// A Safe: its owners and how many of them must sign.
    Safe { owners: Vec<String>, threshold: u64 },
    /// A contract that does not answer as a Safe.
    Contract,
    /// An account without code (allowed with `--owner-eoa` only).
    Account,
}

/// Wei the dry run funds the deployer with on its fork (10^6 POL), whatever it holds.
const FORK_FUNDS: u128 = 1_000_000 * 10u128.pow(18);

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
    #[error(transparent)]
    Journal(#[from] JournalError),
    #[error("--owner {0} has no code on this chain: it is an ordinary account, not a Safe or another contract; the contracts and the unsold LVLX would go to whoever holds its key. Name the owners' Safe, or pass --owner-eoa to hand them to an account anyway")]
    OwnerNotContract(String),
    #[error("the deployer {deployer} has sent {nonce} transactions on this chain already (its nonce is {nonce}, not 0) and there is no journal at {journal}: if an earlier deployment was interrupted, run it again with its journal (--journal FILE) to resume it; to deploy from this account anyway, pass --allow-used-deployer")]
    UsedDeployer {
        deployer: String,
        nonce: u64,
        journal: String,
    },
    #[error("the journal {journal} expects the deployer {deployer}'s next nonce to be {expected}, but the chain says {found}: something else sent from this key (or the journal is not this chain's). Nothing was sent; find out what those transactions were before deploying")]
    Nonce {
        journal: String,
        deployer: String,
        expected: u64,
        found: u64,
    },
    #[error("the journal {journal}'s last transaction {hash} ({what}) was mined and reverted: nothing was sent; find out why before deploying")]
    Reverted {
        journal: String,
        hash: String,
        what: String,
    },
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
    /// An owner without code is accepted (otherwise refused).
    pub owner_eoa: bool,
    /// The deployment journal (default: `deployment-<chain id>.jsonl`, beside the verification
    /// input).
    pub journal: Option<PathBuf>,
    /// A deployer that has sent transactions before may start a new deployment.
    pub allow_used_deployer: bool,
    /// The printed `[chain]` section's `public_rpc_url` and `explorer_url` (default: the
    /// network's).
    pub public_rpc_url: Option<String>,
    pub explorer_url: Option<String>,
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
    /// What the owner is.
    pub owner: OwnerKind,
    /// The journal, and how many of the steps it held (sent by earlier runs).
    pub journal: PathBuf,
    pub resumed: usize,
    /// Wei the steps still to send need at most (each one's gas limit at its fee cap, after
    /// the ones before it at the network's price), and what the deployer lacks of it.
    pub needed: u128,
    pub missing: u128,
    /// The `[chain]` section to start a server with (a real run).
    pub section: config::Chain,
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
    // Before anything is sent (or the keystore even opened): who will own everything.
    let owner_kind = owner_kind(&rpc, &owner)?;
    match &owner_kind {
        OwnerKind::Safe { owners, threshold } => eprintln!(
            "owner {owner} is a Safe: {threshold} of its {} owners must sign ({})",
            owners.len(),
            owners.join(", ")
        ),
        OwnerKind::Contract => {
            eprintln!("owner {owner} is a contract that does not answer as a Safe (getOwners)")
        }
        OwnerKind::Account if options.owner_eoa => {
            eprintln!("owner {owner} is an ordinary account (--owner-eoa)")
        }
        OwnerKind::Account => return Err(RolloutError::OwnerNotContract(owner)),
    }
    let keyed = Keyed::open(&options.keystore, &options.password, chain_id)?;
    let deployer = lvlx_rpc::owner::Sender::address(&keyed);
    let balance = wei(&rpc.call("eth_getBalance", json!([deployer, "latest"]))?)?;
    let plan = Plan {
        usdt: usdt.clone(),
        claim_signer: Some(claim_signer.clone()),
        ..Plan::new(&owner, &treasury)
    };
    let report = |step: &Step| {
        if step.resumed {
            eprintln!(
                "  {:>9} gas  {}  (done before: journal)",
                step.gas_used, step.what
            );
        } else {
            eprintln!("  {:>9} gas  {}", step.gas_used, step.what);
        }
        if let Some(address) = &step.address {
            eprintln!("            created at {address}");
        }
    };
    let verification_dir = options
        .verification_dir
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("verification-{chain_id}")));
    let journal_path = options
        .journal
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("deployment-{chain_id}.jsonl")));
    let header = json!({
        "chain_id": chain_id,
        "deployer": deployer,
        "usdt": usdt,
        "treasury": treasury,
        "owner": owner,
        "claim_signer": claim_signer,
    });
    let mut journal = open_journal(&rpc, options, &journal_path, &deployer, header)?;
    let resumed = journal.mined.len();
    if resumed > 0 {
        eprintln!(
            "resuming from the journal {}: {resumed} transactions done, next nonce {}",
            journal_path.display(),
            journal.next_nonce()
        );
    } else if !options.dry_run {
        eprintln!(
            "journal: {} (each transaction is written there as it leaves and once mined; the same command resumes an interrupted run)",
            journal_path.display()
        );
    }
    let (deployment, gas_price, needed) = if options.dry_run {
        let fork = Fork::start(&options.anvil, &options.rpc_url)?;
        // Played whatever the deployer holds: its balance is the fork's alone.
        fork.rpc.call(
            "anvil_setBalance",
            json!([deployer, format!("0x{FORK_FUNDS:x}")]),
        )?;
        let deployment =
            deploy::deploy_journaled(&fork.rpc, &keyed, &plan, &report, Some(&mut journal))?;
        let price = wei(&rpc.call("eth_gasPrice", json!([]))?)?;
        let needed = needed(&fork.rpc, &deployment, price)?;
        (deployment, price, needed)
    } else {
        let deployment =
            deploy::deploy_journaled(&rpc, &keyed, &plan, &report, Some(&mut journal))?;
        write_verification(&verification_dir, chain_id, &deployment)?;
        (deployment, 0, 0)
    };
    let sent = || {
        deployment
            .steps
            .iter()
            .filter(|s| !options.dry_run || !s.resumed)
    };
    let total_gas = sent().map(|s| s.gas_used).sum();
    let cost = sent()
        .map(|s| {
            u128::from(s.gas_used)
                * if options.dry_run {
                    gas_price
                } else {
                    s.gas_price
                }
        })
        .sum();
    let needed = needed.max(cost);
    let (public_rpc_url, explorer_url) = options.network.public_urls(&options.rpc_url);
    let section = section(
        chain_id,
        &options.rpc_url,
        options.public_rpc_url.clone().unwrap_or(public_rpc_url),
        options.explorer_url.clone().unwrap_or(explorer_url),
        &deployment,
    );
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
        owner: owner_kind,
        journal: journal_path,
        resumed,
        needed,
        missing: if options.dry_run {
            needed.saturating_sub(balance)
        } else {
            0
        },
        section,
    })
}

/// The `[chain]` section a server starts with for `d` on `chain_id`: the addresses and start
/// block, the endpoints, and the safe finality settings written out (the finalized tag, 64
/// confirmations where a node does not answer it).
pub fn section(
    chain_id: u64,
    rpc_url: &str,
    public_rpc_url: String,
    explorer_url: String,
    d: &Deployment,
) -> config::Chain {
    config::Chain {
        chain_id,
        public_rpc_url,
        explorer_url,
        finalized_tag: true,
        confirmations: 64,
        max_block_range: 1000,
        poll_ms: 2000,
        ..deploy::dev_section(rpc_url, d)
    }
}

/// The journal at `path` (a new one for a first real run), checked against the chain: the
/// options are the ones it was written with, its last transaction sent is looked up (mined,
/// waiting in the pool, or never arrived), and the deployer's nonce is the one it expects; a
/// first run wants a deployer that never sent (nonce 0) unless told otherwise.
fn open_journal(
    rpc: &Rpc,
    options: &Options,
    path: &Path,
    deployer: &str,
    header: serde_json::Value,
) -> Result<Journal, RolloutError> {
    let nonce = |tag: &str| -> Result<u64, RolloutError> {
        Ok(quantity(&rpc.call(
            "eth_getTransactionCount",
            json!([deployer, tag]),
        )?)?)
    };
    let Some(mut journal) = Journal::open(path, !options.dry_run)? else {
        let found = nonce("latest")?.max(nonce("pending")?);
        if found != 0 && !options.allow_used_deployer {
            return Err(RolloutError::UsedDeployer {
                deployer: deployer.to_string(),
                nonce: found,
                journal: path.display().to_string(),
            });
        }
        let mut header = header;
        header["nonce"] = json!(found);
        return Ok(if options.dry_run {
            Journal::empty(path, header)
        } else {
            Journal::create(path, header)?
        });
    };
    journal.check_header(&header)?;
    if let Some(sent) = journal
        .sent
        .clone()
        .filter(|s| s.step == journal.mined.len())
    {
        let known = !rpc
            .call("eth_getTransactionByHash", json!([sent.hash]))?
            .is_null();
        if known {
            eprintln!(
                "the journal's last transaction {} ({}) left before the interruption: waiting for it",
                sent.hash, sent.what
            );
            let receipt = match lvlx_rpc::owner::receipt(rpc, &sent.hash) {
                Ok(receipt) => receipt,
                Err(lvlx_rpc::owner::SendError::Failed(hash)) => {
                    return Err(RolloutError::Reverted {
                        journal: path.display().to_string(),
                        hash,
                        what: sent.what,
                    })
                }
                Err(e) => return Err(deploy::DeployError::from(e).into()),
            };
            let address = receipt["contractAddress"]
                .as_str()
                .and_then(lvlx_core::siwe::checksummed);
            let mined = Mined {
                step: sent.step,
                nonce: sent.nonce,
                what: sent.what,
                hash: sent.hash,
                address,
            };
            let extra = json!({"block": quantity(&receipt["blockNumber"])?});
            journal.note_mined(mined, extra)?;
        }
    }
    let expected = journal.next_nonce();
    for tag in ["latest", "pending"] {
        let found = nonce(tag)?;
        if found != expected {
            return Err(RolloutError::Nonce {
                journal: path.display().to_string(),
                deployer: deployer.to_string(),
                expected,
                found,
            });
        }
    }
    Ok(journal)
}

/// Wei the dry run's new transactions need at most before each is accepted: the network's
/// price for those before it, and its own gas limit at its fee cap (a node refuses a
/// transaction the sender cannot pay that for), as played on the fork.
fn needed(fork: &Rpc, d: &Deployment, price: u128) -> Result<u128, RolloutError> {
    let (mut spent, mut needed) = (0u128, 0u128);
    for step in d.steps.iter().filter(|s| !s.resumed) {
        let tx = fork.call("eth_getTransactionByHash", json!([step.hash]))?;
        let cap = u128::from(quantity(&tx["gas"])?) * wei(&tx["maxFeePerGas"])?;
        needed = needed.max(spent + cap);
        spent += u128::from(step.gas_used) * price;
    }
    Ok(needed.max(spent))
}

/// What `owner` is: a Safe (its owners and threshold answer), another contract, or an account.
pub fn owner_kind(rpc: &Rpc, owner: &str) -> Result<OwnerKind, RpcError> {
    let code = rpc.call("eth_getCode", json!([owner, "latest"]))?;
    if code.as_str().is_none_or(|c| c.len() <= 2) {
        return Ok(OwnerKind::Account);
    }
    let call = |function: &str| -> Option<String> {
        let data = lvlx_core::chain::calldata(Contract::Safe, function, &[]).ok()?;
        rpc.call("eth_call", json!([{"to": owner, "data": data}, "latest"]))
            .ok()?
            .as_str()
            .map(str::to_string)
    };
    let threshold = call("getThreshold").and_then(|t| lvlx_core::chain::decode_uint(&t).ok());
    let owners = call("getOwners").and_then(|o| decode_addresses(&o));
    Ok(match (threshold, owners) {
        (Some(threshold), Some(owners)) if threshold > 0 && !owners.is_empty() => OwnerKind::Safe {
            owners,
            threshold: threshold as u64,
        },
        _ => OwnerKind::Contract,
    })
}

/// An ABI-encoded `address[]` (a function's only output), EIP-55.
fn decode_addresses(data: &str) -> Option<Vec<String>> {
    let hex = data.strip_prefix("0x")?;
    let word = |i: usize| hex.get(64 * i..64 * (i + 1));
    let offset = usize::from_str_radix(word(0)?, 16).ok()?;
    if offset != 32 {
        return None;
    }
    let n = usize::from_str_radix(word(1)?, 16).ok()?;
    (0..n)
        .map(|i| lvlx_core::siwe::checksummed(&format!("0x{}", word(2 + i)?.get(24..)?)))
        .collect()
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
