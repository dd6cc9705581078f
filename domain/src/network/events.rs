//! What the indexer and the wallet link do with the network's events: purchases settled into
//! commissions, volume and ranks; activation nodes and the distributor's payments recorded,
//! each returning the pushes that tell members their figures moved, and taken back side by side
//! when their blocks leave the chain.

use lvlx_core::chain::{NetworkEvent, Place};

use super::settlement;
use crate::chain::rollback::Taken;
use crate::live::Push;
use crate::store::{self, users, Conn, StoreError};
use crate::user::UserId;
use lvlx_chain::push::{CLAIM, NODE};

/// The pushes that tell members their network figures moved.
fn pushes(settled: &settlement::Settled) -> Vec<Push> {
    let mut out: Vec<Push> = Vec::new();
    let mut add = |user: UserId, event: &'static str| {
        if !out
            .iter()
            .any(|p| matches!(p, Push::Network { user: u, event: e } if *u == user && *e == event))
        {
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
pub fn settle(
    tx: Conn,
    product: &str,
    levels_bps: &[u32],
    id: i64,
    now: i64,
) -> Result<Vec<Push>, StoreError> {
    let settled = settlement::settle_purchase(tx, id, product, levels_bps, now)?;
    Ok(pushes(&settled))
}

/// A wallet was just linked to `user`: the node it bought before becomes theirs, and their
/// purchases from before the link are settled, oldest first.
pub fn on_link(
    tx: Conn,
    product: &str,
    levels_bps: &[u32],
    user: UserId,
    wallet: &str,
    now: i64,
) -> Result<Vec<Push>, StoreError> {
    let mut out = Vec::new();
    if store::nodes::attach(tx, user, wallet)? {
        out.push(Push::Network { user, event: NODE });
    }
    // Only final purchases count; pending ones are settled when they become final.
    let final_block = store::cursors::final_block(tx)?;
    for id in store::settlement::unsettled_of(tx, user, product, final_block)? {
        out.extend(pushes(&settlement::settle_purchase(
            tx, id, product, levels_bps, now,
        )?));
    }
    Ok(out)
}

/// Applies an activation node or claim distributor event once.
pub fn record(tx: Conn, event: NetworkEvent, log: &Place) -> Result<Vec<Push>, StoreError> {
    Ok(match event {
        NetworkEvent::NodeActivated { wallet, usdt_paid } => {
            let user = users::by_wallet(tx, &wallet)?;
            let node = store::nodes::Node {
                wallet,
                user,
                usdt_paid,
                block: log.block,
                log_index: log.log_index,
                created_at: log.at,
                tx_hash: log.tx_hash.clone(),
            };
            match (store::nodes::record(tx, &node)?, user) {
                (true, Some(user)) => vec![Push::Network { user, event: NODE }],
                _ => Vec::new(),
            }
        }
        // The node's price and sale flag are read from the chain when shown.
        NetworkEvent::NodeTermsChanged { .. } => Vec::new(),
        NetworkEvent::Claimed {
            account,
            amount,
            cumulative,
        } => {
            let (_, owners) = store::claims::record_payment(
                tx,
                &store::claims::Payment {
                    tx_hash: &log.tx_hash,
                    log_index: log.log_index,
                    wallet: &account,
                    amount,
                    cumulative,
                    at: log.at,
                    block: log.block,
                },
            )?;
            owners
                .into_iter()
                .map(|user| Push::Network { user, event: CLAIM })
                .collect()
        }
    })
}

/// Takes back the network events above `ancestor` (the last block the chain and the store agree
/// on): the activation nodes bought there, then the distributor's payments, each claim they paid
/// pending again.
pub fn take_back(tx: Conn, ancestor: u64) -> Result<Vec<Taken>, StoreError> {
    let mut taken = Vec::new();
    for node in store::nodes::above(tx, ancestor)? {
        store::nodes::remove(tx, &node.wallet, node.user)?;
        taken.push(Taken {
            user: node.user,
            event: NODE,
            tx_hash: node.tx_hash,
            amount: Some(node.usdt_paid),
            block: node.block,
        });
    }
    for payment in store::claims::payments_above(tx, ancestor)? {
        let owners = store::claims::remove_payment(tx, &payment)?;
        let users: Vec<Option<UserId>> = if owners.is_empty() {
            vec![None]
        } else {
            owners.into_iter().map(Some).collect()
        };
        for user in users {
            taken.push(Taken {
                user,
                event: CLAIM,
                tx_hash: payment.tx_hash.clone(),
                amount: Some(payment.amount.clone()),
                block: payment.block,
            });
        }
    }
    Ok(taken)
}
