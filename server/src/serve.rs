//! The listening loop: every connection served by hyper (HTTP/1.1, upgrades for the live
//! channel) under the limits one client cannot exceed (~20,000 idle or half-sent
//! connections from one host starved the server of file descriptors):
//! - a request head must arrive whole within `header_read_timeout_secs` of the connection
//!   waiting for it (hyper's timer: slow-drip heads and idle keep-alive connections close), and
//!   a new connection must send its first byte within the same time;
//! - a request must be answered within `request_timeout_secs` of its head, its body included
//!   (a body sent a byte at a time keeps a connection from going idle, not from this; 408);
//! - a connection with no byte read or written for `idle_timeout_secs` closes (half-sent bodies,
//!   a WebSocket whose peer vanished: the live channel pings well within it);
//! - one address (an IPv6 /64) holds at most `connections_per_ip` connections, and all together at most
//!   `max_connections` (never more than the open-file limit less a reserve); more are closed at
//!   accept, before a byte is read. Trusted proxies are exempt from the per-address cap (their
//!   clients are counted per request by the per-IP limits, through X-Forwarded-For).

use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::{Instant, Sleep};
use tracing::Instrument;
use warp::http::HeaderValue;

use crate::limits::Gate;
use crate::App;

/// The address a connection came from, as a request extension (`api::client` reads it).
#[derive(Debug, Clone, Copy)]
pub struct Peer(pub SocketAddr);

/// Serves the app's routes on `listener` until `shutdown` completes, then lets open requests
/// finish.
pub async fn serve(app: &App, listener: TcpListener, shutdown: impl Future<Output = ()>) {
    let routes = crate::routes(app.clone());
    let config = &app.config;
    let header_read = Duration::from_secs(config.header_read_timeout_secs.max(1));
    let idle = Duration::from_secs(config.idle_timeout_secs.max(1));
    let deadline = Duration::from_secs(config.request_timeout_secs.max(1));
    let trusted = config.trusted_proxies.clone();
    let total = connection_cap(config.max_connections);
    let gate: Gate<IpAddr> = Gate::new(config.connections_per_ip, total);
    // Trusted proxies are not capped per address, but count toward the total.
    let proxies: Gate<()> = Gate::new(total, total);
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of file descriptors, or a connection reset before it was taken: the
                    // loop goes on after a pause rather than spinning.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Over a cap: closed at once, before any byte is read.
        let Some(place) = admit(peer.ip(), &trusted, &gate, &proxies) else {
            continue;
        };
        let _ = stream.set_nodelay(true);
        let service = warp::service(routes.clone());
        let hyper_service = hyper::service::service_fn(move |mut request| {
            request.extensions_mut().insert(Peer(peer));
            let (method, path) = (request.method().clone(), request.uri().path().to_string());
            let started = Instant::now();
            // Every answer names its request: a member quoting it finds the request's log lines.
            let id = crate::crypto::random_hex(8);
            let span = tracing::info_span!("request", request_id = %id, method = %method, route = %crate::metrics::route(&path));
            let mut service = service.clone();
            let answer = {
                let _entered = span.enter();
                tower_service::Service::call(&mut service, request)
            };
            async move {
                let answer = match tokio::time::timeout(deadline, answer).await {
                    Ok(answer) => answer,
                    Err(_) => Ok(crate::api::error::request_timeout()),
                };
                answer.map(|response| finish(response, &path, method.as_str(), started, &id))
            }
            .instrument(span)
        });
        let mut builder = Builder::new(TokioExecutor::new()).http1_only();
        builder
            .http1()
            .timer(TokioTimer::new())
            .header_read_timeout(header_read);
        let connection = builder.serve_connection_with_upgrades(
            TokioIo::new(Watched::new(stream, header_read, idle)),
            hyper_service,
        );
        let connection = graceful.watch(connection.into_owned());
        crate::metrics::METRICS.connections.inc();
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, "connection ended");
            }
            drop(place);
            crate::metrics::METRICS.connections.dec();
        });
    }
    drop(listener);
    drain(app, deadline, graceful).await;
}

/// A place for a connection from `ip`: under its subscriber's cap and the total, or, from a
/// trusted proxy, under the total alone.
fn admit(
    ip: IpAddr,
    trusted: &[ipnet::IpNet],
    gate: &Gate<IpAddr>,
    proxies: &Gate<()>,
) -> Option<Place> {
    if trusted.iter().any(|net| net.contains(&ip)) {
        proxies.admit(()).map(|held| Place::Proxy { _held: held })
    } else {
        gate.admit(crate::limits::subscriber_of(ip))
            .map(|held| Place::Client { _held: held })
    }
}

/// A request's answer on its way out: counted, logged (one line a request at debug; a server
/// error at error, whatever the level) and named by its request id.
fn finish(
    mut response: warp::reply::Response,
    path: &str,
    method: &str,
    started: Instant,
    id: &str,
) -> warp::reply::Response {
    let status = response.status().as_u16();
    let took = started.elapsed();
    crate::metrics::answered(path, method, status, took);
    let ms = took.as_secs_f64() * 1000.0;
    if status >= 500 {
        tracing::error!(status, ms, "answered with a server error");
    } else {
        tracing::debug!(status, ms, "answered");
    }
    if let Ok(value) = HeaderValue::from_str(id) {
        response.headers_mut().insert("x-request-id", value);
    }
    response
}

/// Stopping (the listener already closed): open requests finish within the request deadline
/// (they could not take longer anyway); live channels close with 1001 so pages reconnect.
async fn drain(
    app: &App,
    deadline: Duration,
    graceful: hyper_util::server::graceful::GracefulShutdown,
) {
    let _ = app.stopping.send_replace(true);
    let drain = deadline + Duration::from_secs(1);
    tracing::info!(
        within_secs = drain.as_secs(),
        "stopping: open requests finish, live channels close"
    );
    if tokio::time::timeout(drain, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("stopping: requests still open at the deadline are cut");
    }
    // The live channels' close frames on their way.
    let closing = Instant::now();
    while app.channels.pending_total() > 0 && closing.elapsed() < Duration::from_secs(2) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tracing::info!("stopped");
}

/// SIGINT (Ctrl-C) or SIGTERM (what systemd, Docker and Kubernetes send): either drains.
pub async fn stop_signal() {
    #[cfg(unix)]
    {
        let mut term =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            Some(()) = async { match term.as_mut() { Some(t) => t.recv().await, None => None } } => {}
        }
    }
    #[cfg(not(unix))]
    let _ = tokio::signal::ctrl_c().await;
}

/// A place a connection holds under the caps, given back when it ends (held for its drop).
enum Place {
    Client {
        _held: crate::limits::Admitted<IpAddr>,
    },
    Proxy {
        _held: crate::limits::Admitted<()>,
    },
}

/// Reserved below the open-file limit for the database, logs and outgoing calls.
const RESERVED_FILES: u64 = 256;

/// `wanted`, lowered to the open-file limit less [`RESERVED_FILES`] where that is lower.
fn connection_cap(wanted: u32) -> u32 {
    let files = rlimit::getrlimit(rlimit::Resource::NOFILE).map_or(u64::MAX, |(soft, _)| soft);
    let room = files.saturating_sub(RESERVED_FILES).max(16);
    u32::try_from(room).map_or(wanted, |room| wanted.min(room))
}

/// A TCP stream that fails with `TimedOut` once nothing has been read or written for `limit`,
/// or when its first byte has not come within `first`.
struct Watched {
    stream: TcpStream,
    limit: Duration,
    idle: Pin<Box<Sleep>>,
}

impl Watched {
    fn new(stream: TcpStream, first: Duration, limit: Duration) -> Watched {
        Watched {
            stream,
            limit,
            idle: Box::pin(tokio::time::sleep(first)),
        }
    }

    fn active(&mut self) {
        let deadline = Instant::now() + self.limit;
        self.idle.as_mut().reset(deadline);
    }

    /// Whether the idle limit has passed (registering for a wake-up when it has not).
    fn expired(&mut self, cx: &mut Context<'_>) -> bool {
        self.idle.as_mut().poll(cx).is_ready()
    }
}

fn timed_out() -> io::Error {
    io::Error::new(io::ErrorKind::TimedOut, "connection idle")
}

impl AsyncRead for Watched {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        match Pin::new(&mut this.stream).poll_read(cx, buf) {
            Poll::Ready(result) => {
                if buf.filled().len() > before {
                    this.active();
                }
                Poll::Ready(result)
            }
            Poll::Pending if this.expired(cx) => Poll::Ready(Err(timed_out())),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl Watched {
    /// A write's outcome: bytes written keep the connection active; waiting past the deadline
    /// ends it.
    fn wrote(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<usize>>,
    ) -> Poll<io::Result<usize>> {
        match polled {
            Poll::Ready(Ok(n)) => {
                if n > 0 {
                    self.active();
                }
                Poll::Ready(Ok(n))
            }
            Poll::Pending if self.expired(cx) => Poll::Ready(Err(timed_out())),
            other => other,
        }
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.stream).poll_write(cx, data);
        this.wrote(cx, polled)
    }

    /// Vectored writes as the socket does them: without them hyper flattens every answer into
    /// its own write buffer, a copy of the whole body per reader (200 slow readers of one 2 MB
    /// image took 322 MiB); with them it writes from the shared bytes.
    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        this.wrote(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}
