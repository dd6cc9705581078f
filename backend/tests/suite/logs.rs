//! Logs an operator can keep: with `log_format = "json"` every log line is one JSON
//! object; every answer carries `X-Request-Id`, and the lines logged while answering carry the
//! same id; a request answered well writes nothing at the default level (175,000 requests
//! once made a 95 MB log), a server error writes a line with its status.

use crate::common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::process::{captcha, Served};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// One request on its own connection: (status, x-request-id).
async fn ask(addr: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(
            format!(
                "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
                 Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
            .as_bytes(),
        )
        .await
        .unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let text = String::from_utf8_lossy(&answer);
    let status = text.split(' ').nth(1).unwrap().parse().unwrap();
    let id = text
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("x-request-id:")
                .map(|v| v.trim().to_string())
        })
        .expect("every answer names its request");
    (status, id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_lines_carry_the_request_id_and_good_answers_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let env = |cmd: &mut Command| {
        cmd.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .env("LVLX_CONFIG", dir.path().join("none.toml"))
            .env("LVLX_DATA_DIR", dir.path().join("data"))
            .env("LVLX_BIND", "127.0.0.1:0")
            .env("LVLX_LOG", "info")
            .env("LVLX_LOG_FORMAT", "json")
            .env("LVLX_CAPTCHA_DIFFICULTY", "4")
            // A relay that refuses: the sign-in's code cannot be sent (a 500).
            .env("LVLX_SMTP", "{host=\"127.0.0.1\", port=9, tls=\"none\"}");
    };
    let mut demo = Command::new(env!("CARGO_BIN_EXE_lvlx"));
    env(demo.arg("demo"));
    assert!(demo.stdout(Stdio::null()).status().unwrap().success());
    let mut serve = Command::new(env!("CARGO_BIN_EXE_lvlx"));
    env(serve.arg("serve"));
    let served = Served::start(serve.stdout(Stdio::piped()).stderr(Stdio::null()));
    let (addr, log) = (served.addr.clone(), served.log.clone());
    let settle = || tokio::time::sleep(Duration::from_millis(300));
    // The first request builds the routes (and logs the web app's size once).
    ask(&addr, "GET", "/api/v1/health", "").await;
    settle().await;
    let quiet_from = log.lock().unwrap().len();

    let mut ids = std::collections::HashSet::new();
    for _ in 0..50 {
        let (status, id) = ask(&addr, "GET", "/api/v1/health", "").await;
        assert_eq!(status, 200);
        assert_eq!(id.len(), 16);
        ids.insert(id);
    }
    assert_eq!(ids.len(), 50, "one id per request");
    settle().await;
    let written: Vec<String> = log.lock().unwrap()[quiet_from..].to_vec();
    assert!(
        written.is_empty(),
        "answers that went well write nothing at info: {written:?}"
    );

    let body = json!({"email": "demo@lvlx.local", "password": "Demo#2026x", "captcha": captcha(&addr).await});
    let (status, id) = ask(&addr, "POST", "/api/v1/login", &body.to_string()).await;
    assert_eq!(status, 500);
    let started = Instant::now();
    let mine = loop {
        let mine: Vec<Value> = log
            .lock()
            .unwrap()
            .iter()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|v| v["span"]["request_id"] == id.as_str())
            .collect();
        if mine.iter().any(|v| v["status"] == 500) || started.elapsed() > Duration::from_secs(5) {
            break mine;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let error = mine
        .iter()
        .find(|v| v["status"] == 500)
        .unwrap_or_else(|| panic!("{mine:?}"));
    assert_eq!(error["level"], "ERROR");
    assert_eq!(error["span"]["route"], "/api/v1/login");
    // Every line is one JSON object (but the serving line, which the run command reads).
    for line in log.lock().unwrap().iter() {
        if line.contains("serving at http://") {
            continue;
        }
        assert!(
            serde_json::from_str::<Value>(line).is_ok(),
            "not JSON: {line}"
        );
    }
}
