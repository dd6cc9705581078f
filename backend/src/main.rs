//! `lvlx`: the LVLX server and its administration commands.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use lvlx_backend::{routes, App, Config, Db};
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
    /// Print the effective configuration (as JSON).
    Config,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let config = match Config::load(cli.config) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("configuration error: {e}");
            return ExitCode::from(2);
        }
    };
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_new(&config.log).unwrap_or_else(|_| EnvFilter::new("info")))
        .init();
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(config),
        Command::Config => {
            // No secrets are configured here yet; when they are, they print as "***".
            println!(
                "{}",
                serde_json::to_string_pretty(&config).unwrap_or_default()
            );
            ExitCode::SUCCESS
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
        let db = match Db::open(&config.data_dir) {
            Ok(db) => db,
            Err(e) => {
                tracing::error!(error = %e, "cannot open the database");
                return ExitCode::FAILURE;
            }
        };
        if !config.web_dir.join("index.html").exists() {
            tracing::warn!(web_dir = %config.web_dir.display(), "web app not built; run the README's run command");
        }
        let listener = match tokio::net::TcpListener::bind(config.bind).await {
            Ok(l) => l,
            Err(e) => {
                tracing::error!(bind = %config.bind, error = %e, "cannot listen");
                return ExitCode::FAILURE;
            }
        };
        let addr = listener.local_addr().map(|a| a.to_string()).unwrap_or_default();
        // The run command and the browser tests read this line to find the server.
        println!("LVLX is serving at http://{addr}/");
        tracing::info!(%addr, data_dir = %config.data_dir.display(), "serving");
        let app = App::new(config, db);
        warp::serve(routes(app))
            .incoming(listener)
            .graceful(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .run()
            .await;
        ExitCode::SUCCESS
    })
}
