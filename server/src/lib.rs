//! What serves requests: the HTTP API under /api/v1 (`api`), the built web app and uploaded images
//! (`web`), the listening loop (`serve`) and the metrics listener, over the domain (crate
//! `lvlx-domain`, here under its own module paths: `crate::accounts` …). The parts are assembled
//! here (`app`: [`App`]) and handed to the domain's functions part by part. Routes are built by
//! [`routes`] so tests drive them with `warp::test::request()`. The operator's tools (deployment,
//! rollout, demo) are not linked here: the `lvlx` command (crate `lvlx-backend`) adds them.

pub use lvlx_domain::*;

pub use app::{App, Shared};

pub mod api;
pub mod app;
pub mod metrics_endpoint;
pub mod serve;
pub mod web;

use warp::http::header::{HeaderMap, HeaderValue};
use warp::Filter;

/// A listening socket on `addr` whose connections have Nagle's algorithm off (Linux hands the
/// listener's TCP_NODELAY to every accepted socket): an answer whose head and body leave in two
/// writes otherwise waits for the client's delayed ACK, 40 ms.
pub fn listen(addr: std::net::SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.set_nodelay(true)?;
    socket.bind(addr)?;
    socket.listen(1024)
}

/// Every route of the server, with the headers every response carries.
pub fn routes(
    app: App,
) -> impl Filter<Extract = (impl warp::Reply,), Error = warp::Rejection> + Clone {
    api::routes(app.clone())
        .or(web::routes(&app))
        .unify()
        .boxed()
        .with(warp::reply::with::headers(security_headers()))
}

fn security_headers() -> HeaderMap {
    let mut headers = HeaderMap::new();
    let mut set = |name: &'static str, value: &'static str| {
        headers.insert(name, HeaderValue::from_static(value));
    };
    set("x-content-type-options", "nosniff");
    set("referrer-policy", "no-referrer");
    set("x-frame-options", "DENY");
    // Nothing of the app uses these powers; a page that is ever injected cannot ask for them.
    // (Chromium answers "bluetooth" with a console error on every page: it is not a feature it
    // knows in this header.)
    set(
        "permissions-policy",
        "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), interest-cohort=()",
    );
    // Another site's window opened from ours (or ours from it) gets no handle on this one.
    set("cross-origin-opener-policy", "same-origin");
    // 'wasm-unsafe-eval' lets the page compile the core's WebAssembly; nothing else is eval'd.
    // style-src keeps 'unsafe-inline': style-loader injects the CSS as <style> elements, and
    // react-easy-crop (the avatar cropper) and react-toastify set style attributes. HSTS is set
    // where TLS ends (the proxy; deploy/nginx, docs/security.md#what-holds).
    set(
        "content-security-policy",
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
    );
    headers
}
