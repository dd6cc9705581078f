//! The owners' announced changes (`crate::owners::read`) and the owner actions proposed to
//! their Safe (`crate::owners::proposals`).

use serde::Deserialize;
use warp::Filter;

use super::auth::{admin_app, authed_app};
use super::error::reply;
use super::openapi::errors::*;
use super::{first_of, json_body, ok, Answer, Route};
use crate::session::Authed;
use crate::{owners, App};

/// This module's operations, merged into the served document by `api::openapi`.
#[derive(utoipa::OpenApi)]
#[openapi(paths(announced, list, propose, sign, executed, reject))]
pub(super) struct Doc;

pub fn routes(app: App) -> Route {
    // Members and admins: the claim distributor's owner changes waiting for their delay, its
    // current limits, and every contract's owner (and pending owner) → {blockTime, delaySeconds,
    // claims, pending, owners}. 503 when the chain does not answer.
    let announced = warp::path!("owners")
        .boxed()
        .and(warp::get())
        .and(authed_app(&app))
        .then(announced)
        .map(reply)
        .boxed();

    // Admin: the owners' Safe and the newest proposals, decoded (arguments beside their current
    // values), with their signers and status.
    let list = warp::path!("owner-proposals")
        .boxed()
        .and(warp::get())
        .and(admin_app(&app))
        .then(list)
        .map(reply)
        .boxed();

    // Admin: proposes an owner action to the Safe that owns the contract → {id}. Refused when it is
    // no owner action, the owner is not a Safe (error-owner-step) or the call would revert now (the
    // contract's reason).
    let propose = warp::path!("owner-proposals")
        .boxed()
        .and(warp::post())
        .and(admin_app(&app))
        .and(json_body::<Proposal>())
        .then(propose)
        .map(reply)
        .boxed();

    // Admin: an owner's EIP-712 signature of the proposal, kept when it recovers to one of the
    // Safe's owners.
    let sign = warp::path!("owner-proposals" / i64 / "signatures")
        .boxed()
        .and(warp::post())
        .and(admin_app(&app))
        .and(json_body::<Signature>())
        .then(sign)
        .map(reply)
        .boxed();

    // Admin: the transaction that executed the proposal, recorded once its receipt shows the Safe
    // ran it.
    let executed = warp::path!("owner-proposals" / i64 / "executed")
        .boxed()
        .and(warp::post())
        .and(admin_app(&app))
        .and(json_body::<Executed>())
        .then(executed)
        .map(reply)
        .boxed();

    // Admin: proposes an empty Safe transaction at that proposal's nonce (Safe's way to use up a
    // turn a failing proposal blocks) → {id}.
    let reject = warp::path!("owner-proposals" / i64 / "rejection")
        .boxed()
        .and(warp::post())
        .and(admin_app(&app))
        .then(reject)
        .map(reply)
        .boxed();

    first_of([announced, reject, list, propose, sign, executed])
}

#[derive(Deserialize, utoipa::ToSchema)]
#[schema(as = ProposalNew)]
#[serde(deny_unknown_fields)]
pub(crate) struct Proposal {
    contract: String,
    function: String,
    args: Vec<String>,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[schema(as = ProposalSignature)]
#[serde(deny_unknown_fields)]
pub(crate) struct Signature {
    #[schema(pattern = "^0x[0-9a-fA-F]*$")]
    signature: String,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[schema(as = ProposalExecuted)]
#[serde(deny_unknown_fields)]
pub(crate) struct Executed {
    #[schema(pattern = "^0x[0-9a-fA-F]*$")]
    tx: String,
}

/// The contracts' owners and the claim distributor's owner changes waiting for their delay
#[utoipa::path(
    get,
    path = "/owners",
    operation_id = "get_owners",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "OK", body = crate::owners::Owners),
        (status = 401, response = E401),
        (status = 500, response = E500),
        (status = 503, response = E503),
    ),
)]
async fn announced(_who: Authed, app: App) -> Answer {
    ok(&owners::read(&app.config, &app.chain_reads).await?)
}

/// The owners' Safe and the newest owner-action proposals, decoded
///
/// Admins only.
#[utoipa::path(
    get,
    path = "/owner-proposals",
    operation_id = "get_owner_proposals",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "OK", body = crate::owners::proposals::Proposals),
        (status = 401, response = E401),
        (status = 403, response = E403),
        (status = 500, response = E500),
        (status = 503, response = E503),
    ),
)]
async fn list(_who: Authed, app: App) -> Answer {
    ok(&owners::proposals::list(&app.store, &app.config).await?)
}

/// Propose an owner action to the Safe that owns the contract
///
/// Admins only. Refused when it is no owner action (400), the owner is not a Safe (409 error-owner-step) or the call would revert now (the contract's reason).
#[utoipa::path(
    post,
    path = "/owner-proposals",
    operation_id = "post_owner_proposal",
    security(("bearer" = [])),
    request_body = Proposal,
    responses(
        (status = 200, description = "OK", body = crate::owners::proposals::ProposalId),
        Admin,
        (status = 409, response = E409),
        (status = 413, response = E413),
        (status = 503, response = E503),
    ),
)]
async fn propose(who: Authed, app: App, body: Proposal) -> Answer {
    let proposal = owners::proposals::propose(
        &app.store,
        &app.config,
        who.user.id,
        &body.contract,
        &body.function,
        body.args,
    );
    ok(&proposal.await?)
}

/// Propose to reject a proposal: an empty Safe transaction at its nonce
///
/// Admins only. Refused when the proposal was executed or its turn has passed.
#[utoipa::path(
    post,
    path = "/owner-proposals/{id}/rejection",
    operation_id = "post_owner_proposal_rejection",
    security(("bearer" = [])),
    params(
        ("id" = i64, Path),
    ),
    responses(
        (status = 200, description = "OK", body = crate::owners::proposals::ProposalId),
        Admin,
        (status = 404, response = E404),
        (status = 409, response = E409),
        (status = 503, response = E503),
    ),
)]
async fn reject(id: i64, who: Authed, app: App) -> Answer {
    ok(&owners::proposals::reject(&app.store, &app.config, who.user.id, id).await?)
}

/// An owner's EIP-712 signature of a proposal
///
/// Admins only. Kept when it recovers, from the proposal's SafeTx hash, to one of the Safe's owners.
#[utoipa::path(
    post,
    path = "/owner-proposals/{id}/signatures",
    operation_id = "post_owner_proposal_signature",
    security(("bearer" = [])),
    params(
        ("id" = i64, Path),
    ),
    request_body = Signature,
    responses(
        (status = 200, description = "OK", body = crate::owners::proposals::Signed),
        Admin,
        (status = 404, response = E404),
        (status = 409, response = E409),
        (status = 413, response = E413),
        (status = 503, response = E503),
    ),
)]
async fn sign(id: i64, who: Authed, app: App, body: Signature) -> Answer {
    ok(&owners::proposals::sign(&app.store, &app.config, who.user.id, id, body.signature).await?)
}

/// The transaction that executed a proposal
///
/// Admins only. Recorded once the transaction's receipt shows the Safe's ExecutionSuccess for the proposal's hash.
#[utoipa::path(
    post,
    path = "/owner-proposals/{id}/executed",
    operation_id = "post_owner_proposal_executed",
    security(("bearer" = [])),
    params(
        ("id" = i64, Path),
    ),
    request_body = Executed,
    responses(
        (status = 200, description = "OK", body = crate::owners::proposals::ProposalId),
        Admin,
        (status = 404, response = E404),
        (status = 409, response = E409),
        (status = 413, response = E413),
        (status = 503, response = E503),
    ),
)]
async fn executed(id: i64, who: Authed, app: App, body: Executed) -> Answer {
    ok(&owners::proposals::executed(&app.store, &app.config, who.user.id, id, body.tx).await?)
}
