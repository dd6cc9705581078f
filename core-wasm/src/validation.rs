//! Form validation (docs/product/accounts.md#validation). Every failure is a translation key, so
//! the browser shows it and the server returns it as an error code without a second copy of the
//! rule.

use unicode_normalization::char::is_combining_mark;

/// A field failed its rule; the value is the translation key of the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Invalid {
    Required,
    Text,
    Email,
    /// emailC differs from email.
    EmailMismatch,
    Password,
    /// passwordC differs from password.
    PasswordMismatch,
    Phone,
    Code,
    ClaimCode,
    Wallet,
    ReferralCode,
    Min,
    Max,
    Amount,
    /// A Spanish "1.500": one and a half or fifteen hundred (see `amount::typed`).
    AmountAmbiguous,
}

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

impl std::error::Error for Invalid {}

impl Invalid {
    pub const ALL: [Invalid; 15] = [
        Invalid::Required,
        Invalid::Text,
        Invalid::Email,
        Invalid::EmailMismatch,
        Invalid::Password,
        Invalid::PasswordMismatch,
        Invalid::Phone,
        Invalid::Code,
        Invalid::ClaimCode,
        Invalid::Wallet,
        Invalid::ReferralCode,
        Invalid::Min,
        Invalid::Max,
        Invalid::Amount,
        Invalid::AmountAmbiguous,
    ];

    /// The translation key, also used as the API error code.
    pub fn key(self) -> &'static str {
        match self {
            Invalid::Required => "validations-req",
            Invalid::Text => "validations-txt-msg",
            Invalid::Email => "validations-email-msg",
            Invalid::EmailMismatch => "validations-email",
            Invalid::Password => "validations-pass-msg",
            Invalid::PasswordMismatch => "validations-pass",
            Invalid::Phone => "validations-phone-msg",
            Invalid::Code => "validations-code-msg",
            Invalid::ClaimCode => "validations-claim-code-msg",
            Invalid::Wallet => "validations-wallet-msg",
            Invalid::ReferralCode => "validations-referral-msg",
            Invalid::Min => "validations-min-msg",
            Invalid::Max => "validations-max-msg",
            Invalid::Amount => "validations-amount-msg",
            Invalid::AmountAmbiguous => "validations-amount-ambiguous",
        }
    }
}

/// The form fields of docs/product/accounts.md#validation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Names,
    Lastnames,
    Email,
    EmailC,
    Password,
    PasswordC,
    /// The password typed to sign in: required only, since it may predate today's rules.
    CurrentPassword,
    Cel,
    Number,
    Code,
    ClaimCode,
    Wallet,
    ReferralCode,
    SecretKey,
    /// Title and text of an editable content block (admin/edit-content).
    ContentTitle,
    ContentDescription,
}

impl Field {
    pub fn parse(name: &str) -> Option<Field> {
        Some(match name {
            "names" => Field::Names,
            "lastnames" => Field::Lastnames,
            "email" => Field::Email,
            "emailC" => Field::EmailC,
            "password" => Field::Password,
            "passwordC" => Field::PasswordC,
            "currentPassword" => Field::CurrentPassword,
            "cel" => Field::Cel,
            "number" => Field::Number,
            "code" => Field::Code,
            "claimCode" => Field::ClaimCode,
            "wallet" => Field::Wallet,
            "referralCode" => Field::ReferralCode,
            "secretKey" => Field::SecretKey,
            "contentTitle" => Field::ContentTitle,
            "contentDescription" => Field::ContentDescription,
            _ => return None,
        })
    }
}

/// The phone check beyond the pattern (docs/product/accounts.md#validation): the number (already in
/// the core's `+` and 7–15 digits form) is one libphonenumber knows as a real number of its
/// country.
#[cfg(feature = "phone")]
pub fn phone_exists(value: &str) -> Result<(), Invalid> {
    // The `phonenumber` crate (0.3) refused genuine numbers libphonenumber accepts (Russian
    // landlines and toll-free, Lithuanian and Belarusian trunk forms) and accepted ones with
    // extra digits: 80 of testdata/phones.json's 4,929 disagreed.
    match rlibphonenumber::PHONE_NUMBER_UTIL.parse(value, None) {
        Ok(number) if number.is_valid() => Ok(()),
        _ => Err(Invalid::Phone),
    }
}

/// Longest names and last names (3 to 40 characters).
pub const NAME_MAX: usize = 40;
/// Longest email address (RFC 5321).
pub const EMAIL_MAX: usize = 254;
/// Longest password (8 to 20 characters).
pub const PASSWORD_MAX: usize = 20;
/// Sign-in takes passwords a little longer than the rules make, so none ever set is cut.
pub const CURRENT_PASSWORD_MAX: usize = 64;

/// The most characters a field can hold, for the inputs' `maxlength` (None: no bound).
pub fn max_length(field: Field) -> Option<usize> {
    Some(match field {
        Field::Names | Field::Lastnames => NAME_MAX,
        Field::Email | Field::EmailC => EMAIL_MAX,
        Field::Password | Field::PasswordC => PASSWORD_MAX,
        Field::CurrentPassword => CURRENT_PASSWORD_MAX,
        Field::Code => 4,
        Field::ClaimCode => 6,
        Field::Wallet => 42,
        Field::ContentTitle => crate::content::TITLE_MAX,
        Field::ContentDescription => crate::content::DESCRIPTION_MAX,
        Field::Cel | Field::Number | Field::ReferralCode | Field::SecretKey => return None,
    })
}

/// Checks one field. `other` is the value a confirmation field must equal (email for emailC,
/// password for passwordC); it is ignored for every other field.
pub fn validate(field: Field, value: &str, other: Option<&str>) -> Result<(), Invalid> {
    // Every field is required; a value of only spaces counts as empty.
    if value.trim().is_empty() {
        return Err(Invalid::Required);
    }
    match field {
        Field::Names | Field::Lastnames => person_name(value),
        Field::Email => email(value),
        Field::EmailC => {
            email(value)?;
            matches(value, other, Invalid::EmailMismatch)
        }
        Field::Password => password(value),
        // That the two differ is said first: a confirmation that repeated the strength rule
        // under a weak, different pair never said the passwords differ.
        Field::PasswordC => {
            matches(value, other, Invalid::PasswordMismatch)?;
            password(value)
        }
        Field::Cel | Field::Number => phone(value),
        Field::Code => code(value),
        Field::ClaimCode => claim_code(value),
        Field::Wallet => wallet(value),
        Field::ReferralCode => referral_code(value),
        // Required (and, for the secret key, trimmed): checked above.
        Field::SecretKey => Ok(()),
        // Any password once set, so no pattern; but no longer than its input allows (found by
        // the validation fuzz target: the input's maxlength was not the rule's).
        Field::CurrentPassword if value.chars().count() > CURRENT_PASSWORD_MAX => Err(Invalid::Max),
        Field::CurrentPassword => Ok(()),
        Field::ContentTitle => at_most(value, crate::content::TITLE_MAX),
        Field::ContentDescription => at_most(value, crate::content::DESCRIPTION_MAX),
    }
}

/// At most `max` characters once trimmed.
fn at_most(value: &str, max: usize) -> Result<(), Invalid> {
    if value.trim().chars().count() > max {
        Err(Invalid::Max)
    } else {
        Ok(())
    }
}

fn matches(value: &str, other: Option<&str>, err: Invalid) -> Result<(), Invalid> {
    if Some(value) == other {
        Ok(())
    } else {
        Err(err)
    }
}

/// The most code points one character a person sees may carry: a letter and its accents
/// (Vietnamese stacks two; a Hangul syllable typed as jamo is three).
const CLUSTER_MAX: usize = 4;

/// Letters that show nothing: Hangul fillers (three made an invisible name) and the like.
fn is_invisible_letter(c: char) -> bool {
    matches!(
        c,
        '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' | '\u{2800}'
    )
}

/// Marks that change nothing a person sees, so two names that look the same would differ: the
/// combining grapheme joiner, variation selectors, Mongolian free variation selectors.
fn is_invisible_mark(c: char) -> bool {
    matches!(
        c,
        '\u{034F}' | '\u{180B}'..='\u{180F}' | '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}'
    )
}

/// A letter that only stretches or modifies its neighbours: the Arabic tatweel. A name needs a
/// letter besides it (three tatweels passed as a name).
fn is_filler_letter(c: char) -> bool {
    c == '\u{0640}'
}

/// 3 to 40 characters as a person sees them (grapheme clusters), letters (any script, accents
/// included) and spaces only, with at least one visible letter.
///
/// A decomposed accent ("e" + U+0301) is part of its letter, so "José" is 4 characters however
/// it was typed; a letter carries at most a few marks ("Abc" and 6,000 accents passed as 3
/// characters when code points after a letter were not counted).
fn person_name(value: &str) -> Result<(), Invalid> {
    use unicode_segmentation::UnicodeSegmentation;
    // Counted as it is kept: the server stores the name trimmed ("A  " passed as 3 characters
    // and was kept as "A").
    let value = value.trim();
    // Cheap bound first: nothing longer can be 40 characters.
    if value.len() > NAME_MAX * CLUSTER_MAX * 4 {
        return Err(Invalid::Text);
    }
    let (mut len, mut letters) = (0, 0);
    for cluster in value.graphemes(true) {
        len += 1;
        if cluster == " " {
            continue;
        }
        let mut chars = cluster.chars();
        let first = chars.next().ok_or(Invalid::Text)?;
        let visible_letter = |c: char| c.is_alphabetic() && !is_invisible_letter(c);
        // A cluster starts with a letter, never a mark (a lone combining mark is alphabetic by
        // Unicode's property, and passed as a name).
        if !visible_letter(first)
            || is_combining_mark(first)
            || cluster.chars().count() > CLUSTER_MAX
            || cluster.chars().any(is_invisible_mark)
            || !chars.all(|c| is_combining_mark(c) || visible_letter(c))
        {
            return Err(Invalid::Text);
        }
        if !is_filler_letter(first) {
            letters += 1;
        }
    }
    if letters > 0 && (3..=NAME_MAX).contains(&len) {
        Ok(())
    } else {
        Err(Invalid::Text)
    }
}

/// Lowercase local part, `@`, lowercase dotted domain ending in a top-level label of 2+ letters.
fn email(value: &str) -> Result<(), Invalid> {
    let ok = (|| {
        if value.len() > EMAIL_MAX {
            return None;
        }
        let (local, domain) = value.split_once('@')?;
        let local_ok = !local.is_empty()
            && local.len() <= 64
            && local
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"._%+-".contains(&b));
        let labels: Vec<&str> = domain.split('.').collect();
        let (tld, rest) = labels.split_last()?;
        let domain_ok = !rest.is_empty()
            && rest.iter().all(|l| {
                !l.is_empty()
                    && !l.starts_with('-')
                    && !l.ends_with('-')
                    && l.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            })
            && tld.len() >= 2
            && tld.bytes().all(|b| b.is_ascii_lowercase());
        (local_ok && domain_ok).then_some(())
    })();
    ok.ok_or(Invalid::Email)
}

/// The special characters a password must contain one of.
pub const PASSWORD_SPECIALS: &str = "@$#.!%*?&";

/// 8 to 20 characters from letters, digits and the specials, with one of each kind.
fn password(value: &str) -> Result<(), Invalid> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || PASSWORD_SPECIALS.contains(c);
    let ok = (8..=PASSWORD_MAX).contains(&value.chars().count())
        && value.chars().all(allowed)
        && value.chars().any(|c| c.is_ascii_lowercase())
        && value.chars().any(|c| c.is_ascii_uppercase())
        && value.chars().any(|c| c.is_ascii_digit())
        && value.chars().any(|c| PASSWORD_SPECIALS.contains(c));
    if ok {
        Ok(())
    } else {
        Err(Invalid::Password)
    }
}

/// `+` then 7 to 15 digits, with at most single spaces between digits.
fn phone(value: &str) -> Result<(), Invalid> {
    let ok = (|| {
        let rest = value.strip_prefix('+')?;
        let mut digits = 0;
        let mut previous_was_digit = false;
        for c in rest.chars() {
            match c {
                '0'..='9' => {
                    digits += 1;
                    previous_was_digit = true;
                }
                ' ' if previous_was_digit => previous_was_digit = false,
                _ => return None,
            }
        }
        (previous_was_digit && (7..=15).contains(&digits)).then_some(())
    })();
    ok.ok_or(Invalid::Phone)
}

/// Exactly 4 digits, the first not zero.
fn code(value: &str) -> Result<(), Invalid> {
    let b = value.as_bytes();
    if b.len() == 4 && b.iter().all(u8::is_ascii_digit) && b[0] != b'0' {
        Ok(())
    } else {
        Err(Invalid::Code)
    }
}

/// Exactly 6 digits.
fn claim_code(value: &str) -> Result<(), Invalid> {
    if value.len() == 6 && value.bytes().all(|b| b.is_ascii_digit()) {
        Ok(())
    } else {
        Err(Invalid::ClaimCode)
    }
}

/// `0x` then 40 hexadecimal characters (either case).
fn wallet(value: &str) -> Result<(), Invalid> {
    match value.strip_prefix("0x") {
        Some(hex) if hex.len() == 40 && hex.bytes().all(|b| b.is_ascii_hexdigit()) => Ok(()),
        _ => Err(Invalid::Wallet),
    }
}

/// 16 to 32 hexadecimal characters.
fn referral_code(value: &str) -> Result<(), Invalid> {
    if (16..=32).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(())
    } else {
        Err(Invalid::ReferralCode)
    }
}

/// True when the referral code in a `/register/referred/{code}` path is well formed.
pub fn is_referral_code(value: &str) -> bool {
    referral_code(value).is_ok()
}

/// An amount typed by a person in `language` (`amount::parse_typed`), with up to `decimals`
/// fraction digits, checked against inclusive bounds given as plain decimals (either may be
/// absent).
pub fn validate_amount(
    value: &str,
    decimals: u32,
    min: Option<&str>,
    max: Option<&str>,
    language: &str,
) -> Result<(), Invalid> {
    if value.trim().is_empty() {
        return Err(Invalid::Required);
    }
    let amount = crate::amount::parse_typed(value, decimals, language).map_err(|e| match e {
        crate::amount::AmountError::Ambiguous => Invalid::AmountAmbiguous,
        _ => Invalid::Amount,
    })?;
    let bound = |b: &str| crate::amount::parse_units(b, decimals).map_err(|_| Invalid::Amount);
    if let Some(min) = min {
        if amount < bound(min)? {
            return Err(Invalid::Min);
        }
    }
    if let Some(max) = max {
        if amount > bound(max)? {
            return Err(Invalid::Max);
        }
    }
    Ok(())
}

#[cfg(all(test, feature = "phone"))]
mod phone_tests {
    use super::*;

    #[test]
    fn real_numbers_pass_and_well_formed_fakes_do_not() {
        assert_eq!(phone_exists("+34612345678"), Ok(()));
        assert_eq!(phone_exists("+5511912345678"), Ok(()));
        assert_eq!(phone_exists("+34 6 1234 5678"), Ok(()));
        assert_eq!(phone_exists("+1000000000"), Err(Invalid::Phone));
        assert_eq!(phone_exists("+999123456789"), Err(Invalid::Phone));
    }
}

/// The server's phone check agrees with Google's libphonenumber (its Python port generated the
/// verdicts, testdata/phones.py) on every region's example numbers and variants of them.
#[cfg(all(test, feature = "phone"))]
mod phones {
    use super::*;

    #[test]
    fn phone_numbers_agree_with_libphonenumber() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/phones.json");
        let data: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let cases = data["cases"].as_array().unwrap();
        let disagree: Vec<String> = cases
            .iter()
            .filter(|c| phone_exists(c["number"].as_str().unwrap()).is_ok() != c["valid"])
            .map(|c| format!("{} (libphonenumber: {})", c["number"], c["valid"]))
            .collect();
        assert!(
            disagree.is_empty(),
            "{} of {} disagree: {}",
            disagree.len(),
            cases.len(),
            disagree
                .iter()
                .take(40)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
}

#[cfg(test)]
mod person_names {
    use super::*;

    #[test]
    fn names_count_what_a_person_sees() {
        let ok = |v: &str| person_name(v).is_ok();
        assert!(ok("José"));
        assert!(
            ok("Jose\u{301}"),
            "a decomposed accent is part of its letter"
        );
        assert!(ok("Nguyê\u{303}n"));
        assert!(
            ok("\u{1100}\u{1161}\u{11A8}\u{1100}\u{1161}\u{1100}\u{1161}"),
            "jamo typed as three syllables"
        );
        assert!(
            !ok("\u{1100}\u{1161}\u{11A8}\u{1100}\u{1161}"),
            "two syllables are two characters"
        );
        assert!(ok(&"e\u{301}".repeat(40)), "40 letters typed decomposed");
        assert!(!ok(&"e\u{301}".repeat(41)));
        assert!(
            !ok(&format!("Abc{}", "\u{301}".repeat(6000))),
            "6,000 accents on one letter"
        );
        assert!(!ok("Abc\u{301}\u{301}\u{301}\u{301}"));
        assert!(
            !ok("\u{3164}\u{3164}\u{3164}"),
            "Hangul fillers show nothing"
        );
        assert!(!ok("Ana\u{3164}"));
        assert!(!ok("\u{115F}\u{1160}\u{FFA0}"));
        assert!(!ok("\u{301}abc"), "a mark with no letter before it");
        assert!(!ok("a\u{200B}bc"), "zero-width space");
        assert!(!ok("A  "), "counted trimmed, as it is kept");
        assert!(!ok("  A"));
        assert!(!ok("\u{345}  "), "a lone combining mark");
        assert!(!ok("\u{640}\u{640}\u{640}"), "tatweels alone");
        assert!(
            ok("\u{645}\u{640}\u{62D}\u{645}\u{62F}"),
            "a tatweel inside an Arabic name"
        );
        assert!(!ok("Ana\u{34F}"), "a combining grapheme joiner");
        assert!(!ok("Ana\u{FE0F}"), "a variation selector");
        assert!(
            !ok("\u{1820}\u{180B}\u{1821}\u{1822}"),
            "a Mongolian free variation selector"
        );
        assert!(
            ok("  Ana  "),
            "spaces around a name are trimmed, not refused"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bounded_field_refuses_more_than_its_input_holds() {
        for name in [
            "names",
            "lastnames",
            "email",
            "password",
            "currentPassword",
            "code",
            "claimCode",
            "wallet",
            "contentTitle",
            "contentDescription",
        ] {
            let field = Field::parse(name).unwrap();
            let max = max_length(field).unwrap();
            let long = "a".repeat(max + 1);
            assert!(
                validate(field, &long, Some(&long)).is_err(),
                "{name} took {} chars",
                max + 1
            );
        }
        let longest = "p".repeat(CURRENT_PASSWORD_MAX);
        assert_eq!(validate(Field::CurrentPassword, &longest, None), Ok(()));
    }
}
