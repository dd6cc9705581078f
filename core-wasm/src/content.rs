//! Content blocks that admins edit and user pages show (admin/edit-content): which blocks exist,
//! the languages they are written in, and the size of their fields.

/// The private-protocol page and the notice on the dashboard.
pub const BLOCKS: [&str; 5] = [
    "private-protocol",
    "dashboard-notice",
    "terms",
    "privacy",
    "risk",
];

/// The blocks anyone may read, signed in or not: the landing page's terms, privacy notice and
/// risk notice.
pub const PUBLIC_BLOCKS: [&str; 3] = ["terms", "privacy", "risk"];

pub fn is_public(name: &str) -> bool {
    PUBLIC_BLOCKS.contains(&name)
}

pub const TITLE_MAX: usize = 120;
pub const DESCRIPTION_MAX: usize = 4000;

pub fn is_block(name: &str) -> bool {
    BLOCKS.contains(&name)
}

/// The languages a block is looked up in, in order: the viewer's own, then the default.
pub fn fallback_order(language: &str) -> Vec<&str> {
    let mut order = vec![language];
    if language != crate::DEFAULT_LANGUAGE {
        order.push(crate::DEFAULT_LANGUAGE);
    }
    order
}

#[cfg(test)]
mod tests {
    use crate::validation::{validate, Field, Invalid};

    #[test]
    fn titles_and_texts_are_required_and_bounded_in_characters() {
        assert_eq!(
            validate(Field::ContentTitle, "  ", None),
            Err(Invalid::Required)
        );
        assert_eq!(
            validate(Field::ContentTitle, &"á".repeat(120), None),
            Ok(())
        );
        assert_eq!(
            validate(Field::ContentTitle, &"á".repeat(121), None),
            Err(Invalid::Max)
        );
        assert_eq!(
            validate(Field::ContentDescription, &"x".repeat(4000), None),
            Ok(())
        );
        assert_eq!(
            validate(Field::ContentDescription, &"x".repeat(4001), None),
            Err(Invalid::Max)
        );
    }
}
