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

/// What sign-in, registration and recovery work with, borrowed from the server's parts (the
/// layer above builds it: `App::accounts`).
#[derive(Clone, Copy)]
pub struct Parts<'a> {
    pub store: &'a crate::Store,
    /// Signs the session and the narrow code-step tokens.
    pub keys: &'a crate::jwt::Keys,
    /// Key for the mailed codes' and the captcha's MACs, and the avatars' names.
    pub mac_key: &'a [u8],
    pub mailer: &'a crate::mail::Mailer,
    pub passwords: &'a crate::password::Passwords,
    /// The captcha's work (`Config::captcha_difficulty`).
    pub captcha_difficulty: u32,
}

impl Parts<'_> {
    /// Checks a solved captcha and spends it (`captcha::spend`).
    pub async fn spend_captcha(
        &self,
        answer: crate::captcha::Answer,
    ) -> Result<(), crate::error::Error> {
        crate::captcha::spend(self.store, self.mac_key, self.captcha_difficulty, answer).await
    }
}

/// A language field: one of the app's languages.
pub fn language() -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .enum_values(Some(lvlx_core::LANGUAGES))
        .build()
}
