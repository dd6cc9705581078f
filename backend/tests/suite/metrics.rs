//! Metrics an operator watches, scraped by a real Prometheus (Debian's package):
//! `lvlx serve` with `metrics_bind` on the development chain, Prometheus scraping it every
//! second with the repository's alert rules (`deploy/prometheus/lvlx-rules.yml`) loaded. Its
//! query API answers the requests counted by route and status, a failed sign-in, the indexer
//! leading and caught up with the chain, the thresholds taken from the configuration; and a mail
//! relay that refuses fires the mail alert.
//!
//! Needs prometheus (the test command installs it: scripts/setup.sh --test); without it, says so
//! and passes, but fails under the test command (`REQUIRE_TEST_TOOLS`).

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::anvil::Anvil;
use common::process::{captcha, free_port, lvlx_serve, request, Killed, Served};
use lvlx_backend::chain::deploy;
use serde_json::{json, Value};

/// `lvlx serve` with `config`; its address once it says it serves.
fn serve(config: &Path, data: &Path) -> (Served, String) {
    let served = Served::start(&mut lvlx_serve(config, data));
    let addr = served.addr.clone();
    (served, addr)
}

/// One instant query to Prometheus: the first result's value, if any.
async fn query(prometheus: &str, promql: &str) -> Option<f64> {
    let url = format!("http://{prometheus}/api/v1/query");
    let promql = promql.to_string();
    tokio::task::spawn_blocking(move || {
        let mut answer = ureq::get(&url).query("query", &promql).call().ok()?;
        let body: Value = serde_json::from_str(&answer.body_mut().read_to_string().ok()?).ok()?;
        body["data"]["result"][0]["value"][1]
            .as_str()
            .and_then(|v| v.parse().ok())
    })
    .await
    .unwrap()
}

/// Waits until `promql` answers a value `holds` accepts (Prometheus scrapes every second).
async fn until(prometheus: &str, promql: &str, holds: impl Fn(f64) -> bool) -> f64 {
    let started = Instant::now();
    loop {
        if let Some(v) = query(prometheus, promql).await.filter(|v| holds(*v)) {
            return v;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{promql}: {:?}",
            query(prometheus, promql).await
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

fn get_json(url: &str) -> Value {
    let mut answer = ureq::get(url).call().unwrap();
    serde_json::from_str(&answer.body_mut().read_to_string().unwrap()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prometheus_scrapes_the_server_and_its_rules_fire() {
    if Command::new("prometheus")
        .arg("--version")
        .output()
        .is_err()
    {
        common::cannot_run("prometheus missing: the metrics test needs it", false);
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let anvil = Anvil::start();
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let metrics_port = free_port();
    let config = dir.path().join("lvlx.toml");
    // The mail relay refuses (nothing listens on port 9): the mail alert must fire.
    std::fs::write(
        &config,
        format!(
            "bind = \"127.0.0.1:0\"\nmetrics_bind = \"127.0.0.1:{metrics_port}\"\n\
             captcha_difficulty = 4\nindexer_lag_alert_blocks = 50\n\
             [smtp]\nhost = \"127.0.0.1\"\nport = 9\ntls = \"none\"\n"
        ),
    )
    .unwrap();
    let section = lvlx_backend::config::Chain {
        poll_ms: 100,
        ..deploy::dev_section(&anvil.url, &d)
    };
    deploy::write_section(&config, &section).unwrap();
    let data = dir.path().join("data");
    let demo = Command::new(env!("CARGO_BIN_EXE_lvlx"))
        .arg("demo")
        .env("LVLX_CONFIG", &config)
        .env("LVLX_DATA_DIR", &data)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(demo.success());
    let (_server, addr) = serve(&config, &data);

    let prometheus_port = free_port();
    let prometheus = format!("127.0.0.1:{prometheus_port}");
    let rules = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../deploy/prometheus/lvlx-rules.yml"
    );
    let scrape = dir.path().join("prometheus.yml");
    std::fs::write(
        &scrape,
        format!(
            "global: {{ scrape_interval: 1s, evaluation_interval: 1s }}\n\
             rule_files: [\"{rules}\"]\n\
             scrape_configs:\n  - job_name: lvlx\n    static_configs:\n      - targets: [\"127.0.0.1:{metrics_port}\"]\n"
        ),
    )
    .unwrap();
    let _prometheus = Killed(
        Command::new("prometheus")
            .arg(format!("--config.file={}", scrape.display()))
            .arg(format!(
                "--storage.tsdb.path={}",
                dir.path().join("tsdb").display()
            ))
            .arg(format!("--web.listen-address={prometheus}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("prometheus"),
    );
    until(&prometheus, "up{job=\"lvlx\"}", |v| v == 1.0).await;

    for _ in 0..3 {
        let (status, _) = request(&addr, "GET", "/api/v1/health", None, &[], "")
            .await
            .unwrap();
        assert_eq!(status, 200);
    }
    let wrong = json!({"email": "demo@lvlx.local", "password": "Wrong#2026x", "captcha": captcha(&addr).await});
    let (status, _) = request(
        &addr,
        "POST",
        "/api/v1/login",
        None,
        &[],
        &wrong.to_string(),
    )
    .await
    .unwrap();
    assert_eq!(status, 401);
    // The right password: its code cannot be mailed.
    let right = json!({"email": "demo@lvlx.local", "password": "Demo#2026x", "captcha": captcha(&addr).await});
    let (status, _) = request(
        &addr,
        "POST",
        "/api/v1/login",
        None,
        &[],
        &right.to_string(),
    )
    .await
    .unwrap();
    assert_eq!(status, 500);
    // A path nobody routes is one label, whatever it is.
    for n in 0..5 {
        request(&addr, "GET", &format!("/api/v1/nothing-{n}"), None, &[], "")
            .await
            .unwrap();
    }

    let health = "lvlx_http_requests_total{route=\"/api/v1/health\",method=\"GET\",status=\"200\"}";
    until(&prometheus, health, |v| v >= 3.0).await;
    until(&prometheus, "lvlx_sign_in_failures_total", |v| v >= 1.0).await;
    until(&prometheus, "lvlx_mail_failures_total", |v| v >= 1.0).await;
    until(
        &prometheus,
        "lvlx_http_request_duration_seconds_count{route=\"/api/v1/login\"}",
        |v| v >= 2.0,
    )
    .await;
    until(
        &prometheus,
        "count(lvlx_http_requests_total{route=\"unrouted\"})",
        |v| v == 1.0,
    )
    .await;
    until(&prometheus, "lvlx_indexer_leader", |v| v == 1.0).await;
    let head = until(&prometheus, "lvlx_chain_head_block", |v| v > 0.0).await;
    until(
        &prometheus,
        "lvlx_chain_head_block - lvlx_indexer_next_block",
        |v| v <= 1.0,
    )
    .await;
    until(&prometheus, "lvlx_reserve_warning_weeks", |v| v == 8.0).await;
    until(&prometheus, "lvlx_indexer_lag_alert_blocks", |v| v == 50.0).await;
    until(&prometheus, "lvlx_connections_open", |v| v >= 0.0).await;
    // Claims owed against the distributor: nothing owed yet, the dev deployment's funding held.
    until(&prometheus, "lvlx_distributor_held_lvlx", |v| v > 0.0).await;
    until(&prometheus, "lvlx_claims_owed_lvlx", |v| v == 0.0).await;
    until(&prometheus, "lvlx_claims_uncovered", |v| v == 0.0).await;
    until(&prometheus, "lvlx_books_every_seconds", |v| v == 86_400.0).await;

    // The rules loaded as written, and the mail alert fires.
    let rules: Value = get_json(&format!("http://{prometheus}/api/v1/rules"));
    let group = &rules["data"]["groups"][0];
    assert_eq!(group["name"], "lvlx");
    assert_eq!(group["rules"].as_array().unwrap().len(), 14);
    let started = Instant::now();
    loop {
        let alerts = get_json(&format!("http://{prometheus}/api/v1/alerts"));
        let firing: Vec<&str> = alerts["data"]["alerts"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["state"] == "firing")
            .filter_map(|a| a["labels"]["alertname"].as_str())
            .collect();
        if firing.contains(&"LvlxMailFailing") {
            assert!(!firing.contains(&"LvlxIndexerBehind"), "{firing:?}");
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "{alerts}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    eprintln!("Prometheus read the chain's head at block {head}");
}
