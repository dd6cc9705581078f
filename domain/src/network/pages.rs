//! What the member pages and the sign-in payload read of a member's network: the referral
//! code, the node, the downline by level, rank standing, bonuses, rewards, claims and what is
//! claimable.

use lvlx_core::amount::Units;
use lvlx_core::kyc::ClaimSplit;
use lvlx_core::network::{Rank, Standing};
use lvlx_core::node_outcomes::Outcomes;
use serde::Serialize;

use crate::error::Error;
use crate::store::{self, Conn};
use crate::user::User;

/// The network parts of the sign-in payload (docs/product/api.md#user).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PayloadParts {
    /// Whether the member holds an activation node.
    activation_node: bool,
    /// The claims paid.
    claims: PaidClaims,
    /// The platform pays rewards in LVLX only; gas is the member's own wallet's. Kept for
    /// the payload's shape, always "0" (docs/product/network.md#claims).
    matic_claim: String,
    user_rank_data: Standing,
}

/// The network parts of the sign-in payload.
pub fn payload_parts(c: Conn, user: &User) -> Result<PayloadParts, Error> {
    let figures = store::referrals::figures(c, user.id)?;
    let (ranks, achieved) = store::ranks::ranks_of(c, user.id)?;
    let (paid, _) = claims_split(c, user, figures.paid_out)?;
    Ok(PayloadParts {
        activation_node: figures.node.is_some(),
        claims: PaidClaims::of(paid)?,
        matic_claim: "0".into(),
        user_rank_data: lvlx_core::network::standing(figures.volume, &ranks, &achieved),
    })
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
        .filter(|claim| lvlx_core::claims::can_still_pay(claim.cumulative, paid_out))
        .collect();
    Ok((paid, pending))
}

/// The claims the distributor paid, and their sum.
#[derive(Serialize, utoipa::ToSchema)]
pub struct PaidClaims {
    claims: Vec<store::claims::Claim>,
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    total: Units,
}

impl PaidClaims {
    fn of(claims: Vec<store::claims::Claim>) -> Result<Self, Error> {
        let total = lvlx_core::amount::sum(claims.iter().map(|c| c.amount))
            .ok_or_else(|| Error::Internal("claims total overflow".into()))?;
        Ok(PaidClaims { claims, total })
    }
}

/// What the member may claim now: every reward credited minus what the distributor paid.
pub fn claimable(c: Conn, user: &User) -> Result<(Units, Units), Error> {
    let figures = store::referrals::figures(c, user.id)?;
    Ok((figures.claimable(), figures.rewards))
}

/// The member's activation node.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActivationNode {
    /// Milliseconds since the epoch.
    activated_at: i64,
    /// What it cost.
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    usdt_paid: Units,
}

fn activation_node(node: Option<(i64, Units)>) -> Option<ActivationNode> {
    node.map(|(activated_at, usdt_paid)| ActivationNode {
        activated_at,
        usdt_paid,
    })
}

/// The dashboard's network card: the referral code, the node, rank standing and what is
/// claimable.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = NetworkGlance)]
#[serde(rename_all = "camelCase")]
pub struct Glance {
    user_code_link: String,
    activation_node: Option<ActivationNode>,
    user_rank_data: Standing,
    /// LVLX.
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    claimable: Units,
    /// `claimable` split: what a claim may pay now, what waits for a verified identity.
    claim_split: ClaimSplit,
}

/// The dashboard's network card, without walking the downline.
pub fn glance(c: Conn, user: &User, kyc_threshold: Option<Units>) -> Result<Glance, Error> {
    let figures = store::referrals::figures(c, user.id)?;
    let (ranks, achieved) = store::ranks::ranks_of(c, user.id)?;
    let claimable = figures.claimable();
    Ok(Glance {
        user_code_link: user.referral_code.clone(),
        activation_node: activation_node(figures.node),
        user_rank_data: lvlx_core::network::standing(figures.volume, &ranks, &achieved),
        claimable,
        claim_split: crate::kyc::claim_split(
            c,
            kyc_threshold,
            user.id,
            claimable,
            figures.paid_out,
        )?,
    })
}

/// One level of the downline: its commission rate, its members and their totals.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = NetworkLevel)]
pub struct Level {
    /// 1 = direct referrals.
    level: u32,
    /// The commission rate of this level, in basis points.
    bps: u32,
    members: Vec<store::referrals::Downline>,
    totals: LevelTotals,
}

/// A level's member count, USDT volume and LVLX commission.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = NetworkLevelTotals)]
pub struct LevelTotals {
    members: usize,
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    volume: Units,
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    commission: Units,
}

/// The member's network page.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = NetworkPage)]
#[serde(rename_all = "camelCase")]
pub struct Overview {
    user_code_link: String,
    /// The member's linked wallet.
    wallet: Option<String>,
    activation_node: Option<ActivationNode>,
    levels: Vec<Level>,
    user_rank_data: Standing,
    ranks: Vec<Rank>,
    bonuses: Vec<store::ranks::Bonus>,
    /// Every reward credited (LVLX: commissions and bonuses).
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    rewards: Units,
    claims: PaidClaims,
    /// Claims asked for that can still pay.
    pending_claims: Vec<store::claims::Claim>,
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    claimable: Units,
    /// `claimable` split: what a claim may pay now, what waits for a verified identity.
    claim_split: ClaimSplit,
    /// How much the identity rule lets a claim pay; null when it never stops one.
    #[serde(with = "lvlx_core::amount::opt_text")]
    #[schema(schema_with = lvlx_core::amount::opt_text::schema)]
    claim_room: Option<Units>,
    /// The configured identity threshold (LVLX), null without one.
    #[serde(with = "lvlx_core::amount::opt_text")]
    #[schema(schema_with = lvlx_core::amount::opt_text::schema)]
    kyc_threshold: Option<Units>,
    /// The claim distributor's caps and the room they leave now (for everyone and for the
    /// member's wallet); null when the chain does not answer.
    claim_caps: Option<super::claims::ClaimCaps>,
    /// The node's terms from the chain; null when it does not answer.
    node: Option<super::nodes::ShownTerms>,
    /// What node holders earned so far; null under `nodeOutcomesMin` holders or without terms.
    node_outcomes: Option<Outcomes>,
    /// Fewest holders the outcomes are shown for.
    node_outcomes_min: usize,
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
) -> Result<Overview, Error> {
    let downline = store::referrals::downline(c, user.id, levels_bps.len() as u32)?;
    let mut levels = Vec::new();
    for (i, &bps) in levels_bps.iter().enumerate() {
        let level = i as u32 + 1;
        let members: Vec<store::referrals::Downline> = downline
            .iter()
            .filter(|d| d.level == level)
            .cloned()
            .collect();
        let volume = lvlx_core::amount::sum(members.iter().map(|d| d.volume));
        let commission = lvlx_core::amount::sum(members.iter().map(|d| d.commission));
        let (Some(volume), Some(commission)) = (volume, commission) else {
            return Err(Error::Internal("network totals overflow".into()));
        };
        let totals = LevelTotals {
            members: members.len(),
            volume,
            commission,
        };
        levels.push(Level {
            level,
            bps,
            members,
            totals,
        });
    }
    let figures = store::referrals::figures(c, user.id)?;
    let (ranks, achieved) = store::ranks::ranks_of(c, user.id)?;
    let (paid, pending) = claims_split(c, user, figures.paid_out)?;
    Ok(Overview {
        user_code_link: user.referral_code.clone(),
        wallet: user.wallet.clone(),
        activation_node: activation_node(figures.node),
        levels,
        user_rank_data: lvlx_core::network::standing(figures.volume, &ranks, &achieved),
        bonuses: store::ranks::bonuses(c, user.id)?,
        ranks,
        rewards: figures.rewards,
        claims: PaidClaims::of(paid)?,
        pending_claims: pending,
        claimable: figures.claimable(),
        claim_split: crate::kyc::claim_split(
            c,
            kyc_threshold,
            user.id,
            figures.claimable(),
            figures.paid_out,
        )?,
        claim_room: crate::kyc::claim_room(c, kyc_threshold, user.id, figures.paid_out)?,
        kyc_threshold,
        claim_caps: None,
        node: None,
        node_outcomes: None,
        node_outcomes_min: lvlx_core::node_outcomes::MIN_HOLDERS,
    })
}

/// The member's network page: [`overview`] with the node's terms from the chain.
/// `kyc_threshold`: claims above it need an approved identity.
pub async fn overview_of(
    store: &crate::Store,
    config: &crate::Config,
    reads: &crate::ChainReads,
    kyc_threshold: Option<Units>,
    user: &User,
) -> Result<Overview, Error> {
    let levels = config.commission_levels_bps.clone();
    let member = user.clone();
    let threshold = kyc_threshold;
    let mut page = store
        .read(move |c| overview(c, &member, &levels, threshold))
        .await?;
    if let Ok(terms) = super::nodes::node_terms(config, reads).await {
        page.node_outcomes = node_outcomes(store, reads, terms.price).await?;
        page.node = Some(super::nodes::ShownTerms::of(&terms));
        page.claim_caps =
            super::claims::shown_caps(config, reads, user.wallet.as_deref(), terms.block).await;
    }
    Ok(page)
}

/// How long the node holders' figures are kept before they are counted again.
const OUTCOMES_KEPT_MS: i64 = 60_000;

/// What node holders earned here so far against the node's `price` (both in USDT): counted
/// from every holder's row at most once a minute per instance (a member page loads it often).
async fn node_outcomes(
    store: &crate::Store,
    reads: &crate::ChainReads,
    price: Units,
) -> Result<Option<Outcomes>, Error> {
    let mut kept = reads.node_outcomes.lock().await;
    let now = crate::now_ms();
    if let Some((at, for_price, outcomes)) = kept.as_ref() {
        if now - *at < OUTCOMES_KEPT_MS && *for_price == price {
            return Ok(outcomes.clone());
        }
    }
    let rewards = store
        .read(crate::store::referrals::node_holders_rewards)
        .await?;
    let earned = rewards
        .into_iter()
        .map(lvlx_core::amount::lvlx_to_usdt_units)
        .collect();
    let outcomes = lvlx_core::node_outcomes::outcomes(earned, price);
    *kept = Some((now, price, outcomes.clone()));
    Ok(outcomes)
}

/// The dashboard's card ([`glance`]).
pub async fn glance_of(
    store: &crate::Store,
    kyc_threshold: Option<Units>,
    user: &User,
) -> Result<Glance, Error> {
    let member = user.clone();
    let threshold = kyc_threshold;
    store.read(move |c| glance(c, &member, threshold)).await
}

/// The linked wallet of the member's sponsor (null when none): the on-chain referrer of their
/// purchases.
pub async fn sponsor_wallet(store: &crate::Store, user: &User) -> Result<Sponsor, Error> {
    let id = user.id;
    let wallet = store
        .read(move |c| crate::store::referrals::sponsor_wallet(c, id))
        .await?;
    Ok(Sponsor { wallet })
}

/// The sponsor's linked wallet: the referrer the sale is told of.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = SponsorWallet)]
pub struct Sponsor {
    wallet: Option<String>,
}
