//! Token amounts as exact integers in base units (LVLX 18 decimals, USDT 6). Text in, text out:
//! JavaScript never holds an amount as a float.
//!
//! `u128` holds 3.4·10^20 LVLX, far above any supply this platform will see; every operation is
//! checked, so an overflow is an error and never a wrong number.

use crate::{LVLX_DECIMALS, USDT_DECIMALS};

mod typed;
pub use typed::{editable, parse_typed, plain_typed};

/// A base-unit amount.
pub type Units = u128;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AmountError {
    #[error("not a decimal amount")]
    Malformed,
    #[error("more fraction digits than the token has")]
    TooPrecise,
    #[error("amount out of range")]
    Overflow,
    #[error("unsupported number of decimals")]
    Decimals,
    #[error("a lone mark that reads as a decimal or as a thousands group")]
    Ambiguous,
}

impl AmountError {
    /// Translation key.
    pub fn key(&self) -> &'static str {
        match self {
            AmountError::Malformed | AmountError::TooPrecise => "validations-amount-msg",
            AmountError::Overflow => "buy-amount-too-large",
            AmountError::Decimals => "error-internal",
            AmountError::Ambiguous => "validations-amount-ambiguous",
        }
    }
}

/// How the interface shows an amount of `token`: 2 fraction digits, rounded half up, in the
/// token's own decimals (USDT 6, the product and MATIC 18).
pub fn format_token(units: Units, token: &str) -> String {
    let decimals = crate::admin::ico::token_decimals(token);
    format_fixed(units, decimals, 2).expect("2 digits of 6 or 18 decimals always format")
}

/// An LVLX amount as the interface shows it (2 decimals).
pub fn format_lvlx(units: Units) -> String {
    format_fixed(units, LVLX_DECIMALS, 2).expect("2 digits of 18 decimals always format")
}

#[cfg(test)]
mod top_of_the_range {
    use super::*;

    /// No amount panics: the largest ones format exactly, rounded half up to cents (the digits
    /// from Python's decimal: 340282366920938463463.374607431768211455 → …463.37).
    #[test]
    fn the_largest_amounts_format() {
        assert_eq!(format_lvlx(u128::MAX), "340282366920938463463.37");
        assert_eq!(
            format_token(u128::MAX, "USDT"),
            "340282366920938463463374607431768.21"
        );
        assert_eq!(
            format_token_in(u128::MAX - 1, "LVLX", "es"),
            format_token_in(u128::MAX, "LVLX", "es")
        );
        for near in (0..2_000u128).map(|i| u128::MAX - i * 3_000_000_000_000) {
            format_token(near, "LVLX");
            format_token_in(near, "USDT", "pt");
        }
        assert_eq!(format_fixed(5, 1, 0).unwrap(), "1", "half rounds up");
        assert_eq!(format_fixed(4, 1, 0).unwrap(), "0");
    }
}

/// Largest number of decimals a `u128` amount can meaningfully carry.
const MAX_DECIMALS: u32 = 30;

fn scale(decimals: u32) -> Result<Units, AmountError> {
    if decimals > MAX_DECIMALS {
        return Err(AmountError::Decimals);
    }
    Ok(10u128.pow(decimals))
}

/// Parses a base-unit integer ("1500000000000000000").
pub fn parse_base(text: &str) -> Result<Units, AmountError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(AmountError::Malformed);
    }
    text.parse().map_err(|_| AmountError::Overflow)
}

/// Parses a human amount ("1.5", ".25", "10") into base units. Rejects signs, exponents,
/// separators and more fraction digits than `decimals` (never rounds silently).
pub fn parse_units(text: &str, decimals: u32) -> Result<Units, AmountError> {
    let unit = scale(decimals)?;
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty()) || !digits(whole) || !digits(fraction) {
        return Err(AmountError::Malformed);
    }
    if fraction.len() > decimals as usize {
        return Err(AmountError::TooPrecise);
    }
    let whole: Units = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| AmountError::Overflow)?
    };
    let fraction_units: Units = if fraction.is_empty() {
        0
    } else {
        let padded = format!("{fraction:0<width$}", width = decimals as usize);
        padded.parse().map_err(|_| AmountError::Overflow)?
    };
    whole
        .checked_mul(unit)
        .and_then(|w| w.checked_add(fraction_units))
        .ok_or(AmountError::Overflow)
}

/// Formats base units exactly, without trailing fraction zeros: 1500000 (6) → "1.5".
pub fn format_units(units: Units, decimals: u32) -> Result<String, AmountError> {
    let unit = scale(decimals)?;
    let whole = units / unit;
    let fraction = units % unit;
    if fraction == 0 {
        return Ok(whole.to_string());
    }
    let fraction = format!("{fraction:0>width$}", width = decimals as usize);
    Ok(format!("{whole}.{}", fraction.trim_end_matches('0')))
}

/// Rounds half up to `digits` fraction digits and always shows them: (1555, 3, 2) → "1.56".
pub fn format_fixed(units: Units, decimals: u32, digits: u32) -> Result<String, AmountError> {
    if digits >= decimals {
        let unit = scale(decimals)?;
        let fraction = format!("{:0>width$}", units % unit, width = decimals as usize);
        let fraction = format!("{fraction:0<width$}", width = digits as usize);
        return Ok(join(units / unit, &fraction));
    }
    let step = scale(decimals - digits)?;
    // Divided first, then rounded up: adding half a step first overflowed for amounts within
    // half a step of u128::MAX (5·10^15 for LVLX to cents), and format_token panicked.
    let rounded = units / step + Units::from(units % step >= step / 2);
    let unit = scale(digits)?;
    let fraction = if digits == 0 {
        String::new()
    } else {
        format!("{:0>width$}", rounded % unit, width = digits as usize)
    };
    Ok(join(rounded / unit, &fraction))
}

fn join(whole: Units, fraction: &str) -> String {
    if fraction.is_empty() {
        whole.to_string()
    } else {
        format!("{whole}.{fraction}")
    }
}

/// How `language` writes a number: its digit-group and decimal marks, and the fewest digits a
/// whole part needs before it is grouped (CLDR: Spanish leaves four-digit numbers whole, "1000,50";
/// English and Portuguese group them, "1,000.50" and "1.000,50").
fn number_marks(language: &str) -> (char, char, usize) {
    match typed::primary(language).as_str() {
        "es" => ('.', ',', 5),
        "pt" => ('.', ',', 4),
        _ => (',', '.', 4),
    }
}

/// A plain decimal ("8855540174.38", "-12", "300") as `language` writes it: en
/// "8,855,540,174.38", es and pt "8.855.540.174,38". Digits are never changed, only marks added,
/// so the exact value survives; text that is not a plain decimal comes back as it was.
pub fn localize(plain: &str, language: &str) -> String {
    let (sign, unsigned) = match plain.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", plain),
    };
    let (whole, fraction) = match unsigned.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (unsigned, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || fraction.is_some_and(|f| !digits(f)) {
        return plain.to_string();
    }
    let (group, decimal, min_grouped) = number_marks(language);
    let mut out = String::with_capacity(plain.len() + whole.len() / 3 + 1);
    out.push_str(sign);
    for (i, c) in whole.chars().enumerate() {
        let left = whole.len() - i;
        if i > 0 && left % 3 == 0 && whole.len() >= min_grouped {
            out.push(group);
        }
        out.push(c);
    }
    if let Some(fraction) = fraction {
        out.push(decimal);
        out.push_str(fraction);
    }
    out
}

/// [`format_token`] as `language` writes it.
pub fn format_token_in(units: Units, token: &str, language: &str) -> String {
    localize(&format_token(units, token), language)
}

/// The fraction digits of an LVLX reward figure wherever it is shown (a position's row, the
/// dashboard, the money account): six, so a reward accruing by the second visibly moves, and the
/// same figure reads the same on every page (the row showed 6, the dashboard 2).
pub const REWARD_DIGITS: u32 = 6;

/// An LVLX reward (base units) as `language` writes it, to [`REWARD_DIGITS`] rounded half up.
pub fn format_reward_in(units: Units, language: &str) -> String {
    let plain = format_fixed(units, LVLX_DECIMALS, REWARD_DIGITS)
        .expect("6 digits of 18 decimals always format");
    localize(&plain, language)
}

/// Price rule (docs/product/money.md#price): the USDT value of an LVLX amount is LVLX / 10, in USDT
/// base units, rounded half up to the USDT unit.
pub fn lvlx_to_usdt_units(lvlx: Units) -> Units {
    // LVLX base units (10^-18) / 10 = USDT base units (10^-6) · 10^13.
    let divisor = 10u128.pow(LVLX_DECIMALS - USDT_DECIMALS + 1);
    lvlx / divisor + u128::from(lvlx % divisor >= divisor / 2)
}

/// The USDT value of an LVLX amount as docs/product/money.md#price shows it: LVLX / 10, rounded
/// half up to 2 decimals. "12345000000000000000" (12.345 LVLX) → "1.23"; 12.35 LVLX → "1.24".
pub fn lvlx_to_usdt(lvlx: Units) -> String {
    cents_text(lvlx_to_cents(lvlx))
}

/// An LVLX amount's USDT value in whole cents, rounded half up once, from the exact value
/// (10^17 LVLX base units a cent).
pub fn lvlx_to_cents(lvlx: Units) -> Units {
    round_to(lvlx, 10u128.pow(LVLX_DECIMALS - 1))
}

/// USDT base units in whole cents, rounded half up.
pub fn usdt_to_cents(usdt: Units) -> Units {
    round_to(usdt, 10u128.pow(USDT_DECIMALS - 2))
}

/// Cents as "12.34".
pub fn cents_text(cents: Units) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

fn round_to(units: Units, step: Units) -> Units {
    units / step + u128::from(units % step >= step / 2)
}

/// Serde: base units as decimal text (JSON numbers lose precision past 2^53).
pub mod text {
    use super::Units;

    pub fn serialize<S: serde::Serializer>(units: &Units, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(units)
    }

    /// Reads base units back from decimal text (a whole number, no sign, no exponent).
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Units, D::Error> {
        let text = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
        super::parse_base(&text).map_err(serde::de::Error::custom)
    }

    /// The OpenAPI shape of such a field: decimal digits.
    #[cfg(feature = "openapi")]
    pub fn schema() -> utoipa::openapi::Object {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::Type::String)
            .pattern(Some("^[0-9]+$"))
            .description(Some("base units"))
            .build()
    }
}

/// Serde: optional base units as decimal text or null.
pub mod opt_text {
    use super::Units;

    pub fn serialize<S: serde::Serializer>(units: &Option<Units>, s: S) -> Result<S::Ok, S::Error> {
        match units {
            Some(u) => s.collect_str(u),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Units>, D::Error> {
        let text = <Option<std::borrow::Cow<'de, str>> as serde::Deserialize>::deserialize(d)?;
        text.map(|t| super::parse_base(&t).map_err(serde::de::Error::custom))
            .transpose()
    }

    /// The OpenAPI shape of such a field: decimal digits or null.
    #[cfg(feature = "openapi")]
    pub fn schema() -> utoipa::openapi::Object {
        use utoipa::openapi::{schema::SchemaType, Type};
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
            .pattern(Some("^[0-9]+$"))
            .description(Some("base units, or null"))
            .build()
    }
}

/// Exact sum; `None` on overflow.
pub fn sum<I: IntoIterator<Item = Units>>(amounts: I) -> Option<Units> {
    amounts
        .into_iter()
        .try_fold(0u128, |acc, a| acc.checked_add(a))
}
