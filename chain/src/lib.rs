//! The chain side of LVLX (docs/product/chain.md), below the business layer: the JSON-RPC
//! client (crate `lvlx-rpc`, here under its old paths), the reads pages share per block, and
//! the indexer: it reads the contracts' logs, decodes them with the core, records the rows the
//! chain decides through `lvlx-store`, takes them back when blocks leave the chain, and says
//! where it stands and whether it moves.
//!
//! What an event means to the business (a purchase's commissions, volume and ranks; an
//! activation node; a claim paid) is not decided here: the indexer hands it to a
//! [`Consumer`], which the layer above (`lvlx-domain`) implements, inside the indexer's own
//! transaction. This crate never names that layer.

pub use lvlx_rpc::{keyed, owner, rpc};

mod applied;
pub mod indexer;
pub mod metrics;
pub mod push;
pub mod reads;
mod recording;
pub mod rollback;
pub mod status;
pub mod watch;

use std::collections::BTreeMap;
use std::sync::Arc;

use lvlx_config::Config;
use lvlx_core::amount::Units;
use lvlx_core::chain::{NetworkEvent, Place};
use lvlx_store::user::UserId;
use lvlx_store::{Conn, Store, StoreError};

pub use indexer::{IndexError, Indexer, Progress};
pub use push::Push;

/// What the layer above the indexer does with what the indexer records. Every method but
/// [`Consumer::push`] runs inside the indexer's transaction (`tx`): what it writes commits, or
/// is rolled back, with the rows and the cursor the indexer wrote in the same step.
pub trait Consumer: Send + Sync {
    /// A network event was found (an activation node bought, the node's terms changed, a
    /// claim paid): record it once. The pushes that tell members their figures moved.
    fn network_event(
        &self,
        tx: Conn,
        event: NetworkEvent,
        at: &Place,
    ) -> Result<Vec<Push>, StoreError>;

    /// Ledger entry `id`, a linked member's LVLX purchase, is final (recorded final, or the
    /// final block passed it): settle it once (commissions, volume, ranks; `levels_bps` per
    /// upline level). Its pushes.
    fn purchase_final(
        &self,
        tx: Conn,
        product: &str,
        levels_bps: &[u32],
        id: i64,
        now: i64,
    ) -> Result<Vec<Push>, StoreError>;

    /// A rollback takes ledger entry `id` back (its row goes right after): take back what
    /// settling it credited, if it was. Each upline member whose volume fell, with their
    /// volume after it.
    fn purchase_taken_back(&self, tx: Conn, id: i64) -> Result<Vec<(UserId, Units)>, StoreError>;

    /// After a rollback took purchases back to block `ancestor`: the members whose volume fell,
    /// each with their volume now, for their ranks to be checked again. Its pushes.
    fn volume_fell(
        &self,
        tx: Conn,
        fell: &BTreeMap<UserId, Units>,
        ancestor: u64,
        now: i64,
    ) -> Result<Vec<Push>, StoreError>;

    /// A rollback to block `ancestor` (the last block the chain and the store agree on): take
    /// back the network events recorded above it, newest first. What each was, for the members'
    /// histories.
    fn network_taken_back(
        &self,
        tx: Conn,
        ancestor: u64,
    ) -> Result<Vec<rollback::Taken>, StoreError>;

    /// A push to hand to open pages, once the transaction that made it committed.
    fn push(&self, push: Push);
}

/// What an [`Indexer`] works with, from the app above it.
#[derive(Clone)]
pub struct Parts {
    pub store: Store,
    /// The product (the ledger's token), the commission levels, `indexer_stall_secs`, and
    /// the chain section [`Indexer::spawn`] starts on.
    pub config: Arc<Config>,
    /// Whether this instance's indexer moves, as readiness, the admin and the metrics see it.
    pub watch: Arc<watch::Watch>,
    pub consumer: Arc<dyn Consumer>,
}
