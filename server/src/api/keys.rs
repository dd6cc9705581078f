//! POST /api/v1/key (docs/product/admin.md#secret-key): reveals the operational wallet key to an
//! admin who knows the admin secret. See `crate::secret` for the rules.

use std::net::IpAddr;

use serde::Deserialize;
use warp::Filter;

use super::auth::admin_app;
use super::client;
use super::error::reply;
use super::openapi::errors::*;
use super::{json_body, ok, Answer, Route};
use crate::session::Authed;
use crate::{secret, App};

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct KeyRequest {
    /// The admin secret, sealed for transport by the core.
    key: String,
}

/// The member's wallet key, once.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Revealed {
    private_key: String,
}

/// This module's operations, merged into the served document by `api::openapi`.
#[derive(utoipa::OpenApi)]
#[openapi(paths(reveal))]
pub(super) struct Doc;

pub fn routes(app: App) -> Route {
    // {privateKey}; never logged, never cached (no-store on all of /api).
    warp::path!("key")
        .boxed()
        .and(warp::post())
        .and(admin_app(&app))
        .and(client::address(&app))
        .and(json_body::<KeyRequest>())
        .then(reveal)
        .map(reply)
        .boxed()
}

/// The operational key, revealed to the right admin secret (3 attempts in 5 min)
///
/// Admins only (the role is re-read from the database).
#[utoipa::path(
    post,
    path = "/key",
    operation_id = "post_key",
    security(("bearer" = [])),
    request_body = KeyRequest,
    responses(
        (status = 200, description = "OK", body = Revealed),
        Admin,
        (status = 409, response = E409),
        (status = 413, response = E413),
        (status = 429, response = E429),
    ),
)]
async fn reveal(who: Authed, app: App, addr: Option<IpAddr>, body: KeyRequest) -> Answer {
    let ip = addr.map(|a| a.to_string()).unwrap_or_default();
    let private_key = secret::reveal(
        &app.store,
        &app.config.secret_pass_key,
        who.user.id,
        ip,
        body.key,
    )
    .await?;
    ok(&Revealed { private_key })
}
