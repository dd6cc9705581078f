//! The LVLX domain core: every rule that both the server and the browser apply, written once.
//!
//! It is pure: no I/O, no clock reads (callers pass `now`), no binding code. The `wasm`
//! feature adds [`wasm`], the only module that knows about JavaScript; the backend links this
//! crate natively. Money is exact integers in base units, never floats.

pub mod account;
pub mod admin;
pub mod amount;
pub mod captcha;
pub mod chain;
pub mod claims;
pub mod content;
pub mod date;
pub mod display;
pub mod guard;
#[cfg(feature = "images")]
pub mod images;
pub mod keys;
pub mod kyc;
pub mod ledger;
pub mod network;
pub mod node_outcomes;
pub mod sale;
pub mod seal;
pub mod session;
pub mod siwe;
pub mod staking;
pub mod validation;

#[cfg(feature = "wasm")]
pub mod wasm;

/// Role code of an administrator (SPEC §6, §9).
pub const ADMIN_ROLE: &str = "1001";
/// LVLX and MATIC decimals.
pub const LVLX_DECIMALS: u32 = 18;
/// USDT decimals (the "currency-decimals setting").
pub const USDT_DECIMALS: u32 = 6;
/// Role code of a member (every account registered through a referral link).
pub const MEMBER_ROLE: &str = "1";

/// The languages of the interface (SPEC §1, §9): the server serves this list, the browser
/// offers it.
pub const LANGUAGES: [&str; 3] = ["en", "es", "pt"];
/// The default language, and the one every other falls back to.
pub const DEFAULT_LANGUAGE: &str = "en";

pub fn is_language(code: &str) -> bool {
    LANGUAGES.contains(&code)
}

/// `asked` when it is one of [`LANGUAGES`], else `fallback`.
pub fn language_or<'a>(asked: Option<&'a str>, fallback: &'a str) -> &'a str {
    asked.filter(|l| is_language(l)).unwrap_or(fallback)
}
