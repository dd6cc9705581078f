//! The public settings the web app reads at start. Never a secret.

use serde::Serialize;
use warp::Filter;

use super::openapi::errors::*;
use super::{json, with, Route};
use crate::App;

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PublicConfig {
    landing_url: String,
    product: String,
    languages: &'static [&'static str],
    secret_pass_key: String,
    /// Largest image an upload may carry (avatars, content images).
    max_image_bytes: u64,
    /// The chain and contracts wallets use; null when none is configured.
    chain: Option<PublicChain>,
    /// The card payment provider's publishable key (public by design); null without an on-ramp.
    card_payment_key: Option<String>,
    /// What the card on-ramp delivers on Polygon ("usdc" with Stripe today).
    card_currency: Option<String>,
    /// Where members write for help; null when none is configured.
    support_email: Option<String>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PublicChain {
    chain_id: u64,
    chain_id_hex: String,
    rpc_url: String,
    explorer_url: String,
    usdt: String,
    lvlx: String,
    ico_sale: String,
    level_nft: String,
    nft_sale: String,
    nft_staking: String,
    lvlx_staking: String,
    activation_node: String,
    claim_distributor: String,
    token_image: String,
}

/// This module's operations, merged into the served document by `api::openapi`.
#[derive(utoipa::OpenApi)]
#[openapi(paths(settings))]
pub(super) struct Doc;

pub fn routes(app: App) -> Route {
    // Settings the browser needs; never a secret.
    warp::path!("config")
        .boxed()
        .and(warp::get())
        .and(with(&app))
        .map(settings)
        .boxed()
}

/// Public settings the web app reads at start (never a secret)
#[utoipa::path(
    get,
    path = "/config",
    operation_id = "get_config",
    security(),
    responses(
        (status = 200, description = "OK", body = PublicConfig),
        (status = 400, response = E400),
        (status = 500, response = E500),
    ),
)]
fn settings(app: App) -> warp::reply::Response {
    let config = &app.config;
    json(&PublicConfig {
        landing_url: config.landing_url.clone(),
        product: config.product.clone(),
        languages: &lvlx_core::LANGUAGES,
        secret_pass_key: config.secret_pass_key.clone(),
        max_image_bytes: crate::images::MAX_BYTES,
        card_payment_key: config.card.as_ref().map(|c| c.publishable_key.clone()),
        support_email: config.support_email.clone(),
        card_currency: config.card.as_ref().map(|c| c.destination_currency.clone()),
        // Never the server's own RPC URL: a provider URL may carry a key.
        chain: config.chain.as_ref().map(|c| PublicChain {
            chain_id: c.chain_id,
            chain_id_hex: format!("0x{:x}", c.chain_id),
            rpc_url: c.public_rpc_url.clone(),
            explorer_url: c.explorer_url.clone(),
            usdt: c.usdt.clone(),
            lvlx: c.lvlx.clone(),
            ico_sale: c.ico_sale.clone(),
            level_nft: c.level_nft.clone(),
            nft_sale: c.nft_sale.clone(),
            nft_staking: c.nft_staking.clone(),
            lvlx_staking: c.lvlx_staking.clone(),
            activation_node: c.activation_node.clone(),
            claim_distributor: c.claim_distributor.clone(),
            token_image: c.token_image.clone(),
        }),
    })
}
