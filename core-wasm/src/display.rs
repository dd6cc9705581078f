//! How identifiers are shortened on screen (SPEC §2, §9).

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
