//! The LVLX server: HTTP API under /api/v1, the built web app, translations and persistence.
//!
//! Domain rules (validation, amounts, dates) come from `lvlx-core`; this crate must not restate
//! them. Routes are built by [`routes`] so tests drive them with `warp::test::request()`.

pub mod api;
pub mod config;
pub mod db;
pub mod error;
pub mod web;

use std::sync::Arc;

use warp::http::header::{HeaderMap, HeaderValue};
use warp::Filter;

pub use config::Config;
pub use db::Db;

/// What every handler may need. Holds no state a second instance would need (DESIGN §9).
#[derive(Clone)]
pub struct App {
    pub config: Arc<Config>,
    pub db: Db,
}

impl App {
    pub fn new(config: Config, db: Db) -> App {
        App {
            config: Arc::new(config),
            db,
        }
    }
}

/// Every route of the server, with the headers every response carries.
pub fn routes(
    app: App,
) -> impl Filter<Extract = (impl warp::Reply,), Error = warp::Rejection> + Clone {
    api::routes(app.clone())
        .or(web::routes(&app.config))
        .unify()
        .with(warp::reply::with::headers(security_headers()))
        .with(warp::trace::request())
}

fn security_headers() -> HeaderMap {
    let mut headers = HeaderMap::new();
    let mut set = |name: &'static str, value: &'static str| {
        headers.insert(name, HeaderValue::from_static(value));
    };
    set("x-content-type-options", "nosniff");
    set("referrer-policy", "no-referrer");
    set("x-frame-options", "DENY");
    // 'wasm-unsafe-eval' lets the page compile the core's WebAssembly; nothing else is eval'd.
    set(
        "content-security-policy",
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
    );
    headers
}
