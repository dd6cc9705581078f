//! The HTTP surface, driven with `warp::test::request()` against a temp-file database and a
//! temp web folder (no port is opened).

use lvlx_backend::api::{self, error};
use lvlx_backend::{routes, App, Config};
use serde_json::Value;
use warp::http::StatusCode;
use warp::Filter;

struct Fixture {
    _dir: tempfile::TempDir,
    app: App,
}

async fn fixture() -> Fixture {
    fixture_with(None).await
}

async fn fixture_with(chain: Option<lvlx_backend::config::Chain>) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let web = dir.path().join("web");
    std::fs::create_dir_all(&web).unwrap();
    std::fs::write(web.join("index.html"), "<!doctype html><title>app</title>").unwrap();
    std::fs::write(
        web.join("landing.html"),
        "<!doctype html><title>landing</title>",
    )
    .unwrap();
    std::fs::write(web.join("main.js"), "console.log(1)").unwrap();
    std::fs::write(
        web.join("page.0123abcd.js"),
        "console.log(2);\n".repeat(200),
    )
    .unwrap();
    let config = Config {
        data_dir: dir.path().join("data"),
        web_dir: web,
        locales_dir: concat!(env!("CARGO_MANIFEST_DIR"), "/../locales").into(),
        chain,
        ..Config::default()
    };
    let db = lvlx_backend::store::open_for_test(&config.data_dir).await;
    Fixture {
        app: App::new(config, db).unwrap(),
        _dir: dir,
    }
}

async fn get(f: &Fixture, path: &str) -> warp::http::Response<bytes::Bytes> {
    warp::test::request()
        .path(path)
        .reply(&routes(f.app.clone()))
        .await
}

fn body_json(res: &warp::http::Response<bytes::Bytes>) -> Value {
    serde_json::from_slice(res.body()).expect("JSON body")
}

#[tokio::test]
async fn health_answers_with_the_schema_version_and_no_store() {
    let f = fixture().await;
    let res = get(&f, "/api/v1/health").await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["cache-control"], "no-store");
    assert_eq!(res.headers()["x-content-type-options"], "nosniff");
    let body = body_json(&res);
    assert_eq!(body["status"], "ok");
    assert_eq!(body["schema"], 21);
}

/// Readiness: what a proxy's health check asks before sending members to an
/// instance. Without a chain the database decides; with one, a node must answer.
#[tokio::test]
async fn readiness_names_the_part_that_does_not_answer() {
    let f = fixture().await;
    let res = get(&f, "/api/v1/ready").await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["cache-control"], "no-store");
    assert_eq!(
        body_json(&res),
        serde_json::json!({"ready": true, "database": true, "chain": null, "reason": null, "indexer": null})
    );
    // A chain whose only node does not answer: alive, but not ready.
    let down = lvlx_backend::chain::deploy::dev_section(
        "http://127.0.0.1:9",
        &lvlx_backend::chain::deploy::Deployment::default(),
    );
    let f = fixture_with(Some(down)).await;
    let res = get(&f, "/api/v1/ready").await;
    assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body = body_json(&res);
    assert_eq!(
        (
            &body["ready"],
            &body["database"],
            &body["chain"],
            &body["reason"]
        ),
        (
            &Value::from(false),
            &Value::from(true),
            &Value::from(false),
            &Value::from("nodes-unreachable")
        ),
        "{body}"
    );
    assert_eq!(get(&f, "/api/v1/health").await.status(), StatusCode::OK);
    // Asked 20 times at once, a node that hangs up is asked once (the answer is kept a
    // second): anyone may ask, so asking cannot become a flood of chain calls.
    let node = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", node.local_addr().unwrap());
    let asked = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = asked.clone();
    std::thread::spawn(move || {
        // Counted, then hung up on: the check fails at once.
        for _stream in node.incoming().flatten() {
            counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
    });
    let silent = lvlx_backend::chain::deploy::dev_section(
        &url,
        &lvlx_backend::chain::deploy::Deployment::default(),
    );
    let f = fixture_with(Some(silent)).await;
    let asks = (0..20).map(|_| get(&f, "/api/v1/ready"));
    let answers = futures_util::future::join_all(asks).await;
    assert!(answers
        .iter()
        .all(|r| r.status() == StatusCode::SERVICE_UNAVAILABLE));
    assert_eq!(asked.load(std::sync::atomic::Ordering::SeqCst), 1);
}

#[tokio::test]
async fn public_config_has_only_public_settings() {
    let f = fixture().await;
    let body = body_json(&get(&f, "/api/v1/config").await);
    assert_eq!(body["landingUrl"], "/landing");
    assert_eq!(body["product"], "LVLX");
    let keys: Vec<_> = body.as_object().unwrap().keys().cloned().collect();
    // The secret-key form's pass key is public by nature (the browser uses it,
    // docs/product/admin.md#secret-key); the image limit is the server's own rule, told to the
    // browser so it refuses early; the card provider's publishable key is public by design (null
    // without an on-ramp); the support address is what members write to.
    assert_eq!(
        keys,
        [
            "cardCurrency",
            "cardPaymentKey",
            "chain",
            "landingUrl",
            "languages",
            "maxImageBytes",
            "product",
            "secretPassKey",
            "supportEmail"
        ]
    );
    assert_eq!(
        body["chain"],
        serde_json::Value::Null,
        "no chain configured"
    );
    assert!(!body.to_string().contains("jwt"));
}

#[tokio::test]
async fn unknown_api_paths_are_json_404_never_the_app() {
    let f = fixture().await;
    for path in [
        "/api/v1/nope",
        "/api/v2/health",
        "/api",
        "/api/v1/health/extra",
    ] {
        let res = get(&f, path).await;
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "{path}");
        assert_eq!(res.headers()["content-type"], "application/json", "{path}");
        assert_eq!(body_json(&res)["code"], "error-not-found", "{path}");
    }
}

#[tokio::test]
async fn wrong_method_is_405_json() {
    let f = fixture().await;
    let res = warp::test::request()
        .method("POST")
        .path("/api/v1/health")
        .reply(&routes(f.app.clone()))
        .await;
    assert_eq!(res.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(body_json(&res)["code"], "error-method");
}

#[tokio::test]
async fn client_routes_get_the_app_and_missing_assets_get_404() {
    let f = fixture().await;
    for path in [
        "/",
        "/login",
        "/admin/tables/users",
        "/register/referred/0123456789abcdef",
        "/no/such/page",
    ] {
        let res = get(&f, path).await;
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        assert!(
            String::from_utf8_lossy(res.body()).contains("<title>app</title>"),
            "{path}"
        );
        assert_eq!(res.headers()["cache-control"], "no-cache");
    }
    assert_eq!(get(&f, "/main.js").await.status(), StatusCode::OK);
    for path in [
        "/missing.js",
        "/static/logo.png",
        "/locales/en/xx.json",
        "/locales/../Cargo.toml",
    ] {
        assert_eq!(
            get(&f, path).await.status(),
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
    let head = warp::test::request()
        .method("HEAD")
        .path("/admin/tables/users")
        .reply(&routes(f.app.clone()))
        .await;
    assert_eq!(head.status(), StatusCode::OK, "HEAD is answered like GET");
    let landing = get(&f, "/landing").await;
    assert!(String::from_utf8_lossy(landing.body()).contains("landing"));
}

async fn ask(
    f: &Fixture,
    path: &str,
    headers: &[(&str, &str)],
) -> warp::http::Response<bytes::Bytes> {
    let mut request = warp::test::request().path(path);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.reply(&routes(f.app.clone())).await
}

#[tokio::test]
async fn the_app_is_sent_gzipped_cached_by_hash_and_revalidated_by_etag() {
    let f = fixture().await;
    let hashed = ask(&f, "/page.0123abcd.js", &[("accept-encoding", "gzip, br")]).await;
    assert_eq!(hashed.status(), StatusCode::OK);
    assert_eq!(
        hashed.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert_eq!(hashed.headers()["content-encoding"], "gzip");
    assert_eq!(hashed.headers()["vary"], "Accept-Encoding");
    assert!(
        hashed.body().len() < 3200 / 10,
        "{} bytes",
        hashed.body().len()
    );
    let plain = ask(&f, "/page.0123abcd.js", &[]).await;
    assert_eq!(plain.body().len(), 3200);
    assert!(plain.headers().get("content-encoding").is_none());

    let page = ask(&f, "/login", &[]).await;
    let etag = page.headers()["etag"].to_str().unwrap().to_string();
    assert_eq!(page.headers()["cache-control"], "no-cache");
    let again = ask(&f, "/login", &[("if-none-match", &etag)]).await;
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    assert!(again.body().is_empty());
    let locale = ask(&f, "/locales/en/en.json", &[("if-none-match", "\"stale\"")]).await;
    assert_eq!(locale.status(), StatusCode::OK);
    assert_eq!(locale.headers()["content-type"], "application/json");
}

#[tokio::test]
async fn translations_are_served_per_language() {
    let f = fixture().await;
    for lng in ["en", "es", "pt"] {
        let res = get(&f, &format!("/locales/{lng}/{lng}.json")).await;
        assert_eq!(res.status(), StatusCode::OK, "{lng}");
        assert!(body_json(&res).as_object().unwrap().len() > 10);
    }
}

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let f = fixture().await;
    for path in ["/api/v1/health", "/login", "/missing.js"] {
        let res = get(&f, path).await;
        let csp = res.headers()["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("default-src 'self'"), "{path}");
        assert_eq!(res.headers()["x-frame-options"], "DENY", "{path}");
        assert_eq!(
            res.headers()["cross-origin-opener-policy"],
            "same-origin",
            "{path}"
        );
        let permissions = res.headers()["permissions-policy"].to_str().unwrap();
        assert!(permissions.contains("camera=()"), "{path}");
    }
    let api = get(&f, "/api/v1/health").await;
    assert_eq!(api.headers()["cross-origin-resource-policy"], "same-origin");
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Probe {
    name: String,
}

/// The JSON body filter every endpoint uses: size-limited and strict about fields.
fn probe_route(
) -> impl Filter<Extract = (impl warp::Reply,), Error = std::convert::Infallible> + Clone {
    warp::post()
        .and(api::json_body::<Probe>())
        .map(|_| warp::reply())
        .recover(error::recover)
}

#[tokio::test]
async fn oversized_unknown_and_malformed_bodies_are_refused() {
    let big = format!(
        "{{\"name\":\"{}\"}}",
        "a".repeat(api::MAX_JSON_BODY as usize)
    );
    let cases = [
        (
            big.as_str(),
            StatusCode::PAYLOAD_TOO_LARGE,
            "error-too-large",
        ),
        (
            r#"{"name":"x","admin":true}"#,
            StatusCode::BAD_REQUEST,
            "error-bad-request",
        ),
        ("{not json", StatusCode::BAD_REQUEST, "error-bad-request"),
    ];
    for (body, status, code) in cases {
        let res = warp::test::request()
            .method("POST")
            .header("content-type", "application/json")
            .body(body)
            .reply(&probe_route())
            .await;
        assert_eq!(res.status(), status, "{body:.40}");
        assert_eq!(body_json(&res)["code"], code);
    }
    let ok = warp::test::request()
        .method("POST")
        .body(r#"{"name":"x"}"#)
        .reply(&probe_route())
        .await;
    assert_eq!(ok.status(), StatusCode::OK);
}

/// The pages the build rendered: the visitor's language, the banner or not as their cookie
/// says, the configured product's name filled in (escaped), and the plain page when the build
/// has none for the language.
#[tokio::test]
async fn rendered_pages_follow_language_and_consent_and_carry_the_product_name() {
    let dir = tempfile::tempdir().unwrap();
    let web = dir.path().join("web");
    std::fs::create_dir_all(&web).unwrap();
    std::fs::write(web.join("index.html"), "<!doctype html><title>app</title>").unwrap();
    for (file, text) in [
        ("login.es.html", "es, banner: __LVLX_PRODUCT__"),
        ("login.es.decided.html", "es, decided: __LVLX_PRODUCT__"),
        ("login.en.html", "en, banner: __LVLX_PRODUCT__"),
    ] {
        std::fs::write(web.join(file), format!("<!doctype html><p>{text}</p>")).unwrap();
    }
    let config = Config {
        data_dir: dir.path().join("data"),
        web_dir: web,
        locales_dir: concat!(env!("CARGO_MANIFEST_DIR"), "/../locales").into(),
        product: "A&B <x>".into(),
        ..Config::default()
    };
    let db = lvlx_backend::store::open_for_test(&config.data_dir).await;
    let f = Fixture {
        app: App::new(config, db).unwrap(),
        _dir: dir,
    };
    let text =
        |r: &warp::http::Response<bytes::Bytes>| String::from_utf8_lossy(r.body()).to_string();
    let es = ask(
        &f,
        "/login",
        &[("accept-language", "es-MX,es;q=0.9,en;q=0.5")],
    )
    .await;
    assert_eq!(
        text(&es),
        "<!doctype html><p>es, banner: A&amp;B &lt;x&gt;</p>"
    );
    assert_eq!(
        es.headers()["vary"],
        "Accept-Encoding, Accept-Language, Cookie"
    );
    let decided = ask(
        &f,
        "/login?lng=ES",
        &[
            ("accept-language", "en"),
            ("cookie", "cookieConsent=accepted"),
        ],
    )
    .await;
    assert_eq!(
        text(&decided),
        "<!doctype html><p>es, decided: A&amp;B &lt;x&gt;</p>"
    );
    // The language chosen with the app's switcher (its cookie) beats the browser's; `?lng=`
    // beats both.
    let chosen = ask(
        &f,
        "/login",
        &[("accept-language", "en"), ("cookie", "lng=es")],
    )
    .await;
    assert_eq!(
        text(&chosen),
        "<!doctype html><p>es, banner: A&amp;B &lt;x&gt;</p>"
    );
    let asked = ask(&f, "/login?lng=en", &[("cookie", "lng=es")]).await;
    assert_eq!(
        text(&asked),
        "<!doctype html><p>en, banner: A&amp;B &lt;x&gt;</p>"
    );
    // No Portuguese page in this build: the app's own page, rendered in the browser.
    let pt = ask(&f, "/login?lng=pt", &[]).await;
    assert_eq!(text(&pt), "<!doctype html><title>app</title>");
}

/// A healthy node that answers slowly (10 s) is not a failed one: readiness answers at once
/// and the instance stays in rotation (a proxy would pull it for a slow RPC otherwise).
#[tokio::test(flavor = "multi_thread")]
async fn a_slow_node_does_not_make_the_instance_not_ready() {
    use std::io::{Read, Write};
    let node = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", node.local_addr().unwrap());
    std::thread::spawn(move || {
        for mut stream in node.incoming().flatten() {
            std::thread::spawn(move || {
                let mut request = [0u8; 4096];
                let _ = stream.read(&mut request);
                std::thread::sleep(std::time::Duration::from_secs(10));
                let body = r#"{"jsonrpc":"2.0","id":1,"result":{"number":"0x10","timestamp":"0x1","hash":"0x01"}}"#;
                let _ = write!(
                    stream,
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
                    body.len()
                );
            });
        }
    });
    let slow = lvlx_backend::chain::deploy::dev_section(
        &url,
        &lvlx_backend::chain::deploy::Deployment::default(),
    );
    let f = fixture_with(Some(slow)).await;
    let started = std::time::Instant::now();
    let res = get(&f, "/api/v1/ready").await;
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    assert_eq!(res.status(), StatusCode::OK, "{}", body_json(&res));
    assert_eq!(body_json(&res)["chain"], true);
    // Asked again while the node is still thinking: still ready.
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    assert_eq!(get(&f, "/api/v1/ready").await.status(), StatusCode::OK);
}
