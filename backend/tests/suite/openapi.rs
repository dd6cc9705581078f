//! The API contract: the OpenAPI 3.1 document served at /api/v1/openapi.json names exactly the
//! routes the code has. Each operation is described on its handler (`#[utoipa::path(method,
//! path = …)]` in `server/src/api/<module>.rs`); the route's warp filter names the same path
//! (`warp::path!(…)`), its method and that handler. The source is read to pair the two (warp's
//! filters cannot be read back), and the router is asked to prove every documented operation
//! reaches a handler (not the router's "no such route" 404 or 405).

use crate::common;

use std::collections::{BTreeMap, BTreeSet};

use lvlx_backend::config::{Kyc, Secret};
use serde_json::Value;
use warp::http::StatusCode;

fn document() -> Value {
    serde_json::from_str(lvlx_backend::api::openapi::document()).expect("the document is JSON")
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

/// `/users/{id}/kyc` and `warp::path!("users" / u32 / "kyc")` both as `/users/{}/kyc`.
fn shape(segments: impl Iterator<Item = String>) -> String {
    segments.map(|s| format!("/{s}")).collect()
}

fn doc_path(path: &str) -> String {
    shape(path.split('/').skip(1).map(|s| {
        if s.starts_with('{') {
            "{}".to_string()
        } else {
            s.to_string()
        }
    }))
}

/// The text from `open` (just past an opening bracket) to its closing bracket.
fn bracketed(text: &str) -> &str {
    let mut depth = 1;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if depth == 0 {
            return &text[..i];
        }
    }
    panic!("unbalanced brackets in {text}")
}

/// A route in the source: its method (None when a helper filter of the module chooses it; the
/// router test checks those), its path and the handler it calls.
#[derive(Debug)]
struct Route {
    method: Option<String>,
    path: String,
    handler: String,
}

/// The routes of one module: each `warp::path!(…)` up to the end of its statement.
fn routes_in(text: &str) -> Vec<Route> {
    let mut routes = Vec::new();
    for (i, _) in text.match_indices("warp::path!(") {
        let rest = &text[i + "warp::path!(".len()..];
        let inside = bracketed(rest);
        let path = shape(inside.split('/').map(|s| {
            let s = s.trim();
            match s.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
                Some(literal) => literal.to_string(),
                None => "{}".to_string(),
            }
        }));
        let chain = &rest[inside.len()..];
        let end = [chain.find(';'), chain.find("warp::path!(")]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(chain.len());
        let chain = &chain[..end];
        let method = ["get", "post", "put", "delete", "patch"]
            .into_iter()
            .find(|m| chain.contains(&format!("warp::{m}()")))
            .map(str::to_string)
            .or_else(|| chain.contains("form(&").then(|| "post".to_string()));
        let handler = [".then(", ".map("]
            .into_iter()
            .flat_map(|call| chain.match_indices(call).map(move |(j, _)| j + call.len()))
            .map(|j| bracketed(&chain[j..]).trim())
            .filter(|h| h.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
            .find(|h| !["reply", "Some"].contains(h))
            .unwrap_or_else(|| panic!("no named handler after warp::path!({inside})"))
            .to_string();
        routes.push(Route {
            method: method.map(|m| m.to_uppercase()),
            path,
            handler,
        });
    }
    routes
}

/// The operations described in one module: handler → (METHOD, path as documented).
fn described_in(text: &str) -> BTreeMap<String, (String, String)> {
    let mut described = BTreeMap::new();
    for (i, _) in text.match_indices("#[utoipa::path(") {
        let rest = &text[i + "#[utoipa::path(".len()..];
        let inside = bracketed(rest);
        let method = inside.split(',').next().unwrap().trim().to_uppercase();
        let path = inside
            .split_once("path = \"")
            .and_then(|(_, p)| p.split_once('"'))
            .map(|(p, _)| p.to_string())
            .expect("a described operation names its path");
        let after = &rest[inside.len()..];
        let name = after
            .split_once("fn ")
            .map(|(_, f)| f.split('(').next().unwrap().trim().to_string())
            .expect("a description sits on a function");
        assert!(
            described.insert(name.clone(), (method, path)).is_none(),
            "{name} described twice"
        );
    }
    described
}

/// Every api module's source, by file name.
fn modules() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../server/src/api");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// Each route's filter and its handler's description name the same method and path; every
/// description is of a handler a route calls and is in the served document, and the document
/// holds nothing else.
#[test]
fn each_route_and_its_description_agree() {
    let mut all_described = BTreeSet::new();
    let mut problems = Vec::new();
    let mut routes = 0;
    for (file, text) in modules() {
        let described = described_in(&text);
        let mut called = BTreeSet::new();
        for route in routes_in(&text) {
            routes += 1;
            called.insert(route.handler.clone());
            let Some((method, path)) = described.get(&route.handler) else {
                problems.push(format!(
                    "{file}: the route {} calls {}, which has no #[utoipa::path]",
                    route.path, route.handler
                ));
                continue;
            };
            if doc_path(path) != route.path {
                problems.push(format!(
                    "{file}: {} is routed as {} but described as {path}",
                    route.handler, route.path
                ));
            }
            if route.method.as_ref().is_some_and(|m| m != method) {
                problems.push(format!(
                    "{file}: {} is routed as {:?} but described as {method}",
                    route.handler, route.method
                ));
            }
        }
        for (handler, (method, path)) in described {
            if !called.contains(&handler) {
                problems.push(format!(
                    "{file}: {handler} is described ({method} {path}) but no route calls it"
                ));
            }
            all_described.insert((method, path));
        }
    }
    let documented = documented();
    for op in all_described.difference(&documented) {
        problems.push(format!(
            "{op:?} is described but not in the document (is it in its module's Doc?)"
        ));
    }
    for op in documented.difference(&all_described) {
        problems.push(format!("{op:?} is in the document but on no handler"));
    }
    assert_eq!(problems, Vec::<String>::new());
    assert_eq!(routes, documented.len(), "one route per operation");
    assert!(documented.len() >= 50, "{} operations", documented.len());
}

#[test]
fn every_operation_answers_errors_and_names_its_shapes() {
    let doc = document();
    assert_eq!(doc["openapi"], "3.1.0");
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
