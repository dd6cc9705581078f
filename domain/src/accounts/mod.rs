//! Accounts: registration through a referral link, sign-in with a mailed code, password
//! recovery, the linked wallet and what the member holds. Each function checks its input by the core's rules, owns its transaction and sends
//! its mail; the routes in `api` parse and reply.

pub mod avatars;
pub mod blocking;
pub mod holdings;
pub mod logins;
pub mod recovery;
pub mod registrations;
pub mod wallets;

/// A language field: one of the app's languages.
pub fn language() -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .enum_values(Some(lvlx_core::LANGUAGES))
        .build()
}
