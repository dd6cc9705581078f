//! Wallet linking routes (`accounts::wallets`): a nonce, then the signed message.

use warp::Filter;

use super::auth::authed_app;
use super::error::reply;
use super::openapi::errors::*;
use super::{first_of, json_body, ok, Answer, Route};
use crate::accounts::wallets::{self, Link};
use crate::session::Authed;
use crate::App;

/// This module's operations, merged into the served document by `api::openapi`.
#[derive(utoipa::OpenApi)]
#[openapi(paths(nonce, link))]
pub(super) struct Doc;

pub fn routes(app: App) -> Route {
    // {nonce, issuedAt, expirationTime, chainId}.
    let nonce = warp::path!("wallet" / "nonce")
        .boxed()
        .and(warp::post())
        .and(authed_app(&app))
        .then(nonce)
        .map(reply)
        .boxed();
    // {wallet}.
    let link = warp::path!("wallet" / "link")
        .boxed()
        .and(warp::post())
        .and(authed_app(&app))
        .and(json_body::<Link>())
        .then(link)
        .map(reply)
        .boxed();
    first_of([nonce, link])
}

/// A nonce for the wallet-linking message (EIP-4361)
#[utoipa::path(
    post,
    path = "/wallet/nonce",
    operation_id = "post_wallet_nonce",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "OK", body = crate::accounts::wallets::Nonce),
        Member,
        (status = 429, response = E429),
    ),
)]
async fn nonce(who: Authed, app: App) -> Answer {
    ok(&wallets::nonce(&app.store, &app.config, who.user.id).await?)
}

/// Links the wallet that signed the message
#[utoipa::path(
    post,
    path = "/wallet/link",
    operation_id = "post_wallet_link",
    security(("bearer" = [])),
    request_body = crate::accounts::wallets::Link,
    responses(
        (status = 200, description = "OK", body = crate::accounts::wallets::Linked),
        Member,
        (status = 409, response = E409),
        (status = 413, response = E413),
    ),
)]
async fn link(who: Authed, app: App, body: Link) -> Answer {
    ok(&wallets::link(
        &app.store,
        &app.config,
        &app.origins,
        &app.hub,
        who.user.id,
        body,
    )
    .await?)
}
