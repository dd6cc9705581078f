//! The referral network's glue (issue 13, DESIGN §6): what the indexer and the wallet link do
//! with purchases, activation nodes and claims, using the core's rules through the store. The
//! member and admin routes live in `api::network`.

pub mod claims;
pub mod signer;

use lvlx_core::chain::NetworkEvent;

use crate::live::Push;
use crate::store::{network as stored, users, Conn, StoreError};
use crate::user::UserId;

/// The pushes that tell members their network figures moved.
fn pushes(settled: &stored::Settled) -> Vec<Push> {
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
    let ranks = stored::ranks(tx)?;
    let settled = stored::settle_purchase(tx, id, product, levels_bps, &ranks, now)?;
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
    if stored::attach_node(tx, user, wallet)? {
        out.push(Push::Network {
            user,
            event: "node",
        });
    }
    let ranks = stored::ranks(tx)?;
    for id in stored::unsettled_of(tx, user, product)? {
        out.extend(pushes(&stored::settle_purchase(
            tx, id, product, levels_bps, &ranks, now,
        )?));
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
                (true, Some(user)) => vec![Push::Network {
                    user,
                    event: "node",
                }],
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
            let (_, owners) = stored::record_payment(
                tx,
                &log.tx_hash,
                log.log_index,
                &account,
                amount,
                cumulative,
                log.at,
            )?;
            owners
                .into_iter()
                .map(|user| Push::Network {
                    user,
                    event: "claim",
                })
                .collect()
        }
    })
}

// ---------- what the member pages and the sign-in payload read ----------

use lvlx_core::amount::Units;
use lvlx_core::chain::Contract;
use serde_json::{json, Value};

use crate::chain::rpc::Rpc;
use crate::config;
use crate::error::Error;
use crate::user::User;

/// The activation node's terms as the contract holds them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeTerms {
    /// USDT base units.
    pub price: Units,
    pub on_sale: bool,
    /// The latest block's time, seconds (vouchers' deadlines count from it).
    pub block_time: u64,
}

/// The chain section, when the activation node and claim distributor are configured.
pub fn contracts(config: &config::Config) -> Option<&config::Chain> {
    config
        .chain
        .as_ref()
        .filter(|c| !c.activation_node.is_empty() && !c.claim_distributor.is_empty())
}

fn unavailable(e: impl std::fmt::Display) -> Error {
    tracing::warn!(error = %e, "chain read failed");
    Error::ChainUnavailable
}

/// The node's price and sale flag and the latest block's time: the head read per call, the
/// terms shared by every call at that block (`chain::reads`).
pub async fn node_terms(app: &crate::App) -> Result<NodeTerms, Error> {
    let chain = contracts(&app.config)
        .cloned()
        .ok_or(Error::ChainUnavailable)?;
    let rpc = Rpc::new(chain.rpc_url.expose());
    let (block, block_time) = {
        let rpc = rpc.clone();
        tokio::task::spawn_blocking(move || crate::chain::rpc::head(&rpc))
            .await
            .map_err(|e| Error::Internal(e.to_string()))?
            .map_err(unavailable)?
    };
    let (price, on_sale) = app
        .chain_reads
        .node
        .get("node", block, move || read_node_terms(&rpc, &chain, block))
        .await?;
    Ok(NodeTerms {
        price,
        on_sale,
        block_time,
    })
}

/// The node's price and sale flag at `block`, in one batch (blocking).
fn read_node_terms(rpc: &Rpc, chain: &config::Chain, block: u64) -> Result<(Units, bool), Error> {
    let call = |function| -> Result<(&'static str, Value), Error> {
        let data = lvlx_core::chain::calldata(Contract::ActivationNode, function, &[])
            .map_err(unavailable)?;
        Ok((
            "eth_call",
            json!([{"to": chain.activation_node, "data": data}, crate::chain::rpc::hex(block)]),
        ))
    };
    let answers = rpc
        .batch(&[call("price")?, call("onSale")?])
        .map_err(unavailable)?;
    let word =
        |v: &Value| lvlx_core::chain::decode_uint(v.as_str().unwrap_or("0x")).map_err(unavailable);
    Ok((word(&answers[0])?, word(&answers[1])? == 1))
}

/// The network parts of the sign-in payload (SPEC §3 User): activationNode, claims as
/// {claims, total} (paid claims; total = their sum), maticClaim and userRankData.
pub fn payload_parts(c: Conn, user: &User) -> Result<Value, Error> {
    let figures = stored::figures(c, user.id)?;
    let (ranks, achieved) = stored::ranks_of(c, user.id)?;
    let (paid, _) = claims_split(c, user)?;
    Ok(json!({
        "activationNode": figures.node.is_some(),
        "claims": claims_json(&paid),
        // The platform pays rewards in LVLX only; gas is the member's own wallet's. Kept for
        // SPEC §3's shape, always zero (README "Network").
        "maticClaim": "0",
        "userRankData": lvlx_core::network::standing(figures.volume, &ranks, &achieved),
    }))
}

fn claims_split(c: Conn, user: &User) -> Result<(Vec<stored::Claim>, Vec<stored::Claim>), Error> {
    Ok(stored::claims_of(c, user.id, crate::now_ms())?
        .into_iter()
        .partition(|claim| claim.status == "paid"))
}

fn claims_json(paid: &[stored::Claim]) -> Value {
    let total = paid
        .iter()
        .try_fold(0u128, |s, c| s.checked_add(c.amount))
        .unwrap_or(u128::MAX);
    json!({ "claims": paid, "total": total.to_string() })
}

/// What the member may claim now: every reward credited minus what the distributor paid.
pub fn claimable(c: Conn, user: &User) -> Result<(Units, Units), Error> {
    let figures = stored::figures(c, user.id)?;
    Ok((figures.claimable(), figures.rewards))
}

fn node_json(node: Option<(i64, Units)>) -> Value {
    json!(node.map(|(at, paid)| json!({ "activatedAt": at, "usdtPaid": paid.to_string() })))
}

/// The dashboard's network card: the referral code, the node, rank standing and what is
/// claimable — without walking the downline.
pub fn glance(c: Conn, user: &User) -> Result<Value, Error> {
    let figures = stored::figures(c, user.id)?;
    let (ranks, achieved) = stored::ranks_of(c, user.id)?;
    Ok(json!({
        "userCodeLink": user.referral_code,
        "activationNode": node_json(figures.node),
        "userRankData": lvlx_core::network::standing(figures.volume, &ranks, &achieved),
        "claimable": figures.claimable().to_string(),
    }))
}

/// /afiliates and /rank-bonus: the referral code, the node, the
/// downline by level with totals, rank standing and bonuses, rewards, claims and what is
/// claimable.
pub fn overview(c: Conn, user: &User, levels_bps: &[u32]) -> Result<Value, Error> {
    let downline = stored::downline(c, user.id, levels_bps.len() as u32)?;
    let mut levels: Vec<Value> = Vec::new();
    for (i, bps) in levels_bps.iter().enumerate() {
        let level = i as u32 + 1;
        let members: Vec<&stored::Downline> =
            downline.iter().filter(|d| d.level == level).collect();
        let volume = members
            .iter()
            .try_fold(0u128, |s, d| s.checked_add(d.volume));
        let commission = members
            .iter()
            .try_fold(0u128, |s, d| s.checked_add(d.commission));
        let (Some(volume), Some(commission)) = (volume, commission) else {
            return Err(Error::Internal("network totals overflow".into()));
        };
        levels.push(json!({
            "level": level,
            "bps": bps,
            "members": members,
            "totals": { "members": members.len(), "volume": volume.to_string(), "commission": commission.to_string() },
        }));
    }
    let figures = stored::figures(c, user.id)?;
    let (ranks, achieved) = stored::ranks_of(c, user.id)?;
    let (paid, pending) = claims_split(c, user)?;
    Ok(json!({
        "userCodeLink": user.referral_code,
        "wallet": user.wallet,
        "activationNode": node_json(figures.node),
        "levels": levels,
        "userRankData": lvlx_core::network::standing(figures.volume, &ranks, &achieved),
        "ranks": ranks,
        "bonuses": stored::bonuses(c, user.id)?,
        "rewards": figures.rewards.to_string(),
        "claims": claims_json(&paid),
        "pendingClaims": pending,
        "claimable": figures.claimable().to_string(),
    }))
}
