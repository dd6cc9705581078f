//! GET /api/v1/ws — the live channel. A browser cannot put a bearer token on a
//! WebSocket handshake, so the first message authenticates: `{"type":"auth","token":…}` within
//! 5 s. Until then a socket counts against its network's (an IPv4 /24, an IPv6 /64) and the
//! server's caps of unauthenticated sockets (`ws_unauthenticated_per_ip`, `…_total`); an upgrade beyond them is
//! answered 429 with `Connection: close`, so its connection does not stay open either. Then the server sends `{"type":"ready"}` and every push the viewer may see (their own
//! purchases; all of them for an admin), and closes when the session ends or is revoked, or
//! with 1001 ("going away") when the server stops.
//! Anything else the page sends is ignored; messages over 4 KB end the connection.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::broadcast::error::RecvError;
use warp::ws::{Message, WebSocket, Ws};
use warp::{Filter, Reply};

use super::openapi::errors::*;
use super::{client, with, Route};
use crate::session::{self, Authed};
use crate::App;

/// How often an open channel checks its session is still live (logout, expiry).
const RECHECK: Duration = Duration::from_secs(60);

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
enum Hello {
    Auth { token: String },
}

/// This module's operations, merged into the served document by `api::openapi`.
#[derive(utoipa::OpenApi)]
#[openapi(paths(upgrade))]
pub(super) struct Doc;

pub fn routes(app: App) -> Route {
    // The live channel: a WebSocket upgrade; the first message authenticates.
    warp::path!("ws")
        .boxed()
        .and(warp::get())
        // Without the upgrade headers it is the client's mistake (400), not the server's.
        .and(
            warp::ws()
                .map(Some)
                .or(warp::any().map(|| None))
                .unify()
                .boxed(),
        )
        .and(client::address(&app))
        .and(with(&app))
        .map(upgrade)
        .boxed()
}

/// The live channel: a WebSocket upgrade; the first message {type: "auth", token} authenticates within 5 s
#[utoipa::path(
    get,
    path = "/ws",
    operation_id = "get_ws",
    security(),
    responses(
        (status = 101, description = "Switching protocols"),
        (status = 400, response = E400),
        (status = 429, response = E429),
        (status = 500, response = E500),
    ),
)]
fn upgrade(ws: Option<Ws>, peer: Option<std::net::IpAddr>, app: App) -> warp::reply::Response {
    let Some(ws) = ws else {
        return super::error::respond(crate::error::Error::Malformed(
            "a WebSocket upgrade is required".into(),
        ));
    };
    let peer = peer.unwrap_or(std::net::IpAddr::from([0, 0, 0, 0]));
    let Some(admitted) = app.sockets.admit(crate::limits::network_of(peer)) else {
        let mut refused = super::error::respond(crate::error::Error::RateLimited {
            retry_after_secs: app.config.ws_auth_secs,
        });
        refused.headers_mut().insert(
            warp::http::header::CONNECTION,
            warp::http::HeaderValue::from_static("close"),
        );
        return refused;
    };
    ws.max_message_size(4096)
        .on_upgrade(move |socket| serve(app, socket, admitted))
        .into_response()
}

async fn send(socket: &mut WebSocket, value: serde_json::Value) -> bool {
    socket.send(Message::text(value.to_string())).await.is_ok()
}

async fn authenticate(app: &App, socket: &mut WebSocket) -> Option<Authed> {
    let first = tokio::time::timeout(
        Duration::from_secs(app.config.ws_auth_secs.max(1)),
        socket.next(),
    )
    .await
    .ok()??
    .ok()?;
    let Ok(Hello::Auth { token }) = serde_json::from_str(first.to_str().ok()?) else {
        return None;
    };
    session::authenticate(&app.keys, &app.store, &token)
        .await
        .ok()
}

/// Says why the channel ends (an error's translation key) and closes it.
async fn refuse(socket: &mut WebSocket, code: &str) {
    let _ = send(socket, json!({"type": "error", "code": code})).await;
    let _ = socket.close().await;
}

/// One live channel: authenticated by its first message, then every push the viewer may see,
/// pings, and the session re-checked, until either side closes or the server stops.
async fn serve(
    app: App,
    mut socket: WebSocket,
    admitted: crate::limits::Admitted<std::net::IpAddr>,
) {
    // Subscribe before authenticating, so nothing recorded meanwhile is missed.
    let mut pushes = app.hub.subscribe();
    let who = authenticate(&app, &mut socket).await;
    // Authenticated or not, it no longer waits: its place goes back.
    drop(admitted);
    let Some(who) = who else {
        return refuse(&mut socket, "error-unauthorized").await;
    };
    let viewer = who.user.id;
    // One account holds a few channels (a tab each); more are refused, so a stolen or shared
    // session cannot hold thousands of sockets (3,000 from one member took 375 MiB).
    let Some(_channel) = app.channels.admit(viewer) else {
        return refuse(&mut socket, "error-rate-limit").await;
    };
    let admin = who.user.is_admin();
    if !send(&mut socket, json!({"type": "ready"})).await {
        return;
    }
    let mut recheck = tokio::time::interval(RECHECK);
    recheck.tick().await;
    // Pings keep a quiet channel within the server's idle limit and the proxy's read timeout.
    let mut ping = tokio::time::interval(Duration::from_secs(app.config.ws_ping_secs.max(1)));
    ping.tick().await;
    let mut stopping = app.stopping.subscribe();
    loop {
        tokio::select! {
            // The server stops: "going away", so the page reconnects (to another instance).
            () = async { drop(stopping.wait_for(|stop| *stop).await) } => {
                let _ = socket.send(Message::close_with(1001u16, "server stopping")).await;
                let _ = socket.close().await;
                return;
            }
            _ = ping.tick() => {
                if socket.send(Message::ping(Vec::new())).await.is_err() {
                    return;
                }
            }
            push = pushes.recv() => match push {
                Ok(push) if push.visible_to(viewer, admin) => {
                    if !send(&mut socket, push.to_json()).await {
                        return;
                    }
                }
                Ok(_) => {}
                // Too far behind: the page reloads what it shows instead.
                Err(RecvError::Lagged(_)) => {
                    if !send(&mut socket, json!({"type": "reload"})).await {
                        return;
                    }
                }
                Err(RecvError::Closed) => return,
            },
            incoming = socket.next() => match incoming {
                Some(Ok(m)) if m.is_close() => return,
                Some(Ok(_)) => {}
                Some(Err(_)) | None => return,
            },
            _ = recheck.tick() => {
                if !session::is_live(&app.store, &who.session_id).await {
                    return refuse(&mut socket, "error-unauthorized").await;
                }
            }
        }
    }
}
