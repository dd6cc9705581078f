//! The session token's payload as the browser reads it (docs/product/api.md#session-token): any
//! text decodes to claims or to nothing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lvlx_core::session::{decode, is_expired};

fuzz_target!(|input: (&str, i64)| {
    if let Some(claims) = decode(input.0) {
        let _ = is_expired(&claims, input.1);
    }
});
