//! A small blocking JSON-RPC 2.0 client over HTTP(S) (ureq), for the indexer and the deploy
//! command. Callers on the async runtime wrap it in `spawn_blocking`.

use std::time::Duration;

use serde_json::{json, Value};

/// Calls this process has sent, per node URL (a batch counts each call), for the tests and
/// benches that measure what a page load costs the node.
static CALLS: std::sync::Mutex<Option<std::collections::HashMap<String, u64>>> =
    std::sync::Mutex::new(None);

/// JSON-RPC calls sent so far by this process to the node at `url`.
pub fn calls_made(url: &str) -> u64 {
    let calls = CALLS.lock().unwrap_or_else(|e| e.into_inner());
    calls
        .as_ref()
        .and_then(|c| c.get(url))
        .copied()
        .unwrap_or(0)
}

fn count(url: &str, n: usize) {
    let mut calls = CALLS.lock().unwrap_or_else(|e| e.into_inner());
    *calls
        .get_or_insert_with(Default::default)
        .entry(url.to_string())
        .or_default() += n as u64;
}

/// Largest answer read (an eth_getLogs over a busy range).
const MAX_ANSWER: u64 = 64 * 1024 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum RpcError {
    /// The node could not be reached or answered garbage: worth retrying.
    #[error("RPC transport: {0}")]
    Transport(String),
    /// The node answered with an error object.
    #[error("RPC error {code}: {message}")]
    Node {
        code: i64,
        message: String,
        data: Option<Value>,
    },
    #[error("unexpected RPC answer: {0}")]
    Answer(String),
    /// The node asks for fewer requests (HTTP 429, or a JSON-RPC "limit exceeded"): back off,
    /// or ask another node.
    #[error("RPC rate limited: {0}")]
    RateLimited(String),
}

/// Whether a node's error message refuses an `eth_getLogs` for its span or its number of logs,
/// in the words providers use (Alchemy, Infura, QuickNode, Ankr, public Polygon nodes).
fn range_refusal(message: &str) -> bool {
    const WORDS: &[&str] = &[
        "block range",
        "blocks distance",
        "range is too",
        "range too",
        "more than",
        "exceeds max results",
        "exceeds limit",
        "too many logs",
        "too many results",
        "response size",
        "response too large",
        "limit the query",
    ];
    let m = message.to_lowercase();
    WORDS.iter().any(|w| m.contains(w))
        || (m.contains("range")
            && ["large", "exceed", "max", "limit", "wide", "up to"]
                .iter()
                .any(|w| m.contains(w)))
}

impl RpcError {
    /// Whether the node refused an `eth_getLogs` for spanning too many blocks or matching too
    /// many logs (each provider words it its own way): ask again for a shorter range.
    pub fn is_range_too_large(&self) -> bool {
        let RpcError::Node { message, .. } = self else {
            return false;
        };
        range_refusal(message)
    }

    /// Whether another node may answer where this one did not (unreachable, garbage, rate
    /// limited), as opposed to a node that answered an error about the request itself.
    pub fn is_node_trouble(&self) -> bool {
        matches!(
            self,
            RpcError::Transport(_) | RpcError::RateLimited(_) | RpcError::Answer(_)
        )
    }
}

#[derive(Clone)]
pub struct Rpc {
    url: String,
    agent: ureq::Agent,
}

impl std::fmt::Debug for Rpc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // A provider URL can carry an API key: never print it.
        f.write_str("Rpc(***)")
    }
}

impl Rpc {
    pub fn new(url: &str) -> Rpc {
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_secs(20)))
            .http_status_as_error(false)
            .build()
            .into();
        Rpc {
            url: url.to_string(),
            agent,
        }
    }

    fn post(&self, body: &Value) -> Result<Value, RpcError> {
        let transport = |e: ureq::Error| RpcError::Transport(e.to_string());
        let mut response = self
            .agent
            .post(&self.url)
            .header("content-type", "application/json")
            .send(body.to_string())
            .map_err(transport)?;
        let status = response.status();
        if status.as_u16() == 429 {
            return Err(RpcError::RateLimited(format!("HTTP {status}")));
        }
        // A node that refuses the key, or whose backends are down, answers with an HTTP error
        // (sometimes with a JSON-RPC body): another node may answer.
        if matches!(status.as_u16(), 401 | 403) || status.is_server_error() {
            return Err(RpcError::Transport(format!("HTTP {status}")));
        }
        let text = response
            .body_mut()
            .with_config()
            .limit(MAX_ANSWER)
            .read_to_string()
            .map_err(transport)?;
        serde_json::from_str(&text)
            .map_err(|_| RpcError::Transport(format!("HTTP {status}: not JSON-RPC")))
    }

    fn result(answer: Value) -> Result<Value, RpcError> {
        if let Some(error) = answer.get("error") {
            let code = error["code"].as_i64().unwrap_or(0);
            let message = error["message"].as_str().unwrap_or("");
            // 429 and -32005 ("limit exceeded", EIP-1474) are rate limits, unless the limit is
            // the range of an eth_getLogs.
            let limited = (code == 429 || code == -32005) && !range_refusal(message);
            if limited {
                return Err(RpcError::RateLimited(format!("{code}: {message}")));
            }
            return Err(RpcError::Node {
                code: error["code"].as_i64().unwrap_or(0),
                message: error["message"].as_str().unwrap_or("").to_string(),
                data: error.get("data").cloned(),
            });
        }
        answer
            .get("result")
            .cloned()
            .ok_or_else(|| RpcError::Answer(answer.to_string()))
    }

    pub fn call(&self, method: &str, params: Value) -> Result<Value, RpcError> {
        count(&self.url, 1);
        Self::result(
            self.post(&json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}))?,
        )
    }

    /// Several calls in one request; answers in the calls' order.
    pub fn batch(&self, calls: &[(&str, Value)]) -> Result<Vec<Value>, RpcError> {
        if calls.is_empty() {
            return Ok(Vec::new());
        }
        count(&self.url, calls.len());
        let body: Vec<Value> = calls
            .iter()
            .enumerate()
            .map(|(id, (method, params))| json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .collect();
        let Value::Array(answers) = self.post(&Value::Array(body))? else {
            return Err(RpcError::Answer("batch answer is not a list".into()));
        };
        let mut ordered = vec![None; calls.len()];
        for answer in answers {
            let id = answer["id"].as_u64().map(|i| i as usize);
            match id.and_then(|i| ordered.get_mut(i)) {
                Some(slot) => *slot = Some(Self::result(answer)?),
                None => return Err(RpcError::Answer("batch answer with an unknown id".into())),
            }
        }
        ordered
            .into_iter()
            .map(|a| a.ok_or_else(|| RpcError::Answer("batch answer missing".into())))
            .collect()
    }
}

/// Rounds of the nodes [`with_nodes`] makes before it gives up.
pub const NODE_ROUNDS: u32 = 5;

/// Runs `work` on the first of `nodes` that can answer (blocking): a node that cannot
/// (unreachable, rate limited, garbage: [`RpcError::is_node_trouble`]) hands over to the next;
/// when every node failed, it waits (0.5 s, doubling up to 8 s) and asks them all again, up to
/// [`NODE_ROUNDS`] rounds. What a node answered about the request itself (a revert, an unknown
/// block) is returned at once. The node handling of the indexer, for one-off reads such as the
/// books' check.
pub fn with_nodes<T>(
    nodes: &[Rpc],
    mut work: impl FnMut(&Rpc) -> Result<T, RpcError>,
) -> Result<T, RpcError> {
    let mut pause = Duration::from_millis(500);
    let mut last = RpcError::Transport("no RPC node configured".into());
    for round in 0..NODE_ROUNDS {
        if round > 0 {
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_secs(8));
        }
        for node in nodes {
            match work(node) {
                Err(e) if e.is_node_trouble() => last = e,
                other => return other,
            }
        }
    }
    Err(last)
}

/// A quantity ("0x1a") as a number.
pub fn quantity(value: &Value) -> Result<u64, RpcError> {
    value
        .as_str()
        .and_then(|s| s.strip_prefix("0x"))
        .and_then(|h| u64::from_str_radix(h, 16).ok())
        .ok_or_else(|| RpcError::Answer(format!("not a quantity: {value}")))
}

/// The latest block: its number and time (seconds).
pub fn head(rpc: &Rpc) -> Result<(u64, u64), RpcError> {
    let block = rpc.call("eth_getBlockByNumber", json!(["latest", false]))?;
    Ok((quantity(&block["number"])?, quantity(&block["timestamp"])?))
}

/// A number as a quantity.
pub fn hex(n: u64) -> String {
    format!("0x{n:x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(code: i64, message: &str) -> RpcError {
        RpcError::Node {
            code,
            message: message.into(),
            data: None,
        }
    }

    #[test]
    fn providers_log_range_refusals_are_recognised() {
        // Wordings from the providers' documentation and public issue threads.
        for (code, message) in [
            (-32600, "You can make eth_getLogs requests with up to a 500 block range. Based on your parameters, this block range should work: [0x1, 0x1f4]"),
            (-32602, "Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size"),
            (-32000, "block range is too wide"),
            (-32000, "exceed maximum block range: 10000"),
            (-32062, "maximum [from, to] blocks distance: 10000"),
            (-32005, "query returned more than 10000 results"),
            (-32000, "query exceeds max results 20000, retry with the range 1-100"),
            (-32614, "eth_getLogs is limited to a 10,000 range"),
        ] {
            assert!(node(code, message).is_range_too_large(), "{message}");
        }
        for message in ["execution reverted", "unknown block", "header not found"] {
            assert!(!node(-32000, message).is_range_too_large(), "{message}");
        }
    }

    #[test]
    fn rate_limits_and_range_refusals_are_told_apart() {
        let answer = |code: i64, message: &str| json!({"jsonrpc": "2.0", "id": 1, "error": {"code": code, "message": message}});
        let limited = Rpc::result(answer(
            -32005,
            "daily request count exceeded, request rate limited",
        ));
        assert!(matches!(limited, Err(RpcError::RateLimited(_))));
        assert!(matches!(
            Rpc::result(answer(429, "Too Many Requests")),
            Err(RpcError::RateLimited(_))
        ));
        let refused =
            Rpc::result(answer(-32005, "query returned more than 10000 results")).unwrap_err();
        assert!(refused.is_range_too_large(), "{refused}");
    }
}
