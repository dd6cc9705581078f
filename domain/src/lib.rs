//! The LVLX domain: the server's business transactions (accounts, staking, the network, owners'
//! proposals, the books, identity, help and content), what the chain indexer's events mean to
//! them (the indexer is crate `lvlx-chain`, below: `chain::Domain`), mail, limits and metrics.
//! Knows no HTTP: the API above it (crate `lvlx-backend`) parses requests, calls one function
//! here and replies. Knows no app either: each function takes the parts it uses (the store,
//! the configuration, the mailer, the hub, the chain reads …, or a small `Parts` of borrowed
//! ones where an area needs many), which the server assembles once at start. Rules that need no I/O come from `lvlx-core` and are not restated;
//! every SQL statement is in `lvlx-store`. Functions return [`error::Error`].

/// The store is its own crate below this one (every SQL statement, both dialects): here under
/// its old path, so `crate::store::…` reads as before.
pub use lvlx_config as config;
pub use lvlx_store as store;
pub use lvlx_store::{args, now_ms};

pub mod accounts;
pub mod admin_audit;
pub mod books;
pub mod captcha;
pub mod chain;
pub mod code;
pub mod content;
pub mod crypto;
pub mod error;
pub mod faq;
pub mod health;
pub mod images;
pub mod jwt;
pub mod kyc;
pub mod limits;
pub mod live;
pub mod mail;
pub mod metrics;
pub mod network;
pub mod onramp;
pub mod owners;
pub mod password;
pub mod secret;
pub mod session;
pub mod solvency;
pub mod staking;
pub mod statistics;
pub mod uploads;
pub mod user;

pub use config::Config;
pub use store::Store;

/// The node holders' outcomes last counted: when (ms), for which node price, what.
pub type NodeOutcomesKept = Option<(
    i64,
    lvlx_core::amount::Units,
    Option<lvlx_core::node_outcomes::Outcomes>,
)>;

/// The chain reads pages share: the staking offer, wallets' holdings, the activation node's
/// terms, each at a block.
#[derive(Default)]
pub struct ChainReads {
    pub offers: chain::reads::AtBlock<staking::Offer>,
    pub holdings: chain::reads::AtBlock<staking::Holdings>,
    pub node: chain::reads::AtBlock<(lvlx_core::amount::Units, bool)>,
    /// What the contracts' owners have announced (`owners::read`).
    pub owners: chain::reads::AtBlock<owners::Owners>,
    /// The claim distributor's caps, the room they leave now and what a wallet received, by
    /// wallet (`network::claims::caps_now`).
    pub claims: chain::reads::AtBlock<network::claims::CapsNow>,
    /// What node holders have earned (`network::pages`), and when it was counted (ms): read
    /// from every holder's row, so kept a minute rather than counted at each page load.
    pub node_outcomes: tokio::sync::Mutex<NodeOutcomesKept>,
}
