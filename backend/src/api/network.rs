//! The referral network's routes (issue 13): the member's network page data, claims with a
//! 6-digit emailed code and a signed voucher, the admin's ranks and activation nodes.

use std::net::IpAddr;

use lvlx_core::amount::{self, Units};
use lvlx_core::chain::Contract;
use lvlx_core::network::{self, Rank};
use lvlx_core::validation::{self, Field};
use serde::Deserialize;
use serde_json::json;
use warp::filters::BoxedFilter;
use warp::Filter;

use super::auth::{admin, authed};
use super::client;
use super::error::reply;
use super::{json_body, ok, with};
use crate::error::Error;
use crate::network::{self as glue, claims, NodeTerms};
use crate::session::Authed;
use crate::store::network as stored;
use crate::{now_ms, App};

/// Rank changes the admin page lists.
const AUDIT_ROWS: i64 = 200;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Language {
    language: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Confirm {
    attempt: String,
    claim_code: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RankEdit {
    name: String,
    /// USDT base units.
    threshold: String,
    /// LVLX base units.
    bonus: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct NodeEdit {
    /// USDT base units.
    price: String,
    on_sale: bool,
}

fn base_units(text: &str, what: &str) -> Result<Units, Error> {
    amount::parse_base(text).map_err(|_| Error::Malformed(format!("{what}: base units")))
}

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // GET /api/v1/network — the member's network: referral code, node, downline by level with
    // totals, rank standing, bonuses, rewards, claims and what is claimable; with the node's
    // price and sale flag from the chain when it answers (null otherwise).
    let overview = warp::path!("network")
        .and(warp::get())
        .and(authed(app.clone()))
        .and(with(&app))
        .then(|who: Authed, app: App| async move {
            let levels = app.config.commission_levels_bps.clone();
            let user = who.user.clone();
            let mut body = app
                .store
                .read(move |c| glue::overview(c, &user, &levels))
                .await?;
            body["node"] = match glue::node_terms(&app).await {
                Ok(t) => json!({ "price": t.price.to_string(), "onSale": t.on_sale }),
                Err(_) => serde_json::Value::Null,
            };
            ok(&body)
        })
        .map(reply);

    // GET /api/v1/network/glance — the dashboard's card: {userCodeLink, activationNode,
    // userRankData, claimable}, without the downline.
    let glance = warp::path!("network" / "glance")
        .and(warp::get())
        .and(authed(app.clone()))
        .and(with(&app))
        .then(|who: Authed, app: App| async move {
            let user = who.user.clone();
            ok(&app.store.read(move |c| glue::glance(c, &user)).await?)
        })
        .map(reply);

    // GET /api/v1/network/sponsor — {wallet}: the sponsor's linked wallet (null when none), which
    // the token page passes to the sale as the purchase's referrer.
    let sponsor = warp::path!("network" / "sponsor")
        .and(warp::get())
        .and(authed(app.clone()))
        .and(with(&app))
        .then(|who: Authed, app: App| async move {
            let user = who.user.id;
            let wallet = app
                .store
                .read(move |c| stored::sponsor_wallet(c, user))
                .await
                .map_err(Error::from)?;
            ok(&json!({ "wallet": wallet }))
        })
        .map(reply);

    // POST /api/v1/claims {language?} — asks to claim everything claimable: a 6-digit code is
    // mailed, bound to this claim → {attempt, amount}.
    let request = warp::path!("claims")
        .and(warp::post())
        .and(client::address(&app))
        .and(authed(app.clone()))
        .and(with(&app))
        .and(json_body::<Language>())
        .then(
            |ip: Option<IpAddr>, who: Authed, app: App, body: Language| async move {
                app.code_limit.check(ip).await?;
                ok(&claims::request(&app, &who.user, body.language.as_deref()).await?)
            },
        )
        .map(reply);

    // POST /api/v1/claims/confirm {attempt, claimCode} — the code confirms the claim; the
    // server signs its voucher → {account, cumulative, deadline, signature, contract, chainId},
    // which the member's wallet submits to the ClaimDistributor.
    let confirm = warp::path!("claims" / "confirm")
        .and(warp::post())
        .and(client::address(&app))
        .and(authed(app.clone()))
        .and(with(&app))
        .and(json_body::<Confirm>())
        .then(
            |ip: Option<IpAddr>, who: Authed, app: App, body: Confirm| async move {
                app.code_limit.check(ip).await?;
                validation::validate(Field::ClaimCode, &body.claim_code, None)?;
                ok(&claims::confirm(&app, who.user.id, body.attempt, body.claim_code).await?)
            },
        )
        .map(reply);

    // GET /api/v1/ranks — admin: the ranks and the newest changes (who, when, before, after).
    let ranks = warp::path!("ranks")
        .and(warp::get())
        .and(admin(app.clone()))
        .and(with(&app))
        .then(|_: Authed, app: App| async move {
            let (ranks, audit) = app
                .store
                .read(|c| {
                    Ok::<_, Error>((stored::ranks(c)?, stored::changes(c, "rank", AUDIT_ROWS)?))
                })
                .await?;
            ok(&json!({ "ranks": ranks, "audit": audit }))
        })
        .map(reply);

    // PUT /api/v1/ranks/{id} {name, threshold, bonus} — admin: writes one rank (new or
    // changed); the core checks the whole table; audited; applies from now on.
    let put_rank = warp::path!("ranks" / u32)
        .and(warp::put())
        .and(admin(app.clone()))
        .and(with(&app))
        .and(json_body::<RankEdit>())
        .then(
            |id: u32, who: Authed, app: App, body: RankEdit| async move {
                let rank = Rank {
                    id,
                    name: body.name.trim().to_string(),
                    threshold: base_units(&body.threshold, "threshold")?,
                    bonus: base_units(&body.bonus, "bonus")?,
                };
                let admin = who.user.id;
                let ranks = app
                    .store
                    .write(move |c| {
                        c.transaction(|tx| {
                            let mut table = stored::ranks(tx)?;
                            match table.iter_mut().find(|r| r.id == id) {
                                Some(r) => *r = rank.clone(),
                                None => table.push(rank.clone()),
                            }
                            network::validate_ranks(&table)?;
                            stored::put_rank(tx, &rank, admin, now_ms())?;
                            Ok::<_, Error>(stored::ranks(tx)?)
                        })
                    })
                    .await?;
                ok(&json!({ "ranks": ranks }))
            },
        )
        .map(reply);

    // GET /api/v1/activation-nodes/rows — admin: every node (member, wallet, date, USDT paid,
    // transaction) in activation order, as the Arrow stream the core's table engine loads.
    let node_rows = warp::path!("activation-nodes" / "rows")
        .and(warp::get())
        .and(admin(app.clone()))
        .and(with(&app))
        .then(|_: Authed, app: App| async move {
            let nodes = app.store.read(stored::nodes).await.map_err(Error::from)?;
            let rows: Vec<lvlx_core::admin::nodes::Node> = nodes
                .into_iter()
                .map(|n| lvlx_core::admin::nodes::Node {
                    created_at: n.created_at,
                    names: n.names.unwrap_or_default(),
                    email: n.email.unwrap_or_default(),
                    wallet: n.wallet,
                    usdt_paid: n.usdt_paid,
                    tx_hash: n.tx_hash,
                })
                .collect();
            let bytes = lvlx_core::admin::nodes::encode(&rows)
                .map_err(|e| Error::Internal(e.to_string()))?;
            super::statistics::arrow(bytes)
        })
        .map(reply);

    // GET /api/v1/activation-nodes — admin: the node's price and sale flag from the chain (null
    // when it does not answer), whether the owner's step is this server's, and the changes.
    let nodes = warp::path!("activation-nodes")
        .and(warp::get())
        .and(admin(app.clone()))
        .and(with(&app))
        .then(|_: Authed, app: App| async move {
            let terms = glue::node_terms(&app).await.ok();
            let audit = app
                .store
                .read(|c| stored::changes(c, "activation-node", AUDIT_ROWS))
                .await
                .map_err(Error::from)?;
            ok(&json!({
                "audit": audit,
                "terms": terms.map(|t| json!({ "price": t.price.to_string(), "onSale": t.on_sale })),
                "ownerStep": app.config.chain.as_ref().is_none_or(|c| c.owner.is_empty()),
            }))
        })
        .map(reply);

    // PUT /api/v1/activation-node {price, onSale} — admin: the node's terms, written on chain
    // by the configured owner account (development chain); refused with error-owner-step where
    // the owner signs with their own key (production).
    let put_node = warp::path!("activation-node")
        .and(warp::put())
        .and(admin(app.clone()))
        .and(with(&app))
        .and(json_body::<NodeEdit>())
        .then(|who: Authed, app: App, body: NodeEdit| async move {
            let price = base_units(&body.price, "price")?;
            if price == 0 {
                return Err(Error::Malformed("price: above zero".into()));
            }
            let chain = glue::contracts(&app.config)
                .cloned()
                .ok_or(Error::ChainUnavailable)?;
            if chain.owner.is_empty() {
                return Err(Error::OwnerStep);
            }
            let on_sale = body.on_sale;
            let before = glue::node_terms(&app).await?;
            tokio::task::spawn_blocking(move || {
                let rpc = crate::chain::rpc::Rpc::new(chain.rpc_url.expose());
                crate::chain::deploy::transact(
                    &rpc,
                    &chain.owner,
                    &chain.activation_node,
                    Contract::ActivationNode,
                    "setTerms",
                    &[&price.to_string(), if on_sale { "true" } else { "false" }],
                )
            })
            .await
            .map_err(|e| Error::Internal(e.to_string()))?
            .map_err(|e| {
                tracing::warn!(error = %e, "node terms not written");
                Error::ChainUnavailable
            })?;
            let terms = glue::node_terms(&app).await?;
            let admin = who.user.id;
            let as_json =
                |t: &NodeTerms| json!({ "price": t.price.to_string(), "onSale": t.on_sale });
            let (was, now) = (as_json(&before), as_json(&terms));
            app.store
                .write(move |c| {
                    stored::audit(c, "activation-node", None, admin, now_ms(), Some(was), &now)
                })
                .await
                .map_err(Error::from)?;
            ok(&json!({ "price": terms.price.to_string(), "onSale": terms.on_sale }))
        })
        .map(reply);

    overview
        .or(glance)
        .unify()
        .or(sponsor)
        .unify()
        .or(request)
        .unify()
        .or(confirm)
        .unify()
        .or(ranks)
        .unify()
        .or(put_rank)
        .unify()
        .or(node_rows)
        .unify()
        .or(nodes)
        .unify()
        .or(put_node)
        .unify()
        .boxed()
}
