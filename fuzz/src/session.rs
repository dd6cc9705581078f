//! The session token's payload as the browser reads it (docs/product/api.md#session-token): any
//! text decodes to claims or to nothing.

use lvlx_core::session::{decode, is_expired};

pub fn run(data: &[u8]) {
    crate::typed(data, |input: (&str, i64)| {
        if let Some(claims) = decode(input.0) {
            let _ = is_expired(&claims, input.1);
        }
    });
}
