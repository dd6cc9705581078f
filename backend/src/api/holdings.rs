//! The member's holdings routes (`accounts::holdings`): myActives and the dashboard.

use warp::filters::BoxedFilter;
use warp::Filter;

use super::auth::authed;
use super::error::reply;
use super::{ok, with, Answer};
use crate::accounts::holdings;
use crate::session::Authed;
use crate::App;

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // GET /api/v1/wallet/actives — {wallet, balance, entries}: the account's LVLX balance and its
    // newest ledger entries (as indexed; at most 500), for myActives.
    let actives = warp::path!("wallet" / "actives")
        .and(warp::get())
        .and(authed(app.clone()))
        .and(with(&app))
        .then(actives)
        .map(reply);
    // GET /api/v1/dashboard — the member's dashboard figures: {balance, balanceUsdt, staking:
    // {positions, nfts, lvlx, accrued, accruedUsdt}} (as indexed; the network and KYC boxes
    // read GET /network/glance and GET /kyc).
    let dashboard = warp::path!("dashboard")
        .and(warp::get())
        .and(authed(app.clone()))
        .and(with(&app))
        .then(dashboard)
        .map(reply);
    // GET /api/v1/wallet/history — {entries, prices}: every credit and payment, newest first,
    // each with its USDT value on its day (lvlx_core::history).
    let history = warp::path!("wallet" / "history")
        .and(warp::get())
        .and(authed(app.clone()))
        .and(with(&app))
        .then(history)
        .map(reply);
    actives.or(dashboard).unify().or(history).unify().boxed()
}

async fn history(who: Authed, app: App) -> Answer {
    ok(&holdings::history(&app, &who.user).await?)
}

async fn actives(who: Authed, app: App) -> Answer {
    ok(&holdings::actives(&app, &who.user).await?)
}

async fn dashboard(who: Authed, app: App) -> Answer {
    ok(&holdings::dashboard(&app, &who.user).await?)
}
