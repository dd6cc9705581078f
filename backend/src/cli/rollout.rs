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
    /// An encrypted keystore (Web3 Secret Storage, e.g. `lvlx chain keystore new`) holding the
    /// deployer's key; its password comes from LVLX_KEYSTORE_PASSWORD or a prompt, never an
    /// argument.
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
    /// its `acceptOwnership`; the deployer's remaining LVLX goes there too. Must be a contract
    /// (a Safe's owners and threshold are printed before anything is sent).
    #[arg(long)]
    pub owner: Option<String>,
    /// Accept an --owner that is an ordinary account (no code), not a Safe.
    #[arg(long)]
    pub owner_eoa: bool,
    /// The deployment journal: every transaction is written there as it leaves and once mined,
    /// and the same command run again resumes from it (default: ./deployment-<chain id>.jsonl).
    #[arg(long)]
    pub journal: Option<PathBuf>,
    /// Start a new deployment from a deployer that has sent transactions before (nonce not 0).
    #[arg(long)]
    pub allow_used_deployer: bool,
    /// The printed [chain] section's RPC for wallets (default: the network's public one).
    #[arg(long)]
    pub public_rpc_url: Option<String>,
    /// The printed [chain] section's explorer (default: the network's).
    #[arg(long)]
    pub explorer_url: Option<String>,
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
    let password =
        match std::env::var("LVLX_KEYSTORE_PASSWORD").or_else(|_| prompt("Keystore password: ")) {
            Ok(password) => password,
            Err(e) => {
                eprintln!("{e}");
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
        owner_eoa: args.owner_eoa,
        journal: args.journal,
        allow_used_deployer: args.allow_used_deployer,
        public_rpc_url: args.public_rpc_url,
        explorer_url: args.explorer_url,
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
    let steps = o.deployment.steps.len();
    if options.dry_run {
        println!(
            "dry run: {} transactions to send ({} done before, in the journal {}), {} gas at {} gwei: {} POL",
            steps - o.resumed,
            o.resumed,
            o.journal.display(),
            o.total_gas,
            gwei(o.gas_price),
            pol(o.cost),
        );
        println!(
            "the deployer {} needs {} POL (each transaction's gas limit at its fee cap); it holds {} POL: {}",
            o.deployer,
            pol(o.needed),
            pol(o.balance),
            if o.missing > 0 {
                format!("{} POL MISSING", pol(o.missing))
            } else {
                "enough".to_string()
            }
        );
        println!("dry run: nothing was sent to chain {}", o.chain_id);
        return;
    }
    println!(
        "{steps} transactions ({} done before, in the journal {}), {} gas at {} gwei: {} POL; the deployer {} held {} POL",
        o.resumed,
        o.journal.display(),
        o.total_gas,
        gwei(o.gas_price),
        pol(o.cost),
        o.deployer,
        pol(o.balance),
    );
    println!(
        "deployed on chain {}; verification input in {}",
        o.chain_id,
        o.verification_dir.display()
    );
    match crate::chain::deploy::section_text(&o.section) {
        Ok(text) => {
            println!(
                "# Paste what follows into lvlx.toml (it holds --rpc: keep the file private)."
            );
            println!("# Until the owner accepts each contract (acceptOwnership), the deployer still owns it.");
            print!("{text}");
        }
        Err(e) => eprintln!("{e}"),
    }
}

/// A password typed at the terminal; without one (a script, a pipe) an error that names the
/// other ways to give it.
fn prompt(question: &str) -> Result<String, String> {
    rpassword::prompt_password(question).map_err(|e| {
        format!(
            "no terminal to ask for the keystore password ({e}): give it with --password-file FILE \
             (keystore new) or LVLX_KEYSTORE_PASSWORD"
        )
    })
}

/// `lvlx chain keystore new --out FILE`: a new key in a new keystore file, its password from
/// `--password-file`, LVLX_KEYSTORE_PASSWORD or a prompt (twice); prints the address.
pub fn keystore_new(out: &std::path::Path, password_file: Option<&std::path::Path>) -> ExitCode {
    let password = match password_file {
        Some(file) => std::fs::read_to_string(file)
            .map(|p| p.trim_end_matches(['\r', '\n']).to_string())
            .map_err(|e| format!("cannot read {}: {e}", file.display())),
        None => std::env::var("LVLX_KEYSTORE_PASSWORD").or_else(|_| {
            let first = prompt("New keystore password: ")?;
            let again = prompt("The same password again: ")?;
            if first == again {
                Ok(first)
            } else {
                Err("the two passwords differ".to_string())
            }
        }),
    };
    let password = match password {
        Ok(p) if p.is_empty() => Err("the password is empty".to_string()),
        other => other,
    };
    let password = match password {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    match crate::chain::keyed::create(out, &password) {
        Ok(address) => {
            println!("{address}");
            eprintln!(
                "keystore {} written (scrypt, Web3 Secret Storage): keep it and its password offline",
                out.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
