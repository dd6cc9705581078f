//! Identity verification routes: the member's status and where to verify, the provider's
//! signed webhook, and admins' corrections (audited); beside them an admin's block of an
//! account (`accounts::blocking`). Each handler parses, calls one function
//! of `crate::kyc` and replies.

use bytes::Bytes;
use serde::Deserialize;
use warp::Filter;

use super::auth::{admin_app, authed_app};
use super::error::reply;
use super::openapi::errors::*;
use super::{first_of, json_body, ok, with, Answer, Route};
use crate::kyc::{self, WEBHOOK_MAX_BYTES};
use crate::session::Authed;
use crate::user::UserId;
use crate::App;

super::openapi::shape!(
    /// Persona's event as far as the server reads it; the whole body is what is signed.
    PersonaEvent = "PersonaEvent",
    {
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        let text = || ObjectBuilder::new().schema_type(Type::String);
        let attributes = ObjectBuilder::new()
            .schema_type(Type::Object)
            .property("name", text())
            .property("created-at", text())
            .property("payload", ObjectBuilder::new().schema_type(Type::Object));
        let data = ObjectBuilder::new()
            .schema_type(Type::Object)
            .property("id", text())
            .property("type", text())
            .property("attributes", attributes)
            .required("id")
            .required("attributes");
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .property("data", data)
            .required("data")
            .build()
    }
);

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

/// This module's operations, merged into the served document by `api::openapi`.
#[derive(utoipa::OpenApi)]
#[openapi(paths(webhook, member, admin_view, admin_set, status_set))]
pub(super) struct Doc;

pub fn routes(app: App) -> Route {
    // The member's {status, updatedAt, startUrl, available}.
    let member = warp::path!("kyc")
        .boxed()
        .and(warp::get())
        .and(authed_app(&app))
        .then(member)
        .map(reply)
        .boxed();

    // Persona's events, authenticated by the Persona-Signature header (HMAC of "t.body", t within
    // the tolerance). 200 {accepted} for a new event, 200 {duplicate} for one seen before; 401
    // unsigned, stale or forged; 404 with no provider.
    let webhook = warp::path!("kyc" / "webhook")
        .boxed()
        .and(warp::post())
        .and(warp::header::optional::<String>("persona-signature"))
        .and(warp::body::content_length_limit(WEBHOOK_MAX_BYTES))
        .and(warp::body::bytes())
        .and(with(&app))
        .then(webhook)
        .map(reply)
        .boxed();

    // Admin: the account's {status, updatedAt, history}.
    let view = warp::path!("users" / u32 / "kyc")
        .boxed()
        .and(warp::get())
        .and(admin_app(&app))
        .then(admin_view)
        .map(reply)
        .boxed();

    // Admin: sets or corrects a member's status; the reason (1–500 characters) and the admin go
    // into the append-only audit.
    let set = warp::path!("users" / u32 / "kyc")
        .boxed()
        .and(warp::put())
        .and(admin_app(&app))
        .and(json_body::<AdminSet>())
        .then(admin_set)
        .map(reply)
        .boxed();

    // Admin: blocks (no sign-in, sessions ended) or unblocks a member; the reason (1–500
    // characters) goes into the audit.
    let status = warp::path!("users" / u32 / "status")
        .boxed()
        .and(warp::put())
        .and(admin_app(&app))
        .and(json_body::<StatusSet>())
        .then(status_set)
        .map(reply)
        .boxed();

    first_of([member, status, webhook, view, set])
}

/// The member's identity verification and where to start it
#[utoipa::path(
    get,
    path = "/kyc",
    operation_id = "get_kyc",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "OK", body = crate::kyc::MemberKyc),
        Member,
    ),
)]
async fn member(who: Authed, app: App) -> Answer {
    ok(&kyc::member(&app.store, &app.config, who.user.id).await?)
}

/// Persona's events, authenticated by Persona-Signature (t=…,v1=HMAC-SHA256(secret, "t.body"))
#[utoipa::path(
    post,
    path = "/kyc/webhook",
    operation_id = "post_kyc_webhook",
    security(),
    params(
        ("Persona-Signature" = String, Header),
    ),
    request_body = inline(PersonaEvent),
    responses(
        (status = 200, description = "OK", body = crate::kyc::Received),
        (status = 400, response = E400),
        (status = 401, response = E401),
        (status = 404, response = E404),
        (status = 413, response = E413),
        (status = 500, response = E500),
    ),
)]
async fn webhook(signature: Option<String>, body: Bytes, app: App) -> Answer {
    ok(&kyc::receive(
        &app.store,
        &app.config,
        &app.hub,
        signature.as_deref().unwrap_or(""),
        &body,
    )
    .await?)
}

/// A member's KYC status and history
///
/// Admins only (the role is re-read from the database).
#[utoipa::path(
    get,
    path = "/users/{id}/kyc",
    operation_id = "get_users_id_kyc",
    security(("bearer" = [])),
    params(
        ("id" = u32, Path),
    ),
    responses(
        (status = 200, description = "OK", body = crate::kyc::admin::KycView),
        Admin,
        (status = 404, response = E404),
        (status = 405, response = E405),
    ),
)]
async fn admin_view(id: u32, _: Authed, app: App) -> Answer {
    ok(&kyc::admin::view(&app.store, UserId(i64::from(id))).await?)
}

/// Blocks or unblocks a member's account with a reason (audited)
///
/// Admins only (the role is re-read from the database). A blocked account cannot sign in and its sessions end; an admin's account is refused (403).
#[utoipa::path(
    put,
    path = "/users/{id}/status",
    operation_id = "put_users_id_status",
    security(("bearer" = [])),
    params(
        ("id" = u32, Path),
    ),
    request_body = StatusSet,
    responses(
        (status = 200, description = "OK", body = crate::accounts::blocking::Status),
        Admin,
        (status = 404, response = E404),
        (status = 405, response = E405),
        (status = 413, response = E413),
    ),
)]
async fn status_set(id: u32, who: Authed, app: App, body: StatusSet) -> Answer {
    let user = UserId(i64::from(id));
    let set =
        crate::accounts::blocking::set(&app.store, who.user.id, user, &body.status, &body.reason);
    ok(&set.await?)
}

/// Sets or corrects a member's KYC status with a reason (audited)
///
/// Admins only (the role is re-read from the database).
#[utoipa::path(
    put,
    path = "/users/{id}/kyc",
    operation_id = "put_users_id_kyc",
    security(("bearer" = [])),
    params(
        ("id" = u32, Path),
    ),
    request_body = AdminSet,
    responses(
        (status = 200, description = "OK", body = crate::store::kyc::Kyc),
        Admin,
        (status = 404, response = E404),
        (status = 405, response = E405),
        (status = 413, response = E413),
    ),
)]
async fn admin_set(id: u32, who: Authed, app: App, body: AdminSet) -> Answer {
    let user = UserId(i64::from(id));
    ok(&kyc::admin::set(
        &app.store,
        &app.hub,
        who.user.id,
        user,
        &body.status,
        &body.reason,
    )
    .await?)
}
