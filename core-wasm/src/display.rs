//! How identifiers are shortened on screen (docs/product.md#constants).

/// Emails longer than this are cut and followed by dots.
pub const EMAIL_MAX: usize = 20;

/// Admin tables: first 6 and last 4 characters ("0x1234...abcd").
pub fn short_wallet(address: &str) -> String {
    shorten(address, 6, 4)
}

/// Messages: first 2, "...", last 4, lowercased ("0x...abcd").
pub fn short_wallet_message(address: &str) -> String {
    shorten(address, 2, 4).to_lowercase()
}

fn shorten(text: &str, head: usize, tail: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    // Only when it makes the text shorter than the original.
    if chars.len() <= head + tail + "...".len() {
        return text.to_string();
    }
    let start: String = chars[..head].iter().collect();
    let end: String = chars[chars.len() - tail..].iter().collect();
    format!("{start}...{end}")
}

/// Emails over 20 characters become their first 20 followed by "...".
pub fn truncate_email(email: &str) -> String {
    if email.chars().count() <= EMAIL_MAX {
        email.to_string()
    } else {
        let cut: String = email.chars().take(EMAIL_MAX).collect();
        format!("{cut}...")
    }
}

/// Who invited a person, as the referral registration page names them without giving their
/// whole name away: the first of their given names and the first letter of their last names
/// ("María José" "Ñúñez Pérez" → "María Ñ."). Letters as a person sees them (grapheme clusters):
/// a decomposed "N" + combining tilde stays one letter.
pub fn inviter_name(names: &str, lastnames: &str) -> String {
    use unicode_segmentation::UnicodeSegmentation;
    let first = names.split_whitespace().next().unwrap_or("");
    match lastnames.trim().graphemes(true).next() {
        Some(initial) if !first.is_empty() => format!("{first} {}.", initial.to_uppercase()),
        _ => first.to_string(),
    }
}

/// A video's ISO 8601 duration as a clock reads it: "PT4M13S" → "4:13", "PT1H2M3S" →
/// "1:02:03", "PT45S" → "0:45"; None for what is not a time duration (days, fractions, text).
pub fn video_duration(iso: &str) -> Option<String> {
    let mut rest = iso.strip_prefix("PT")?;
    if rest.is_empty() {
        return None;
    }
    let (mut hours, mut minutes, mut seconds) = (0u64, 0u64, 0u64);
    let mut seen = String::new();
    while !rest.is_empty() {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || digits > 6 {
            return None;
        }
        let value: u64 = rest[..digits].parse().ok()?;
        let unit = rest[digits..].chars().next()?;
        // Units appear once each, in H, M, S order.
        if seen.contains(unit) || seen.chars().any(|u| "HMS".find(u) > "HMS".find(unit)) {
            return None;
        }
        match unit {
            'H' => hours = value,
            'M' => minutes = value,
            'S' => seconds = value,
            _ => return None,
        }
        seen.push(unit);
        rest = &rest[digits + 1..];
    }
    let total = hours * 3600 + minutes * 60 + seconds;
    let (h, m, s) = (total / 3600, total % 3600 / 60, total % 60);
    Some(if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    })
}

/// Whether `text` shows as it is stored: no control characters (NUL, line breaks) and none of
/// the invisible marks that reorder or hide what is shown (bidirectional overrides and isolates,
/// zero-width characters). Owners' text arguments, rank names and admins' reasons keep to it.
pub fn is_plain(text: &str) -> bool {
    !text.chars().any(|c| {
        c.is_control()
            || matches!(c,
                '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}'
                | '\u{061C}' | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}')
    })
}

#[cfg(test)]
mod tests {
    use super::{inviter_name, video_duration};

    #[test]
    fn iso_durations_read_as_a_clock() {
        assert_eq!(video_duration("PT4M13S").as_deref(), Some("4:13"));
        assert_eq!(video_duration("PT1H2M3S").as_deref(), Some("1:02:03"));
        assert_eq!(video_duration("PT45S").as_deref(), Some("0:45"));
        assert_eq!(video_duration("PT2H").as_deref(), Some("2:00:00"));
        assert_eq!(video_duration("PT90M").as_deref(), Some("1:30:00"));
        for bad in [
            "", "PT", "P1D", "PT1.5S", "PT4S13M", "PT4M4M", "4:13", "PT-1S", "PTXS",
        ] {
            assert_eq!(video_duration(bad), None, "{bad}");
        }
    }

    #[test]
    fn an_inviter_is_named_by_first_name_and_initial() {
        assert_eq!(inviter_name("María José", "Ñúñez Pérez"), "María Ñ.");
        assert_eq!(inviter_name("Ana", "n\u{303}ame"), "Ana N\u{303}.");
        assert_eq!(inviter_name("  Li ", " "), "Li");
        assert_eq!(inviter_name("João", "da Silva"), "João D.");
    }
}
