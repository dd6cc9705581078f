//! GET /api/v1/ws — the live channel (issue 5). A browser cannot put a bearer token on a
//! WebSocket handshake, so the first message authenticates: `{"type":"auth","token":…}` within
//! 10 s. Then the server sends `{"type":"ready"}` and every push the viewer may see (their own
//! purchases; all of them for an admin), and closes when the session ends or is revoked.
//! Anything else the page sends is ignored; messages over 4 KB end the connection.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::broadcast::error::RecvError;
use warp::filters::BoxedFilter;
use warp::ws::{Message, WebSocket, Ws};
use warp::{Filter, Reply};

use crate::session::{self, Authed};
use crate::App;

const AUTH_WITHIN: Duration = Duration::from_secs(10);
/// How often an open channel checks its session is still live (logout, expiry).
const RECHECK: Duration = Duration::from_secs(60);

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
enum Hello {
    Auth { token: String },
}

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    warp::path!("ws")
        .and(warp::ws())
        .map(move |ws: Ws| {
            let app = app.clone();
            ws.max_message_size(4096)
                .on_upgrade(move |socket| serve(app, socket))
                .into_response()
        })
        .boxed()
}

async fn send(socket: &mut WebSocket, value: serde_json::Value) -> bool {
    socket.send(Message::text(value.to_string())).await.is_ok()
}

async fn authenticate(app: &App, socket: &mut WebSocket) -> Option<Authed> {
    let first = tokio::time::timeout(AUTH_WITHIN, socket.next())
        .await
        .ok()??
        .ok()?;
    let Ok(Hello::Auth { token }) = serde_json::from_str(first.to_str().ok()?) else {
        return None;
    };
    session::authenticate(app, &token).await.ok()
}

async fn serve(app: App, mut socket: WebSocket) {
    // Subscribe before authenticating, so nothing recorded meanwhile is missed.
    let mut pushes = app.hub.subscribe();
    let Some(who) = authenticate(&app, &mut socket).await else {
        let _ = send(
            &mut socket,
            json!({"type": "error", "code": "error-unauthorized"}),
        )
        .await;
        let _ = socket.close().await;
        return;
    };
    let viewer = who.user.id;
    let admin = who.user.is_admin();
    if !send(&mut socket, json!({"type": "ready"})).await {
        return;
    }
    let mut recheck = tokio::time::interval(RECHECK);
    recheck.tick().await;
    loop {
        tokio::select! {
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
                if !session::is_live(&app, &who.session_id).await {
                    let _ = send(&mut socket, json!({"type": "error", "code": "error-unauthorized"})).await;
                    let _ = socket.close().await;
                    return;
                }
            }
        }
    }
}
