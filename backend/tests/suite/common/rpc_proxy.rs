//! A JSON-RPC proxy in front of a node that misbehaves on demand, as public and paid endpoints
//! do: it drops requests (HTTP 502), rate-limits them (HTTP 429), refuses `eth_getLogs` over
//! more than a few blocks, serves a stale head, answers every n-th request from a backend
//! behind the others (a load balancer), delays answers, acts between a call's answer and its
//! return (a reorganisation between the indexer's `eth_getLogs` and the block reads), or is
//! pointed at another node (a chain reset behind the same address).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};
use warp::http::StatusCode;
use warp::Filter;

type Hook = Box<dyn FnOnce() + Send>;

/// What the proxy does wrong; all off by default.
#[derive(Debug, Clone, Default)]
pub struct Faults {
    /// Every n-th request is dropped (HTTP 502, no JSON-RPC answer).
    pub drop_every: u64,
    /// Every n-th request is rate limited (HTTP 429).
    pub limit_every: u64,
    /// `eth_getLogs` over more blocks than this is refused ("block range is too large").
    pub max_log_range: Option<u64>,
    /// The head ("latest", eth_blockNumber) is this block, whatever the node has.
    pub stale_head: Option<u64>,
    /// `eth_getLogs` answers as a backend at this block would: a range's logs above it are
    /// left out, and a block above it asked for by hash is unknown. Block reads stay honest (a
    /// load balancer sending them to another backend).
    pub logs_behind: Option<u64>,
    /// With `logs_behind`: logs asked for by block hash come from an up-to-date backend (only
    /// the range's answer lags), so only the counts disagree.
    pub honest_by_hash: bool,
    /// Every n-th request (`.0`) is answered as a backend `.1` blocks behind the node's head
    /// would: its head, no block above it by number, no logs above it (a load-balanced
    /// provider whose backends alternate).
    pub alternate_lag: Option<(u64, u64)>,
    /// Blocks above this one are unknown by number (answered null).
    pub blocks_behind: Option<u64>,
    pub delay: Duration,
}

/// What the proxy did wrong so far.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Done {
    pub requests: u64,
    pub dropped: u64,
    pub limited: u64,
    pub ranges_refused: u64,
    pub stale_heads: u64,
    pub logs_calls: u64,
    /// Logs left out, and blocks by hash answered as unknown, by `logs_behind`.
    pub logs_hidden: u64,
    /// Requests answered as the backend behind (`alternate_lag`).
    pub lagged: u64,
}

fn number(v: &Value) -> Option<u64> {
    v.as_str()
        .and_then(|h| u64::from_str_radix(h.trim_start_matches("0x"), 16).ok())
}

/// An `eth_getLogs` answer as a backend at block `behind` would give it (`call` is the
/// request, `answer` the node's): see [`Faults::logs_behind`].
fn behind(call: &Value, answer: &mut Value, f: &Faults, target: &str, done: &Mutex<Done>) {
    let Some(behind) = f.logs_behind else { return };
    if call["method"] != "eth_getLogs" {
        return;
    }
    if let Some(hash) = call["params"][0]["blockHash"].as_str() {
        if f.honest_by_hash {
            return;
        }
        let block: Value = serde_json::from_str(
            &ureq::post(target)
                .header("content-type", "application/json")
                .send(json!({"jsonrpc": "2.0", "id": 1, "method": "eth_getBlockByHash", "params": [hash, false]}).to_string())
                .expect("node reachable")
                .body_mut()
                .read_to_string()
                .expect("an answer"),
        )
        .expect("JSON-RPC");
        if number(&block["result"]["number"]).is_some_and(|n| n > behind) {
            done.lock().unwrap().logs_hidden += 1;
            *answer = json!({"jsonrpc": "2.0", "id": call["id"], "error": {"code": -32000, "message": "unknown block"}});
        }
        return;
    }
    if let Some(logs) = answer["result"].as_array_mut() {
        let before = logs.len();
        logs.retain(|l| number(&l["blockNumber"]).is_some_and(|n| n <= behind));
        done.lock().unwrap().logs_hidden += (before - logs.len()) as u64;
    }
}

pub struct RpcProxy {
    pub url: String,
    target: Arc<Mutex<String>>,
    after_logs: Arc<Mutex<Option<Hook>>>,
    faults: Arc<Mutex<Faults>>,
    done: Arc<Mutex<Done>>,
}

/// A call as the proxy forwards it, or the error it answers instead.
fn rewrite(call: &mut Value, faults: &Faults, done: &mut Done) -> Option<Value> {
    let method = call["method"].as_str().unwrap_or_default().to_string();
    if method == "eth_getLogs" {
        done.logs_calls += 1;
        let filter = &call["params"][0];
        let block = |k: &str| {
            filter[k]
                .as_str()
                .and_then(|h| u64::from_str_radix(h.trim_start_matches("0x"), 16).ok())
        };
        if let (Some(max), Some(from), Some(to)) =
            (faults.max_log_range, block("fromBlock"), block("toBlock"))
        {
            if to + 1 - from > max {
                done.ranges_refused += 1;
                return Some(
                    json!({"jsonrpc": "2.0", "id": call["id"], "error": {"code": -32602,
                    "message": format!("block range is too large: you can make eth_getLogs requests with up to a {max} block range")}}),
                );
            }
        }
    }
    if let (Some(behind), "eth_getBlockByNumber") = (faults.blocks_behind, method.as_str()) {
        if number(&call["params"][0]).is_some_and(|n| n > behind) {
            // A block this backend does not have: the node answers null for it.
            call["params"][0] = json!("0xffffffffff");
        }
    }
    if let Some(head) = faults.stale_head {
        let hex = format!("0x{head:x}");
        if method == "eth_blockNumber" {
            done.stale_heads += 1;
            return Some(json!({"jsonrpc": "2.0", "id": call["id"], "result": hex}));
        }
        if method == "eth_getBlockByNumber" && call["params"][0] == json!("latest") {
            done.stale_heads += 1;
            call["params"][0] = json!(hex);
        }
    }
    None
}

impl RpcProxy {
    pub async fn start(target: &str) -> RpcProxy {
        let shared_target = Arc::new(Mutex::new(target.to_string()));
        let after_logs: Arc<Mutex<Option<Hook>>> = Arc::default();
        let faults: Arc<Mutex<Faults>> = Arc::default();
        let done: Arc<Mutex<Done>> = Arc::default();
        let state = (
            after_logs.clone(),
            faults.clone(),
            done.clone(),
            shared_target.clone(),
        );
        let route = warp::post()
            .and(warp::body::json())
            .and_then(move |mut body: Value| {
                let (hook, faults, done, target) = state.clone();
                let target = target.lock().unwrap().clone();
                async move {
                    let mut f = faults.lock().unwrap().clone();
                    let n = {
                        let mut d = done.lock().unwrap();
                        d.requests += 1;
                        d.requests
                    };
                    if let Some((every, blocks)) = f.alternate_lag {
                        if every > 0 && n % every == 0 {
                            let node = target.clone();
                            let head = tokio::task::spawn_blocking(move || {
                                let answer: Value = serde_json::from_str(
                                    &ureq::post(&node)
                                        .header("content-type", "application/json")
                                        .send(json!({"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber", "params": []}).to_string())
                                        .expect("node reachable")
                                        .body_mut()
                                        .read_to_string()
                                        .expect("an answer"),
                                )
                                .expect("JSON-RPC");
                                number(&answer["result"]).expect("a head")
                            })
                            .await
                            .unwrap();
                            let behind = head.saturating_sub(blocks);
                            done.lock().unwrap().lagged += 1;
                            f.stale_head = Some(behind);
                            f.logs_behind = Some(behind);
                            f.honest_by_hash = false;
                            f.blocks_behind = Some(behind);
                        }
                    }
                    tokio::time::sleep(f.delay).await;
                    let refuse = |status: StatusCode, text: &str| {
                        Ok::<_, std::convert::Infallible>(warp::reply::with_status(
                            warp::reply::json(&json!(text)),
                            status,
                        ))
                    };
                    if f.drop_every > 0 && n % f.drop_every == 0 {
                        done.lock().unwrap().dropped += 1;
                        return refuse(StatusCode::BAD_GATEWAY, "bad gateway");
                    }
                    if f.limit_every > 0 && n % f.limit_every == 0 {
                        done.lock().unwrap().limited += 1;
                        return refuse(StatusCode::TOO_MANY_REQUESTS, "too many requests");
                    }
                    // Calls the proxy answers itself (a single call only; batches are rewritten).
                    let answered = {
                        let mut d = done.lock().unwrap();
                        match &mut body {
                            Value::Array(calls) => {
                                for call in calls.iter_mut() {
                                    rewrite(call, &f, &mut d);
                                }
                                None
                            }
                            call => rewrite(call, &f, &mut d),
                        }
                    };
                    if let Some(answer) = answered {
                        return Ok(warp::reply::with_status(
                            warp::reply::json(&answer),
                            StatusCode::OK,
                        ));
                    }
                    let logs = body.to_string().contains("\"eth_getLogs\"");
                    let done_after = done.clone();
                    let answer = tokio::task::spawn_blocking(move || {
                        let text = ureq::post(&target)
                            .header("content-type", "application/json")
                            .send(body.to_string())
                            .expect("node reachable")
                            .body_mut()
                            .read_to_string()
                            .expect("an answer");
                        let mut answer: Value = serde_json::from_str(&text).expect("JSON-RPC");
                        if f.logs_behind.is_some() {
                            match (&body, &mut answer) {
                                (Value::Array(calls), Value::Array(answers)) => {
                                    for a in answers.iter_mut() {
                                        if let Some(call) =
                                            calls.iter().find(|c| c["id"] == a["id"])
                                        {
                                            behind(call, a, &f, &target, &done_after);
                                        }
                                    }
                                }
                                (call, a) => behind(call, a, &f, &target, &done_after),
                            }
                        }
                        if logs {
                            if let Some(act) = hook.lock().unwrap().take() {
                                act();
                            }
                        }
                        answer
                    })
                    .await
                    .unwrap();
                    Ok(warp::reply::with_status(
                        warp::reply::json(&answer),
                        StatusCode::OK,
                    ))
                }
            });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(warp::serve(route).incoming(listener).run());
        RpcProxy {
            url: format!("http://{addr}"),
            target: shared_target,
            after_logs,
            faults,
            done,
        }
    }

    /// Runs `act` once, right after the next `eth_getLogs` is answered by the node and before
    /// its answer goes back.
    pub fn after_next_logs(&self, act: impl FnOnce() + Send + 'static) {
        *self.after_logs.lock().unwrap() = Some(Box::new(act));
    }

    pub fn set_faults(&self, faults: Faults) {
        *self.faults.lock().unwrap() = faults;
    }

    /// Sends what follows to the node at `url` instead (a chain reset, or another node, behind
    /// the address the server was configured with).
    pub fn set_target(&self, url: &str) {
        *self.target.lock().unwrap() = url.to_string();
    }

    pub fn done(&self) -> Done {
        self.done.lock().unwrap().clone()
    }
}
