//! The referral network's routes: the member's network page data, claims with a 6-digit
//! emailed code and a signed voucher, the admin's ranks and activation nodes. Each handler
//! parses, calls one function of `crate::network` and replies.

use std::net::IpAddr;

use lvlx_core::amount::{self, Units};
use lvlx_core::network::Rank;
use serde::Deserialize;
use warp::filters::BoxedFilter;
use warp::Filter;

use super::auth::{admin, authed};
use super::client;
use super::error::reply;
use super::{json_body, ok, with, Answer};
use crate::error::Error;
use crate::network::{claims, nodes, pages, ranks};
use crate::session::Authed;
use crate::App;

#[derive(Deserialize, utoipa::ToSchema)]
#[schema(as = ClaimRequest)]
#[serde(deny_unknown_fields)]
pub(crate) struct Language {
    #[schema(schema_with = crate::accounts::language)]
    language: Option<String>,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[schema(as = ClaimConfirm)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Confirm {
    attempt: String,
    claim_code: String,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RankEdit {
    name: String,
    /// USDT base units.
    #[schema(pattern = "^[0-9]+$")]
    threshold: String,
    /// LVLX base units.
    #[schema(pattern = "^[0-9]+$")]
    bonus: String,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct NodeEdit {
    /// USDT base units.
    #[schema(pattern = "^[0-9]+$")]
    price: String,
    on_sale: bool,
}

fn base_units(text: &str, what: &str) -> Result<Units, Error> {
    amount::parse_base(text).map_err(|_| Error::Malformed(format!("{what}: base units")))
}

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    member_routes(&app).or(admin_routes(&app)).unify().boxed()
}

/// What a member reads of their network, and their claims.
fn member_routes(app: &App) -> BoxedFilter<(warp::reply::Response,)> {
    let app = app.clone();
    // GET /api/v1/network — the member's network: referral code, node, downline by level with
    // totals, rank standing, bonuses, rewards, claims and what is claimable; with the node's
    // price and sale flag from the chain when it answers (null otherwise).
    let overview = warp::path!("network")
        .and(warp::get())
        .and(authed(app.clone()))
        .and(with(&app))
        .then(overview)
        .map(reply);

    // GET /api/v1/network/glance — the dashboard's card: {userCodeLink, activationNode,
    // userRankData, claimable}, without the downline.
    let glance = warp::path!("network" / "glance")
        .and(warp::get())
        .and(authed(app.clone()))
        .and(with(&app))
        .then(glance)
        .map(reply);

    // GET /api/v1/network/sponsor — {wallet}: the sponsor's linked wallet (null when none), which
    // the token page passes to the sale as the purchase's referrer.
    let sponsor = warp::path!("network" / "sponsor")
        .and(warp::get())
        .and(authed(app.clone()))
        .and(with(&app))
        .then(sponsor)
        .map(reply);

    // POST /api/v1/claims {language?} — asks to claim what the distributor pays now of
    // everything claimable: a 6-digit code is mailed, bound to this claim → {attempt, amount,
    // rest}.
    let request = warp::path!("claims")
        .and(warp::post())
        .and(client::address(&app))
        .and(authed(app.clone()))
        .and(with(&app))
        .and(json_body::<Language>())
        .then(request_claim)
        .map(reply);

    // POST /api/v1/claims/confirm {attempt, claimCode} — the code confirms the claim; the
    // server signs its voucher → {account, cumulative, deadline, signature, contract, chainId},
    // which the member's wallet submits to the ClaimDistributor.
    let confirm = warp::path!("claims" / "confirm")
        .and(warp::post())
        .and(client::address(&app))
        .and(authed(app.clone()))
        .and(with(&app))
        .and(json_body::<Confirm>())
        .then(confirm_claim)
        .map(reply);

    overview
        .or(glance)
        .unify()
        .or(sponsor)
        .unify()
        .or(request)
        .unify()
        .or(confirm)
        .unify()
        .boxed()
}

/// The admins' ranks and activation node.
fn admin_routes(app: &App) -> BoxedFilter<(warp::reply::Response,)> {
    let app = app.clone();
    // GET /api/v1/ranks — admin: the ranks and the newest changes (who, when, before, after).
    let ranks = warp::path!("ranks")
        .and(warp::get())
        .and(admin(app.clone()))
        .and(with(&app))
        .then(ranks)
        .map(reply);

    // PUT /api/v1/ranks/{id} {name, threshold, bonus} — admin: writes one rank (new or
    // changed); the core checks the whole table; audited; applies from now on.
    let put_rank = warp::path!("ranks" / u32)
        .and(warp::put())
        .and(admin(app.clone()))
        .and(with(&app))
        .and(json_body::<RankEdit>())
        .then(put_rank)
        .map(reply);

    // GET /api/v1/activation-nodes/rows — admin: every node (member, wallet, date, USDT paid,
    // transaction) in activation order, as the Arrow stream the core's table engine loads.
    let node_rows = warp::path!("activation-nodes" / "rows")
        .and(warp::get())
        .and(admin(app.clone()))
        .and(with(&app))
        .then(node_rows)
        .map(reply);

    // GET /api/v1/activation-nodes — admin: the node's price and sale flag from the chain (null
    // when it does not answer), whether the owner's step is this server's, and the changes.
    let nodes = warp::path!("activation-nodes")
        .and(warp::get())
        .and(admin(app.clone()))
        .and(with(&app))
        .then(node_admin)
        .map(reply);

    // PUT /api/v1/activation-node {price, onSale} — admin: proposes the node's new terms to the
    // owners' Safe (owners::proposals); refused with error-owner-step when the contract's owner
    // is not a Safe.
    let put_node = warp::path!("activation-node")
        .and(warp::put())
        .and(admin(app.clone()))
        .and(with(&app))
        .and(json_body::<NodeEdit>())
        .then(put_node)
        .map(reply);

    ranks
        .or(put_rank)
        .unify()
        .or(node_rows)
        .unify()
        .or(nodes)
        .unify()
        .or(put_node)
        .unify()
        .boxed()
}

async fn overview(who: Authed, app: App) -> Answer {
    ok(&pages::overview_of(&app, &who.user).await?)
}

async fn glance(who: Authed, app: App) -> Answer {
    ok(&pages::glance_of(&app, &who.user).await?)
}

async fn sponsor(who: Authed, app: App) -> Answer {
    ok(&pages::sponsor_wallet(&app, &who.user).await?)
}

async fn request_claim(ip: Option<IpAddr>, who: Authed, app: App, body: Language) -> Answer {
    ok(&claims::request(&app, ip, &who.user, body.language.as_deref()).await?)
}

async fn confirm_claim(ip: Option<IpAddr>, who: Authed, app: App, body: Confirm) -> Answer {
    ok(&claims::confirm(&app, ip, who.user.id, body.attempt, body.claim_code).await?)
}

async fn ranks(_: Authed, app: App) -> Answer {
    ok(&ranks::admin_view(&app).await?)
}

async fn put_rank(id: u32, who: Authed, app: App, body: RankEdit) -> Answer {
    let rank = Rank {
        id,
        name: body.name,
        threshold: base_units(&body.threshold, "threshold")?,
        bonus: base_units(&body.bonus, "bonus")?,
    };
    let ranks = ranks::put(&app, who.user.id, rank).await?;
    ok(&ranks::RankTable { ranks })
}

async fn node_rows(_: Authed, app: App) -> Answer {
    super::statistics::arrow(nodes::rows(&app).await?)
}

async fn node_admin(_: Authed, app: App) -> Answer {
    ok(&nodes::admin_view(&app).await?)
}

async fn put_node(who: Authed, app: App, body: NodeEdit) -> Answer {
    let price = base_units(&body.price, "price")?;
    ok(&nodes::steer(&app, who.user.id, price, body.on_sale).await?)
}
