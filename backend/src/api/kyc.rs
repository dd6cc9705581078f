//! Identity verification routes: the member's status and where to verify, the provider's
//! signed webhook, and admins' corrections (audited); beside them an admin's block of an
//! account (`accounts::blocking`). Each handler parses, calls one function
//! of `crate::kyc` and replies.

use bytes::Bytes;
use serde::Deserialize;
use warp::filters::BoxedFilter;
use warp::Filter;

use super::auth::{admin, authed};
use super::error::reply;
use super::{json_body, ok, with, Answer};
use crate::kyc::{self, WEBHOOK_MAX_BYTES};
use crate::session::Authed;
use crate::user::UserId;
use crate::App;

#[derive(Deserialize, utoipa::ToSchema)]
#[schema(as = KycSet)]
#[serde(deny_unknown_fields)]
pub(crate) struct AdminSet {
    #[schema(schema_with = crate::api::openapi::kyc_status)]
    status: String,
    #[schema(min_length = 1, max_length = 500)]
    reason: String,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[schema(as = AccountStatusSet)]
#[serde(deny_unknown_fields)]
pub(crate) struct StatusSet {
    /// active | blocked.
    #[schema(pattern = "^(active|blocked)$")]
    status: String,
    #[schema(min_length = 1, max_length = 500)]
    reason: String,
}

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // GET /api/v1/kyc — the member's {status, updatedAt, startUrl, available}.
    let member = warp::path!("kyc")
        .and(warp::get())
        .and(authed(app.clone()))
        .and(with(&app))
        .then(member)
        .map(reply);

    // POST /api/v1/kyc/webhook — Persona's events, authenticated by the Persona-Signature
    // header (HMAC of "t.body", t within the tolerance). 200 {accepted} for a new event, 200
    // {duplicate} for one seen before; 401 unsigned, stale or forged; 404 with no provider.
    let webhook = warp::path!("kyc" / "webhook")
        .and(warp::post())
        .and(warp::header::optional::<String>("persona-signature"))
        .and(warp::body::content_length_limit(WEBHOOK_MAX_BYTES))
        .and(warp::body::bytes())
        .and(with(&app))
        .then(webhook)
        .map(reply);

    // GET /api/v1/users/{id}/kyc — admin: the account's {status, updatedAt, history}.
    let view = warp::path!("users" / u32 / "kyc")
        .and(warp::get())
        .and(admin(app.clone()))
        .and(with(&app))
        .then(admin_view)
        .map(reply);

    // PUT /api/v1/users/{id}/kyc {status, reason} — admin: sets or corrects a member's status;
    // the reason (1–500 characters) and the admin go into the append-only audit.
    let set = warp::path!("users" / u32 / "kyc")
        .and(warp::put())
        .and(admin(app.clone()))
        .and(with(&app))
        .and(json_body::<AdminSet>())
        .then(admin_set)
        .map(reply);

    // PUT /api/v1/users/{id}/status {status, reason} — admin: blocks (no sign-in, sessions
    // ended) or unblocks a member; the reason (1–500 characters) goes into the audit.
    let status = warp::path!("users" / u32 / "status")
        .and(warp::put())
        .and(admin(app.clone()))
        .and(with(&app))
        .and(json_body::<StatusSet>())
        .then(status_set)
        .map(reply);

    member
        .or(status)
        .unify()
        .or(webhook)
        .unify()
        .or(view)
        .unify()
        .or(set)
        .unify()
        .boxed()
}

async fn member(who: Authed, app: App) -> Answer {
    ok(&kyc::member(&app, who.user.id).await?)
}

async fn webhook(signature: Option<String>, body: Bytes, app: App) -> Answer {
    ok(&kyc::receive(&app, signature.as_deref().unwrap_or(""), &body).await?)
}

async fn admin_view(id: u32, _: Authed, app: App) -> Answer {
    ok(&kyc::admin::view(&app, UserId(i64::from(id))).await?)
}

async fn status_set(id: u32, who: Authed, app: App, body: StatusSet) -> Answer {
    let user = UserId(i64::from(id));
    let set = crate::accounts::blocking::set(&app, who.user.id, user, &body.status, &body.reason);
    ok(&set.await?)
}

async fn admin_set(id: u32, who: Authed, app: App, body: AdminSet) -> Answer {
    let user = UserId(i64::from(id));
    ok(&kyc::admin::set(&app, who.user.id, user, &body.status, &body.reason).await?)
}
