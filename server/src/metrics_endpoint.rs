//! GET /metrics on the operator's own address (`metrics_bind`), never the public one: the
//! domain's registry (`crate::metrics`) rendered for Prometheus.

use warp::Filter;

use crate::metrics::render;
use crate::App;

/// Serves GET /metrics on `addr` until the process ends.
pub fn spawn(app: &App, addr: std::net::SocketAddr) -> std::io::Result<std::net::SocketAddr> {
    let listener = std::net::TcpListener::bind(addr)?;
    listener.set_nonblocking(true)?;
    let bound = listener.local_addr()?;
    let listener = tokio::net::TcpListener::from_std(listener)?;
    let app = app.clone();
    let route = warp::path!("metrics")
        .boxed()
        .and(warp::get())
        .then(move || {
            let app = app.clone();
            async move {
                warp::reply::with_header(
                    render(app.metrics()).await,
                    "content-type",
                    "application/openmetrics-text; version=1.0.0; charset=utf-8",
                )
            }
        })
        .boxed();
    tokio::spawn(warp::serve(route).incoming(listener).run());
    Ok(bound)
}
