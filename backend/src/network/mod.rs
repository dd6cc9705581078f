//! The referral network's glue (issue 13, DESIGN §6): what the indexer and the wallet link do
//! with purchases, activation nodes and claims, using the core's rules through the store. The
//! member and admin routes live in `api::network`.

pub mod signer;

use lvlx_core::chain::NetworkEvent;

use crate::live::Push;
use crate::store::{network as stored, users, Conn, StoreError};
use crate::user::UserId;

/// The pushes that tell members their network figures moved.
fn pushes(settled: &stored::Settled) -> Vec<Push> {
    let mut out: Vec<Push> = Vec::new();
    let mut add = |user: UserId, event: &'static str| {
        if !out.iter().any(|p| matches!(p, Push::Network { user: u, event: e } if *u == user && *e == event)) {
            out.push(Push::Network { user, event });
        }
    };
    for &(user, _) in &settled.commissions {
        add(user, "commission");
    }
    for &(user, _) in &settled.ranks {
        add(user, "rank");
    }
    for &user in &settled.upline {
        add(user, "volume");
    }
    out
}

/// Settles ledger entry `id` (a linked member's LVLX purchase): commissions, volume, ranks.
pub fn settle(tx: Conn, product: &str, levels_bps: &[u32], id: i64, now: i64) -> Result<Vec<Push>, StoreError> {
    let ranks = stored::ranks(tx)?;
    let settled = stored::settle_purchase(tx, id, product, levels_bps, &ranks, now)?;
    Ok(pushes(&settled))
}

/// A wallet was just linked to `user`: the node it bought before becomes theirs, and their
/// purchases from before the link are settled, oldest first.
pub fn on_link(tx: Conn, product: &str, levels_bps: &[u32], user: UserId, wallet: &str, now: i64) -> Result<Vec<Push>, StoreError> {
    let mut out = Vec::new();
    if stored::attach_node(tx, user, wallet)? {
        out.push(Push::Network { user, event: "node" });
    }
    let ranks = stored::ranks(tx)?;
    for id in stored::unsettled_of(tx, user, product)? {
        out.extend(pushes(&stored::settle_purchase(tx, id, product, levels_bps, &ranks, now)?));
    }
    Ok(out)
}

/// Where an event sat on the chain.
pub struct Logged {
    pub tx_hash: String,
    pub log_index: i64,
    pub block: i64,
    /// Block time, milliseconds.
    pub at: i64,
}

/// Applies an activation node or claim distributor event once.
pub fn record(tx: Conn, event: NetworkEvent, log: &Logged) -> Result<Vec<Push>, StoreError> {
    Ok(match event {
        NetworkEvent::NodeActivated { wallet, usdt_paid } => {
            let user = users::by_wallet(tx, &wallet)?;
            let node = stored::Node {
                wallet,
                user,
                usdt_paid,
                block: log.block,
                log_index: log.log_index,
                created_at: log.at,
                tx_hash: log.tx_hash.clone(),
            };
            match (stored::record_node(tx, &node)?, user) {
                (true, Some(user)) => vec![Push::Network { user, event: "node" }],
                _ => Vec::new(),
            }
        }
        // The node's price and sale flag are read from the chain when shown.
        NetworkEvent::NodeTermsChanged { .. } => Vec::new(),
        NetworkEvent::Claimed { account, amount, cumulative } => {
            let (_, owners) = stored::record_payment(tx, &log.tx_hash, log.log_index, &account, amount, cumulative, log.at)?;
            owners
                .into_iter()
                .map(|user| Push::Network { user, event: "claim" })
                .collect()
        }
    })
}
