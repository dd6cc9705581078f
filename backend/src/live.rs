//! Live updates (issue 5): what the indexer records is pushed to the open pages that care,
//! over the authenticated WebSocket at /api/v1/ws (`api::live`).

use serde_json::{json, Value};
use tokio::sync::broadcast;

use lvlx_core::staking::Pool;

use crate::user::UserId;

/// Pushes a slow page has not read yet before it starts missing some (it then reloads).
const BACKLOG: usize = 1024;

#[derive(Debug, Clone)]
pub enum Push {
    /// A purchase the indexer recorded.
    Purchase {
        user: Option<UserId>,
        tx_hash: String,
        wallet: String,
        lvlx: u128,
        usdt: u128,
        created_at: i64,
    },
    /// A staking or NFT-sale event the indexer recorded (`event`: staked, interest, released,
    /// funded, defunded, terms, nft-purchased). `position` is the NFT id for a purchase.
    Stake {
        user: Option<UserId>,
        pool: Option<Pool>,
        event: &'static str,
        position: u64,
        amount: u128,
        at: i64,
    },
    /// A member's network figures moved (`event`: commission, rank, volume, node, claim).
    Network { user: UserId, event: &'static str },
}

impl Push {
    /// Whether a viewer sees it: the buyer's own pages, and every admin (the ICO table).
    pub fn visible_to(&self, viewer: UserId, admin: bool) -> bool {
        match self {
            Push::Purchase { user, .. } | Push::Stake { user, .. } => {
                admin || *user == Some(viewer)
            }
            Push::Network { user, .. } => *user == viewer,
        }
    }

    /// The message as the page gets it (amounts as decimal base units).
    pub fn to_json(&self) -> Value {
        match self {
            Push::Purchase {
                tx_hash,
                wallet,
                lvlx,
                usdt,
                created_at,
                ..
            } => json!({
                "type": "purchase",
                "txHash": tx_hash,
                "wallet": wallet,
                "lvlx": lvlx.to_string(),
                "usdt": usdt.to_string(),
                "createdAt": created_at,
            }),
            Push::Stake {
                pool,
                event,
                position,
                amount,
                at,
                ..
            } => json!({
                "type": "stake",
                "pool": pool.map(Pool::name),
                "event": event,
                "position": position,
                "amount": amount.to_string(),
                "at": at,
            }),
            Push::Network { event, .. } => json!({ "type": "network", "event": event }),
        }
    }
}

#[derive(Clone)]
pub struct Hub(broadcast::Sender<Push>);

impl Default for Hub {
    fn default() -> Self {
        Hub(broadcast::channel(BACKLOG).0)
    }
}

impl Hub {
    /// Sends to whoever listens; nobody listening is fine.
    pub fn push(&self, push: Push) {
        let _ = self.0.send(push);
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Push> {
        self.0.subscribe()
    }
}
