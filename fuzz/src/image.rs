//! The image upload path (avatars and content images, docs/product/accounts.md#avatars) and the
//! guide images' header reader: any bytes are refused or become a PNG within its kind's side
//! and stored-size bound.

use lvlx_core::images::{dimensions, reencode, stored_bound, Kind};

pub fn run(data: &[u8]) {
    crate::typed(data, |bytes: &[u8]| {
        for kind in [Kind::Avatar, Kind::Content] {
            if let Ok(png) = reencode(bytes, kind) {
                let (w, h) = dimensions(&png).expect("the PNG written reads back");
                assert!(w <= kind.max_side() && h <= kind.max_side());
                assert!(png.len() <= stored_bound(kind, bytes.len()));
            }
        }
        let _ = dimensions(bytes);
    });
}
