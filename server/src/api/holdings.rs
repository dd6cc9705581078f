//! The member's holdings routes (`accounts::holdings`): myActives and the dashboard.

use warp::Filter;

use super::auth::authed_app;
use super::error::reply;
use super::openapi::errors::*;
use super::{first_of, ok, Answer, Route};
use crate::accounts::holdings;
use crate::session::Authed;
use crate::App;

/// This module's operations, merged into the served document by `api::openapi`.
#[derive(utoipa::OpenApi)]
#[openapi(paths(actives, history, dashboard))]
pub(super) struct Doc;

pub fn routes(app: App) -> Route {
    // {wallet, balance, entries}: the account's LVLX balance and its newest ledger entries (as
    // indexed; at most 500), for myActives.
    let actives = warp::path!("wallet" / "actives")
        .boxed()
        .and(warp::get())
        .and(authed_app(&app))
        .then(actives)
        .map(reply)
        .boxed();
    // The member's dashboard figures: {balance, balanceUsdt, staking: {positions, nfts, lvlx,
    // accrued, accruedUsdt}} (as indexed; the network and KYC boxes read GET /network/glance and
    // GET /kyc).
    let dashboard = warp::path!("dashboard")
        .boxed()
        .and(warp::get())
        .and(authed_app(&app))
        .then(dashboard)
        .map(reply)
        .boxed();
    // {entries, prices}: every credit and payment, newest first, each with its USDT value on its
    // day (lvlx_core::history).
    let history = warp::path!("wallet" / "history")
        .boxed()
        .and(warp::get())
        .and(authed_app(&app))
        .then(history)
        .map(reply)
        .boxed();
    first_of([actives, dashboard, history])
}

/// Every credit and payment of the member, newest first, valued in USDT on its day
#[utoipa::path(
    get,
    path = "/wallet/history",
    operation_id = "get_wallet_history",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "OK", body = crate::accounts::holdings::History),
        Member,
    ),
)]
async fn history(who: Authed, app: App) -> Answer {
    ok(&holdings::history(&app.store, &app.config, &who.user).await?)
}

/// The account's LVLX balance, ledger entries (pending or final) and reversals
#[utoipa::path(
    get,
    path = "/wallet/actives",
    operation_id = "get_wallet_actives",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "OK", body = crate::accounts::holdings::Actives),
        Member,
    ),
)]
async fn actives(who: Authed, app: App) -> Answer {
    ok(&holdings::actives(&app.store, &who.user).await?)
}

/// The dashboard's figures: balance and staking
#[utoipa::path(
    get,
    path = "/dashboard",
    operation_id = "get_dashboard",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "OK", body = crate::accounts::holdings::Dashboard),
        Member,
    ),
)]
async fn dashboard(who: Authed, app: App) -> Answer {
    ok(&holdings::dashboard(
        &app.store,
        &app.config,
        &app.chain_reads,
        app.kyc_threshold,
        &who.user,
    )
    .await?)
}
