//! The member staking page and the admin reserve monitor (`crate::staking`).

use warp::Filter;

use super::auth::{admin_app, authed_app};
use super::error::reply;
use super::openapi::errors::*;
use super::{first_of, ok, Answer, Route};
use crate::session::Authed;
use crate::{staking, App};

/// This module's operations, merged into the served document by `api::openapi`.
#[derive(utoipa::OpenApi)]
#[openapi(paths(page, reserve))]
pub(super) struct Doc;

pub fn routes(app: App) -> Route {
    // The member's staking page: terms and NFT prices as the contracts hold them, both reserves,
    // the wallet's NFTs and LVLX, the member's positions with their figures at `now` (seconds: the
    // later of the server's clock and the latest block's), or {available: false} when no staking
    // contracts are configured.
    let member = warp::path!("staking")
        .boxed()
        .and(warp::get())
        .and(authed_app(&app))
        .then(page)
        .map(reply)
        .boxed();
    // Admin: per pool the free and reserved reward reserve (from the chain), the rewards reserved
    // in the last 30 days and how many weeks of stakes at that pace the free reserve covers, with a
    // warning under the configured number of weeks.
    let reserve = warp::path!("staking" / "reserve")
        .boxed()
        .and(warp::get())
        .and(admin_app(&app))
        .then(reserve)
        .map(reply)
        .boxed();
    first_of([reserve, member])
}

/// The member's staking page (terms, prices and reserves from the contracts, positions)
#[utoipa::path(
    get,
    path = "/staking",
    operation_id = "get_staking",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "OK", body = crate::staking::StakingPage),
        Member,
        (status = 503, response = E503),
    ),
)]
async fn page(who: Authed, app: App) -> Answer {
    ok(&staking::page(&app.store, &app.config, &app.chain_reads, &who.user).await?)
}

/// Per pool the free and reserved reward reserve
///
/// Admins only (the role is re-read from the database).
#[utoipa::path(
    get,
    path = "/staking/reserve",
    operation_id = "get_staking_reserve",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "OK", body = crate::staking::ReserveMonitor),
        Admin,
        (status = 503, response = E503),
    ),
)]
async fn reserve(_: Authed, app: App) -> Answer {
    ok(&staking::reserve(&app.store, &app.config, &app.chain_reads).await?)
}
