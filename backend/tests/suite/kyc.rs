//! Identity verification: Persona's signed webhook moves a member's status once per
//! event and never backwards; unsigned, stale, forged and replayed calls change nothing; admins
//! correct a status with a reason into the append-only audit; the admin users stream carries
//! the status and the core filters on it.

use crate::common;

use common::World;
use hmac::{Hmac, Mac};
use lvlx_backend::cli::accounts::{DEMO_ADMIN, DEMO_USER};
use lvlx_backend::config::{Kyc, Secret};
use lvlx_backend::routes;
use lvlx_core::admin::{users::UserTable, Query};
use serde_json::{json, Value};
use sha2::Sha256;
use warp::http::StatusCode;

const SECRET: &str = "wbhsec_test_0123456789";

fn now_secs() -> i64 {
    lvlx_backend::now_ms() / 1000
}

fn signature(secret: &str, t: i64, body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(format!("{t}.").as_bytes());
    mac.update(body);
    format!("t={t},v1={}", hex::encode(mac.finalize().into_bytes()))
}

/// A Persona event as its documentation shows it (JSON:API), about the inquiry of `reference`.
fn event(id: &str, name: &str, created_at: &str, reference: &str) -> Vec<u8> {
    json!({"data": {"type": "event", "id": id, "attributes": {
        "name": name, "created-at": created_at,
        "payload": {"data": {"type": "inquiry", "id": "inq_TEST123", "attributes": {
            "status": name.trim_start_matches("inquiry."), "reference-id": reference}}}}}})
    .to_string()
    .into_bytes()
}

async fn deliver(w: &World, body: &[u8], signature: Option<String>) -> (StatusCode, Value) {
    let mut req = warp::test::request()
        .method("POST")
        .path("/api/v1/kyc/webhook")
        .header("content-type", "application/json")
        .body(body);
    if let Some(s) = signature {
        req = req.header("persona-signature", s);
    }
    let res = req.reply(&routes(w.app.clone())).await;
    (
        res.status(),
        serde_json::from_slice(res.body()).unwrap_or(Value::Null),
    )
}

async fn status_of(w: &World, token: &str) -> Value {
    let r = w.call("GET", "/api/v1/kyc", Some(token), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    r.body
}

#[tokio::test]
async fn a_signed_webhook_moves_the_status_once_and_never_backwards() {
    let w = common::world_with(|c| {
        c.kyc = Some(Kyc {
            webhook_secret: Secret::new(SECRET),
            template_id: "itmpl_Test".into(),
            environment_id: String::new(),
            flow_url: "https://withpersona.com/verify".into(),
            tolerance_secs: 300,
        })
    })
    .await;
    let (token, signed_in) = w.login(DEMO_USER.0, DEMO_USER.1).await;
    assert_eq!(signed_in["user"]["kycStatus"], "none");
    let view = status_of(&w, &token).await;
    assert_eq!(view["status"], "none");
    let start = view["startUrl"].as_str().unwrap();
    assert!(start.starts_with(
        "https://withpersona.com/verify?inquiry-template-id=itmpl_Test&reference-id="
    ));
    let reference = start.rsplit("reference-id=").next().unwrap().to_string();
    assert_eq!(reference.len(), 32);
    assert_eq!(
        status_of(&w, &token).await["startUrl"],
        start,
        "the reference is made once"
    );

    // Started, then approved.
    let started = event(
        "evt_1",
        "inquiry.started",
        "2026-11-23T10:00:00.000Z",
        &reference,
    );
    let (status, body) = deliver(&w, &started, Some(signature(SECRET, now_secs(), &started))).await;
    assert_eq!(
        (status, body["received"].clone()),
        (StatusCode::OK, json!("accepted"))
    );
    assert_eq!(status_of(&w, &token).await["status"], "pending");
    assert_eq!(status_of(&w, &token).await["startUrl"], Value::Null);
    let approved = event(
        "evt_2",
        "inquiry.approved",
        "2026-11-23T10:05:00.000Z",
        &reference,
    );
    let (status, _) = deliver(
        &w,
        &approved,
        Some(signature(SECRET, now_secs(), &approved)),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(status_of(&w, &token).await["status"], "approved");

    // A replay (same event id, freshly signed) changes nothing.
    let (_, body) = deliver(
        &w,
        &approved,
        Some(signature(SECRET, now_secs(), &approved)),
    )
    .await;
    assert_eq!(body["received"], "duplicate");
    // An older event delivered late does not step back.
    let late = event(
        "evt_0",
        "inquiry.completed",
        "2026-11-23T09:59:00.000Z",
        &reference,
    );
    let (status, _) = deliver(&w, &late, Some(signature(SECRET, now_secs(), &late))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(status_of(&w, &token).await["status"], "approved");

    // Unsigned, stale, forged, another secret, a changed body: 401, nothing changes.
    let declined = event(
        "evt_3",
        "inquiry.declined",
        "2026-11-23T11:00:00.000Z",
        &reference,
    );
    let stale = signature(SECRET, now_secs() - 301, &declined);
    let forged = signature(SECRET, now_secs(), &declined).replace("v1=", "v1=00");
    let other = signature("wbhsec_other", now_secs(), &declined);
    let changed = signature(SECRET, now_secs(), &approved);
    for header in [
        None,
        Some(stale),
        Some(forged),
        Some(other),
        Some(changed),
        Some("t=,v1=".into()),
    ] {
        let (status, body) = deliver(&w, &declined, header.clone()).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{header:?}");
        assert_eq!(body["code"], "error-unauthorized");
    }
    assert_eq!(status_of(&w, &token).await["status"], "approved");
    let events: i64 = w.count("kyc_events").await;
    assert_eq!(
        events, 3,
        "started, approved, the late completed — each once"
    );

    // Malformed but signed: 400, not recorded. Too large: 413.
    let junk = b"{\"data\": 1}".to_vec();
    let (status, _) = deliver(&w, &junk, Some(signature(SECRET, now_secs(), &junk))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let huge = vec![b' '; 70 * 1024];
    let (status, _) = deliver(&w, &huge, Some(signature(SECRET, now_secs(), &huge))).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(w.count("kyc_events").await, 3, "neither is recorded");

    // An event about an unknown reference is recorded once and changes no account.
    let stranger = event(
        "evt_9",
        "inquiry.approved",
        "2026-11-23T12:00:00.000Z",
        "nobody",
    );
    for received in ["accepted", "duplicate"] {
        let signed = Some(signature(SECRET, now_secs(), &stranger));
        let (_, body) = deliver(&w, &stranger, signed).await;
        assert_eq!(body["received"], received);
        assert_eq!(w.count("kyc_events").await, 4, "recorded once");
    }
    assert_eq!(status_of(&w, &token).await["status"], "approved");
}

#[tokio::test]
async fn without_a_provider_the_webhook_is_absent_and_members_cannot_start() {
    let w = common::world().await;
    let (token, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
    let view = status_of(&w, &token).await;
    assert_eq!(view["available"], false);
    assert_eq!(view["startUrl"], Value::Null);
    let body = event("evt_1", "inquiry.approved", "2026-11-23T10:00:00.000Z", "x");
    let (status, _) = deliver(&w, &body, Some(signature(SECRET, now_secs(), &body))).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn admins_correct_a_status_with_a_reason_into_the_append_only_audit() {
    let w = common::world().await;
    let (admin, _) = w.login(DEMO_ADMIN.0, DEMO_ADMIN.1).await;
    let (member, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
    let id: i64 = w.user_id(DEMO_USER.0).await;
    let admin_id: i64 = w.user_id(DEMO_ADMIN.0).await;
    let path = format!("/api/v1/users/{id}/kyc");
    let set = |status: &str, reason: &str| json!({"status": status, "reason": reason});

    // Only admins; a reason is required; the status must be one of four; admins have none.
    let r = w
        .call("PUT", &path, Some(&member), Some(set("approved", "me")))
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = w
        .call("PUT", &path, Some(&admin), Some(set("approved", "   ")))
        .await;
    assert_eq!(
        (r.status, r.body["code"].clone()),
        (StatusCode::BAD_REQUEST, json!("kyc-reason-required"))
    );
    let r = w
        .call("PUT", &path, Some(&admin), Some(set("verified", "x")))
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let r = w
        .call(
            "PUT",
            &path,
            Some(&admin),
            Some(set("approved", &"x".repeat(501))),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let r = w
        .call(
            "PUT",
            &format!("/api/v1/users/{admin_id}/kyc"),
            Some(&admin),
            Some(set("approved", "x")),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = w
        .call(
            "PUT",
            "/api/v1/users/999999/kyc",
            Some(&admin),
            Some(set("approved", "x")),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);

    let r = w
        .call(
            "PUT",
            &path,
            Some(&admin),
            Some(set("approved", "passport checked")),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(status_of(&w, &member).await["status"], "approved");
    let r = w
        .call(
            "PUT",
            &path,
            Some(&admin),
            Some(set("rejected", "document expired")),
        )
        .await;
    assert_eq!(r.body["status"], "rejected");
    assert_eq!(status_of(&w, &member).await["status"], "rejected");

    let view = w.call("GET", &path, Some(&admin), None).await;
    assert_eq!(view.body["status"], "rejected");
    let history = view.body["history"].as_array().unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(history[0]["status"], "rejected");
    assert_eq!(history[0]["reason"], "document expired");
    assert_eq!(history[0]["admin"], DEMO_ADMIN.0);
    assert_eq!(history[1]["status"], "approved");
    assert_eq!(
        w.call("GET", &path, Some(&member), None).await.status,
        StatusCode::FORBIDDEN
    );

    // The audit cannot be rewritten.
    let tampered = w
        .sql(|c| {
            Ok(c.execute(
                "UPDATE admin_audit SET after = '{}' WHERE subject = 'kyc'",
                lvlx_backend::args![],
            ))
        })
        .await;
    assert!(tampered.is_err(), "admin_audit is append-only");

    // The admin users stream carries id and status; the core filters on it.
    let rows = w
        .call("GET", "/api/v1/statistics-users/rows", Some(&admin), None)
        .await;
    assert_eq!(rows.status, StatusCode::OK);
    let mut table = UserTable::load(&rows.bytes).unwrap();
    let all = table.len();
    let q = |kyc: &str| Query {
        kyc: Some(kyc.into()),
        ..Query::default()
    };
    table.query(&q("rejected")).unwrap();
    assert_eq!(table.kept(), 1);
    let row = &table.page(0, 1)[0];
    assert_eq!(
        (row.email.as_str(), row.id as i64, row.kyc.as_str()),
        (DEMO_USER.0, id, "rejected")
    );
    table.query(&q("none")).unwrap();
    assert_eq!(table.kept(), all - 1);
    assert!(table.query(&q("maybe")).is_err());
}

/// One HTTP/1.1 request on its own connection → (status, head, body as text).
async fn http(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.unwrap();
    let text = String::from_utf8_lossy(&answer).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, head.to_string(), body.to_string())
}

/// The value of the hidden input `name` in a page.
fn hidden(page: &str, name: &str) -> String {
    let at = page.find(&format!("name=\"{name}\" value=\"")).unwrap() + name.len() + 15;
    page[at..].split('"').next().unwrap().to_string()
}

#[tokio::test]
async fn the_demos_identity_provider_verifies_a_member_and_the_held_claim_becomes_available() {
    use lvlx_tools::identity;
    const LVLX: u128 = 1_000_000_000_000_000_000;
    let secret = "wbhsec_demo_suite";
    // The demo's provider and the server, each on a loopback port of its own; the server's
    // [kyc] points at the provider as `lvlx demo identity` writes it.
    let provider_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let provider_addr = provider_listener.local_addr().unwrap();
    let kyc = Kyc {
        webhook_secret: Secret::new(secret),
        template_id: identity::TEMPLATE.into(),
        environment_id: String::new(),
        flow_url: identity::flow_url(provider_addr),
        tolerance_secs: 300,
    };
    let configured = kyc.clone();
    let w = common::world_with(move |c| c.kyc = Some(configured)).await;
    assert_eq!(w.app.config.kyc_claim_threshold.as_deref(), Some("10000"));
    let listener = lvlx_backend::listen("127.0.0.1:0".parse().unwrap()).unwrap();
    let server = listener.local_addr().unwrap().to_string();
    let app = w.app.clone();
    tokio::spawn(async move {
        lvlx_backend::serve::serve(&app, listener, std::future::pending()).await
    });
    let provider =
        identity::Provider::new(&kyc, &format!("http://{server}"), &w.app.config.locales_dir)
            .unwrap();
    tokio::spawn(identity::serve(
        provider,
        provider_listener,
        std::future::pending(),
    ));

    // The walk: 99,200 LVLX earned, 10,000 claimed and paid without an identity.
    let (rewards, paid) = ((99_200 * LVLX).to_string(), (10_000 * LVLX).to_string());
    w.sql(move |c| {
        c.execute(
            "UPDATE users SET wallet = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', add_rewards = ?1 WHERE email = ?2",
            lvlx_backend::args![rewards, DEMO_USER.0],
        )?;
        c.execute(
            "INSERT INTO claim_payments (tx_hash, log_index, wallet, amount, cumulative, created_at) SELECT '0x01', 0, wallet, ?1, ?1, 0 FROM users WHERE email = ?2",
            lvlx_backend::args![paid, DEMO_USER.0],
        )
    })
    .await;
    let (token, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
    let get = |path: &'static str| {
        let (server, token) = (server.clone(), token.clone());
        async move {
            let (status, body) =
                common::process::request(&server, "GET", path, Some(&token), &[], "")
                    .await
                    .unwrap();
            assert_eq!(status, 200, "{path}: {body}");
            body
        }
    };
    let held = json!({"available": "0", "held": (89_200 * LVLX).to_string()});
    assert_eq!(get("/api/v1/network/glance").await["claimSplit"], held);
    assert_eq!(get("/api/v1/network").await["claimSplit"], held);
    assert_eq!(
        get("/api/v1/dashboard").await["account"]["claimSplit"],
        held
    );

    // The dashboard's link: the demo's hosted flow with Persona's query parameters.
    let view = get("/api/v1/kyc").await;
    assert_eq!(
        (view["status"].as_str(), view["available"].as_bool()),
        (Some("none"), Some(true))
    );
    let start = view["startUrl"].as_str().unwrap().to_string();
    let prefix = format!(
        "http://{provider_addr}/verify?inquiry-template-id={}&reference-id=",
        identity::TEMPLATE
    );
    assert!(start.starts_with(&prefix), "{start}");
    let flow_path = &start[format!("http://{provider_addr}").len()..];

    // The page is the demo's, in the browser's language (a phone in Portuguese).
    let pt: Value = serde_json::from_str(
        &std::fs::read_to_string(w.app.config.locales_dir.join("pt/pt.json")).unwrap(),
    )
    .unwrap();
    let provider = provider_addr.to_string();
    let (status, _, page) = http(
        &provider,
        "GET",
        flow_path,
        &[("Accept-Language", "pt-BR,pt;q=0.9")],
        "",
    )
    .await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("<html lang=\"pt\">"));
    assert!(
        page.contains(pt["demo-kyc-title"].as_str().unwrap()),
        "{page}"
    );
    assert!(page.contains(pt["demo-kyc-approve"].as_str().unwrap()));
    let reference = start.rsplit("reference-id=").next().unwrap();
    assert_eq!(hidden(&page, "reference-id"), reference);
    // A link that is not the demo's template is refused.
    let (status, _, _) = http(
        &provider,
        "GET",
        &flow_path.replace(identity::TEMPLATE, "itmpl_other"),
        &[],
        "",
    )
    .await;
    assert_eq!(status, 400);

    // Approve: the provider posts Persona's signed event to the server, then sends the member
    // back to the dashboard's verification card.
    let form = format!(
        "inquiry-template-id={}&reference-id={reference}&inquiry-id={}&lng=pt&decision=approved",
        hidden(&page, "inquiry-template-id"),
        hidden(&page, "inquiry-id")
    );
    let (status, head, body) = http(
        &provider,
        "POST",
        "/verify/decision",
        &[("Content-Type", "application/x-www-form-urlencoded")],
        &form,
    )
    .await;
    assert_eq!(status, 303, "{head}\n{body}");
    assert!(
        head.to_ascii_lowercase()
            .contains(&format!("location: http://{server}/dashboard#kyc")),
        "{head}"
    );
    assert_eq!(w.count("kyc_events").await, 1, "one signed event arrived");
    assert_eq!(get("/api/v1/kyc").await["status"], "approved");

    // What was held is available now, everywhere it is shown.
    let open = json!({"available": (89_200 * LVLX).to_string(), "held": "0"});
    assert_eq!(get("/api/v1/network/glance").await["claimSplit"], open);
    assert_eq!(get("/api/v1/network").await["claimSplit"], open);
    assert_eq!(
        get("/api/v1/dashboard").await["account"]["claimSplit"],
        open
    );

    // The provider signs with the configured secret only: a server with another one refuses
    // its report, and the member reads why on the demo's page.
    let other = common::world_with(|c| {
        c.kyc = Some(Kyc {
            webhook_secret: Secret::new("wbhsec_not_the_demos"),
            ..kyc.clone()
        })
    })
    .await;
    let listener = lvlx_backend::listen("127.0.0.1:0".parse().unwrap()).unwrap();
    let other_server = listener.local_addr().unwrap().to_string();
    let app = other.app.clone();
    tokio::spawn(async move {
        lvlx_backend::serve::serve(&app, listener, std::future::pending()).await
    });
    let forged = identity::Provider::new(
        &Kyc {
            webhook_secret: Secret::new(secret),
            ..kyc.clone()
        },
        &format!("http://{other_server}"),
        &other.app.config.locales_dir,
    )
    .unwrap();
    let forged_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let forged_addr = forged_listener.local_addr().unwrap().to_string();
    tokio::spawn(identity::serve(
        forged,
        forged_listener,
        std::future::pending(),
    ));
    let (status, _, page) = http(
        &forged_addr,
        "POST",
        "/verify/decision",
        &[("Content-Type", "application/x-www-form-urlencoded")],
        &form,
    )
    .await;
    assert_eq!(status, 502, "{page}");
    assert_eq!(other.count("kyc_events").await, 0);
}
