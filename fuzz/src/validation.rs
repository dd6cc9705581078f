//! Every form field's rule (docs/product/accounts.md#validation), the phone check and the date
//! fields: any text answers valid or a translated reason, never a panic.

use lvlx_core::date::{parse_day, parse_local_day};
use lvlx_core::validation::{is_referral_code, max_length, phone_exists, validate, Field};

const FIELDS: [&str; 16] = [
    "names",
    "lastnames",
    "email",
    "emailC",
    "password",
    "passwordC",
    "currentPassword",
    "cel",
    "number",
    "code",
    "claimCode",
    "wallet",
    "referralCode",
    "secretKey",
    "contentTitle",
    "contentDescription",
];

pub fn run(data: &[u8]) {
    crate::typed(data, |input: (u8, &str, Option<&str>, &str)| {
        let (which, value, other, language) = input;
        let field = Field::parse(FIELDS[usize::from(which) % FIELDS.len()]).expect("a field");
        if validate(field, value, other).is_ok() {
            if let Some(max) = max_length(field) {
                // Content texts count once trimmed; the others as typed.
                let counted = value.chars().count().min(value.trim().chars().count());
                assert!(counted <= max, "{value:?} passed beyond {max}");
            }
        }
        let _ = is_referral_code(value);
        let _ = phone_exists(value);
        let _ = parse_day(value);
        let _ = parse_local_day(value, language);
    });
}
