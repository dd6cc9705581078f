//! The JSON API under /api/v1 (docs/product/api.md#conventions): `Cache-Control: no-store` on every
//! answer, errors as `{code, message}`, and an unknown /api path is a 404 JSON error, never the web
//! app.
//!
//! One module per resource; each has `routes(app)`, whose filters call named handlers that
//! return `Result<Response, Error>` (the domain error), turned into a response by
//! [`error::reply`] — the only place a status is chosen. Each handler carries its operation's
//! description (`#[utoipa::path]`), listed in the module's `Doc` for [`openapi`].
//!
//! Filters are boxed where they are made (`.boxed()` after the path, at the end of each endpoint,
//! after each `or`, and the shared filters: [`with`], [`json_body`], [`form`], `auth::*`,
//! `client::address`; most endpoints take the caller and the app from `auth::authed_app` or
//! `auth::admin_app`). A boxed filter behaves the same; what it changes is the compiler's work,
//! and a small allocation for each filter a request tries. Unboxed, every endpoint nested its
//! whole chain's types into the next, and rustc spent most of this crate's build normalising them
//! (docs/performance.md). A new endpoint follows its module's neighbours.

mod audit;
pub mod auth;
mod books;
mod captcha;
pub mod client;
pub mod content;
pub mod error;
mod faq;
pub mod health;
mod holdings;
pub mod images;
mod indexer;
mod keys;
mod kyc;
mod live;
mod logins;
mod network;
mod onramp;
pub mod openapi;
mod owners;
mod recovery;
mod registrations;
mod sessions;
mod settings;
mod staking;
mod statistics;
mod wallet;

use warp::filters::BoxedFilter;
use warp::http::header::{HeaderValue, CACHE_CONTROL};
use warp::{Filter, Reply};

use crate::App;

/// Largest JSON body any endpoint of this version accepts.
pub const MAX_JSON_BODY: u64 = 16 * 1024;

/// What a handler answers: a response, or a domain error for [`error::reply`].
pub type Answer = Result<warp::reply::Response, crate::error::Error>;

/// A filter answering with a response, as every route of the API is.
pub type Route = BoxedFilter<(warp::reply::Response,)>;

/// The first of `routes` that takes a request, tried in their order (at least one).
pub fn first_of(routes: impl IntoIterator<Item = Route>) -> Route {
    routes
        .into_iter()
        .reduce(|a, b| a.or(b).unify().boxed())
        .expect("at least one route")
}

pub fn routes(app: App) -> Route {
    // The live channel first: an upgrade storm is answered (or refused) without trying every
    // other route first.
    let v1 = first_of([
        live::routes(app.clone()),
        health::routes(app.clone()),
        settings::routes(app.clone()),
        captcha::routes(app.clone()),
        registrations::routes(app.clone()),
        logins::routes(app.clone()),
        recovery::routes(app.clone()),
        sessions::routes(app.clone()),
        images::routes(app.clone()),
        statistics::routes(app.clone()),
        keys::routes(app.clone()),
        content::routes(app.clone()),
        wallet::routes(app.clone()),
        holdings::routes(app.clone()),
        staking::routes(app.clone()),
        network::routes(app.clone()),
        kyc::routes(app.clone()),
        faq::routes(app.clone()),
        onramp::routes(app.clone()),
        owners::routes(app.clone()),
        books::routes(app.clone()),
        audit::routes(app.clone()),
        indexer::routes(app),
        openapi::route(),
    ]);
    warp::path("api")
        .and(
            // Everything under /api is answered here, so an unknown path becomes a JSON 404.
            warp::path("v1")
                .and(v1)
                .recover(error::recover)
                .unify()
                .boxed()
                .map(|reply: warp::reply::Response| no_store(reply)),
        )
        .boxed()
}

/// API answers are never cached, and never read by another site's page (no-cors embeds).
fn no_store(mut response: warp::reply::Response) -> warp::reply::Response {
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response.headers_mut().insert(
        "cross-origin-resource-policy",
        HeaderValue::from_static("same-origin"),
    );
    response
}

/// The app, for handlers.
pub(crate) fn with(app: &App) -> BoxedFilter<(App,)> {
    let app = app.clone();
    warp::any().map(move || app.clone()).boxed()
}

/// What every form POST of the account pages takes: the caller's address (for the per-IP limits),
/// the app, and its JSON body.
pub(crate) fn form<T: serde::de::DeserializeOwned + Send + Sync + 'static>(
    app: &App,
) -> BoxedFilter<(Option<std::net::IpAddr>, App, T)> {
    warp::post()
        .and(client::address(app))
        .and(with(app))
        .and(json_body())
        .boxed()
}

/// A JSON body of at most [`MAX_JSON_BODY`] bytes whose unknown fields are refused (the types
/// say `deny_unknown_fields`).
pub fn json_body<T: serde::de::DeserializeOwned + Send + Sync + 'static>() -> BoxedFilter<(T,)> {
    warp::body::content_length_limit(MAX_JSON_BODY)
        .and(warp::body::json())
        .boxed()
}

pub(crate) fn json(value: &impl serde::Serialize) -> warp::reply::Response {
    warp::reply::json(value).into_response()
}

/// A JSON answer.
pub(crate) fn ok(value: &impl serde::Serialize) -> Answer {
    Ok(json(value))
}
