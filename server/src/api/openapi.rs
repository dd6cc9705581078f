//! The API's OpenAPI 3.1 document (GET /api/v1/openapi.json). Each operation is described on
//! its handler (`#[utoipa::path]`, with its summary from the doc comment) and listed in its
//! module's `Doc`; the shapes its bodies and answers name are derived from the Rust types that
//! parse or make them (utoipa's `ToSchema`) and collected through those descriptions. Here is
//! only what every module shares: the document's header, the bearer scheme, the error answers
//! ([`errors`]), the parameter shapes built from the constants the code checks, and the merge.

use super::Route;
use std::sync::OnceLock;

use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};
use warp::{Filter, Reply};

use errors::*;

/// Every module's operations. A module with routes has a `Doc` listing its handlers.
fn modules() -> Vec<utoipa::openapi::OpenApi> {
    vec![
        super::health::Doc::openapi(),
        super::settings::Doc::openapi(),
        Doc::openapi(),
        super::captcha::Doc::openapi(),
        super::logins::Doc::openapi(),
        super::registrations::Doc::openapi(),
        super::recovery::Doc::openapi(),
        super::kyc::Doc::openapi(),
        super::live::Doc::openapi(),
        super::sessions::Doc::openapi(),
        super::images::Doc::openapi(),
        super::content::Doc::openapi(),
        super::wallet::Doc::openapi(),
        super::holdings::Doc::openapi(),
        super::staking::Doc::openapi(),
        super::network::Doc::openapi(),
        super::faq::Doc::openapi(),
        super::onramp::Doc::openapi(),
        super::keys::Doc::openapi(),
        super::statistics::Doc::openapi(),
        super::owners::Doc::openapi(),
        super::indexer::Doc::openapi(),
        super::books::Doc::openapi(),
        super::audit::Doc::openapi(),
    ]
}

/// What every module shares. The parameter shapes and the error body are listed here because
/// utoipa collects only the shapes that bodies and answers name, not those of parameters or
/// of shared answers.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "LVLX platform API",
        version = "1",
        description = "The JSON API under /api/v1. Every answer is Cache-Control: no-store; every error is {code, message}, code a translation key. Amounts are decimal strings of base units (LVLX 18 decimals, USDT 6).",
    ),
    servers((url = "/api/v1")),
    components(
        schemas(super::error::Body, LanguageCode, PublicBlock, RowLimit, FilterText),
        responses(E400, E401, E403, E404, E405, E409, E413, E415, E429, E500, E503),
    ),
    modifiers(&Bearer),
)]
struct Shared;

/// `security(("bearer" = []))` on an operation: a session token in `Authorization`.
struct Bearer;

impl Modify for Bearer {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let scheme = HttpBuilder::new()
            .scheme(HttpAuthScheme::Bearer)
            .bearer_format("JWT")
            .build();
        openapi
            .components
            .get_or_insert_with(Default::default)
            .add_security_scheme("bearer", SecurityScheme::Http(scheme));
    }
}

/// The error answers operations name (`response = E400`): each a `{code, message}` body.
pub mod errors {
    use utoipa::openapi::{ContentBuilder, Ref, RefOr, Response, ResponseBuilder};
    use utoipa::ToSchema;

    fn error(description: &str) -> RefOr<Response> {
        let body = Ref::from_schema_name(super::super::error::Body::name());
        ResponseBuilder::new()
            .description(description)
            .content(
                "application/json",
                ContentBuilder::new().schema(Some(body)).build(),
            )
            .build()
            .into()
    }

    macro_rules! answers {
        ($($name:ident: $description:literal,)*) => {$(
            pub struct $name;
            impl<'r> utoipa::ToResponse<'r> for $name {
                fn response() -> (&'r str, RefOr<Response>) {
                    (stringify!($name), error($description))
                }
            }
        )*};
    }

    answers! {
        E400: "Malformed or refused by a rule",
        E401: "Not signed in, or not signed",
        E403: "Not allowed for this account",
        E404: "Not found",
        E405: "No route for this method and path (warp answers 405 when another route's method check saw the request first)",
        E409: "Conflicts with the account's state",
        E413: "Too large",
        E415: "Not a JPEG or PNG",
        E429: "Too many requests (Retry-After)",
        E500: "Internal error (details in the log only)",
        E503: "The chain is not available",
    }

    /// The error answers of a kind of operation, named once: an operation lists its own answers
    /// and then its set, `responses((status = 200, …), Admin)`.
    macro_rules! sets {
        ($($(#[$doc:meta])* $set:ident: $($status:literal $name:ident),*;)*) => {$(
            $(#[$doc])*
            pub struct $set;
            impl utoipa::IntoResponses for $set {
                fn responses() -> std::collections::BTreeMap<String, RefOr<Response>> {
                    [$(($status, stringify!($name))),*]
                        .into_iter()
                        .map(|(status, name)| (status.to_string(), Ref::from_response_name(name).into()))
                        .collect()
                }
            }
        )*};
    }

    sets! {
        /// An admin's: malformed, not signed in, not an admin, internal.
        Admin: "400" E400, "401" E401, "403" E403, "500" E500;
        /// A signed-in member's: malformed, not signed in, internal.
        Member: "400" E400, "401" E401, "500" E500;
    }
}

/// A shape built in code: the type `$type`, named `$name` among the components (or inlined
/// where an operation says `inline($type)`).
macro_rules! shape {
    ($(#[$doc:meta])* $type:ident = $name:literal, $build:expr) => {
        $(#[$doc])*
        pub struct $type;
        impl utoipa::PartialSchema for $type {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
                let object: utoipa::openapi::schema::Object = $build;
                utoipa::openapi::Schema::Object(object).into()
            }
        }
        impl utoipa::ToSchema for $type {
            fn name() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed($name)
            }
        }
    };
}
pub(crate) use shape;

shape!(
    /// An interface language (`?lang=`, `?lng=`, a content block's language).
    LanguageCode = "Language",
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(lvlx_core::LANGUAGES.iter().copied()))
        .build()
);

shape!(
    /// A content block anyone may read.
    PublicBlock = "PublicBlock",
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(lvlx_core::content::PUBLIC_BLOCKS.iter().copied()))
        .build()
);

shape!(
    /// How many rows a statistics answer holds.
    RowLimit = "RowLimit",
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(0))
        .description(Some(format!(
            "rows; {} when absent, at most {} (a larger limit is capped)",
            super::statistics::ROWS_DEFAULT,
            super::statistics::ROWS_MAX
        )))
        .build()
);

shape!(
    /// The audit's text filters.
    FilterText = "FilterText",
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(format!(
            "blank filters nothing; longer text is cut at {} characters",
            crate::admin_audit::FILTER_TEXT_MAX
        )))
        .build()
);

shape!(
    /// Bytes that are not JSON (`inline(Binary)` with the answer's content type).
    Binary = "Binary",
    ObjectBuilder::new()
        .schema_type(Type::String)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary)))
        .build()
);

shape!(
    /// A multipart form (`inline(Multipart)`); its parts are described in the operation.
    Multipart = "Multipart",
    ObjectBuilder::new().schema_type(Type::Object).build()
);

shape!(
    /// This document, as far as a client checks it.
    Document = "Document",
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .required("openapi")
        .required("info")
        .required("paths")
        .required("components")
        .property(
            "openapi",
            ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some(["3.1.0"])),
        )
        .build()
);

/// An identity status as an admin sets it.
pub fn kyc_status() -> utoipa::openapi::Object {
    use lvlx_core::kyc::KycStatus;
    ObjectBuilder::new()
        .schema_type(Type::String)
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

/// The whole document: the shared parts and every module's operations. Two modules may name
/// the same shape only when it is the same; no operation is described twice.
pub fn document() -> &'static str {
    static DOCUMENT: OnceLock<String> = OnceLock::new();
    DOCUMENT.get_or_init(|| {
        let mut doc = Shared::openapi();
        // utoipa's derive fills the rest of `info` from Cargo.toml; the API's header is ours.
        doc.info.license = None;
        doc.info.contact = None;
        for part in modules() {
            let components = doc.components.get_or_insert_with(Default::default);
            for (name, shape) in part.components.iter().flat_map(|c| &c.schemas) {
                if let Some(known) = components.schemas.get(name) {
                    let same = serde_json::to_value(known).ok() == serde_json::to_value(shape).ok();
                    assert!(same, "two different shapes are named {name}");
                }
            }
            for (path, item) in &part.paths.paths {
                if let Some(known) = doc.paths.paths.get(path) {
                    let known = serde_json::to_value(known).expect("a path serializes");
                    let item = serde_json::to_value(item).expect("a path serializes");
                    for method in item.as_object().into_iter().flat_map(|m| m.keys()) {
                        assert!(known.get(method).is_none(), "{method} {path} twice");
                    }
                }
            }
            doc.merge(part);
        }
        // An operation names no tag; utoipa writes that as an empty list.
        for item in doc.paths.paths.values_mut() {
            let operations = [
                &mut item.get,
                &mut item.put,
                &mut item.post,
                &mut item.delete,
                &mut item.patch,
            ];
            for operation in operations.into_iter().flatten() {
                if operation.tags.as_ref().is_some_and(Vec::is_empty) {
                    operation.tags = None;
                }
            }
        }
        doc.to_json().expect("the document serializes")
    })
}

/// This module's operation: the document itself.
#[derive(OpenApi)]
#[openapi(paths(serve))]
struct Doc;

// This API's OpenAPI 3.1 document.
pub fn route() -> Route {
    warp::path!("openapi.json")
        .boxed()
        .and(warp::get())
        .map(serve)
        .boxed()
}

/// This document
#[utoipa::path(
    get,
    path = "/openapi.json",
    operation_id = "get_openapi.json",
    security(),
    responses(
        (status = 200, description = "OK", body = inline(Document)),
        (status = 400, response = E400),
        (status = 500, response = E500),
    ),
)]
fn serve() -> warp::reply::Response {
    warp::reply::with_header(document(), "content-type", "application/json").into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

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
