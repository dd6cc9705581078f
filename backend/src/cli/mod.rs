//! The command line of `lvlx`: serving (the default) and the administration commands. Each
//! command reports a failure on standard error and exits non-zero; `main.rs` only calls
//! [`main`].

pub mod accounts;
mod rollout;
use lvlx_tools::seed;

use crate::error::Error;

use std::path::PathBuf;
use std::process::ExitCode;

use crate::store::{users, Store};
use crate::{App, Config};
use clap::{Parser, Subcommand};
use lvlx_core::ADMIN_ROLE;
use tracing_subscriber::EnvFilter;

#[derive(Parser)]
#[command(name = "lvlx", version, about = "LVLX platform server")]
struct Cli {
    /// Configuration file (default: ./lvlx.toml, or $LVLX_CONFIG).
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the API and the web app (the default).
    Serve,
    /// Print the effective configuration (as JSON; secrets as "***").
    Config,
    /// Administrator accounts.
    Admin {
        #[command(subcommand)]
        command: AdminCommand,
    },
    /// Create the demo admin and demo user (if missing) and print how to sign in.
    Demo {
        #[command(subcommand)]
        command: Option<DemoCommand>,
    },
    /// The operational wallet key, sealed under the admin secret.
    Secret {
        #[command(subcommand)]
        command: SecretCommand,
    },
    /// The development chain.
    Chain {
        #[command(subcommand)]
        command: ChainCommand,
    },
    /// Claims of network rewards.
    Claims {
        #[command(subcommand)]
        command: ClaimsCommand,
    },
    /// The books: every figure derived from the chain, checked against it.
    Books {
        #[command(subcommand)]
        command: BooksCommand,
    },
    /// The admin audit.
    Audit {
        #[command(subcommand)]
        command: AuditCommand,
    },
    /// The database.
    Db {
        #[command(subcommand)]
        command: DbCommand,
    },
    /// Fill an empty ledger with deterministic demo data (members, ICO, NFT and LVLX stakes).
    /// No chain is involved: the ICO rows and staking positions are written straight into the
    /// database in the shapes the indexer records (for the admin screens at benchmark scale);
    /// the run command's demo stakes go through the contracts (`lvlx chain demo`).
    Seed {
        #[arg(long, default_value_t = 300)]
        users: u32,
        #[arg(long = "ico-tx", default_value_t = 3000)]
        ico_tx: u32,
        #[arg(long = "nft-stakes", default_value_t = 400)]
        nft_stakes: u32,
        #[arg(long = "lvlx-stakes", default_value_t = 300)]
        lvlx_stakes: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Add a few purchases of 10^9 LVLX and more (amounts past 2^64 base units in sums);
        /// left out, the history looks like a platform's.
        #[arg(long)]
        whales: bool,
    },
}

#[derive(Subcommand)]
enum DemoCommand {
    /// The demo's identity provider, a local stand-in for Persona (not a real verification):
    /// its hosted flow, where the member approves or declines, and its signed webhook to the
    /// server. Writes a `[kyc]` section pointing at it (with a new webhook secret) when none is
    /// configured; does nothing when another provider is. Serves until stopped.
    Identity {
        #[arg(long, default_value = lvlx_tools::identity::DEFAULT_LISTEN)]
        listen: std::net::SocketAddr,
        /// The platform the webhook goes to and members return to (default: http://{bind}).
        #[arg(long)]
        site: Option<String>,
    },
}

#[derive(Subcommand)]
enum BooksCommand {
    /// Index the chain again into a copy of the database and compare every purchase,
    /// commission, bonus, member figure, stake and claim payment with the store; list what
    /// differs (exit status 1 then).
    Verify,
}

#[derive(Subcommand)]
enum AuditCommand {
    /// Walk the admin audit's hash chain: print its rows and head, and name the first row
    /// changed, removed or inserted by hand (exit status 1 then).
    Verify,
}

#[derive(Subcommand)]
enum DbCommand {
    /// Copy a SQLite database (data_dir's, or --from's) into the empty PostgreSQL database
    /// database_url names, then verify the copy: every table's rows and money sums equal.
    Copy {
        /// The data folder holding lvlx.sqlite3 (default: data_dir).
        #[arg(long)]
        from: Option<PathBuf>,
    },
    /// Copy data_dir's SQLite database into FILE (new), consistent as of one instant, while the
    /// server keeps serving; checked with SQLite's integrity check. (PostgreSQL: pg_dump.)
    Backup { file: PathBuf },
    /// Put the backup FILE in place as data_dir's database, with the server stopped; the
    /// database it replaces is kept beside it as lvlx.sqlite3.replaced-{ms}.
    Restore { file: PathBuf },
}

#[derive(Subcommand)]
#[allow(clippy::large_enum_variant)] // parsed once per run
enum ChainCommand {
    /// Deploy mock USDT, LVLX, the ICO sale, the NFTs, their sale, both staking contracts (the
    /// core's default terms, funded reward reserves), the activation node and the claim
    /// distributor (signer: this server's claim key) to an anvil node (chain id 137) and write
    /// their addresses as the `[chain]` section of the configuration file. Does nothing when the
    /// configured sale and staking contracts already exist on that node. With --keystore: to a
    /// real network (Polygon, Amoy, another chain), signed by the keystore's key, optionally as
    /// a dry run first.
    Deploy {
        #[arg(long, default_value = "http://127.0.0.1:8545")]
        rpc: String,
        /// Blocks an event must be buried under before it counts (final); it shows as pending
        /// until then. Written when the configuration sets none (then 0 unless given: final at
        /// once); never lowered below what it sets.
        #[arg(long)]
        confirmations: Option<u64>,
        #[command(flatten)]
        keyed: rollout::Args,
    },
    /// The demo's staking, through the contracts: links six anvil dev accounts (2-7) to seeded
    /// members, buys NFTs and LVLX with them and stakes some of each. Once: a chain that already
    /// has positions is left alone. Run after `chain deploy` (it reads the configured [chain]).
    Demo,
    /// Keystores of deployer keys.
    Keystore {
        #[command(subcommand)]
        command: KeystoreCommand,
    },
}

#[derive(Subcommand)]
enum KeystoreCommand {
    /// Make a new random key and write it to FILE (which must not exist) as an encrypted
    /// keystore (Web3 Secret Storage, scrypt, as geth and ethers write it); print its address.
    /// The password comes from --password-file, LVLX_KEYSTORE_PASSWORD or a prompt.
    New {
        #[arg(long)]
        out: PathBuf,
        /// A file whose first line is the password.
        #[arg(long)]
        password_file: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum ClaimsCommand {
    /// Print the address of the key that signs claim vouchers (generating the key into the
    /// data folder if none is configured): the ClaimDistributor is deployed with it, or its
    /// owner announces it with setSigner. Never prints the key.
    Signer,
    /// Print this key's consent, as the distributor's current signer, to the signer change the
    /// owners announced (read from the configured [chain]): with it the owners apply the change
    /// (`applySignerWithConsent`) without first reopening claims for the whole delay, which is
    /// how a stolen key is replaced while claims stay paused. Give it only for a change you
    /// asked for: it waives the members' stretch of open claims.
    Consent,
}

#[derive(Subcommand)]
enum SecretCommand {
    /// Seal the key (from LVLX_SECRET_VALUE or a prompt) under the admin secret (from
    /// LVLX_SECRET_PASSPHRASE or a prompt). Replaces any earlier one.
    Set,
}

#[derive(Subcommand)]
enum AdminCommand {
    /// Create an admin. The password comes from LVLX_ADMIN_PASSWORD or a prompt, never an argument.
    Create {
        #[arg(long)]
        email: String,
        #[arg(long)]
        names: String,
        #[arg(long)]
        lastnames: String,
    },
}

/// Logs at `config.log`'s levels, as text or (`log_format = "json"`) one object a line: the
/// event's fields at the top, the request's span (its id) beside.
fn init_logging(config: &Config) {
    let filter = EnvFilter::try_new(&config.log).unwrap_or_else(|_| EnvFilter::new("info"));
    if config.log_format == "json" {
        tracing_subscriber::fmt()
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .with_span_list(false)
            .with_env_filter(filter)
            .init();
    } else {
        tracing_subscriber::fmt().with_env_filter(filter).init();
    }
}

/// Runs the command line: parses the arguments, loads the configuration, runs the command.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let config_file = Config::file(cli.config.clone());
    let config = match Config::load(cli.config) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("configuration error: {e}");
            return ExitCode::from(2);
        }
    };
    init_logging(&config);
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(config),
        Command::Admin {
            command:
                AdminCommand::Create {
                    email,
                    names,
                    lastnames,
                },
        } => create_admin(&config, email, names, lastnames),
        Command::Demo { command: None } => demo(&config),
        Command::Demo {
            command: Some(DemoCommand::Identity { listen, site }),
        } => demo_identity(&config_file, config, listen, site),
        Command::Secret {
            command: SecretCommand::Set,
        } => set_secret(&config),
        Command::Chain {
            command:
                ChainCommand::Deploy {
                    rpc,
                    confirmations,
                    mut keyed,
                },
        } => match keyed.keystore.take() {
            Some(keystore) => rollout::deploy(&config, &rpc, keystore, keyed),
            None => deploy(&config, &config_file, &rpc, confirmations),
        },
        Command::Audit {
            command: AuditCommand::Verify,
        } => audit_verify(&config),
        Command::Books {
            command: BooksCommand::Verify,
        } => books_verify(&config),
        Command::Claims {
            command: ClaimsCommand::Signer,
        } => report(claim_signer(&config).map(|signer| signer.address())),
        Command::Claims {
            command: ClaimsCommand::Consent,
        } => report(rotation_consent(&config)),
        Command::Chain {
            command: ChainCommand::Demo,
        } => chain_demo(&config),
        Command::Chain {
            command:
                ChainCommand::Keystore {
                    command: KeystoreCommand::New { out, password_file },
                },
        } => rollout::keystore_new(&out, password_file.as_deref()),
        Command::Seed {
            users,
            ico_tx,
            nft_stakes,
            lvlx_stakes,
            seed,
            whales,
        } => seed_history(
            &config,
            seed::Plan {
                users,
                ico_tx,
                nft_stakes,
                lvlx_stakes,
                seed,
                whales,
            },
        ),
        Command::Db {
            command: DbCommand::Copy { from },
        } => db_copy(&config, from),
        Command::Db {
            command: DbCommand::Backup { file },
        } => db_backup(&config, &file, false),
        Command::Db {
            command: DbCommand::Restore { file },
        } => db_backup(&config, &file, true),
        Command::Config => print_config(&config),
    }
}

/// Prints `done` and succeeds, or says why not on standard error and fails.
fn report(done: Result<impl std::fmt::Display, impl std::fmt::Display>) -> ExitCode {
    match done {
        Ok(out) => {
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// `lvlx claims consent`: this server's key consents to the announced signer change.
fn rotation_consent(config: &Config) -> Result<String, String> {
    use crate::chain::rpc::Rpc;
    use lvlx_core::chain::{self, Contract, Rotation};
    let signer = claim_signer(config).map_err(|e| e.to_string())?;
    let section = config
        .network_chain()
        .ok_or("no [chain] section with a claim distributor is configured")?;
    let rpc = Rpc::new(section.rpc_url.expose());
    let read = |function: &str| -> Result<String, String> {
        let data = chain::calldata(Contract::ClaimDistributor, function, &[])
            .map_err(|e| e.to_string())?;
        let answer = rpc
            .call(
                "eth_call",
                serde_json::json!([{"to": section.claim_distributor, "data": data}, "latest"]),
            )
            .map_err(|e| format!("{function}: {e}"))?;
        Ok(answer.as_str().unwrap_or_default().to_string())
    };
    let current = chain::decode_address(&read("signer")?).map_err(|e| e.to_string())?;
    if !chain::same_address(&current, &signer.address()) {
        return Err(format!(
            "this server's key ({}) is not the distributor's signer ({current}): only the outgoing signer can consent",
            signer.address()
        ));
    }
    let at = chain::decode_uint(&read("signerAt")?).map_err(|e| e.to_string())?;
    if at == 0 {
        return Err("no signer change is announced".into());
    }
    let to = chain::decode_address(&read("pendingSigner")?).map_err(|e| e.to_string())?;
    let nonce = chain::decode_uint(&read("signerNonce")?).map_err(|e| e.to_string())?;
    let rotation = Rotation {
        chain_id: section.chain_id,
        contract: chain::address(&section.claim_distributor).map_err(|e| e.to_string())?,
        new_signer: chain::address(&to).map_err(|e| e.to_string())?,
        at: u64::try_from(at).map_err(|e| e.to_string())?,
        nonce: u64::try_from(nonce).map_err(|e| e.to_string())?,
    };
    Ok(format!(
        "consent of {} to the new signer {to} announced for {at} (announcement {nonce}):\n{}",
        signer.address(),
        signer.sign_rotation(&rotation)
    ))
}

/// `lvlx config`: the configuration in force, secrets as "***". A reader that stops early
/// (`lvlx config | head`) closes the pipe: that ends the output, not in a panic.
fn print_config(config: &Config) -> ExitCode {
    use std::io::Write;
    let text = serde_json::to_string_pretty(config).unwrap_or_default();
    match writeln!(std::io::stdout().lock(), "{text}") {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => ExitCode::FAILURE,
        _ => ExitCode::SUCCESS,
    }
}

/// `lvlx admin create`: an admin account, its password from LVLX_ADMIN_PASSWORD or a prompt.
fn create_admin(config: &Config, email: String, names: String, lastnames: String) -> ExitCode {
    let password = match std::env::var("LVLX_ADMIN_PASSWORD") {
        Ok(p) => p,
        Err(_) => match rpassword::prompt_password("Password for the new admin: ") {
            Ok(p) => p,
            Err(e) => {
                eprintln!("cannot read the password: {e}");
                return ExitCode::from(2);
            }
        },
    };
    offline(config, |store| async move {
        let id = accounts::create(
            &store, &email, &names, &lastnames, &password, ADMIN_ROLE, None,
        )
        .await?;
        println!("admin {email} created (id {})", id.0);
        Ok(())
    })
}

/// `lvlx demo`: the demo accounts, printed with how to sign in.
fn demo(config: &Config) -> ExitCode {
    let base = format!("http://{}", config.bind);
    let outbox = config.data_dir.join("outbox");
    let locales = config.locales_dir.clone();
    offline(config, |store| async move {
        let (admin_code, user_code) = accounts::demo(&store).await?;
        // The sample content's words are the translations': without them (run away from the
        // checkout, locales_dir unset) the accounts are still made, the sample is left out.
        match crate::mail::load_texts(&locales) {
            Ok(texts) => {
                let admin = accounts::find(&store, accounts::DEMO_ADMIN.0)
                    .await?
                    .ok_or_else(|| Error::Internal("the demo admin is missing".into()))?;
                accounts::demo_content(&store, admin.id, &texts).await?;
            }
            Err(e) => eprintln!("demo content left out: {e}"),
        }
        println!(
            "Demo accounts (mail goes to {} unless SMTP is configured):",
            outbox.display()
        );
        println!(
            "  admin: {} / {}",
            accounts::DEMO_ADMIN.0,
            accounts::DEMO_ADMIN.1
        );
        println!(
            "  user:  {} / {}",
            accounts::DEMO_USER.0,
            accounts::DEMO_USER.1
        );
        println!(
            "  secret-key tool: admin secret {:?} (set your own with `lvlx secret set`)",
            accounts::DEMO_SECRET.0
        );
        println!("  referral links: {base}/register/referred/{user_code} (demo user), {base}/register/referred/{admin_code} (admin)");
        Ok(())
    })
}

/// `lvlx secret set`: seals the operational key under the admin secret.
fn set_secret(config: &Config) -> ExitCode {
    let read = |var: &str, prompt: &str| {
        std::env::var(var)
            .or_else(|_| rpassword::prompt_password(prompt))
            .map_err(|e| format!("cannot read {var}: {e}"))
    };
    let values = read("LVLX_SECRET_VALUE", "Operational wallet key: ").and_then(|value| {
        read(
            "LVLX_SECRET_PASSPHRASE",
            "Admin secret that will unlock it: ",
        )
        .map(|passphrase| (value.trim().to_string(), passphrase.trim().to_string()))
    });
    let (value, passphrase) = match values {
        Ok(v) if !v.0.is_empty() && !v.1.is_empty() => v,
        Ok(_) => {
            eprintln!("the key and the admin secret must not be empty");
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    offline(config, |store| async move {
        store
            .write(move |c| crate::secret::provision(c, &passphrase, &value))
            .await?;
        println!("operational key sealed");
        Ok(())
    })
}

/// `lvlx chain demo`: links the demo wallets and makes their purchases and stakes on chain.
/// `lvlx demo identity`: configures the demo's identity provider when no provider is, then
/// serves it (its own process and listener: `serve` never starts it).
fn demo_identity(
    file: &std::path::Path,
    config: Config,
    listen: std::net::SocketAddr,
    site: Option<String>,
) -> ExitCode {
    use lvlx_tools::identity::{self, Setup};
    let config = match identity::configure(file, &config, listen) {
        Ok(Setup::Other(flow_url)) => {
            println!(
                "A verification provider is configured ({flow_url}): the demo's is not started."
            );
            return ExitCode::SUCCESS;
        }
        Ok(Setup::Demo) => config,
        Ok(Setup::Written) => match Config::load(Some(file.to_path_buf())) {
            Ok(config) => config,
            Err(e) => {
                eprintln!("configuration error: {e}");
                return ExitCode::from(2);
            }
        },
        Err(e) => {
            eprintln!("cannot configure the demo's identity provider: {e}");
            return ExitCode::FAILURE;
        }
    };
    let Some(kyc) = config.kyc.as_ref() else {
        eprintln!("no [kyc] in effect (is LVLX_CONFIG another file?)");
        return ExitCode::from(2);
    };
    let site = site.unwrap_or_else(|| format!("http://{}", config.bind));
    let provider = match identity::Provider::new(kyc, &site, &config.locales_dir) {
        Ok(provider) => provider,
        Err(e) => {
            eprintln!("cannot start the demo's identity provider: {e}");
            return ExitCode::FAILURE;
        }
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async move {
        let listener = match tokio::net::TcpListener::bind(listen).await {
            Ok(listener) => listener,
            Err(e) => {
                eprintln!("cannot listen on {listen}: {e}");
                return ExitCode::FAILURE;
            }
        };
        println!(
            "Demo identity provider (not a real verification) at {}",
            identity::flow_url(listen)
        );
        identity::serve(provider, listener, crate::serve::stop_signal()).await;
        ExitCode::SUCCESS
    })
}

fn chain_demo(config: &Config) -> ExitCode {
    let Some(chain) = config.staking_chain().cloned() else {
        eprintln!("no staking contracts configured: run `lvlx chain deploy` first");
        return ExitCode::from(2);
    };
    offline(config, |store| async move {
        // Link the wallets first, so the indexer files the positions under members.
        let rpc = crate::chain::rpc::Rpc::new(chain.rpc_url.expose());
        let accounts: Vec<String> = serde_json::from_value(
            rpc.call("eth_accounts", serde_json::json!([]))
                .map_err(|e| Error::Internal(e.to_string()))?,
        )
        .map_err(|e| Error::Internal(e.to_string()))?;
        let wallets: Vec<String> = accounts
            .iter()
            .skip(2)
            .take(crate::chain::demo::WALLETS)
            .filter_map(|w| lvlx_core::siwe::checksummed(w))
            .collect();
        let linked = store
            .write(move |c| c.transaction(|tx| users::link_demo_wallets(tx, &wallets)))
            .await?;
        let made = tokio::task::spawn_blocking(move || crate::chain::demo::stake(&rpc, &chain))
            .await
            .map_err(|e| Error::Internal(e.to_string()))?
            .map_err(|e| Error::Internal(e.to_string()))?;
        if made.is_empty() {
            println!("the chain already has staking positions; demo left as it is");
        } else {
            println!(
                "demo staking by {} wallets ({linked} linked to seeded members)",
                made.len()
            );
        }
        Ok(())
    })
}

/// `lvlx seed`: the deterministic history of the admin screens.
fn seed_history(config: &Config, plan: seed::Plan) -> ExitCode {
    let product = config.product.clone();
    offline(config, |store| async move {
        // Seeded members get one hash of a random password nobody knows: they are
        // sample rows, not accounts to sign in with.
        let hash = crate::password::Passwords::new()
            .hash(crate::crypto::random_hex(16))
            .await?;
        let started = std::time::Instant::now();
        let report = store
            .write(move |c| seed::run(c, &plan, &product, &hash))
            .await
            .map_err(Error::from)?;
        if report.skipped {
            println!("the ledger already has rows; seed left it as it is");
        } else {
            println!(
                "seeded {} members, {} ICO transactions, {} NFT stakes, {} LVLX stakes in {:.1} s",
                report.users,
                report.ico_tx,
                report.nft_stakes,
                report.lvlx_stakes,
                started.elapsed().as_secs_f64()
            );
        }
        Ok(())
    })
}

/// `lvlx db copy`: the SQLite database into the configured PostgreSQL one, verified.
fn db_copy(config: &Config, from: Option<std::path::PathBuf>) -> ExitCode {
    let Some(url) = config.database_url.as_ref().map(|u| u.expose().to_owned()) else {
        eprintln!("set database_url to the PostgreSQL database to copy into");
        return ExitCode::FAILURE;
    };
    let from = from.unwrap_or_else(|| config.data_dir.clone());
    if !from.join(crate::store::FILE_NAME).exists() {
        eprintln!("no SQLite database in {}", from.display());
        return ExitCode::FAILURE;
    }
    let copied = tokio::runtime::Runtime::new()
        .map_err(|e| e.to_string())
        .and_then(|rt| {
            rt.block_on(async {
                let started = std::time::Instant::now();
                let source = Store::open(&from).map_err(|e| e.to_string())?;
                // Images an older server left in the data folder travel with the rows.
                let moved = crate::uploads::import_folders(&source, &from)
                    .await
                    .map_err(|e| e.to_string())?;
                if moved > 0 {
                    println!(
                        "{moved} images moved from {} into the database first",
                        from.display()
                    );
                }
                let target = Store::open_postgres(&url)
                    .await
                    .map_err(|e| e.to_string())?;
                let tables = crate::store::copy::copy(&source, &target)
                    .await
                    .map_err(|e| e.to_string())?;
                Ok::<_, String>((tables, started.elapsed()))
            })
        });
    match copied {
        Ok((tables, took)) => {
            for t in &tables {
                let sums: Vec<String> = t.sums.iter().map(|(c, s)| format!("{c} Σ {s}")).collect();
                println!("{:<18} {:>10} rows  {}", t.name, t.rows, sums.join("  "));
            }
            println!(
                "copied and verified {} tables in {:.1} s: row counts and money sums equal",
                tables.len(),
                took.as_secs_f64()
            );
            // The keys are not in the database: every instance needs them configured.
            for (file, key) in [
                ("jwt.secret", "jwt_secret"),
                ("claim.key", "claim_signing_key"),
            ] {
                if from.join(file).exists() {
                    println!(
                        "keep {key}: set it on every instance to the text of {}",
                        from.join(file).display()
                    );
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("copy failed: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `lvlx books verify`: exit 0 when the store's books are the chain's, 1 when they differ.
fn books_verify(config: &Config) -> ExitCode {
    let report = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt.block_on(async {
            let url = config.database_url.as_ref().map(|u| u.expose().to_string());
            let live = Store::open_configured(&config.data_dir, url.as_deref())
                .await
                .map_err(|e| e.to_string())?;
            crate::books::verify(config, &live).await
        }),
        Err(e) => Err(e.to_string()),
    };
    match report {
        Ok(r) => {
            println!(
                "{} lines compared, as of block {} (final {})",
                r.lines, r.block, r.final_block
            );
            for d in &r.differences {
                println!("{}:", d.section);
                for line in &d.only_in_store {
                    println!("  in the store, not on chain: {line}");
                }
                for line in &d.only_on_chain {
                    println!("  on chain, not in the store: {line}");
                }
            }
            if r.differences.is_empty() {
                println!("the books are the chain's");
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// `lvlx audit verify`: exit 0 when the chain holds, 1 when it names a break.
fn audit_verify(config: &Config) -> ExitCode {
    let mut verdict = None;
    let status = offline(config, |store| {
        let verdict = &mut verdict;
        async move {
            *verdict = Some(store.read(crate::store::audit::verify).await?);
            Ok(())
        }
    });
    let Some(v) = verdict else { return status };
    println!(
        "{} audit rows; head {}",
        v.rows,
        v.head.as_deref().unwrap_or("(none)")
    );
    match v.broken {
        None => {
            println!("the chain holds");
            ExitCode::SUCCESS
        }
        Some(broken) => {
            use crate::store::audit::Broken;
            let (id, what) = match broken {
                Broken::Changed { id } => (id, "was changed"),
                Broken::Removed { id } => (id, "was removed"),
                Broken::Inserted { id } => (id, "was inserted by hand"),
            };
            println!("broken: audit row {id} {what}");
            ExitCode::from(1)
        }
    }
}

/// `lvlx db backup FILE` and `lvlx db restore FILE` (SQLite; PostgreSQL has pg_dump).
fn db_backup(config: &Config, file: &std::path::Path, restore: bool) -> ExitCode {
    use crate::store::backup;
    if config.database_url.is_some() {
        eprintln!(
            "database_url is set: back up PostgreSQL with pg_dump or a base backup (docs/operations.md)"
        );
        return ExitCode::FAILURE;
    }
    let done = if restore {
        backup::restore(file, &config.data_dir)
    } else {
        backup::backup(&config.data_dir, file)
    };
    match done {
        Ok(report) => {
            for t in &report.tables {
                let sums: Vec<String> = t.sums.iter().map(|(c, s)| format!("{c} Σ {s}")).collect();
                println!("{:<18} {:>10} rows  {}", t.name, t.rows, sums.join("  "));
            }
            println!(
                "{} {} ({} bytes, schema {}) in {:.1} s, integrity ok",
                if restore {
                    "restored"
                } else {
                    "backed up into"
                },
                report.file.display(),
                report.bytes,
                report.schema,
                report.took.as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// The claim signer of this configuration (its key generated into the data folder if needed).
fn claim_signer(
    config: &Config,
) -> Result<crate::network::signer::ClaimSigner, crate::crypto::KeyError> {
    let io = |e| crate::crypto::KeyError::Io(config.data_dir.display().to_string(), e);
    std::fs::create_dir_all(&config.data_dir).map_err(io)?;
    let key = crate::crypto::claim_key(
        config.claim_signing_key.as_ref().map(|s| s.expose()),
        &config.data_dir,
    )?;
    crate::network::signer::ClaimSigner::new(&key)
}

/// `lvlx chain deploy` on the development chain: deploys unless the configured contracts are
/// there, then adds the `[chain]` section to the configuration file without changing a setting
/// the operator wrote (only what `--confirmations` asks, never lower), printing every change.
fn deploy(
    config: &Config,
    file: &std::path::Path,
    rpc_url: &str,
    confirmations: Option<u64>,
) -> ExitCode {
    use crate::chain::{deploy, rpc::Rpc};
    let rpc = Rpc::new(rpc_url);
    if let Some(chain) = config
        .chain
        .as_ref()
        .filter(|c| c.rpc_url.expose() == rpc_url)
    {
        match deploy::is_deployed(&rpc, chain) {
            Ok(true) => {
                println!(
                    "contracts already on {rpc_url}: ICO sale {}",
                    chain.ico_sale
                );
                return ExitCode::SUCCESS;
            }
            Ok(false) => {}
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let asked: Vec<&str> = confirmations.map(|_| "confirmations").into_iter().collect();
    let section = |d: &deploy::Deployment| crate::config::Chain {
        confirmations: confirmations.unwrap_or(0),
        ..deploy::dev_section(rpc_url, d)
    };
    // Refused before anything is sent, as the write after would be.
    if let Err(e) = deploy::merge_into_file(file, &section(&Default::default()), &asked, false) {
        eprintln!("deploy refused: {e}");
        return ExitCode::FAILURE;
    }
    let signer = match claim_signer(config) {
        Ok(signer) => signer.address(),
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    // The server's voucher key is the distributor's signer from its birth; every contract is
    // the demo Safe's, whose one owner is the first dev account: a developer signs owner
    // actions with it in the browser wallet.
    let result = deploy::dev_plan(&rpc).and_then(|plan| {
        let plan = deploy::Plan {
            claim_signer: Some(signer.clone()),
            safe: Some(deploy::SafePlan {
                owners: vec![plan.owner.clone()],
                threshold: 1,
            }),
            ..plan
        };
        let d = deploy::deploy(
            &rpc,
            &crate::chain::owner::Unlocked(plan.owner.clone()),
            &plan,
            &|_| {},
        )?;
        let changes = deploy::merge_into_file(file, &section(&d), &asked, true)?;
        Ok((d, changes))
    });
    match result {
        Ok((d, changes)) => {
            for change in &changes {
                println!("{} [chain]: {change}", file.display());
            }
            print_deployed(rpc_url, &signer, &d, file);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("deploy failed: {e}");
            ExitCode::FAILURE
        }
    }
}

/// What `chain deploy` made on the development chain, on one line.
fn print_deployed(
    rpc_url: &str,
    signer: &str,
    d: &crate::chain::deploy::Deployment,
    file: &std::path::Path,
) {
    println!(
        "deployed on {rpc_url} (block {}): USDT {}, LVLX {}, ICO sale {}, NFT {}, NFT sale {}, NFT staking {}, LVLX staking {}, activation node {}, claim distributor {} (signer {signer}); owned by the Safe {} (its one owner {}), treasury {}; written to {}",
        d.start_block,
        d.usdt,
        d.lvlx,
        d.ico_sale,
        d.level_nft,
        d.nft_sale,
        d.nft_staking,
        d.lvlx_staking,
        d.activation_node,
        d.claim_distributor,
        d.safe.as_deref().unwrap_or_default(),
        d.owner,
        d.treasury,
        file.display()
    );
}

/// Runs a command against the database without serving.
fn offline<F, Fut>(config: &Config, work: F) -> ExitCode
where
    F: FnOnce(Store) -> Fut,
    Fut: std::future::Future<Output = Result<(), Error>>,
{
    let result = tokio::runtime::Runtime::new()
        .map_err(|e| e.to_string())
        .and_then(|rt| {
            rt.block_on(async {
                let url = config.database_url.as_ref().map(|u| u.expose());
                let store = Store::open_configured(&config.data_dir, url)
                    .await
                    .map_err(|e| e.to_string())?;
                work(store).await.map_err(|e| e.to_string())
            })
        });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn serve(config: Config) -> ExitCode {
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            tracing::error!(error = %e, "cannot start the async runtime");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async move {
        let (app, listener, _folder) = match start(config).await {
            Ok(started) => started,
            Err((what, error)) => {
                tracing::error!(%error, "{what}");
                return ExitCode::FAILURE;
            }
        };
        let addr = listener
            .local_addr()
            .map(|a| a.to_string())
            .unwrap_or_default();
        let data_dir = app.config.data_dir.display().to_string();
        // Said only once nothing of the start-up can fail: the run command and the browser
        // tests read this line to find the server.
        println!("LVLX is serving at http://{addr}/");
        tracing::info!(%addr, %data_dir, "serving");
        crate::serve::serve(&app, listener, crate::serve::stop_signal()).await;
        ExitCode::SUCCESS
    })
}

/// Why the server could not start: what failed, and the error.
type StartError = (&'static str, String);

fn failed<E: std::fmt::Display>(what: &'static str) -> impl FnOnce(E) -> StartError {
    move |e| (what, e.to_string())
}

/// Everything before serving: the data folder's lock (one server per SQLite folder; `lvlx db
/// restore` waits for it), the database, the listener, the app with its live hub, uploads and
/// audit checked, and the background tasks (indexer, books, metrics) started.
async fn start(
    config: Config,
) -> Result<
    (
        App,
        tokio::net::TcpListener,
        Option<crate::store::backup::DataLock>,
    ),
    StartError,
> {
    let url = config.database_url.as_ref().map(|u| u.expose().to_owned());
    let folder = match url {
        None => Some(
            crate::store::backup::DataLock::take(&config.data_dir)
                .map_err(failed("cannot lock the data folder"))?
                .ok_or_else(|| {
                    failed("another lvlx serve uses this data folder")(config.data_dir.display())
                })?,
        ),
        Some(_) => None,
    };
    let store = Store::open_configured(&config.data_dir, url.as_deref())
        .await
        .map_err(failed("cannot open the database"))?;
    if !config.web_dir.join("index.html").exists() {
        tracing::warn!(web_dir = %config.web_dir.display(), "web app not built; run the README's run command");
    }
    let bind = config.bind;
    let listener = crate::listen(bind).map_err(failed("cannot listen"))?;
    // Port 0 picked a port: the default public origin is the one bound.
    let mut config = config;
    if let Ok(bound) = listener.local_addr() {
        config.bind = bound;
    }
    let mut app = App::new(config, store).map_err(failed("cannot start"))?;
    if let Some(url) = &url {
        // Several instances may share this database: pushes travel through it.
        let hub = crate::live::Hub::relayed(url).map_err(failed("cannot relay live pushes"))?;
        app = app.with_hub(hub).map_err(failed("cannot start"))?;
    }
    let moved = crate::uploads::import_folders(&app.store, &app.config.data_dir)
        .await
        .map_err(failed("cannot move uploads into the database"))?;
    if moved > 0 {
        tracing::info!(
            images = moved,
            "uploads moved from the data folder into the database"
        );
    }
    check_audit(&app).await;
    crate::chain::indexer::Indexer::spawn(&app);
    crate::books::schedule::spawn(&app.books());
    // Every socket is an open file: take all the host allows (often 1,024 by default).
    match crate::limits::raise_open_files() {
        Ok(limit) => tracing::info!(open_files = limit, "open-file limit"),
        Err(e) => tracing::warn!(error = %e, "cannot raise the open-file limit"),
    }
    if let Some(addr) = app.config.metrics_bind {
        let bound =
            crate::metrics_endpoint::spawn(&app, addr).map_err(failed("cannot serve metrics"))?;
        tracing::info!(%bound, "metrics at http://{bound}/metrics");
    }
    Ok((app, listener, folder))
}

/// The audit's chain: rows from before it are linked once; its head is logged, so a history
/// rewritten later (every link recomputed) shows against this line.
async fn check_audit(app: &App) {
    let audit = app
        .store
        .write(|c| c.transaction(crate::store::audit::seal))
        .await;
    let verdict = app.store.read(crate::store::audit::verify).await;
    match (audit, verdict) {
        (Ok(_), Ok(v)) if v.broken.is_none() => {
            tracing::info!(
                rows = v.rows,
                head = v.head.as_deref().unwrap_or(""),
                "admin audit chain holds"
            )
        }
        (Ok(_), Ok(v)) => {
            tracing::error!(rows = v.rows, broken = ?v.broken, "admin audit chain is broken: lvlx audit verify")
        }
        (Err(e), _) | (_, Err(e)) => {
            tracing::error!(error = %e, "cannot check the admin audit chain")
        }
    }
}
