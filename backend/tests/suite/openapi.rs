//! The API contract: `backend/openapi.json` (OpenAPI 3.1, served at
//! /api/v1/openapi.json) names exactly the routes the code has. Each route carries a doc line
//! "// METHOD /api/v1/path" beside its filter; the document and those lines must list the same
//! operations, and every documented operation must reach a handler (not the router's "no such
//! route" 404 or 405).

use crate::common;

use std::collections::BTreeSet;

use lvlx_backend::config::{Kyc, Secret};
use serde_json::Value;
use warp::http::StatusCode;

fn document() -> Value {
    serde_json::from_str(lvlx_backend::api::openapi::document()).expect("openapi.json is JSON")
}

fn documented() -> BTreeSet<(String, String)> {
    let doc = document();
    let mut ops = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            ops.insert((method.to_uppercase(), path.clone()));
        }
    }
    ops
}

/// The doc lines of `backend/src/api/*.rs`: "// GET /api/v1/x/{id}?q= — …" → (GET, /x/{id}).
fn in_code() -> BTreeSet<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/api");
    let mut ops = BTreeSet::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for line in text.lines() {
            let line = line.trim_start();
            let Some(rest) = line.strip_prefix("///").or_else(|| line.strip_prefix("//")) else {
                continue;
            };
            let mut words = rest.split_whitespace();
            let (Some(method), Some(path)) = (words.next(), words.next()) else {
                continue;
            };
            if !["GET", "POST", "PUT", "DELETE", "PATCH"].contains(&method) {
                continue;
            }
            if let Some(path) = path.strip_prefix("/api/v1") {
                let path = path.split('?').next().unwrap();
                ops.insert((method.to_string(), path.to_string()));
            }
        }
    }
    ops
}

#[test]
fn the_document_and_the_routes_name_the_same_operations() {
    let doc = document();
    assert_eq!(doc["openapi"], "3.1.0");
    let (documented, coded) = (documented(), in_code());
    let undocumented: Vec<_> = coded.difference(&documented).collect();
    let unrouted: Vec<_> = documented.difference(&coded).collect();
    assert!(
        undocumented.is_empty(),
        "routes without an operation in openapi.json: {undocumented:?}"
    );
    assert!(
        unrouted.is_empty(),
        "operations in openapi.json without a route: {unrouted:?}"
    );
    assert!(documented.len() >= 50, "{} operations", documented.len());
    // Every JSON answer names its shape: a derived one by `$ref`, or one with its fields.
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            for (status, answer) in op["responses"].as_object().unwrap() {
                let shape = &answer["content"]["application/json"]["schema"];
                let bare = shape["type"] == "object"
                    && shape.get("properties").is_none()
                    && shape.get("$ref").is_none()
                    && shape.get("additionalProperties").is_none();
                assert!(!bare, "{method} {path} {status}: a bare object");
            }
        }
    }
    // Every operation answers errors as {code, message} and says whether it needs a token.
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            assert!(op["security"].is_array(), "{method} {path}: security");
            assert!(
                op["responses"]["500"].is_object(),
                "{method} {path}: the error body"
            );
        }
    }
}

#[tokio::test]
async fn every_documented_operation_reaches_a_handler() {
    let w = common::world_with(|c| {
        c.kyc = Some(Kyc {
            webhook_secret: Secret::new("s"),
            template_id: "t".into(),
            environment_id: String::new(),
            flow_url: "https://withpersona.com/verify".into(),
            tolerance_secs: 300,
        })
    })
    .await;
    for (method, path) in documented() {
        // A public block where the path takes only those; any block elsewhere.
        let block = if path.starts_with("/public/") {
            "terms"
        } else {
            "dashboard-notice"
        };
        let concrete = path
            .replace("{id}", "1")
            .replace("{block}", block)
            .replace("{lang}", "en");
        let reply = w
            .call(&method, &format!("/api/v1{concrete}"), None, None)
            .await;
        let no_route = reply.status == StatusCode::NOT_FOUND
            && reply.body["code"] == "error-not-found"
            || reply.status == StatusCode::METHOD_NOT_ALLOWED;
        assert!(
            !no_route,
            "{method} {path} → {} {}",
            reply.status, reply.body
        );
    }
    // The document itself is served.
    let served = w.call("GET", "/api/v1/openapi.json", None, None).await;
    assert_eq!(served.status, StatusCode::OK);
    assert_eq!(served.body, document());
}
