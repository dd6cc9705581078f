//! What an open page is told when the chain changes what it shows: the live pushes the indexer
//! and the layers above it make, as data (who sees one, its message to the page, its form
//! between instances). Delivering them is the layer above's (`lvlx_domain::live`'s hub).

use serde_json::{json, Value};

use lvlx_core::chain::AppliedEvent;
use lvlx_core::staking::Pool;
use lvlx_store::user::UserId;

/// A purchase's name in a push and its reversal's.
pub const PURCHASE: &str = "purchase";
/// An activation node's.
pub const NODE: &str = "node";
/// A claim the distributor paid.
pub const CLAIM: &str = "claim";

/// The names a push carries besides the applied events' ([`applied`]).
const OTHER_EVENTS: &[&str] = &[
    "commission",
    "rank",
    "volume",
    NODE,
    CLAIM,
    "kyc",
    PURCHASE,
    "final",
];

/// The name a push gives an applied event: its own, the sale's price as the terms it changes.
pub fn applied(event: AppliedEvent) -> &'static str {
    match event {
        AppliedEvent::Price => AppliedEvent::Terms.name(),
        other => other.name(),
    }
}

/// `name` as a push carries it, if a push can carry it.
fn event_named(name: &str) -> Option<&'static str> {
    let applied = AppliedEvent::parse(name).map(applied);
    applied
        .filter(|known| *known == name)
        .or_else(|| OTHER_EVENTS.iter().copied().find(|e| *e == name))
}

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
    /// A staking or NFT-sale event the indexer recorded (`event`: its name as [`applied`] gives
    /// it). `position` is the NFT id for a purchase.
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
    /// Events left the chain and what they recorded was taken back (`event`: purchase, staked,
    /// interest, released, nft-purchased, node, claim), or purchases became final (`final`).
    /// Every page of the member concerned reads its figures again.
    Chain {
        user: Option<UserId>,
        event: &'static str,
        tx_hash: String,
    },
}

impl Push {
    /// Whether a viewer sees it: the buyer's own pages, and every admin (the ICO table).
    pub fn visible_to(&self, viewer: UserId, admin: bool) -> bool {
        match self {
            Push::Purchase { user, .. } | Push::Stake { user, .. } | Push::Chain { user, .. } => {
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
            Push::Chain { event, tx_hash, .. } => {
                json!({ "type": "chain", "event": event, "txHash": tx_hash })
            }
        }
    }
}

impl Push {
    /// The whole push, as it travels between instances.
    pub fn to_wire(&self) -> Value {
        let user = |u: &Option<UserId>| u.map(|u| u.0);
        match self {
            Push::Purchase {
                user: u,
                tx_hash,
                wallet,
                lvlx,
                usdt,
                created_at,
            } => json!({"k": "purchase", "user": user(u), "txHash": tx_hash, "wallet": wallet,
                "lvlx": lvlx.to_string(), "usdt": usdt.to_string(), "createdAt": created_at}),
            Push::Stake {
                user: u,
                pool,
                event,
                position,
                amount,
                at,
            } => {
                json!({"k": "stake", "user": user(u), "pool": pool.map(Pool::name), "event": event,
                "position": position, "amount": amount.to_string(), "at": at})
            }
            Push::Network { user, event } => {
                json!({"k": "network", "user": user.0, "event": event})
            }
            Push::Chain {
                user: u,
                event,
                tx_hash,
            } => json!({"k": "chain", "user": user(u), "event": event, "txHash": tx_hash}),
        }
    }

    /// A push relayed by another instance (`None` for what no instance of this version sends).
    pub fn from_wire(v: &Value) -> Option<Push> {
        let user = || v["user"].as_i64().map(UserId);
        let units = |k: &str| v[k].as_str()?.parse::<u128>().ok();
        let event = || event_named(v["event"].as_str()?);
        Some(match v["k"].as_str()? {
            "purchase" => Push::Purchase {
                user: user(),
                tx_hash: v["txHash"].as_str()?.to_owned(),
                wallet: v["wallet"].as_str()?.to_owned(),
                lvlx: units("lvlx")?,
                usdt: units("usdt")?,
                created_at: v["createdAt"].as_i64()?,
            },
            "stake" => Push::Stake {
                user: user(),
                pool: v["pool"].as_str().and_then(Pool::parse),
                event: event()?,
                position: v["position"].as_u64()?,
                amount: units("amount")?,
                at: v["at"].as_i64()?,
            },
            "network" => Push::Network {
                user: user()?,
                event: event()?,
            },
            "chain" => Push::Chain {
                user: user(),
                event: event()?,
                tx_hash: v["txHash"].as_str()?.to_owned(),
            },
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A push relayed between instances keeps its event: every applied event's name and every
    /// other name a push carries; a name no push carries is dropped, not guessed.
    #[test]
    fn every_event_name_crosses_between_instances() {
        let names = AppliedEvent::ALL
            .into_iter()
            .map(applied)
            .chain(OTHER_EVENTS.iter().copied());
        for name in names {
            let push = Push::Chain {
                user: Some(UserId(7)),
                event: name,
                tx_hash: "0xab".into(),
            };
            let back = Push::from_wire(&push.to_wire()).expect(name);
            assert_eq!(back.to_wire(), push.to_wire());
        }
        assert_eq!(applied(AppliedEvent::Price), "terms");
        assert_eq!(event_named("price"), None, "the price is pushed as terms");
        assert_eq!(event_named("paid"), None);
    }
}
