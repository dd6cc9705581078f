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
    super::error::Body,
    // Accounts: sign-in, registration, recovery, the session.
    crate::accounts::logins::Login,
    crate::accounts::logins::Code,
    crate::accounts::logins::Resend,
    crate::accounts::logins::CodeSent,
    crate::accounts::registrations::Register,
    crate::accounts::registrations::CodeAnswer,
    crate::accounts::registrations::Attempt,
    crate::accounts::registrations::Inviter,
    crate::accounts::recovery::Recover,
    crate::accounts::recovery::Reset,
    crate::accounts::recovery::ResetTokens,
    crate::accounts::recovery::PasswordReset,
    crate::captcha::Challenge,
    crate::session::SignedIn,
    crate::session::Refreshed,
    crate::session::SignedOut,
    super::sessions::Signout,
    crate::user::AdminPayload,
    // The server and its settings.
    crate::health::Health,
    crate::health::Ready,
    crate::chain::watch::Moving,
    super::settings::PublicConfig,
    // The member's pages.
    crate::accounts::avatars::AvatarSet,
    crate::accounts::wallets::Link,
    crate::accounts::wallets::Nonce,
    crate::accounts::wallets::Linked,
    crate::accounts::holdings::Actives,
    crate::accounts::holdings::History,
    crate::accounts::holdings::Dashboard,
    crate::staking::StakingPage,
    crate::network::pages::Glance,
    crate::network::pages::Overview,
    crate::network::pages::Sponsor,
    super::network::Language,
    super::network::Confirm,
    crate::network::claims::Requested,
    crate::network::claims::SignedVoucher,
    crate::kyc::MemberKyc,
    crate::kyc::Received,
    crate::faq::FaqPage,
    crate::onramp::Session,
    super::keys::KeyRequest,
    super::keys::Revealed,
    // The admin's pages.
    super::network::RankEdit,
    super::network::NodeEdit,
    crate::network::ranks::RanksAdmin,
    crate::network::ranks::RankTable,
    crate::network::nodes::NodeAdmin,
    crate::staking::ReserveMonitor,
    crate::statistics::IcoStatistics,
    crate::statistics::UserStatistics,
    crate::staking::admin::NftStatistics,
    crate::staking::admin::LvlxStatistics,
    crate::store::ledger::Trail,
    crate::content::Edit,
    crate::content::ContentBlock,
    crate::content::ContentBlocks,
    super::kyc::AdminSet,
    super::kyc::StatusSet,
    crate::accounts::blocking::Status,
    crate::kyc::admin::KycView,
    crate::store::kyc::Kyc,
    crate::chain::status::Standing,
    crate::books::schedule::Books,
    crate::books::schedule::BooksStarted,
    crate::solvency::Solvency,
    crate::admin_audit::AuditPage,
    crate::owners::Owners,
    super::owners::Proposal,
    super::owners::Signature,
    super::owners::Executed,
    crate::owners::proposals::Proposals,
    crate::owners::proposals::ProposalId,
    crate::owners::proposals::Signed,
)))]
struct Shapes;

/// The shapes of the operations' parameters, from the constants the code checks them with.
fn parameters() -> [(String, Value); 4] {
    use serde_json::json;
    [
        (
            "Language".into(),
            json!({"type": "string", "enum": lvlx_core::LANGUAGES}),
        ),
        (
            "PublicBlock".into(),
            json!({"type": "string", "enum": lvlx_core::content::PUBLIC_BLOCKS}),
        ),
        (
            "RowLimit".into(),
            json!({
                "type": "integer",
                "minimum": 0,
                "description": format!(
                    "rows; {} when absent, at most {} (a larger limit is capped)",
                    super::statistics::ROWS_DEFAULT,
                    super::statistics::ROWS_MAX
                ),
            }),
        ),
        (
            "FilterText".into(),
            json!({
                "type": "string",
                "description": format!(
                    "blank filters nothing; longer text is cut at {} characters",
                    crate::admin_audit::FILTER_TEXT_MAX
                ),
            }),
        ),
    ]
}

/// An identity status as an admin sets it.
pub fn kyc_status() -> utoipa::openapi::Object {
    use lvlx_core::kyc::KycStatus;
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .enum_values(Some(
            [
                KycStatus::None,
                KycStatus::Pending,
                KycStatus::Approved,
                KycStatus::Rejected,
            ]
            .map(KycStatus::as_str),
        ))
        .build()
}

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
        let derived = derived["schemas"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(name, shape)| (name.clone(), shape.clone()))
            .chain(parameters());
        for (name, shape) in derived {
            let taken = schemas.insert(name.clone(), shape);
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

    /// Every property name in `value` holding a `_`.
    fn snake_names(value: &Value, out: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                if let Some(Value::Object(properties)) = map.get("properties") {
                    out.extend(properties.keys().filter(|k| k.contains('_')).cloned());
                }
                map.values().for_each(|v| snake_names(v, out));
            }
            Value::Array(items) => items.iter().for_each(|v| snake_names(v, out)),
            _ => {}
        }
    }

    /// The answers are camelCase; a Rust name in the document means a serde renaming the
    /// derivation does not follow (utoipa ignores `rename_all_fields`, say).
    #[test]
    fn shapes_name_fields_as_they_are_sent() {
        let doc: Value = serde_json::from_str(document()).unwrap();
        let mut snake = Vec::new();
        snake_names(&doc["components"], &mut snake);
        assert_eq!(snake, Vec::<String>::new());
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
