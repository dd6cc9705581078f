//! Amounts as members type them in their language: "1,5" in Spanish and Portuguese, "1.5" in
//! English, with or without digit grouping ("1.234,5", "1,234.5", "1 234,5").
//!
//! The rules, in order (the reference vectors in `testdata/typed.json` come from Babel's CLDR
//! data and the WebAssembly tests add ICU's, through `Intl.NumberFormat`):
//! 1. Digits, `.`, `,` and spaces (ASCII, no-break U+00A0, narrow no-break U+202F) only; no
//!    sign, no exponent. Leading and trailing whitespace is ignored.
//! 2. Both `.` and `,` present: the last one is the decimal mark and appears once, the other
//!    groups digits ("1.234,5" and "1,234.5" are both 1234.5, whatever the language).
//! 3. Spaces group digits; then a single `.` or `,` is the decimal mark.
//! 4. One mark, twice or more: it groups digits ("1.234.567").
//! 5. One mark, once: the decimal mark ("1,5" and "1.5"), except when it stands where a group
//!    mark would — one to three whole digits, the first not 0, then exactly three. Then the
//!    language decides: English reads "1,500" as 1500 and "1.500" as 1.5, Portuguese "1.500" as
//!    1500 and "1,500" as 1.5. Spanish is written both ways (Mexico and Central America write
//!    1,500.5; Spain, Argentina, Colombia and Chile 1.500,5), so a Spanish "1.500" or "1,500" is
//!    refused as ambiguous and the member is asked to write 1500 or 1,5: a wrong amount off by a
//!    factor of 1,000 costs more than a second try.
//! 6. Grouped digits are grouped as written numbers are: the first group one to three digits,
//!    every other group exactly three; a decimal part is never grouped.
//!
//! Nothing is rounded: more fraction digits than the token has is an error, as in
//! [`super::parse_units`].

use super::{parse_units, AmountError, Units};

fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\u{a0}' | '\u{202f}')
}

/// The language's primary subtag, lower case ("pt-BR" → "pt").
pub(super) fn primary(language: &str) -> String {
    language
        .split(['-', '_'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// What a lone mark between `whole` and `fraction` is.
enum Lone {
    Decimal,
    Group,
}

fn lone_mark(mark: char, whole: &str, fraction: &str, language: &str) -> Result<Lone, AmountError> {
    let group_shaped = fraction.len() == 3
        && (1..=3).contains(&whole.len())
        && !whole.starts_with('0')
        && fraction.bytes().all(|b| b.is_ascii_digit());
    if !group_shaped {
        return Ok(Lone::Decimal);
    }
    match (primary(language).as_str(), mark) {
        ("es", _) => Err(AmountError::Ambiguous),
        ("pt", '.') | ("en", ',') => Ok(Lone::Group),
        ("pt", _) | ("en", _) => Ok(Lone::Decimal),
        // A language without its own rule reads like English.
        (_, ',') => Ok(Lone::Group),
        _ => Ok(Lone::Decimal),
    }
}

/// Checks digit grouping and drops its marks: "1.234.567" → "1234567".
fn ungroup(whole: &str, is_group: impl Fn(char) -> bool) -> Result<String, AmountError> {
    let groups: Vec<&str> = whole.split(&is_group).collect();
    if groups.len() == 1 {
        return Ok(whole.to_string());
    }
    // As numbers are written: the first group 1–3 digits and not led by 0 ("0.000.001" is no
    // grouping anyone writes, and read as one it would be a million times 0.000001).
    let first_ok = (1..=3).contains(&groups[0].len()) && !groups[0].starts_with('0');
    if !first_ok || groups[1..].iter().any(|g| g.len() != 3) {
        return Err(AmountError::Malformed);
    }
    Ok(groups.concat())
}

/// The typed amount as a plain decimal ("1.234,5" in es → "1234.5"), or why it is not one.
pub fn plain_typed(text: &str, language: &str) -> Result<String, AmountError> {
    let text = text.trim();
    if !text
        .chars()
        .all(|c| c.is_ascii_digit() || c == '.' || c == ',' || is_space(c))
    {
        return Err(AmountError::Malformed);
    }
    let (dots, commas) = (text.matches('.').count(), text.matches(',').count());
    let spaced = text.chars().any(is_space);
    // (decimal mark, group test) by rules 2–5.
    let (decimal, group): (Option<char>, fn(char) -> bool) = if dots > 0 && commas > 0 {
        let last = if text.rfind('.') > text.rfind(',') {
            '.'
        } else {
            ','
        };
        let (count, group) = if last == '.' {
            (dots, (|c| c == ',') as fn(char) -> bool)
        } else {
            (commas, (|c| c == '.') as fn(char) -> bool)
        };
        if count != 1 || spaced {
            return Err(AmountError::Malformed);
        }
        (Some(last), group)
    } else if spaced {
        match dots + commas {
            0 => (None, is_space),
            1 => (Some(if dots == 1 { '.' } else { ',' }), is_space),
            _ => return Err(AmountError::Malformed),
        }
    } else if dots + commas == 0 {
        (None, |_| false)
    } else {
        let mark = if dots > 0 { '.' } else { ',' };
        let group: fn(char) -> bool = if mark == '.' {
            |c| c == '.'
        } else {
            |c| c == ','
        };
        if dots + commas >= 2 {
            (None, group)
        } else {
            let (whole, fraction) = text.split_once(mark).unwrap_or((text, ""));
            match lone_mark(mark, whole, fraction, language)? {
                Lone::Decimal => (Some(mark), |_| false),
                Lone::Group => (None, group),
            }
        }
    };
    let (whole, fraction) = match decimal {
        Some(mark) => text
            .split_once(mark)
            .map_or((text, None), |(w, f)| (w, Some(f))),
        None => (text, None),
    };
    if fraction.is_some_and(|f| !f.bytes().all(|b| b.is_ascii_digit())) {
        return Err(AmountError::Malformed);
    }
    let whole = ungroup(whole, group)?;
    if !whole.bytes().all(|b| b.is_ascii_digit()) {
        return Err(AmountError::Malformed);
    }
    Ok(match fraction {
        Some(f) => format!("{whole}.{f}"),
        None => whole,
    })
}

/// An amount typed in `language` in base units of a token with `decimals`.
pub fn parse_typed(text: &str, decimals: u32, language: &str) -> Result<Units, AmountError> {
    parse_units(&plain_typed(text, language)?, decimals)
}

/// A plain decimal as a field is filled for `language` to edit: its decimal mark, no grouping,
/// so that reading it back ([`parse_typed`]) gives the same amount ("12345.5" → es "12345,5").
/// A Spanish "1,125" would be refused as ambiguous, so it gets a fourth fraction digit, "1,1250"
/// (every token here has at least six decimals).
pub fn editable(plain: &str, language: &str) -> String {
    match primary(language).as_str() {
        "es" => {
            let comma = plain.replace('.', ",");
            match comma.split_once(',') {
                Some((whole, fraction)) if lone_mark(',', whole, fraction, language).is_err() => {
                    format!("{comma}0")
                }
                _ => comma,
            }
        }
        "pt" => plain.replace('.', ","),
        _ => plain.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(text: &str, language: &str) -> Result<String, AmountError> {
        plain_typed(text, language)
    }

    #[test]
    fn each_rule_reads_as_documented() {
        let ok = |t: &str, l: &str, want: &str| {
            assert_eq!(plain(t, l).as_deref(), Ok(want), "{t} in {l}")
        };
        // 2: both marks, the last decides.
        for l in ["en", "es", "pt"] {
            ok("1.234,5", l, "1234.5");
            ok("1,234.5", l, "1234.5");
            ok("1.234.567,89", l, "1234567.89");
            ok(" 1 234,5 ", l, "1234.5");
            ok("1\u{a0}234\u{202f}567", l, "1234567");
            ok("1.234.567", l, "1234567");
            ok("1,5", l, "1.5");
            ok("1.5", l, "1.5");
            ok(",25", l, ".25");
            ok("0,500", l, "0.500");
            ok("1234,567", l, "1234.567");
            ok("007", l, "007");
        }
        ok("1,500", "en", "1500");
        ok("1.500", "en", "1.500");
        ok("1.500", "pt-BR", "1500");
        ok("1,500", "pt", "1.500");
        for t in ["1.500", "1,500", "999.999", "12,345"] {
            assert_eq!(plain(t, "es"), Err(AmountError::Ambiguous), "{t}");
            assert_eq!(plain(t, "es-MX"), Err(AmountError::Ambiguous), "{t}");
        }
        for bad in [
            "",
            "1.2.3,4,5",
            "1,2,3",
            "12.34.567",
            "1234.567.890",
            "1.234,5.6",
            "-1",
            "1e3",
            "1 234.567,5",
            "+1",
            "1_000",
            "1\u{66b}5",
            "\u{661}\u{662}",
            "1.23,4",
            "0.000.001",
            "0,000,001",
            "0 500",
            "00.000,5",
            ",",
        ] {
            assert!(
                parse_typed(bad, 6, "pt").is_err(),
                "{bad:?} must be refused"
            );
        }
        ok("1,234.", "pt", "1234.");
        assert_eq!(
            parse_typed("1.000.000,123456", 6, "es"),
            Ok(1_000_000_123_456)
        );
        assert_eq!(
            parse_typed("0,0000001", 6, "es"),
            Err(AmountError::TooPrecise)
        );
    }

    #[test]
    fn the_editable_form_reads_back_as_the_same_amount() {
        for plain in [
            "0",
            "1",
            "1.5",
            "12345.5",
            "1500",
            "1.500",
            "1.125",
            "999.999",
            "999999999.000001",
        ] {
            for l in ["en", "es", "pt"] {
                let typed = editable(plain, l);
                assert_eq!(
                    parse_typed(&typed, 6, l),
                    parse_units(plain, 6),
                    "{plain} in {l}"
                );
            }
        }
    }
}
