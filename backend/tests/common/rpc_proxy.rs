//! A JSON-RPC proxy in front of a node that can act between a call's answer and its return:
//! the test's way to make the chain move while the indexer reads (a reorganisation between its
//! `eth_getLogs` and the block reads that follow).

use std::sync::{Arc, Mutex};

use serde_json::Value;
use warp::Filter;

type Hook = Box<dyn FnOnce() + Send>;

pub struct RpcProxy {
    pub url: String,
    after_logs: Arc<Mutex<Option<Hook>>>,
    /// `eth_getLogs` calls forwarded so far.
    pub logs_calls: Arc<Mutex<u64>>,
}

impl RpcProxy {
    pub async fn start(target: &str) -> RpcProxy {
        let target = target.to_string();
        let after_logs: Arc<Mutex<Option<Hook>>> = Arc::default();
        let logs_calls: Arc<Mutex<u64>> = Arc::default();
        let (hook, calls) = (after_logs.clone(), logs_calls.clone());
        let route = warp::post()
            .and(warp::body::json())
            .and_then(move |body: Value| {
                let (target, hook, calls) = (target.clone(), hook.clone(), calls.clone());
                async move {
                    let answer = tokio::task::spawn_blocking(move || {
                        let logs = body.to_string().contains("\"eth_getLogs\"");
                        let text = ureq::post(&target)
                            .header("content-type", "application/json")
                            .send(body.to_string())
                            .expect("node reachable")
                            .body_mut()
                            .read_to_string()
                            .expect("an answer");
                        let answer: Value = serde_json::from_str(&text).expect("JSON-RPC");
                        if logs {
                            *calls.lock().unwrap() += 1;
                            if let Some(act) = hook.lock().unwrap().take() {
                                act();
                            }
                        }
                        answer
                    })
                    .await
                    .unwrap();
                    Ok::<_, std::convert::Infallible>(warp::reply::json(&answer))
                }
            });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(warp::serve(route).incoming(listener).run());
        RpcProxy {
            url: format!("http://{addr}"),
            after_logs,
            logs_calls,
        }
    }

    /// Runs `act` once, right after the next `eth_getLogs` is answered by the node and before
    /// its answer goes back.
    pub fn after_next_logs(&self, act: impl FnOnce() + Send + 'static) {
        *self.after_logs.lock().unwrap() = Some(Box::new(act));
    }
}
