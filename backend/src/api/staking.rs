//! The member staking page and the admin reserve monitor (`crate::staking`).

use warp::filters::BoxedFilter;
use warp::Filter;

use super::auth::{admin, authed};
use super::error::reply;
use super::{ok, with, Answer};
use crate::session::Authed;
use crate::{staking, App};

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // GET /api/v1/staking — the member's staking page: terms and NFT prices as the contracts
    // hold them, both reserves, the wallet's NFTs and LVLX, the member's positions with their
    // figures at `now` (seconds: the later of the server's clock and the latest block's), or
    // {available: false} when no staking contracts are configured.
    let member = warp::path!("staking")
        .and(warp::get())
        .and(authed(app.clone()))
        .and(with(&app))
        .then(page)
        .map(reply);
    // GET /api/v1/staking/reserve — admin: per pool the free and reserved reward reserve (from
    // the chain), the rewards reserved in the last 30 days and how many weeks of stakes at that
    // pace the free reserve covers, with a warning under the configured number of weeks.
    let reserve = warp::path!("staking" / "reserve")
        .and(warp::get())
        .and(admin(app.clone()))
        .and(with(&app))
        .then(reserve)
        .map(reply);
    reserve.or(member).unify().boxed()
}

async fn page(who: Authed, app: App) -> Answer {
    ok(&staking::page(&app, &who.user).await?)
}

async fn reserve(_: Authed, app: App) -> Answer {
    ok(&staking::reserve(&app).await?)
}
