//! The image upload path (avatars and content images, docs/product/accounts.md#avatars) and the
//! guide images' header reader: any bytes are refused or become a PNG within the size limit.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lvlx_core::images::{dimensions, reencode, MAX_SIDE};

fuzz_target!(|bytes: &[u8]| {
    if let Ok(png) = reencode(bytes) {
        let (w, h) = dimensions(&png).expect("the PNG written reads back");
        assert!(w <= MAX_SIDE && h <= MAX_SIDE);
    }
    let _ = dimensions(bytes);
});
