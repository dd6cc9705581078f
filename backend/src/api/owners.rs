//! The owners' announced changes (`crate::owners::read`) and the owner actions proposed to
//! their Safe (`crate::owners::proposals`).

use serde::Deserialize;
use warp::filters::BoxedFilter;
use warp::Filter;

use super::auth::{admin, authed};
use super::error::reply;
use super::{json_body, ok, with, Answer};
use crate::session::Authed;
use crate::{owners, App};

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // GET /api/v1/owners — members and admins: the claim distributor's owner changes waiting
    // for their delay, its current limits, and every contract's owner (and pending owner) →
    // {blockTime, delaySeconds, claims, pending, owners}. 503 when the chain does not answer.
    let announced = warp::path!("owners")
        .and(warp::get())
        .and(authed(app.clone()))
        .and(with(&app))
        .then(announced)
        .map(reply);

    // GET /api/v1/owner-proposals — admin: the owners' Safe and the newest proposals, decoded
    // (arguments beside their current values), with their signers and status.
    let list = warp::path!("owner-proposals")
        .and(warp::get())
        .and(admin(app.clone()))
        .and(with(&app))
        .then(list)
        .map(reply);

    // POST /api/v1/owner-proposals {contract, function, args} — admin: proposes an owner action
    // to the Safe that owns the contract → {id}. Refused when it is no owner action, the owner
    // is not a Safe (error-owner-step) or the call would revert now (the contract's reason).
    let propose = warp::path!("owner-proposals")
        .and(warp::post())
        .and(admin(app.clone()))
        .and(with(&app))
        .and(json_body::<Proposal>())
        .then(propose)
        .map(reply);

    // POST /api/v1/owner-proposals/{id}/signatures {signature} — admin: an owner's EIP-712
    // signature of the proposal, kept when it recovers to one of the Safe's owners.
    let sign = warp::path!("owner-proposals" / i64 / "signatures")
        .and(warp::post())
        .and(admin(app.clone()))
        .and(with(&app))
        .and(json_body::<Signature>())
        .then(sign)
        .map(reply);

    // POST /api/v1/owner-proposals/{id}/executed {tx} — admin: the transaction that executed
    // the proposal, recorded once its receipt shows the Safe ran it.
    let executed = warp::path!("owner-proposals" / i64 / "executed")
        .and(warp::post())
        .and(admin(app.clone()))
        .and(with(&app))
        .and(json_body::<Executed>())
        .then(executed)
        .map(reply);

    // POST /api/v1/owner-proposals/{id}/rejection — admin: proposes an empty Safe transaction
    // at that proposal's nonce (Safe's way to use up a turn a failing proposal blocks) → {id}.
    let reject = warp::path!("owner-proposals" / i64 / "rejection")
        .and(warp::post())
        .and(admin(app.clone()))
        .and(with(&app))
        .then(reject)
        .map(reply);

    announced
        .or(reject)
        .unify()
        .or(list)
        .unify()
        .or(propose)
        .unify()
        .or(sign)
        .unify()
        .or(executed)
        .unify()
        .boxed()
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

async fn announced(_who: Authed, app: App) -> Answer {
    ok(&owners::read(&app).await?)
}

async fn list(_who: Authed, app: App) -> Answer {
    ok(&owners::proposals::list(&app).await?)
}

async fn propose(who: Authed, app: App, body: Proposal) -> Answer {
    let proposal =
        owners::proposals::propose(&app, who.user.id, &body.contract, &body.function, body.args);
    ok(&proposal.await?)
}

async fn reject(id: i64, who: Authed, app: App) -> Answer {
    ok(&owners::proposals::reject(&app, who.user.id, id).await?)
}

async fn sign(id: i64, who: Authed, app: App, body: Signature) -> Answer {
    ok(&owners::proposals::sign(&app, who.user.id, id, body.signature).await?)
}

async fn executed(id: i64, who: Authed, app: App, body: Executed) -> Answer {
    ok(&owners::proposals::executed(&app, who.user.id, id, body.tx).await?)
}
