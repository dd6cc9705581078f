//! Configuration, layered: defaults in code → `lvlx.toml` (or the file named by `LVLX_CONFIG`)
//! → `LVLX_*` environment variables. `lvlx.example.toml` documents every key.

use std::net::SocketAddr;
use std::path::PathBuf;

use figment::providers::{Env, Format, Serialized, Toml};
use figment::Figment;
use lvlx_core::siwe::Origin;
use serde::{Deserialize, Serialize};

/// `LVLX_` variables that are not configuration: LVLX_CONFIG names the file;
/// LVLX_ADMIN_PASSWORD feeds `lvlx admin create`, LVLX_SECRET_VALUE and _PASSPHRASE `lvlx secret
/// set`, LVLX_KEYSTORE_PASSWORD `lvlx chain deploy --keystore`; LVLX_ANVIL_PORT is the run
/// command's development chain port; LVLX_TEST_POSTGRES the test suites' server.
const COMMAND_VARIABLES: &[&str] = &[
    "CONFIG",
    "ADMIN_PASSWORD",
    "SECRET_VALUE",
    "SECRET_PASSPHRASE",
    "KEYSTORE_PASSWORD",
    "ANVIL_PORT",
    "TEST_POSTGRES",
];
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Address the HTTP server listens on. Port 0 picks a free port.
    pub bind: SocketAddr,
    /// Folder for the SQLite database and generated secrets.
    pub data_dir: PathBuf,
    /// The database: unset = SQLite in `data_dir` (the embedded default); `postgres://…` =
    /// PostgreSQL, for running several instances on one store. Never printed.
    pub database_url: Option<Secret>,
    /// The built web app (webpack output).
    pub web_dir: PathBuf,
    /// Translation files, served at /locales/{lng}/{lng}.json.
    pub locales_dir: PathBuf,
    /// The FAQ guide's screenshots, per language (`{lng}/buy-1.jpg` …), served at /guides
    /// (`npm run guide-screenshots` makes them from the running app).
    pub guides_dir: PathBuf,
    /// The public origins the app is served at (`https://app.example.com`; several when it
    /// answers under more than one name). Wallet-linking messages must name one of them as
    /// their domain and URI; no request header is trusted for it. Empty = the origin of `bind`
    /// (and `localhost` at its port when it is a loopback address), for a server used directly.
    pub public_origins: Vec<String>,
    /// Where /, /home, /faqs and /register send the browser. The default is the landing page
    /// this server serves itself, so a fresh install works offline.
    pub landing_url: String,
    /// Token symbol shown in the interface.
    pub product: String,
    /// Where members write for help (an email address), shown where a member may need a person:
    /// a claim waiting for identity verification, the FAQ. Absent = no address is shown.
    pub support_email: Option<String>,
    /// Log filter, as RUST_LOG (e.g. "info", "lvlx_backend=debug").
    pub log: String,
    /// "text" (default) or "json": one JSON object a line, for the journal or a log shipper.
    pub log_format: String,
    /// HS256 key for session tokens: text of at least 32 bytes, taken as the key. When absent,
    /// `data_dir/jwt.secret` holds one (64 random hex digits, mode 0600, generated on first
    /// start), read the same way: paste the file's text here to keep every session.
    pub jwt_secret: Option<Secret>,
    /// Leading zero bits the captcha's proof of work needs (18 ≈ a quarter second in a browser).
    pub captcha_difficulty: u32,
    /// Logins, registrations and recoveries allowed per minute from one IP address.
    pub auth_per_minute: u32,
    /// Live-channel sockets one IP address may hold before they authenticate, and all addresses
    /// together (each must authenticate within 5 s).
    pub ws_unauthenticated_per_ip: u32,
    pub ws_unauthenticated_total: u32,
    /// Where Prometheus scrapes GET /metrics (e.g. "127.0.0.1:9464", or a private interface):
    /// an address of its own, never the public one. Unset: no metrics endpoint.
    pub metrics_bind: Option<std::net::SocketAddr>,
    /// The indexer alert's threshold (`deploy/prometheus/lvlx-rules.yml`): blocks between the
    /// chain's head and the next block to index. Exported as a metric so the rules read it.
    pub indexer_lag_alert_blocks: u64,
    /// Seconds the indexer may go without moving (reading a range, or being caught up) while
    /// its nodes report blocks it has not read, before it is stuck: a warning in the log,
    /// `lvlx_indexer_stalled`, and not ready.
    pub indexer_stall_secs: u64,
    /// Hours between checks of the books against the chain (`crate::books::schedule`; the
    /// first a minute after start when the last is older). 0: only `lvlx books verify` and
    /// the admin's "check now".
    pub books_every_hours: u64,
    /// Seconds between the server's pings on a live channel: under `idle_timeout_secs` and
    /// any proxy's read timeout (nginx's default is 60 s), so quiet channels stay open.
    pub ws_ping_secs: u64,
    /// Seconds a live-channel socket has to authenticate before it is closed and its place
    /// among `ws_unauthenticated_per_ip` comes back.
    pub ws_auth_secs: u64,
    /// Live channels one account may hold open at once (a tab each).
    pub live_channels_per_account: u32,
    /// Connections one address may hold open (trusted proxies are exempt); more are closed at
    /// accept.
    pub connections_per_ip: u32,
    /// Seconds a connection may take to send a whole request head, counted from when the server
    /// waits for one (so an idle keep-alive connection closes after it too).
    pub header_read_timeout_secs: u64,
    /// Seconds a connection may go without a byte read or written before it is closed.
    pub idle_timeout_secs: u64,
    /// Seconds one request may take from its head to its answer, its body's upload included
    /// (a body sent a byte at a time is cut off here; 408).
    pub request_timeout_secs: u64,
    /// Connections open at once from every address together; more are closed at accept. Kept
    /// below the open-file limit (less 256 for the database, logs and outgoing calls) whatever
    /// is set.
    pub max_connections: u32,
    /// Reverse proxies (addresses or ranges, e.g. "127.0.0.1/32", "10.0.0.0/8") whose
    /// `X-Forwarded-For` names the client. Behind a proxy, set it: otherwise every request
    /// seems to come from the proxy and all clients share one per-IP limit. Empty = no proxy.
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// Sender of the platform's mail.
    pub mail_from: String,
    /// SMTP relay. Without it every message is written to `data_dir/outbox` as an .eml file.
    pub smtp: Option<Smtp>,
    /// Pass key the secret-key form seals its value with before sending (POST key,
    /// docs/product/admin.md#secret-key). It is public (every browser gets it): it keeps the value
    /// out of logs, it protects nothing.
    pub secret_pass_key: String,
    /// The chain and the platform's contracts (docs/product/chain.md). Without it wallets cannot be
    /// used and nothing is indexed; `lvlx chain deploy` writes it for the development chain.
    pub chain: Option<Chain>,
    /// Commission per upline level (level 1 = the buyer's sponsor), in basis points of the LVLX
    /// bought; at most 20 levels paying at most 100 % together (checked at start).
    pub commission_levels_bps: Vec<u32>,
    /// The key that signs claim vouchers (32-byte secp256k1 secret, hex). When absent, one is
    /// generated into `data_dir/claim.key` (mode 0600) on first start. Its address must be the
    /// ClaimDistributor's signer (`lvlx chain deploy` registers it on the development chain).
    pub claim_signing_key: Option<Secret>,
    /// Claims above this many LVLX (a decimal, e.g. "10000") need an approved identity
    ///; absent = no threshold.
    pub kyc_claim_threshold: Option<String>,
    /// The identity-verification provider (Persona). Without it members read that verification
    /// is not open yet; admins can still set a status.
    pub kyc: Option<Kyc>,
    /// The card payment provider's crypto on-ramp (Stripe). Without it the token page points to
    /// the FAQ's two on-ramp providers.
    pub card: Option<Card>,
    /// FAQ videos: FAQ entry (faqs1 … faqs7) → the video provider's id (YouTube).
    #[serde(default)]
    pub faq_videos: std::collections::BTreeMap<String, String>,
    /// Key of the video provider's metadata API (YouTube Data API v3). Without it the FAQ shows
    /// its videos as plain links. Never sent to the browser.
    pub video_api_key: Option<Secret>,
    /// The video metadata API's base URL.
    pub video_api_url: String,
}

/// Persona: hosted verification flow and signed webhooks.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Kyc {
    /// The webhook's secret (Persona's `wbhsec_…`).
    pub webhook_secret: Secret,
    /// The inquiry template members verify with (`itmpl_…`).
    pub template_id: String,
    /// The Persona environment (`env_…`); empty for the template's default.
    #[serde(default)]
    pub environment_id: String,
    /// The hosted flow members are sent to.
    #[serde(default = "default_kyc_flow_url")]
    pub flow_url: String,
    /// Oldest a signed webhook may be, in seconds (replays after that are refused).
    #[serde(default = "default_webhook_tolerance")]
    pub tolerance_secs: u64,
}

fn default_kyc_flow_url() -> String {
    "https://withpersona.com/verify".into()
}

fn default_webhook_tolerance() -> u64 {
    300
}

/// Stripe's crypto on-ramp.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    /// The publishable key (`pk_…`), public: the page names the provider's account with it.
    pub publishable_key: String,
    /// The secret key (`sk_…`) the server creates sessions with. Never sent to the browser.
    pub secret_key: Secret,
    /// The API's base URL.
    #[serde(default = "default_card_api_url")]
    pub api_url: String,
    /// What the session buys on Polygon. Stripe's on-ramp lists USDC (not USDT) on Polygon;
    /// set "usdt" when the provider offers it.
    #[serde(default = "default_card_currency")]
    pub destination_currency: String,
}

fn default_card_api_url() -> String {
    "https://api.stripe.com".into()
}

fn default_card_currency() -> String {
    "usdc".into()
}

fn default_lease_secs() -> u64 {
    15
}

fn default_chain_id() -> u64 {
    lvlx_core::siwe::CHAIN_ID
}

fn default_finalized_tag() -> bool {
    true
}

fn default_reserve_weeks() -> u64 {
    8
}

/// Polygon's own reorganisations stay far under 64 blocks since its milestones.
fn default_confirmations() -> u64 {
    64
}

fn default_max_block_range() -> u64 {
    1000
}

fn default_poll_ms() -> u64 {
    2000
}

/// Where the platform's contracts live and how the indexer reads them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chain {
    /// The chain's id: 137 (Polygon PoS), 80002 for a staging run on Amoy. Wallets are linked,
    /// and claim vouchers signed, for this chain only.
    #[serde(default = "default_chain_id")]
    pub chain_id: u64,
    /// JSON-RPC endpoint the server indexes through (a node of its own in production). A
    /// provider's URL often carries its API key, so it prints as "***" like other secrets.
    pub rpc_url: Secret,
    /// Further JSON-RPC endpoints the indexer moves to, in order, when the one in use cannot
    /// answer (unreachable, rate limited, behind the indexed block). Secrets like `rpc_url`.
    #[serde(default)]
    pub fallback_rpc_urls: Vec<Secret>,
    /// RPC endpoint offered to wallets that do not know the network yet (wallet_addEthereumChain).
    pub public_rpc_url: String,
    /// Block explorer for transaction links (`{explorer_url}/tx/{hash}`).
    pub explorer_url: String,
    /// Contract addresses.
    pub usdt: String,
    pub lvlx: String,
    pub ico_sale: String,
    /// The NFTs (ERC1155), their sale and the two staking contracts; empty when not deployed
    /// (their pages then say staking is not available).
    #[serde(default)]
    pub level_nft: String,
    #[serde(default)]
    pub nft_sale: String,
    #[serde(default)]
    pub nft_staking: String,
    #[serde(default)]
    pub lvlx_staking: String,
    /// The activation node sale and the claim distributor; empty when not deployed.
    #[serde(default)]
    pub activation_node: String,
    #[serde(default)]
    pub claim_distributor: String,
    /// Retired: owner actions are proposals to the owners' Safe, and no owner account is the
    /// server's. A development `lvlx.toml` written before still names it; it is read and ignored,
    /// and the next `chain deploy` leaves it out.
    #[serde(default, skip_serializing)]
    pub owner: Option<String>,
    /// The admin staking screens warn when the free reward reserve covers fewer weeks of new
    /// stakes than this, at the last 30 days' pace.
    #[serde(default = "default_reserve_weeks")]
    pub reserve_warning_weeks: u64,
    /// First block to index: the sale's deployment block.
    pub start_block: u64,
    /// Whether events count once the node's `finalized` block passes them (Polygon answers
    /// that tag, a few seconds behind the head since its milestones). Without the tag, or when
    /// the node does not answer it, `confirmations` decides.
    #[serde(default = "default_finalized_tag")]
    pub finalized_tag: bool,
    /// Blocks an event must be buried under before it counts, when the finalized tag is off or
    /// unanswered (0 on the development chain). Events above it are shown as pending.
    #[serde(default = "default_confirmations")]
    pub confirmations: u64,
    /// Most blocks one eth_getLogs call spans (providers cap it; 1000–2000 is common).
    #[serde(default = "default_max_block_range")]
    pub max_block_range: u64,
    /// Pause between polls when the indexer has caught up, in milliseconds.
    #[serde(default = "default_poll_ms")]
    pub poll_ms: u64,
    /// With several instances on PostgreSQL: seconds after which the indexer's lease lapses
    /// when its holder stops renewing it (frozen, cut off from the database); another instance
    /// then indexes. Renewed four times within it.
    #[serde(default = "default_lease_secs")]
    pub lease_secs: u64,
    /// Token image offered to wallets by "add token" (a URL); empty for the app's own logo.
    #[serde(default)]
    pub token_image: String,
}

impl Chain {
    /// The indexer's nodes: `rpc_url`, then each fallback.
    pub fn rpc_urls(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.rpc_url.expose())
            .chain(self.fallback_rpc_urls.iter().map(Secret::expose))
    }

    /// The platform's owned contracts this section names (deployed ones only), with their ABI:
    /// the one list the indexer's filter and the owners' page read.
    pub fn owned(&self) -> Vec<(&str, lvlx_core::chain::Contract)> {
        use lvlx_core::chain::Contract;
        [
            (&self.ico_sale, Contract::IcoSale),
            (&self.level_nft, Contract::LevelNft),
            (&self.nft_sale, Contract::NftSale),
            (&self.nft_staking, Contract::NftStaking),
            (&self.lvlx_staking, Contract::LvlxStaking),
            (&self.activation_node, Contract::ActivationNode),
            (&self.claim_distributor, Contract::ClaimDistributor),
        ]
        .into_iter()
        .filter(|(address, _)| !address.is_empty())
        .map(|(address, contract)| (address.as_str(), contract))
        .collect()
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Smtp {
    pub host: String,
    pub port: u16,
    /// "none" (plain, for a local relay), "starttls" or "tls".
    pub tls: SmtpTls,
    pub username: Option<String>,
    pub password: Option<Secret>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SmtpTls {
    None,
    Starttls,
    Tls,
}

/// A configured secret: usable by the server, printed as "***".
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Secret {
        Secret(value.into())
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("***")
    }
}

impl Serialize for Secret {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str("***")
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            bind: SocketAddr::from(([127, 0, 0, 1], 8080)),
            data_dir: PathBuf::from("data"),
            database_url: None,
            web_dir: PathBuf::from("web/dist"),
            locales_dir: PathBuf::from("locales"),
            guides_dir: PathBuf::from("web/guides"),
            public_origins: Vec::new(),
            landing_url: "/landing".into(),
            support_email: None,
            product: "LVLX".into(),
            log: "info".into(),
            log_format: "text".into(),
            jwt_secret: None,
            captcha_difficulty: 18,
            auth_per_minute: 10,
            ws_unauthenticated_per_ip: 20,
            ws_unauthenticated_total: 1000,
            ws_ping_secs: 20,
            ws_auth_secs: 5,
            metrics_bind: None,
            indexer_lag_alert_blocks: 100,
            indexer_stall_secs: 30,
            books_every_hours: 24,
            live_channels_per_account: 8,
            connections_per_ip: 256,
            header_read_timeout_secs: 10,
            idle_timeout_secs: 60,
            request_timeout_secs: 30,
            max_connections: 10_000,
            trusted_proxies: Vec::new(),
            mail_from: "LVLX <no-reply@localhost>".into(),
            smtp: None,
            secret_pass_key: "lvlx-secret-key-transport".into(),
            chain: None,
            commission_levels_bps: lvlx_core::network::DEFAULT_LEVELS_BPS.to_vec(),
            claim_signing_key: None,
            kyc_claim_threshold: Some("10000".into()),
            kyc: None,
            card: None,
            faq_videos: Default::default(),
            video_api_key: None,
            video_api_url: "https://www.googleapis.com/youtube/v3".into(),
        }
    }
}

impl Config {
    /// The chain section, when the activation node and claim distributor are configured.
    pub fn network_chain(&self) -> Option<&Chain> {
        self.chain
            .as_ref()
            .filter(|c| !c.activation_node.is_empty() && !c.claim_distributor.is_empty())
    }

    /// The chain section, when the staking contracts are configured.
    pub fn staking_chain(&self) -> Option<&Chain> {
        self.chain.as_ref().filter(|c| {
            !c.nft_staking.is_empty() && !c.lvlx_staking.is_empty() && !c.nft_sale.is_empty()
        })
    }

    /// The chain the app runs on: the configured one's id, Polygon's without a `[chain]`.
    pub fn chain_id(&self) -> u64 {
        self.chain
            .as_ref()
            .map_or(lvlx_core::siwe::CHAIN_ID, |c| c.chain_id)
    }

    /// The public origins wallet-linking messages must name: `public_origins`, or the origin
    /// `bind` is reached at when it names one address (behind a proxy, or bound to every
    /// address, set `public_origins`).
    pub fn origins(&self) -> Result<Vec<Origin>, String> {
        if !self.public_origins.is_empty() {
            return self
                .public_origins
                .iter()
                .map(|o| {
                    Origin::parse(o)
                        .map_err(|_| format!("public_origins: {o} is not scheme://host[:port]"))
                })
                .collect();
        }
        let ip = self.bind.ip();
        if ip.is_unspecified() {
            return Err(format!(
                "bind = {} listens on every address: set public_origins to the address(es) browsers use",
                self.bind
            ));
        }
        let mut origins = vec![format!("http://{}", self.bind)];
        if ip.is_loopback() {
            origins.push(format!("http://localhost:{}", self.bind.port()));
        }
        Ok(origins
            .iter()
            .map(|o| Origin::parse(o).expect("an address is an origin"))
            .collect())
    }

    /// Loads the layers; `file` overrides the default `lvlx.toml` location.
    pub fn load(file: Option<PathBuf>) -> Result<Config, Box<figment::Error>> {
        Self::figment(Self::file(file)).extract().map_err(Box::new)
    }

    /// The configuration file in effect: `file`, else `$LVLX_CONFIG`, else `./lvlx.toml`.
    pub fn file(file: Option<PathBuf>) -> PathBuf {
        file.or_else(|| std::env::var_os("LVLX_CONFIG").map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from("lvlx.toml"))
    }

    fn figment(file: PathBuf) -> Figment {
        Figment::from(Serialized::defaults(Config::default()))
            .merge(Toml::file(file))
            .merge(Env::prefixed("LVLX_").ignore(COMMAND_VARIABLES))
    }
}

#[cfg(test)]
#[allow(clippy::result_large_err)] // figment::Jail's closure type, not ours
mod tests {
    use super::*;

    #[test]
    fn layers_apply_in_order() {
        figment::Jail::expect_with(|jail| {
            jail.create_file("lvlx.toml", "product = \"FROMFILE\"\nlog = \"debug\"")?;
            jail.set_env("LVLX_LOG", "warn");
            let config: Config = Config::figment("lvlx.toml".into()).extract()?;
            assert_eq!(config.product, "FROMFILE");
            assert_eq!(config.log, "warn", "environment beats the file");
            assert_eq!(config.bind.port(), 8080, "defaults fill the rest");
            Ok(())
        });
    }

    #[test]
    fn secrets_never_print() {
        figment::Jail::expect_with(|jail| {
            jail.set_env("LVLX_JWT_SECRET", "a-very-secret-value-of-enough-length");
            let config: Config = Config::figment("none.toml".into()).extract()?;
            assert_eq!(
                config.jwt_secret.as_ref().unwrap().expose(),
                "a-very-secret-value-of-enough-length"
            );
            let printed = serde_json::to_string(&config).unwrap() + &format!("{config:?}");
            assert!(!printed.contains("very-secret"), "{printed}");
            Ok(())
        });
    }

    #[test]
    fn the_commands_own_variables_are_not_configuration() {
        figment::Jail::expect_with(|jail| {
            for name in COMMAND_VARIABLES {
                jail.set_env(format!("LVLX_{name}"), "x");
            }
            Config::figment("none.toml".into()).extract::<Config>()?;
            jail.set_env("LVLX_NOT_A_KEY", "x");
            assert!(Config::figment("none.toml".into())
                .extract::<Config>()
                .is_err());
            Ok(())
        });
    }

    /// A `[chain]` section with the addresses and the endpoints alone starts: every indexer
    /// setting has a default, the safe one (64 confirmations).
    #[test]
    fn a_chain_section_of_addresses_and_endpoints_alone_is_enough() {
        figment::Jail::expect_with(|jail| {
            jail.create_file(
                "lvlx.toml",
                r#"
[chain]
rpc_url = "http://127.0.0.1:8545"
public_rpc_url = "https://polygon-rpc.com"
explorer_url = "https://polygonscan.com"
usdt = "0xc2132D05D31c914a87C6611C10748AEb04B58e8F"
lvlx = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
ico_sale = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512"
start_block = 1
"#,
            )?;
            let config: Config = Config::figment("lvlx.toml".into()).extract()?;
            let chain = config.chain.unwrap();
            assert_eq!(
                (chain.confirmations, chain.max_block_range, chain.poll_ms),
                (64, 1000, 2000)
            );
            assert!(chain.finalized_tag && chain.token_image.is_empty());
            Ok(())
        });
    }

    #[test]
    fn unknown_keys_are_refused() {
        figment::Jail::expect_with(|jail| {
            jail.create_file("lvlx.toml", "prodcut = \"typo\"")?;
            assert!(Config::figment("lvlx.toml".into())
                .extract::<Config>()
                .is_err());
            Ok(())
        });
    }

    #[test]
    fn example_file_is_complete_and_valid() {
        let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../lvlx.example.toml");
        let text = std::fs::read_to_string(example).expect("lvlx.example.toml");
        let parsed: Config = Figment::new()
            .merge(Toml::string(&text))
            .extract()
            .expect("valid");
        let defaults = Config::default();
        assert_eq!(parsed.bind, defaults.bind, "the example shows the defaults");
        assert_eq!(parsed.landing_url, defaults.landing_url);
        // An operator learns of a stuck indexer within half a minute (the stuck test runs on 5 s).
        assert_eq!(parsed.indexer_stall_secs, 30);
        assert_eq!(defaults.indexer_stall_secs, 30);
    }
}
