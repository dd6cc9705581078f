//! Content blocks (admin/edit-content): admins write them per language, signed-in accounts
//! read them (falling back to English), and nobody else may write.

use crate::common;

use common::{world, World};
use lvlx_backend::cli::accounts::{DEMO_ADMIN, DEMO_USER};
use lvlx_backend::routes;
use serde_json::{json, Value};
use warp::http::StatusCode;

fn png() -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    image::RgbImage::from_pixel(12, 8, image::Rgb([10, 200, 90]))
        .write_to(&mut out, image::ImageFormat::Png)
        .unwrap();
    out.into_inner()
}

async fn upload(w: &World, token: &str, path: &str, bytes: &[u8]) -> (StatusCode, Value) {
    let reply = w.upload(token, path, "image", "x.png", bytes).await;
    (reply.status, reply.body)
}

#[tokio::test]
async fn admins_write_blocks_per_language_and_users_read_them_with_english_fallback() {
    let w = world().await;
    let (admin, _) = w.login(DEMO_ADMIN.0, DEMO_ADMIN.1).await;
    let (user, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;

    // Nothing written yet: an empty block, not an error.
    let empty = w
        .call(
            "GET",
            "/api/v1/content/dashboard-notice?lang=es",
            Some(&user),
            None,
        )
        .await;
    assert_eq!(empty.status, StatusCode::OK);
    assert_eq!(empty.body["title"], "");

    let edit = json!({"title": "  Aviso  ", "description": "Línea uno\nLínea dos"});
    let saved = w
        .call(
            "PUT",
            "/api/v1/admin/content/dashboard-notice/es",
            Some(&admin),
            Some(edit.clone()),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{:?}", saved.body);
    assert_eq!(saved.body["title"], "Aviso", "trimmed");
    // The change is in the append-only admin audit: who, and the block before (none) and after.
    let audited: Vec<(i64, Option<String>, String)> = w
        .sql(|c| {
            c.query_all(
                "SELECT admin_id, before, after FROM admin_audit WHERE subject = 'content' ORDER BY id",
                lvlx_backend::args![],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
        })
        .await;
    assert_eq!(audited.len(), 1);
    assert_eq!(audited[0].0, w.user_id(DEMO_ADMIN.0).await);
    assert_eq!(audited[0].1, None);
    let after: Value = serde_json::from_str(&audited[0].2).unwrap();
    assert_eq!(
        (
            after["block"].as_str(),
            after["language"].as_str(),
            after["title"].as_str()
        ),
        (Some("dashboard-notice"), Some("es"), Some("Aviso"))
    );
    let english = json!({"title": "Notice", "description": "Line one"});
    w.call(
        "PUT",
        "/api/v1/admin/content/dashboard-notice/en",
        Some(&admin),
        Some(english),
    )
    .await;

    let es = w
        .call(
            "GET",
            "/api/v1/content/dashboard-notice?lang=es",
            Some(&user),
            None,
        )
        .await;
    assert_eq!(es.body["description"], "Línea uno\nLínea dos");
    assert_eq!(es.headers["cache-control"], "no-store");
    let pt = w
        .call(
            "GET",
            "/api/v1/content/dashboard-notice?lang=pt",
            Some(&user),
            None,
        )
        .await;
    assert_eq!(
        (pt.body["title"].as_str(), pt.body["language"].as_str()),
        (Some("Notice"), Some("en"))
    );

    let all = w
        .call("GET", "/api/v1/admin/content", Some(&admin), None)
        .await;
    assert_eq!(all.body["blocks"].as_array().unwrap().len(), 2);

    // Members may read but never write; strangers may do neither.
    let as_user = w
        .call(
            "PUT",
            "/api/v1/admin/content/dashboard-notice/es",
            Some(&user),
            Some(edit.clone()),
        )
        .await;
    assert_eq!(as_user.status, StatusCode::FORBIDDEN);
    assert_eq!(
        w.call("GET", "/api/v1/admin/content", Some(&user), None)
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        w.call("GET", "/api/v1/content/dashboard-notice", None, None)
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
    let (status, _) = upload(
        &w,
        &user,
        "/api/v1/admin/content/dashboard-notice/es/image",
        &png(),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let unchanged = w
        .call(
            "GET",
            "/api/v1/content/dashboard-notice?lang=es",
            Some(&user),
            None,
        )
        .await;
    assert_eq!(unchanged.body["title"], "Aviso");
}

#[tokio::test]
async fn bad_edits_are_refused_with_the_cores_messages() {
    let w = world().await;
    let (admin, _) = w.login(DEMO_ADMIN.0, DEMO_ADMIN.1).await;
    let put = |path: &'static str, body: Value| {
        let (w, admin) = (&w, admin.clone());
        async move { w.call("PUT", path, Some(&admin), Some(body)).await }
    };
    let long = put(
        "/api/v1/admin/content/private-protocol/en",
        json!({"title": "x".repeat(121), "description": "ok"}),
    )
    .await;
    assert_eq!(
        (long.status, long.body["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("validations-max-msg"))
    );
    let blank = put(
        "/api/v1/admin/content/private-protocol/en",
        json!({"title": "Title", "description": "   "}),
    )
    .await;
    assert_eq!(blank.body["code"], "validations-req");
    // The longest text in the widest characters still fits the request limit.
    let widest = put(
        "/api/v1/admin/content/private-protocol/en",
        json!({"title": "🙂".repeat(120), "description": "🙂".repeat(4000)}),
    )
    .await;
    assert_eq!(widest.status, StatusCode::OK, "{:?}", widest.body);
    let unknown = put(
        "/api/v1/admin/content/home/en",
        json!({"title": "a", "description": "b"}),
    )
    .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    let language = put(
        "/api/v1/admin/content/private-protocol/fr",
        json!({"title": "a", "description": "b"}),
    )
    .await;
    assert_eq!(language.status, StatusCode::NOT_FOUND);
    let extra = put(
        "/api/v1/admin/content/private-protocol/en",
        json!({"title": "a", "description": "b", "html": "<script>"}),
    )
    .await;
    assert_eq!(extra.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn images_are_reencoded_served_replaced_and_cleared() {
    let w = world().await;
    let (admin, _) = w.login(DEMO_ADMIN.0, DEMO_ADMIN.1).await;
    let path = "/api/v1/admin/content/private-protocol/pt/image";
    // An image needs its block's text first.
    assert_eq!(
        upload(&w, &admin, path, &png()).await.0,
        StatusCode::NOT_FOUND
    );
    w.call(
        "PUT",
        "/api/v1/admin/content/private-protocol/pt",
        Some(&admin),
        Some(json!({"title": "Protocolo", "description": "Texto"})),
    )
    .await;
    let (status, body) = upload(&w, &admin, path, b"<svg onload=alert(1)>").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::UNSUPPORTED_MEDIA_TYPE, Some("error-media-type"))
    );

    let before = content_audit(&w).await.len();
    let (status, first) = upload(&w, &admin, path, &png()).await;
    assert_eq!(status, StatusCode::OK, "{first:?}");
    let url = first["image"].as_str().unwrap().to_string();
    let changes = content_audit(&w).await;
    assert_eq!(changes.len(), before + 1, "an upload is audited");
    let after: Value = serde_json::from_str(changes.last().unwrap()).unwrap();
    assert_eq!(after["image"].as_str(), Some(url.as_str()));
    assert!(url.starts_with("/content/private-protocol-pt-") && url.ends_with(".png"));
    let served = warp::test::request()
        .path(&url)
        .reply(&routes(w.app.clone()))
        .await;
    assert_eq!(served.status(), StatusCode::OK);
    assert!(served.body().starts_with(b"\x89PNG"));
    assert_eq!(served.headers()["content-type"], "image/png");
    let etag = served.headers()["etag"].to_str().unwrap().to_string();
    let again = warp::test::request()
        .path(&url)
        .header("if-none-match", &etag)
        .reply(&routes(w.app.clone()))
        .await;
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);

    // A new image replaces the file; clearing removes it.
    let (_, second) = upload(&w, &admin, path, &png()).await;
    let gone = warp::test::request()
        .path(&url)
        .reply(&routes(w.app.clone()))
        .await;
    assert_eq!(gone.status(), StatusCode::NOT_FOUND);
    let cleared = w
        .call(
            "PUT",
            "/api/v1/admin/content/private-protocol/pt",
            Some(&admin),
            Some(json!({"title": "Protocolo", "description": "Texto", "clearImage": true})),
        )
        .await;
    assert_eq!(cleared.body["image"], Value::Null);
    let cleared = warp::test::request()
        .path(second["image"].as_str().unwrap())
        .reply(&routes(w.app.clone()))
        .await;
    assert_eq!(cleared.status(), StatusCode::NOT_FOUND);
    let stored: i64 = w
        .sql(|c| {
            c.query_one(
                "SELECT COUNT(*) FROM uploads WHERE name LIKE 'content/%'",
                lvlx_backend::args![],
                |r| r.get(0),
            )
        })
        .await;
    assert_eq!(stored, 0, "a cleared image leaves nothing stored");
}

/// The `after` of every content change in the admin audit, oldest first.
async fn content_audit(w: &World) -> Vec<String> {
    w.sql(|c| {
        c.query_all(
            "SELECT after FROM admin_audit WHERE subject = 'content' ORDER BY id",
            lvlx_backend::args![],
            |r| r.get::<String>(0),
        )
    })
    .await
}

#[tokio::test]
async fn the_landing_pages_notices_are_public_and_nothing_else_is() {
    let w = world().await;
    let (admin, _) = w.login(DEMO_ADMIN.0, DEMO_ADMIN.1).await;
    let edit = json!({"title": "Términos", "description": "Las reglas de la plataforma."});
    let put = w
        .call(
            "PUT",
            "/api/v1/admin/content/terms/es",
            Some(&admin),
            Some(edit),
        )
        .await;
    assert_eq!(put.status, StatusCode::OK, "{}", put.body);
    // No session: the terms in Spanish, the risk notice (unwritten) empty.
    let terms = w
        .call("GET", "/api/v1/public/content/terms?lang=es", None, None)
        .await;
    assert_eq!(terms.status, StatusCode::OK, "{}", terms.body);
    assert_eq!(terms.body["title"], "Términos");
    let risk = w
        .call("GET", "/api/v1/public/content/risk?lang=pt", None, None)
        .await;
    assert_eq!(risk.status, StatusCode::OK);
    assert_eq!(risk.body["description"], "");
    // Members' blocks stay behind the session.
    for block in ["private-protocol", "dashboard-notice", "nothing"] {
        let hidden = w
            .call(
                "GET",
                &format!("/api/v1/public/content/{block}"),
                None,
                None,
            )
            .await;
        assert_eq!(hidden.status, StatusCode::NOT_FOUND, "{block}");
    }
}

#[tokio::test]
async fn a_browsers_regional_language_tag_reads_its_languages_notice() {
    let w = world().await;
    let (admin, _) = w.login(DEMO_ADMIN.0, DEMO_ADMIN.1).await;
    let edit = json!({"title": "Términos", "description": "Las reglas."});
    let put = w
        .call(
            "PUT",
            "/api/v1/admin/content/terms/es",
            Some(&admin),
            Some(edit),
        )
        .await;
    assert_eq!(put.status, StatusCode::OK, "{}", put.body);
    // What an es-ES or pt-BR browser sends (issue: three 404s on every landing visit).
    for (tag, title) in [("es-ES", "Términos"), ("es-419", "Términos"), ("pt-BR", "")] {
        let got = w
            .call(
                "GET",
                &format!("/api/v1/public/content/terms?lang={tag}"),
                None,
                None,
            )
            .await;
        assert_eq!(got.status, StatusCode::OK, "{tag}: {}", got.body);
        assert_eq!(got.body["title"], title, "{tag}");
    }
    // A language the app does not have is still not found.
    let other = w
        .call("GET", "/api/v1/public/content/terms?lang=de-DE", None, None)
        .await;
    assert_eq!(other.status, StatusCode::NOT_FOUND);
}
