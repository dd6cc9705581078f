//! POST /api/v1/key (docs/product/admin.md#secret-key): reveals the operational wallet key to an
//! admin who knows the admin secret. See `crate::secret` for the rules.

use std::net::IpAddr;

use serde::Deserialize;
use warp::filters::BoxedFilter;
use warp::Filter;

use super::auth::admin;
use super::client;
use super::error::reply;
use super::{json_body, ok, with, Answer};
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

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // POST /api/v1/key — {privateKey}; never logged, never cached (no-store on all of /api).
    warp::path!("key")
        .and(warp::post())
        .and(admin(app.clone()))
        .and(with(&app))
        .and(client::address(&app))
        .and(json_body::<KeyRequest>())
        .then(reveal)
        .map(reply)
        .boxed()
}

async fn reveal(who: Authed, app: App, addr: Option<IpAddr>, body: KeyRequest) -> Answer {
    let ip = addr.map(|a| a.to_string()).unwrap_or_default();
    let private_key = secret::reveal(&app, who.user.id, ip, body.key).await?;
    ok(&Revealed { private_key })
}
