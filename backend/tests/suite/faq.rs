//! The FAQ's data and the card on-ramp, against local HTTP servers that answer the
//! providers' documented shapes (YouTube Data API v3 `videos`, Stripe's
//! `POST /v1/crypto/onramp_sessions`): the real providers are not reachable here.

use crate::common;

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use lvlx_backend::cli::accounts::DEMO_USER;
use lvlx_backend::config::{Card, Secret};
use serde_json::{json, Value};
use warp::http::StatusCode;
use warp::Filter;

const VIDEO: &str = "dQw4w9WgXcQ";
const SLOW_VIDEO: &str = "slowslowslo";

/// A session request as the fake Stripe saw it: the Authorization header and the form.
type SessionCall = (Option<String>, HashMap<String, String>);

/// What the fake providers saw.
#[derive(Default)]
struct Seen {
    video_calls: AtomicUsize,
    sessions: Mutex<Vec<SessionCall>>,
}

/// A loopback server answering as YouTube (under /youtube/v3) and Stripe (under /stripe).
async fn providers(seen: Arc<Seen>, stripe_status: u16) -> String {
    let s = seen.clone();
    let videos = warp::path!("youtube" / "v3" / "videos")
        .and(warp::query::<HashMap<String, String>>())
        .then(move |q: HashMap<String, String>| {
            let s = s.clone();
            async move {
                s.video_calls.fetch_add(1, Ordering::SeqCst);
                if q.get("key").map(String::as_str) != Some("yt-key") || q.get("part").map(String::as_str) != Some("snippet,contentDetails") {
                    return warp::reply::with_status(warp::reply::json(&json!({"error": {"code": 400}})), warp::http::StatusCode::BAD_REQUEST);
                }
                let id = q.get("id").cloned().unwrap_or_default();
                if id == SLOW_VIDEO {
                    tokio::time::sleep(std::time::Duration::from_secs(30)).await;
                }
                warp::reply::with_status(warp::reply::json(&json!({"kind": "youtube#videoListResponse", "items": [{
                    "kind": "youtube#video", "id": id,
                    "snippet": {"title": "Buying LVLX step by step", "thumbnails": {
                        "default": {"url": "https://i.ytimg.com/vi/x/default.jpg", "width": 120, "height": 90},
                        "medium": {"url": "https://i.ytimg.com/vi/x/mqdefault.jpg", "width": 320, "height": 180}}},
                    "contentDetails": {"duration": "PT4M13S"}}]})), warp::http::StatusCode::OK)
            }
        });
    let s = seen.clone();
    let sessions = warp::path!("stripe" / "v1" / "crypto" / "onramp_sessions")
        .and(warp::post())
        .and(warp::header::optional::<String>("authorization"))
        .and(warp::body::bytes())
        .map(move |auth: Option<String>, body: Bytes| {
            let form: HashMap<String, String> = url_form(&body);
            let n = {
                let mut sessions = s.sessions.lock().unwrap();
                sessions.push((auth, form.clone()));
                sessions.len()
            };
            let status = warp::http::StatusCode::from_u16(stripe_status).unwrap();
            let answer = if status.is_success() {
                json!({"id": format!("cos_{n}Test"), "object": "crypto.onramp_session", "client_secret": format!("cos_{n}Test_secret_abc"),
                       "livemode": false, "redirect_url": "https://crypto.link.com?session_hash=abc123", "status": "initialized",
                       "transaction_details": {"destination_network": "polygon", "destination_currency": form.get("destination_currency"),
                       "wallet_addresses": {"polygon": form.get("wallet_addresses[polygon]")}}})
            } else {
                json!({"error": {"type": "invalid_request_error", "message": "Onramp is not enabled for this account"}})
            };
            warp::reply::with_status(warp::reply::json(&answer), status)
        });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(warp::serve(videos.or(sessions)).incoming(listener).run());
    format!("http://{addr}")
}

fn url_form(body: &[u8]) -> HashMap<String, String> {
    let decode = |s: &str| {
        let s = s.replace('+', " ");
        let mut out = Vec::new();
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'%' && i + 2 < bytes.len() {
                out.push(u8::from_str_radix(&s[i + 1..i + 3], 16).unwrap());
                i += 3;
            } else {
                out.push(bytes[i]);
                i += 1;
            }
        }
        String::from_utf8(out).unwrap()
    };
    std::str::from_utf8(body)
        .unwrap()
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (decode(k), decode(v)))
        .collect()
}

fn jpeg(width: u32, height: u32) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    image::RgbImage::from_pixel(width, height, image::Rgb([20, 40, 80]))
        .write_to(&mut out, image::ImageFormat::Jpeg)
        .unwrap();
    out.into_inner()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_faq_has_its_screenshots_and_video_metadata_and_degrades_to_links() {
    let seen = Arc::new(Seen::default());
    let base = providers(seen.clone(), 200).await;
    let guides = tempfile::tempdir().unwrap();
    for (lng, w) in [("en", 1280), ("es", 1281)] {
        std::fs::create_dir_all(guides.path().join(lng)).unwrap();
        for n in 1..=3 {
            std::fs::write(
                guides.path().join(lng).join(format!("buy-{n}.jpg")),
                jpeg(w, 720 + n),
            )
            .unwrap();
        }
    }
    let guides_dir = guides.path().to_path_buf();
    let w = common::world_with(|c| {
        c.guides_dir = guides_dir;
        c.faq_videos = [
            ("faqs1".to_string(), VIDEO.to_string()),
            ("faqs2".to_string(), SLOW_VIDEO.to_string()),
            ("faqs3".to_string(), "../../etc/x".to_string()),
        ]
        .into();
        c.video_api_key = Some(Secret::new("yt-key"));
        c.video_api_url = format!("{base}/youtube/v3");
    })
    .await;
    let (token, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
    assert_eq!(
        w.call("GET", "/api/v1/faq", None, None).await.status,
        StatusCode::UNAUTHORIZED
    );

    let started = std::time::Instant::now();
    let faq = w
        .call("GET", "/api/v1/faq?lng=es", Some(&token), None)
        .await;
    assert_eq!(faq.status, StatusCode::OK, "{}", faq.body);
    // Screenshots in the asked language with their dimensions; pt has none → English ones.
    assert_eq!(
        faq.body["images"][0],
        json!({"src": "/guides/es/buy-1.jpg", "width": 1281, "height": 721})
    );
    assert_eq!(faq.body["images"].as_array().unwrap().len(), 3);
    let pt = w
        .call("GET", "/api/v1/faq?lng=pt", Some(&token), None)
        .await;
    assert_eq!(
        pt.body["images"][2],
        json!({"src": "/guides/en/buy-3.jpg", "width": 1280, "height": 723})
    );
    // Video metadata from the provider; the slow one times out to a plain link; a malformed
    // id is never asked for.
    let v = &faq.body["videos"]["faqs1"];
    assert_eq!(v["title"], "Buying LVLX step by step");
    assert_eq!(v["duration"], "PT4M13S");
    assert_eq!(v["thumbnail"], "https://i.ytimg.com/vi/x/mqdefault.jpg");
    assert_eq!(v["url"], format!("https://www.youtube.com/watch?v={VIDEO}"));
    assert_eq!(faq.body["videos"]["faqs2"]["title"], Value::Null);
    assert_eq!(
        faq.body["videos"]["faqs2"]["url"],
        format!("https://www.youtube.com/watch?v={SLOW_VIDEO}")
    );
    assert!(faq.body["videos"].get("faqs3").is_none());
    // Far under the slow answer's 30 s, with room for a busy machine (5 s was exceeded there).
    assert!(started.elapsed().as_secs() < 12, "the timeout is 3 s");
    assert!(
        !faq.bytes.windows(6).any(|w| w == b"yt-key"),
        "the key stays on the server"
    );
    // Cached: later pages ask the provider nothing (the slow one backs off).
    let calls = seen.video_calls.load(Ordering::SeqCst);
    assert_eq!(calls, 2);
    let again = w
        .call("GET", "/api/v1/faq?lng=en", Some(&token), None)
        .await;
    assert_eq!(
        again.body["videos"]["faqs1"]["title"],
        "Buying LVLX step by step"
    );
    assert_eq!(seen.video_calls.load(Ordering::SeqCst), calls);
    // The screenshots are served.
    let shot = warp::test::request()
        .path("/guides/es/buy-2.jpg")
        .reply(&lvlx_backend::routes(w.app.clone()))
        .await;
    assert_eq!(shot.status(), StatusCode::OK);
    assert_eq!(faq.body["onramp"], false);
}

#[tokio::test(flavor = "multi_thread")]
async fn without_a_video_key_the_faq_shows_plain_links() {
    let w =
        common::world_with(|c| c.faq_videos = [("faqs1".to_string(), VIDEO.to_string())].into())
            .await;
    let (token, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
    let faq = w.call("GET", "/api/v1/faq", Some(&token), None).await;
    assert_eq!(
        faq.body["videos"]["faqs1"],
        json!({"id": VIDEO, "url": format!("https://www.youtube.com/watch?v={VIDEO}"), "title": null, "duration": null, "thumbnail": null})
    );
    assert_eq!(
        faq.body["images"],
        json!([]),
        "no guide folder in this world"
    );
}

fn card(base: &str) -> Card {
    Card {
        publishable_key: "pk_test_lvlx".into(),
        secret_key: Secret::new("sk_test_lvlx_secret"),
        api_url: format!("{base}/stripe"),
        destination_currency: "usdc".into(),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn an_onramp_session_funds_the_linked_wallet_and_keeps_the_secret_key() {
    let seen = Arc::new(Seen::default());
    let base = providers(seen.clone(), 200).await;
    let w = common::world_with(|c| c.card = Some(card(&base))).await;
    let (token, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
    let faq = w.call("GET", "/api/v1/faq", Some(&token), None).await;
    assert_eq!(faq.body["onramp"], true);
    // A wallet first.
    let r = w
        .call("POST", "/api/v1/onramp/session", Some(&token), None)
        .await;
    assert_eq!(
        (r.status, r.body["code"].clone()),
        (StatusCode::CONFLICT, json!("error-wallet-required"))
    );
    assert_eq!(w.link_dev_wallet(&token, 1).await, StatusCode::OK);
    let wallet: String = w
        .sql(move |c| {
            c.query_one(
                "SELECT wallet FROM users WHERE email = ?1",
                lvlx_backend::args![DEMO_USER.0],
                |r| r.get(0),
            )
        })
        .await;

    let r = w
        .call_from(
            "POST",
            "/api/v1/onramp/session",
            Some(&token),
            None,
            "203.0.113.7:5000",
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.body["id"], "cos_1Test");
    assert_eq!(
        r.body["redirectUrl"],
        "https://crypto.link.com?session_hash=abc123"
    );
    assert_eq!(r.body["publishableKey"], "pk_test_lvlx");
    assert!(
        !r.bytes.windows(9).any(|w| w == b"sk_test_l"),
        "the secret key stays on the server"
    );
    let (auth, form) = seen.sessions.lock().unwrap()[0].clone();
    let expected = base64::Engine::encode(
        &base64::engine::general_purpose::STANDARD,
        "sk_test_lvlx_secret:",
    );
    assert_eq!(auth, Some(format!("Basic {expected}")));
    assert_eq!(
        form["wallet_addresses[polygon]"].to_lowercase(),
        wallet.to_lowercase()
    );
    assert_eq!(form["destination_network"], "polygon");
    assert_eq!(form["destination_networks[]"], "polygon");
    assert_eq!(form["destination_currency"], "usdc");
    assert_eq!(form["customer_ip_address"], "203.0.113.7");
    let kept: i64 = w.count("onramp_sessions").await;
    assert_eq!(kept, 1);

    // Ten an hour per member.
    for _ in 1..10 {
        assert_eq!(
            w.call("POST", "/api/v1/onramp/session", Some(&token), None)
                .await
                .status,
            StatusCode::OK
        );
    }
    let r = w
        .call("POST", "/api/v1/onramp/session", Some(&token), None)
        .await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refusing_or_absent_provider_is_a_clear_message() {
    let seen = Arc::new(Seen::default());
    let base = providers(seen.clone(), 400).await;
    let w = common::world_with(|c| c.card = Some(card(&base))).await;
    let (token, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
    assert_eq!(w.link_dev_wallet(&token, 1).await, StatusCode::OK);
    let r = w
        .call("POST", "/api/v1/onramp/session", Some(&token), None)
        .await;
    assert_eq!(
        (r.status, r.body["code"].clone()),
        (StatusCode::BAD_REQUEST, json!("onramp-unavailable"))
    );
    assert!(
        !r.bytes.windows(7).any(|w| w == b"enabled"),
        "the provider's message goes to the log only"
    );

    let down = common::world_with(|c| c.card = Some(card("http://127.0.0.1:9"))).await;
    let (token, _) = down.login(DEMO_USER.0, DEMO_USER.1).await;
    assert_eq!(down.link_dev_wallet(&token, 1).await, StatusCode::OK);
    let r = down
        .call("POST", "/api/v1/onramp/session", Some(&token), None)
        .await;
    assert_eq!(r.body["code"], "onramp-unavailable");

    let none = common::world().await;
    let (token, _) = none.login(DEMO_USER.0, DEMO_USER.1).await;
    assert_eq!(
        none.call("POST", "/api/v1/onramp/session", Some(&token), None)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}
