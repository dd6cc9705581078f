//! `lvlx chain deploy --keystore FILE …`: the deployment to a real network (`chain::rollout`),
//! its options and its report.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::chain::rollout::{self, Network, Outcome};
use crate::Config;

/// The options of a deployment to a real network; without `--keystore` the command deploys to
/// the development chain from its unlocked accounts.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// An encrypted keystore (Web3 Secret Storage, e.g. `cast wallet new`) holding the deployer's
    /// key; its password comes from LVLX_KEYSTORE_PASSWORD or a prompt, never an argument.
    #[arg(long, requires_all = ["network", "treasury", "owner"])]
    pub keystore: Option<PathBuf>,
    /// The network the RPC URL must be on (its chain id is checked).
    #[arg(long, value_enum)]
    pub network: Option<Network>,
    /// The USDT contract to sell for (default: Tether's on Polygon; required on Amoy).
    #[arg(long)]
    pub usdt: Option<String>,
    /// Deploy a test USDT (Amoy or a local chain only).
    #[arg(long, conflicts_with = "usdt")]
    pub mock_usdt: bool,
    /// Where the USDT paid goes.
    #[arg(long)]
    pub treasury: Option<String>,
    /// Who owns the contracts in the end (the Safe): each contract is handed over and waits for
    /// its `acceptOwnership`; the deployer's remaining LVLX goes there too.
    #[arg(long)]
    pub owner: Option<String>,
    /// Play the whole deployment on a local fork of the network (anvil --fork-url) and print
    /// each transaction, its gas and the total cost; nothing is sent to the network.
    #[arg(long)]
    pub dry_run: bool,
    /// The anvil program the dry run uses.
    #[arg(long, default_value = "anvil")]
    pub anvil: String,
    /// Where the explorer's verification input is written (default: ./verification-<chain id>).
    #[arg(long)]
    pub verification_dir: Option<PathBuf>,
}

/// Deploys (or dry-runs) to the network at `rpc_url` as `args` say, with this server's claim
/// signer; a real deployment's addresses are printed as a `[chain]` section to paste, not
/// written: the operator reviews them and accepts ownership from the Safe first.
pub fn deploy(config: &Config, rpc_url: &str, keystore: PathBuf, args: Args) -> ExitCode {
    let claim_signer = match super::claim_signer(config) {
        Ok(signer) => signer.address(),
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let password = match std::env::var("LVLX_KEYSTORE_PASSWORD")
        .or_else(|_| rpassword::prompt_password("Keystore password: "))
    {
        Ok(password) => password,
        Err(e) => {
            eprintln!("cannot read LVLX_KEYSTORE_PASSWORD: {e}");
            return ExitCode::FAILURE;
        }
    };
    let options = rollout::Options {
        network: args.network.unwrap_or(Network::Local),
        rpc_url: rpc_url.to_string(),
        keystore,
        password,
        usdt: args.usdt,
        mock_usdt: args.mock_usdt,
        treasury: args.treasury.unwrap_or_default(),
        owner: args.owner.unwrap_or_default(),
        claim_signer,
        dry_run: args.dry_run,
        anvil: args.anvil,
        verification_dir: args.verification_dir,
    };
    eprintln!(
        "{} on {rpc_url} ({:?}):",
        if options.dry_run {
            "dry run"
        } else {
            "deploying"
        },
        options.network
    );
    match rollout::run(&options) {
        Ok(outcome) => {
            report(&options, &outcome);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("deploy failed: {e}");
            ExitCode::FAILURE
        }
    }
}

fn report(options: &rollout::Options, o: &Outcome) {
    let pol = |wei: u128| lvlx_core::amount::format_fixed(wei, 18, 6).unwrap_or_default();
    let gwei = |wei: u128| lvlx_core::amount::format_fixed(wei, 9, 2).unwrap_or_default();
    println!(
        "{} transactions, {} gas at {} gwei: {} POL (deployer {} holds {} POL{})",
        o.deployment.steps.len(),
        o.total_gas,
        gwei(o.gas_price),
        pol(o.cost),
        o.deployer,
        pol(o.balance),
        if o.balance < o.cost {
            ": NOT ENOUGH"
        } else {
            ""
        }
    );
    if options.dry_run {
        println!("dry run: nothing was sent to chain {}", o.chain_id);
        return;
    }
    let d = &o.deployment;
    println!(
        "deployed on chain {}; verification input in {}",
        o.chain_id,
        o.verification_dir.display()
    );
    println!("# Add to lvlx.toml once the owner has accepted ownership of each contract:");
    println!("[chain]");
    println!("chain_id = {}", o.chain_id);
    for (key, value) in [
        ("usdt", &d.usdt),
        ("lvlx", &d.lvlx),
        ("ico_sale", &d.ico_sale),
        ("level_nft", &d.level_nft),
        ("nft_sale", &d.nft_sale),
        ("nft_staking", &d.nft_staking),
        ("lvlx_staking", &d.lvlx_staking),
        ("activation_node", &d.activation_node),
        ("claim_distributor", &d.claim_distributor),
    ] {
        println!("{key} = \"{value}\"");
    }
    println!("start_block = {}", d.start_block);
}
