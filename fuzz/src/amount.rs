//! Amounts typed by people and read from the chain (docs/product/money.md#typed-amounts): parse
//! within the token's decimals, write back exactly, localize without changing a digit.

use lvlx_core::amount::{
    editable, format_fixed, format_units, localize, parse_base, parse_typed, parse_units,
    AmountError,
};
use lvlx_core::validation::validate_amount;

pub fn run(data: &[u8]) {
    crate::typed(data, |input: (&str, u8, u8, &str)| {
        let (text, decimals, digits, language) = input;
        let decimals = u32::from(decimals % 40);
        if let Ok(units) = parse_units(text, decimals) {
            let plain = format_units(units, decimals).expect("parsed units format");
            assert_eq!(
                parse_units(&plain, decimals),
                Ok(units),
                "{text:?} → {plain}"
            );
            let shown = localize(&plain, language);
            let digits_of = |s: &str| s.chars().filter(char::is_ascii_digit).collect::<String>();
            assert_eq!(
                digits_of(&shown),
                digits_of(&plain),
                "localize keeps every digit"
            );
            let _ = format_fixed(units, decimals, u32::from(digits % 40));
            // What a field is filled with reads back exactly; what the page shows reads back
            // exactly or (Spanish "12.345") is refused as ambiguous, never as another amount.
            let filled = editable(&plain, language);
            if decimals >= 4 {
                assert_eq!(
                    parse_typed(&filled, decimals, language),
                    Ok(units),
                    "{filled:?}"
                );
            }
            match parse_typed(&shown, decimals, language) {
                Ok(back) => assert_eq!(back, units, "{shown:?} in {language:?}"),
                Err(e) => assert_eq!(e, AmountError::Ambiguous, "{shown:?} in {language:?}"),
            }
        }
        if let Ok(units) = parse_typed(text, decimals, language) {
            let plain = format_units(units, decimals).expect("parsed units format");
            assert_eq!(parse_units(&plain, decimals), Ok(units));
        }
        if let Ok(units) = parse_base(text) {
            assert_eq!(parse_base(&units.to_string()), Ok(units));
        }
        let _ = validate_amount(text, decimals, Some("1"), Some(language), language);
        let _ = localize(text, language);
    });
}
