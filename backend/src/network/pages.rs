//! What the member pages and the sign-in payload read of a member's network: the referral
//! code, the node, the downline by level, rank standing, bonuses, rewards, claims and what is
//! claimable.

use lvlx_core::amount::Units;
use serde_json::{json, Value};

use crate::error::Error;
use crate::store::{self, Conn};
use crate::user::User;

/// The network parts of the sign-in payload (SPEC §3 User): activationNode, claims as
/// {claims, total} (paid claims; total = their sum), maticClaim and userRankData.
pub fn payload_parts(c: Conn, user: &User) -> Result<Value, Error> {
    let figures = store::referrals::figures(c, user.id)?;
    let (ranks, achieved) = store::ranks::ranks_of(c, user.id)?;
    let (paid, _) = claims_split(c, user, figures.paid_out)?;
    Ok(json!({
        "activationNode": figures.node.is_some(),
        "claims": claims_json(&paid),
        // The platform pays rewards in LVLX only; gas is the member's own wallet's. Kept for
        // SPEC §3's shape, always zero (README "Network").
        "maticClaim": "0",
        "userRankData": lvlx_core::network::standing(figures.volume, &ranks, &achieved),
    }))
}

/// Paid claims, and the pending ones that can still pay: a claim whose voucher brings the
/// wallet to no more than the distributor has already paid it (`paid_out`) never will, so it is
/// not shown as pending (a claim cut by the identity rule and then superseded, say).
fn claims_split(
    c: Conn,
    user: &User,
    paid_out: Units,
) -> Result<(Vec<store::claims::Claim>, Vec<store::claims::Claim>), Error> {
    let (paid, pending): (Vec<_>, Vec<_>) = store::claims::claims_of(c, user.id, crate::now_ms())?
        .into_iter()
        .partition(|claim| claim.status == "paid");
    let pending = pending
        .into_iter()
        .filter(|claim| claim.cumulative > paid_out)
        .collect();
    Ok((paid, pending))
}

fn claims_json(paid: &[store::claims::Claim]) -> Value {
    let total = paid
        .iter()
        .try_fold(0u128, |s, c| s.checked_add(c.amount))
        .unwrap_or(u128::MAX);
    json!({ "claims": paid, "total": total.to_string() })
}

/// What the member may claim now: every reward credited minus what the distributor paid.
pub fn claimable(c: Conn, user: &User) -> Result<(Units, Units), Error> {
    let figures = store::referrals::figures(c, user.id)?;
    Ok((figures.claimable(), figures.rewards))
}

fn node_json(node: Option<(i64, Units)>) -> Value {
    json!(node.map(|(at, paid)| json!({ "activatedAt": at, "usdtPaid": paid.to_string() })))
}

/// The dashboard's network card: the referral code, the node, rank standing and what is
/// claimable — without walking the downline.
pub fn glance(c: Conn, user: &User) -> Result<Value, Error> {
    let figures = store::referrals::figures(c, user.id)?;
    let (ranks, achieved) = store::ranks::ranks_of(c, user.id)?;
    Ok(json!({
        "userCodeLink": user.referral_code,
        "activationNode": node_json(figures.node),
        "userRankData": lvlx_core::network::standing(figures.volume, &ranks, &achieved),
        "claimable": figures.claimable().to_string(),
    }))
}

/// /afiliates and /rank-bonus: the referral code, the node, the
/// downline by level with totals, rank standing and bonuses, rewards, claims, what is
/// claimable and how much of it the identity rule lets a claim pay (`claimRoom`: null when it
/// never stops one; `kyc_threshold` is the configured one).
pub fn overview(
    c: Conn,
    user: &User,
    levels_bps: &[u32],
    kyc_threshold: Option<Units>,
) -> Result<Value, Error> {
    let downline = store::referrals::downline(c, user.id, levels_bps.len() as u32)?;
    let mut levels: Vec<Value> = Vec::new();
    for (i, bps) in levels_bps.iter().enumerate() {
        let level = i as u32 + 1;
        let members: Vec<&store::referrals::Downline> =
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
    let figures = store::referrals::figures(c, user.id)?;
    let (ranks, achieved) = store::ranks::ranks_of(c, user.id)?;
    let (paid, pending) = claims_split(c, user, figures.paid_out)?;
    Ok(json!({
        "userCodeLink": user.referral_code,
        "wallet": user.wallet,
        "activationNode": node_json(figures.node),
        "levels": levels,
        "userRankData": lvlx_core::network::standing(figures.volume, &ranks, &achieved),
        "ranks": ranks,
        "bonuses": store::ranks::bonuses(c, user.id)?,
        "rewards": figures.rewards.to_string(),
        "claims": claims_json(&paid),
        "pendingClaims": pending,
        "claimable": figures.claimable().to_string(),
        "claimRoom": crate::kyc::claim_room(c, kyc_threshold, user.id, figures.paid_out)?
            .map(|room| room.to_string()),
        "kycThreshold": kyc_threshold.map(|t| t.to_string()),
    }))
}

/// The member's network page: [`overview`] with the node's terms from the chain.
pub async fn overview_of(app: &crate::App, user: &User) -> Result<Value, Error> {
    let levels = app.config.commission_levels_bps.clone();
    let member = user.clone();
    let threshold = app.kyc_threshold;
    let mut body = app
        .store
        .read(move |c| overview(c, &member, &levels, threshold))
        .await?;
    let terms = super::nodes::node_terms(app).await.ok();
    body["node"] = terms.as_ref().map_or(Value::Null, super::nodes::terms_json);
    if let Some(terms) = terms {
        body["nodeOutcomes"] = node_outcomes(app, terms.price).await?;
        body["nodeOutcomesMin"] = json!(lvlx_core::node_outcomes::MIN_HOLDERS);
    }
    Ok(body)
}

/// How long the node holders' figures are kept before they are counted again.
const OUTCOMES_KEPT_MS: i64 = 60_000;

/// What node holders earned here so far against the node's `price` (both in USDT): counted
/// from every holder's row at most once a minute per instance (a member page loads it often).
async fn node_outcomes(app: &crate::App, price: lvlx_core::amount::Units) -> Result<Value, Error> {
    let mut kept = app.chain_reads.node_outcomes.lock().await;
    let now = crate::now_ms();
    if let Some((at, value)) = kept.as_ref() {
        if now - *at < OUTCOMES_KEPT_MS && value["price"] == json!(price.to_string()) {
            return Ok(value["outcomes"].clone());
        }
    }
    let rewards = app
        .store
        .read(store::referrals::node_holders_rewards)
        .await?;
    let earned = rewards
        .into_iter()
        .map(lvlx_core::amount::lvlx_to_usdt_units)
        .collect();
    let outcomes = json!(lvlx_core::node_outcomes::outcomes(earned, price));
    *kept = Some((
        now,
        json!({ "price": price.to_string(), "outcomes": outcomes }),
    ));
    Ok(outcomes)
}

/// The dashboard's card ([`glance`]).
pub async fn glance_of(app: &crate::App, user: &User) -> Result<Value, Error> {
    let member = user.clone();
    app.store.read(move |c| glance(c, &member)).await
}

/// The linked wallet of the member's sponsor (null when none): the on-chain referrer of their
/// purchases.
pub async fn sponsor_wallet(app: &crate::App, user: &User) -> Result<Value, Error> {
    let id = user.id;
    let wallet = app
        .store
        .read(move |c| store::referrals::sponsor_wallet(c, id))
        .await?;
    Ok(json!({ "wallet": wallet }))
}
