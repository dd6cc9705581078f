//! The referral network's routes: the member's network page data, claims with a 6-digit
//! emailed code and a signed voucher, the admin's ranks and activation nodes. Each handler
//! parses, calls one function of `crate::network` and replies.

use std::net::IpAddr;

use lvlx_core::amount::{self, Units};
use lvlx_core::network::Rank;
use serde::Deserialize;
use warp::Filter;

use super::auth::{admin_app, authed_app};
use super::client;
use super::error::reply;
use super::openapi::errors::*;
use super::openapi::Binary;
use super::{first_of, json_body, ok, Answer, Route};
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

/// This module's operations, merged into the served document by `api::openapi`.
#[derive(utoipa::OpenApi)]
#[openapi(paths(
    overview,
    glance,
    sponsor,
    request_claim,
    confirm_claim,
    ranks,
    put_rank,
    node_admin,
    node_rows,
    put_node
))]
pub(super) struct Doc;

pub fn routes(app: App) -> Route {
    first_of([member_routes(&app), admin_routes(&app)])
}

/// What a member reads of their network, and their claims.
fn member_routes(app: &App) -> Route {
    let app = app.clone();
    // The member's network: referral code, node, downline by level with totals, rank standing,
    // bonuses, rewards, claims and what is claimable; with the node's price and sale flag from the
    // chain when it answers (null otherwise).
    let overview = warp::path!("network")
        .boxed()
        .and(warp::get())
        .and(authed_app(&app))
        .then(overview)
        .map(reply)
        .boxed();

    // The dashboard's card: {userCodeLink, activationNode, userRankData, claimable}, without the
    // downline.
    let glance = warp::path!("network" / "glance")
        .boxed()
        .and(warp::get())
        .and(authed_app(&app))
        .then(glance)
        .map(reply)
        .boxed();

    // {wallet}: the sponsor's linked wallet (null when none), which the token page passes to the
    // sale as the purchase's referrer.
    let sponsor = warp::path!("network" / "sponsor")
        .boxed()
        .and(warp::get())
        .and(authed_app(&app))
        .then(sponsor)
        .map(reply)
        .boxed();

    // Asks to claim what the distributor pays now of everything claimable: a 6-digit code is
    // mailed, bound to this claim → {attempt, amount, rest}.
    let request = warp::path!("claims")
        .boxed()
        .and(warp::post())
        .and(client::address(&app))
        .and(authed_app(&app))
        .and(json_body::<Language>())
        .then(request_claim)
        .map(reply)
        .boxed();

    // The code confirms the claim; the server signs its voucher → {account, cumulative, deadline,
    // signature, contract, chainId}, which the member's wallet submits to the ClaimDistributor.
    let confirm = warp::path!("claims" / "confirm")
        .boxed()
        .and(warp::post())
        .and(client::address(&app))
        .and(authed_app(&app))
        .and(json_body::<Confirm>())
        .then(confirm_claim)
        .map(reply)
        .boxed();

    first_of([overview, glance, sponsor, request, confirm])
}

/// The admins' ranks and activation node.
fn admin_routes(app: &App) -> Route {
    let app = app.clone();
    // Admin: the ranks and the newest changes (who, when, before, after).
    let ranks = warp::path!("ranks")
        .boxed()
        .and(warp::get())
        .and(admin_app(&app))
        .then(ranks)
        .map(reply)
        .boxed();

    // Admin: writes one rank (new or changed); the core checks the whole table; audited; applies
    // from now on.
    let put_rank = warp::path!("ranks" / u32)
        .boxed()
        .and(warp::put())
        .and(admin_app(&app))
        .and(json_body::<RankEdit>())
        .then(put_rank)
        .map(reply)
        .boxed();

    // Admin: every node (member, wallet, date, USDT paid, transaction) in activation order, as the
    // Arrow stream the core's table engine loads.
    let node_rows = warp::path!("activation-nodes" / "rows")
        .boxed()
        .and(warp::get())
        .and(admin_app(&app))
        .then(node_rows)
        .map(reply)
        .boxed();

    // Admin: the node's price and sale flag from the chain (null when it does not answer), whether
    // the owner's step is this server's, and the changes.
    let nodes = warp::path!("activation-nodes")
        .boxed()
        .and(warp::get())
        .and(admin_app(&app))
        .then(node_admin)
        .map(reply)
        .boxed();

    // Admin: proposes the node's new terms to the owners' Safe (owners::proposals); refused with
    // error-owner-step when the contract's owner is not a Safe.
    let put_node = warp::path!("activation-node")
        .boxed()
        .and(warp::put())
        .and(admin_app(&app))
        .and(json_body::<NodeEdit>())
        .then(put_node)
        .map(reply)
        .boxed();

    first_of([ranks, put_rank, node_rows, nodes, put_node])
}

/// The member's network: downline by level, ranks, rewards, claims
#[utoipa::path(
    get,
    path = "/network",
    operation_id = "get_network",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "OK", body = crate::network::pages::Overview),
        Member,
    ),
)]
async fn overview(who: Authed, app: App) -> Answer {
    ok(&pages::overview_of(
        &app.store,
        &app.config,
        &app.chain_reads,
        app.kyc_threshold,
        &who.user,
    )
    .await?)
}

/// The dashboard's network card
#[utoipa::path(
    get,
    path = "/network/glance",
    operation_id = "get_network_glance",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "OK", body = crate::network::pages::Glance),
        Member,
    ),
)]
async fn glance(who: Authed, app: App) -> Answer {
    ok(&pages::glance_of(&app.store, app.kyc_threshold, &who.user).await?)
}

/// The sponsor's linked wallet (the purchase's on-chain referrer)
#[utoipa::path(
    get,
    path = "/network/sponsor",
    operation_id = "get_network_sponsor",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "OK", body = crate::network::pages::Sponsor),
        Member,
    ),
)]
async fn sponsor(who: Authed, app: App) -> Answer {
    ok(&pages::sponsor_wallet(&app.store, &who.user).await?)
}

/// Asks to claim everything claimable: a 6-digit code is mailed
#[utoipa::path(
    post,
    path = "/claims",
    operation_id = "post_claims",
    security(("bearer" = [])),
    request_body = Language,
    responses(
        (status = 200, description = "OK", body = crate::network::claims::Requested),
        Member,
        (status = 409, response = E409),
        (status = 413, response = E413),
        (status = 429, response = E429),
        (status = 503, response = E503),
    ),
)]
async fn request_claim(ip: Option<IpAddr>, who: Authed, app: App, body: Language) -> Answer {
    ok(&claims::request(app.claims(), ip, &who.user, body.language.as_deref()).await?)
}

/// The code confirms the claim: the signed EIP-712 voucher and its calldata
#[utoipa::path(
    post,
    path = "/claims/confirm",
    operation_id = "post_claims_confirm",
    security(("bearer" = [])),
    request_body = Confirm,
    responses(
        (status = 200, description = "OK", body = crate::network::claims::SignedVoucher),
        Member,
        (status = 413, response = E413),
        (status = 429, response = E429),
        (status = 503, response = E503),
    ),
)]
async fn confirm_claim(ip: Option<IpAddr>, who: Authed, app: App, body: Confirm) -> Answer {
    ok(&claims::confirm(app.claims(), ip, who.user.id, body.attempt, body.claim_code).await?)
}

/// The ranks and their newest changes
///
/// Admins only (the role is re-read from the database).
#[utoipa::path(
    get,
    path = "/ranks",
    operation_id = "get_ranks",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "OK", body = crate::network::ranks::RanksAdmin),
        Admin,
    ),
)]
async fn ranks(_: Authed, app: App) -> Answer {
    ok(&ranks::admin_view(&app.store).await?)
}

/// Writes one rank (core-validated, audited, never retroactive)
///
/// Admins only (the role is re-read from the database).
#[utoipa::path(
    put,
    path = "/ranks/{id}",
    operation_id = "put_ranks_id",
    security(("bearer" = [])),
    params(
        ("id" = u32, Path),
    ),
    request_body = RankEdit,
    responses(
        (status = 200, description = "OK", body = crate::network::ranks::RankTable),
        Admin,
        (status = 404, response = E404),
        (status = 405, response = E405),
        (status = 413, response = E413),
    ),
)]
async fn put_rank(id: u32, who: Authed, app: App, body: RankEdit) -> Answer {
    let rank = Rank {
        id,
        name: body.name,
        threshold: base_units(&body.threshold, "threshold")?,
        bonus: base_units(&body.bonus, "bonus")?,
    };
    let ranks = ranks::put(&app.store, who.user.id, rank).await?;
    ok(&ranks::RankTable { ranks })
}

/// Every node sold, as Arrow IPC
///
/// Admins only (the role is re-read from the database).
#[utoipa::path(
    get,
    path = "/activation-nodes/rows",
    operation_id = "get_activation_nodes_rows",
    security(("bearer" = [])),
    responses(
        (
            status = 200,
            description = "OK",
            content_type = "application/vnd.apache.arrow.stream",
            body = inline(Binary),
        ),
        Admin,
    ),
)]
async fn node_rows(_: Authed, app: App) -> Answer {
    super::statistics::arrow(nodes::rows(&app.store).await?)
}

/// The node's terms from the chain and their changes
///
/// Admins only (the role is re-read from the database).
#[utoipa::path(
    get,
    path = "/activation-nodes",
    operation_id = "get_activation_nodes",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "OK", body = crate::network::nodes::NodeAdmin),
        Admin,
    ),
)]
async fn node_admin(_: Authed, app: App) -> Answer {
    ok(&nodes::admin_view(&app.store, &app.config, &app.chain_reads).await?)
}

/// The node's price and sale flag, proposed to the owners' Safe
///
/// Admins only (the role is re-read from the database).
#[utoipa::path(
    put,
    path = "/activation-node",
    operation_id = "put_activation_node",
    security(("bearer" = [])),
    request_body = NodeEdit,
    responses(
        (status = 200, description = "OK", body = crate::owners::proposals::ProposalId),
        Admin,
        (status = 409, response = E409),
        (status = 413, response = E413),
        (status = 503, response = E503),
    ),
)]
async fn put_node(who: Authed, app: App, body: NodeEdit) -> Answer {
    let price = base_units(&body.price, "price")?;
    ok(&nodes::steer(&app.store, &app.config, who.user.id, price, body.on_sale).await?)
}
