//! The chain (docs/product/chain.md). The client, the shared reads and the indexer are a crate
//! of their own below this one (`lvlx-chain`), here under their old paths. What the business
//! does with what the indexer records is [`Domain`]: the indexer calls it inside its own
//! transactions and never names this crate.

use std::collections::BTreeMap;

use lvlx_core::amount::Units;
use lvlx_core::chain::{NetworkEvent, Place};

pub use lvlx_chain::{indexer, keyed, owner, rollback, rpc, watch, Parts};

pub mod reads;
pub mod status;

/// The chain section when the network's contracts (node sale, claim distributor) are configured,
/// else `ChainUnavailable`.
pub fn network(
    config: &crate::config::Config,
) -> Result<crate::config::Chain, crate::error::Error> {
    config
        .network_chain()
        .cloned()
        .ok_or(crate::error::Error::ChainUnavailable)
}

use crate::live::{Hub, Push};
use crate::network::{self, settlement};
use crate::store::{ranks, Conn, StoreError};
use crate::user::UserId;

/// The domain's side of the indexer: the network's events recorded, purchases settled and
/// taken back, ranks checked again, and the pushes handed to the app's hub.
pub struct Domain {
    hub: Hub,
}

impl lvlx_chain::Consumer for Domain {
    fn network_event(
        &self,
        tx: Conn,
        event: NetworkEvent,
        at: &Place,
    ) -> Result<Vec<Push>, StoreError> {
        network::events::record(tx, event, at)
    }

    fn network_taken_back(
        &self,
        tx: Conn,
        ancestor: u64,
    ) -> Result<Vec<rollback::Taken>, StoreError> {
        network::events::take_back(tx, ancestor)
    }

    fn purchase_final(
        &self,
        tx: Conn,
        product: &str,
        levels_bps: &[u32],
        id: i64,
        now: i64,
    ) -> Result<Vec<Push>, StoreError> {
        network::events::settle(tx, product, levels_bps, id, now)
    }

    fn purchase_taken_back(&self, tx: Conn, id: i64) -> Result<Vec<(UserId, Units)>, StoreError> {
        settlement::unsettle_purchase(tx, id)
    }

    fn volume_fell(
        &self,
        tx: Conn,
        fell: &BTreeMap<UserId, Units>,
        ancestor: u64,
        now: i64,
    ) -> Result<Vec<Push>, StoreError> {
        // The ranks in force where the chain now ends.
        let table = ranks::table_at(tx, ancestor as i64)?;
        let mut pushes: Vec<Push> = Vec::new();
        for (&member, &volume) in fell {
            if settlement::recheck_ranks(tx, member, volume, &table, now)? {
                pushes.push(Push::Network {
                    user: member,
                    event: "rank",
                });
            }
            pushes.push(Push::Network {
                user: member,
                event: "volume",
            });
        }
        Ok(pushes)
    }

    fn push(&self, push: Push) {
        self.hub.push(push);
    }
}

impl Domain {
    /// The parts an indexer works with (`Indexer::new(parts, &chain)`): `store`, `config`,
    /// `watch` (whether it moves, as readiness and the metrics see it), and this domain pushing
    /// through `hub`.
    pub fn parts(
        store: crate::Store,
        config: std::sync::Arc<crate::Config>,
        watch: std::sync::Arc<watch::Watch>,
        hub: Hub,
    ) -> Parts {
        Parts {
            store,
            config,
            watch,
            consumer: std::sync::Arc::new(Domain { hub }),
        }
    }
}
