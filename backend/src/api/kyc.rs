//! Identity verification routes (issue 14): the member's status and where to verify, the
//! provider's signed webhook, and admins' corrections (audited).

use bytes::Bytes;
use lvlx_core::kyc::KycStatus;
use serde::Deserialize;
use serde_json::json;
use warp::filters::BoxedFilter;
use warp::Filter;

use super::auth::{admin, authed};
use super::error::reply;
use super::{json_body, ok, with};
use crate::error::Error;
use crate::kyc::{self as glue, Event, WEBHOOK_MAX_BYTES};
use crate::live::Push;
use crate::session::Authed;
use crate::store::{kyc as stored, users};
use crate::user::UserId;
use crate::{now_ms, App};

/// Changes an admin's dialog lists.
const HISTORY_ROWS: i64 = 50;
/// The longest reason an admin may give.
const REASON_MAX: usize = 500;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AdminSet {
    status: String,
    reason: String,
}

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // GET /api/v1/kyc — the member's {status, updatedAt, startUrl, available}.
    let member = warp::path!("kyc")
        .and(warp::get())
        .and(authed(app.clone()))
        .and(with(&app))
        .then(|who: Authed, app: App| async move {
            let config = app.config.clone();
            let user = who.user.id;
            // A read, but for the first visit, which makes the account's provider reference.
            let read = config.clone();
            if let Some(view) = app
                .store
                .read(move |c| glue::member_view(c, &read, user, false))
                .await?
            {
                return ok(&view);
            }
            let view = app
                .store
                .write(move |c| glue::member_view(c, &config, user, true))
                .await?;
            ok(&view.ok_or_else(|| Error::Internal("kyc reference not made".into()))?)
        })
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
        .then(
            |signature: Option<String>, body: Bytes, app: App| async move {
                let provider = app.config.kyc.as_ref().ok_or(Error::NotFound)?;
                glue::verify_signature(
                    signature.as_deref().unwrap_or(""),
                    &body,
                    provider.webhook_secret.expose(),
                    now_ms() / 1000,
                    provider.tolerance_secs,
                )?;
                let event = Event::parse(&body)?;
                let (fresh, member) = app
                    .store
                    .write(move |c| c.transaction(|tx| glue::accept(tx, &event, now_ms())))
                    .await?;
                if let (true, Some(user)) = (fresh, member) {
                    app.hub.push(Push::Network { user, event: "kyc" });
                }
                ok(&json!({ "received": if fresh { "accepted" } else { "duplicate" } }))
            },
        )
        .map(reply);

    // GET /api/v1/users/{id}/kyc — admin: the account's {status, updatedAt, history}.
    let view = warp::path!("users" / u32 / "kyc")
        .and(warp::get())
        .and(admin(app.clone()))
        .and(with(&app))
        .then(|id: u32, _who: Authed, app: App| async move {
            let user = UserId(i64::from(id));
            ok(&app
                .store
                .read(move |c| {
                    users::by_id(c, user)?.ok_or(Error::NotFound)?;
                    let kyc = stored::of(c, user)?;
                    let history = stored::history(c, user, HISTORY_ROWS)?;
                    Ok::<_, Error>(json!({ "status": kyc.status, "updatedAt": kyc.updated_at, "history": history }))
                })
                .await?)
        })
        .map(reply);

    // PUT /api/v1/users/{id}/kyc {status, reason} — admin: sets or corrects a member's status;
    // the reason (1–500 characters) and the admin go into the append-only audit.
    let set = warp::path!("users" / u32 / "kyc")
        .and(warp::put())
        .and(admin(app.clone()))
        .and(with(&app))
        .and(json_body::<AdminSet>())
        .then(
            |id: u32, who: Authed, app: App, body: AdminSet| async move {
                let next = KycStatus::parse(&body.status).ok_or_else(|| {
                    Error::Malformed("status: none | pending | approved | rejected".into())
                })?;
                let reason = body.reason.trim().to_string();
                if reason.is_empty() || reason.chars().count() > REASON_MAX {
                    return Err(Error::Rule("kyc-reason-required"));
                }
                let user = UserId(i64::from(id));
                let admin = who.user.id;
                let kyc = app
                    .store
                    .write(move |c| {
                        c.transaction(|tx| {
                            let member = users::by_id(tx, user)?.ok_or(Error::NotFound)?;
                            if member.is_admin() {
                                return Err(Error::Forbidden);
                            }
                            Ok(stored::set_by_admin(
                                tx,
                                user,
                                admin,
                                next,
                                &reason,
                                now_ms(),
                            )?)
                        })
                    })
                    .await?;
                app.hub.push(Push::Network { user, event: "kyc" });
                ok(&kyc)
            },
        )
        .map(reply);

    member
        .or(webhook)
        .unify()
        .or(view)
        .unify()
        .or(set)
        .unify()
        .boxed()
}
