//! Live updates: what the indexer records is pushed to the open pages that care,
//! over the authenticated WebSocket at /api/v1/ws (`api::live`).
//!
//! One instance hands pushes to its own sockets. Instances sharing PostgreSQL relay
//! them through it: a push is sent as a NOTIFY on [`CHANNEL`], and every instance (the sender
//! too) LISTENs and hands what arrives to its own sockets, so a purchase indexed on one instance
//! reaches a page open on any.

use serde_json::Value;
use tokio::sync::broadcast;

/// The pushes themselves are data the indexer makes, below this crate.
pub use lvlx_chain::push::Push;

/// Pushes a slow page has not read yet before it starts missing some (it then reloads).
const BACKLOG: usize = 1024;
/// The PostgreSQL notification channel pushes travel on between instances.
pub const CHANNEL: &str = "lvlx_live";

#[derive(Clone)]
pub struct Hub {
    local: broadcast::Sender<Push>,
    /// Set when pushes travel through PostgreSQL (every instance hears them there).
    relay: Option<tokio::sync::mpsc::UnboundedSender<Value>>,
}

impl Default for Hub {
    fn default() -> Self {
        Hub {
            local: broadcast::channel(BACKLOG).0,
            relay: None,
        }
    }
}

impl Hub {
    /// Sends to whoever listens; nobody listening is fine.
    pub fn push(&self, push: Push) {
        match &self.relay {
            Some(relay) => {
                if relay.send(push.to_wire()).is_err() {
                    tracing::warn!("live relay stopped; push kept to this instance");
                    let _ = self.local.send(push);
                }
            }
            None => {
                let _ = self.local.send(push);
            }
        }
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Push> {
        self.local.subscribe()
    }

    /// A hub whose pushes go through PostgreSQL at `url` and come back from it, on every
    /// instance listening there. The relay's connections run as tasks on the current runtime
    /// and reconnect when lost (pushes made meanwhile reach this instance only).
    pub fn relayed(url: &str) -> Result<Hub, tokio_postgres::Error> {
        let config: tokio_postgres::Config = url.parse()?;
        let local = broadcast::channel(BACKLOG).0;
        let (relay, outbox) = tokio::sync::mpsc::unbounded_channel::<Value>();
        tokio::spawn(relay::run(config, local.clone(), outbox));
        Ok(Hub {
            local,
            relay: Some(relay),
        })
    }
}

mod relay {
    use std::time::Duration;

    use futures_util::StreamExt;
    use serde_json::Value;
    use tokio::sync::{broadcast, mpsc};
    use tokio_postgres::{AsyncMessage, NoTls};

    use super::{Push, CHANNEL};

    /// Listens on [`CHANNEL`] and sends what the hub is given, reconnecting after a failure.
    pub async fn run(
        config: tokio_postgres::Config,
        local: broadcast::Sender<Push>,
        mut outbox: mpsc::UnboundedReceiver<Value>,
    ) {
        loop {
            match connected(&config, &local, &mut outbox).await {
                Ok(()) => return, // the hub is gone: the server is stopping
                Err(e) => {
                    tracing::warn!(error = %e, "live relay lost its database connection; reconnecting");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        }
    }

    async fn connected(
        config: &tokio_postgres::Config,
        local: &broadcast::Sender<Push>,
        outbox: &mut mpsc::UnboundedReceiver<Value>,
    ) -> Result<(), String> {
        let fail = |e: tokio_postgres::Error| e.to_string();
        let (client, mut connection) = config.connect(NoTls).await.map_err(fail)?;
        // The connection is driven here, so its notifications can be read as they come.
        let (heard_tx, mut heard) = mpsc::unbounded_channel();
        let driver = tokio::spawn(async move {
            let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
            while let Some(message) = messages.next().await {
                match message {
                    Ok(AsyncMessage::Notification(n)) => {
                        let _ = heard_tx.send(n.payload().to_owned());
                    }
                    Ok(_) => {}
                    Err(e) => return Err(e),
                }
            }
            Ok(())
        });
        crate::store::notify::listen(&client, CHANNEL)
            .await
            .map_err(fail)?;
        tracing::info!("live pushes relayed through the database");
        let result = loop {
            tokio::select! {
                out = outbox.recv() => match out {
                    Some(wire) => {
                        crate::store::notify::notify(&client, CHANNEL, &wire.to_string())
                            .await
                            .map_err(fail)?;
                    }
                    None => break Ok(()),
                },
                heard = heard.recv() => match heard {
                    Some(payload) => {
                        match serde_json::from_str::<Value>(&payload).ok().as_ref().and_then(Push::from_wire) {
                            Some(push) => {
                                let _ = local.send(push);
                            }
                            None => tracing::warn!("unreadable live push relayed"),
                        }
                    }
                    // The connection ended: its error, if any, is the driver's.
                    None => break match driver.await {
                        Ok(Err(e)) => Err(e.to_string()),
                        _ => Err("the connection closed".into()),
                    },
                },
            }
        };
        result
    }
}
