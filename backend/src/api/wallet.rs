//! Wallet linking routes (`accounts::wallets`): a nonce, then the signed message.

use warp::filters::BoxedFilter;
use warp::Filter;

use super::auth::authed;
use super::error::reply;
use super::{json_body, ok, with, Answer};
use crate::accounts::wallets::{self, Link};
use crate::session::Authed;
use crate::App;

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // POST /api/v1/wallet/nonce — {nonce, issuedAt, expirationTime, chainId}.
    let nonce = warp::path!("wallet" / "nonce")
        .and(warp::post())
        .and(authed(app.clone()))
        .and(with(&app))
        .then(nonce)
        .map(reply);
    // POST /api/v1/wallet/link {message, signature} — {wallet}.
    let link = warp::path!("wallet" / "link")
        .and(warp::post())
        .and(authed(app.clone()))
        .and(with(&app))
        .and(json_body::<Link>())
        .then(link)
        .map(reply);
    nonce.or(link).unify().boxed()
}

async fn nonce(who: Authed, app: App) -> Answer {
    ok(&wallets::nonce(&app, who.user.id).await?)
}

async fn link(who: Authed, app: App, body: Link) -> Answer {
    ok(&wallets::link(&app, who.user.id, body).await?)
}
