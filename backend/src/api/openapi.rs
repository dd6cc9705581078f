//! The API's OpenAPI 3.1 document (GET /api/v1/openapi.json). The operations are written in
//! `backend/openapi.json` (the `openapi` test keeps them in step with the routes' doc lines);
//! the shapes they answer with are derived from the Rust types that produce them (utoipa's
//! `ToSchema`) and merged into its components, so a shape is described once, where it is made.

use std::sync::OnceLock;

use serde_json::Value;
use utoipa::OpenApi;
use warp::filters::BoxedFilter;
use warp::{Filter, Reply};

/// The operations, written by hand; their answers name the derived shapes by `$ref`.
const OPERATIONS: &str = include_str!("../../openapi.json");

/// Every shape an operation names; each brings the shapes it holds.
#[derive(OpenApi)]
#[openapi(components(schemas(
    crate::accounts::logins::CodeSent,
    crate::accounts::recovery::PasswordReset,
    crate::session::SignedOut,
    crate::user::AdminPayload,
    crate::network::pages::Glance,
    crate::network::pages::Overview,
    crate::network::pages::Sponsor,
    crate::network::claims::Requested,
    crate::network::claims::SignedVoucher,
    crate::network::ranks::RanksAdmin,
    crate::network::ranks::RankTable,
    crate::network::nodes::NodeAdmin,
    crate::staking::StakingPage,
    crate::staking::ReserveMonitor,
    crate::statistics::IcoStatistics,
    crate::statistics::UserStatistics,
    crate::staking::admin::NftStatistics,
    crate::staking::admin::LvlxStatistics,
    crate::store::ledger::Trail,
    crate::content::ContentBlock,
    crate::content::ContentBlocks,
    crate::kyc::admin::KycView,
    crate::store::kyc::Kyc,
)))]
struct Shapes;

/// The whole document: the operations with the derived shapes among their components. A
/// derived shape may not take the name of one written by hand.
pub fn document() -> &'static str {
    static DOCUMENT: OnceLock<String> = OnceLock::new();
    DOCUMENT.get_or_init(|| {
        let mut doc: Value = serde_json::from_str(OPERATIONS).expect("openapi.json is JSON");
        let derived = serde_json::to_value(Shapes::openapi().components)
            .expect("the derived shapes serialize");
        let schemas = doc["components"]["schemas"]
            .as_object_mut()
            .expect("openapi.json has components.schemas");
        for (name, shape) in derived["schemas"].as_object().into_iter().flatten() {
            let taken = schemas.insert(name.clone(), shape.clone());
            assert!(taken.is_none(), "the shape {name} is written and derived");
        }
        doc.to_string()
    })
}

// GET /api/v1/openapi.json — this API's OpenAPI 3.1 document.
pub fn route() -> BoxedFilter<(warp::reply::Response,)> {
    warp::path!("openapi.json")
        .and(warp::get())
        .map(|| {
            warp::reply::with_header(document(), "content-type", "application/json").into_response()
        })
        .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `$ref` of `value` names a component of `doc`.
    fn unresolved(doc: &Value, value: &Value, out: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(target)) = map.get("$ref") {
                    let found = target
                        .strip_prefix("#/")
                        .map(|p| p.split('/').fold(doc, |v, key| &v[key]));
                    if found.is_none_or(Value::is_null) {
                        out.push(target.clone());
                    }
                }
                map.values().for_each(|v| unresolved(doc, v, out));
            }
            Value::Array(items) => items.iter().for_each(|v| unresolved(doc, v, out)),
            _ => {}
        }
    }

    #[test]
    fn every_reference_names_a_shape() {
        let doc: Value = serde_json::from_str(document()).unwrap();
        let mut missing = Vec::new();
        unresolved(&doc, &doc, &mut missing);
        assert_eq!(missing, Vec::<String>::new());
    }

    #[test]
    fn derived_shapes_carry_their_fields() {
        let doc: Value = serde_json::from_str(document()).unwrap();
        let shape = &doc["components"]["schemas"]["CodeSent"];
        assert_eq!(
            shape["required"],
            serde_json::json!(["token", "verifyCode"])
        );
    }
}
