//! The LVLX domain core: every rule that both the server and the browser apply, written once.
//!
//! It is pure: no I/O, no clock reads (callers pass `now`), no binding code. The `wasm`
//! feature adds [`wasm`] and [`forms`], the only modules that know about JavaScript (`forms`
//! alone is the sign-in page's small build); the backend links this crate natively. Money is exact integers in base units, never floats.

pub mod account;
pub mod admin;
pub mod amount;
pub mod books;
pub mod captcha;
pub mod chain;
pub mod claims;
pub mod content;
pub mod date;
pub mod display;
pub mod guard;
pub mod history;
#[cfg(feature = "images")]
pub mod images;
pub mod keys;
pub mod kyc;
pub mod ledger;
pub mod limits;
pub mod network;
pub mod node_outcomes;
pub mod sale;
pub mod seal;
pub mod session;
pub mod siwe;
pub mod staking;
pub mod validation;

#[cfg(feature = "forms")]
pub mod forms;
#[cfg(feature = "wasm")]
pub mod wasm;

/// Role code of an administrator (docs/product/accounts.md#roles).
pub const ADMIN_ROLE: &str = "1001";
/// LVLX and MATIC decimals.
pub const LVLX_DECIMALS: u32 = 18;
/// USDT decimals (the "currency-decimals setting").
pub const USDT_DECIMALS: u32 = 6;
/// Role code of a member (every account registered through a referral link).
pub const MEMBER_ROLE: &str = "1";

/// The languages of the interface (docs/product/screens.md#languages): the server serves this list,
/// the browser offers it.
pub const LANGUAGES: [&str; 3] = ["en", "es", "pt"];
/// The default language, and the one every other falls back to.
pub const DEFAULT_LANGUAGE: &str = "en";

pub fn is_language(code: &str) -> bool {
    LANGUAGES.contains(&code)
}

/// The language of [`LANGUAGES`] an `Accept-Language` header prefers (RFC 9110 §12.5.4): the
/// highest weight wins, the first listed among equals; a regional tag counts for its language
/// ("es-MX" → es); `q=0` and unknown languages are skipped; none of ours → the default.
pub fn preferred_language(accept_language: Option<&str>) -> &'static str {
    let mut best: Option<(&'static str, u16)> = None;
    for item in accept_language.unwrap_or("").split(',') {
        let mut parts = item.split(';');
        let tag = parts.next().unwrap_or("").trim();
        let primary = tag
            .split(['-', '_'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        // Weights have at most three decimals: in thousandths, no floats.
        let weight = parts
            .find_map(|p| p.trim().strip_prefix("q=").or(p.trim().strip_prefix("Q=")))
            .map_or(Some(1000), weight_thousandths);
        let (Some(weight), Some(language)) = (weight, LANGUAGES.iter().find(|l| **l == primary))
        else {
            continue;
        };
        if weight > 0 && best.is_none_or(|(_, w)| weight > w) {
            best = Some((language, weight));
        }
    }
    best.map_or(DEFAULT_LANGUAGE, |(l, _)| l)
}

/// "0.8" → 800, "1" → 1000; anything else (over 1, four decimals, not a number) → None.
fn weight_thousandths(q: &str) -> Option<u16> {
    let (whole, fraction) = q.split_once('.').unwrap_or((q, ""));
    if fraction.len() > 3 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let thousandths = format!("{fraction:0<3}").parse::<u16>().ok()?;
    match whole {
        "0" => Some(thousandths),
        "1" if thousandths == 0 => Some(1000),
        _ => None,
    }
}

/// The language of [`LANGUAGES`] a language tag names, the one normalisation of the server:
/// a regional or differently cased tag counts for its language ("es-ES" → es, "pt_BR" → pt,
/// "EN" → en); none of ours → None.
pub fn language_tag(tag: &str) -> Option<&'static str> {
    let primary = tag.trim().split(['-', '_']).next().unwrap_or("");
    LANGUAGES
        .iter()
        .find(|l| l.eq_ignore_ascii_case(primary))
        .copied()
}

/// The language `asked` names ([`language_tag`]) when it is one of [`LANGUAGES`], else `fallback`.
pub fn language_or<'a>(asked: Option<&'a str>, fallback: &'a str) -> &'a str {
    asked.and_then(language_tag).unwrap_or(fallback)
}

#[cfg(test)]
mod tests {
    use super::{language_or, language_tag, preferred_language};

    #[test]
    fn a_regional_tag_names_its_language() {
        for (tag, want) in [
            ("es", Some("es")),
            ("es-ES", Some("es")),
            ("es-419", Some("es")),
            ("pt-BR", Some("pt")),
            ("pt_BR", Some("pt")),
            ("EN-gb", Some("en")),
            ("de-DE", None),
            ("", None),
            ("cimode", None),
            ("espanol", None),
        ] {
            assert_eq!(language_tag(tag), want, "{tag}");
        }
        assert_eq!(language_or(Some("pt-BR"), "en"), "pt");
        assert_eq!(language_or(Some("fr"), "es"), "es");
    }

    #[test]
    fn the_headers_preferred_language_of_ours_wins() {
        for (header, want) in [
            (None, "en"),
            (Some(""), "en"),
            (Some("es-MX,es;q=0.9,en-US;q=0.8,en;q=0.7"), "es"),
            (Some("pt-BR"), "pt"),
            (Some("PT-br;q=0.5, en;q=0.4"), "pt"),
            (Some("de-DE,de;q=0.9,es;q=0.5,en;q=0.4"), "es"),
            (Some("en;q=0.5, es;q=0.8"), "es"),
            (Some("es;q=0.8, pt;q=0.8"), "es"),
            (Some("fr, de"), "en"),
            (Some("es;q=0, pt;q=0.001"), "pt"),
            (Some("es;q=1.5, pt;q=0.2"), "pt"),
            (Some("es;q=abc, pt;q=0.2"), "pt"),
            (Some("es;q=0.1234, pt;q=0.2"), "pt"),
            (Some("*;q=0.5"), "en"),
            (Some(" es ; q=0.9 "), "es"),
        ] {
            assert_eq!(preferred_language(header), want, "{header:?}");
        }
    }
}
