//! Images from outside (SPEC §4 "Avatar", §9): what the server accepts and how it reads them.
//! Pure bytes in, bytes out; the server does the reading and writing (feature `images`, so the
//! browser's WASM does not carry an image decoder).

use std::io::Cursor;

use image::{ImageFormat, ImageReader, Limits};
use thiserror::Error;

/// The largest accepted side of an uploaded image, in pixels.
pub const MAX_SIDE: u32 = 4096;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum ImageError {
    /// Not a JPEG or PNG by content, undecodable, or larger than [`MAX_SIDE`] a side.
    #[error("not an accepted image")]
    NotAnImage,
    #[error("png encode: {0}")]
    Encode(String),
}

/// JPEG or PNG by content (never by name or declared type), decoded within limits, as PNG.
pub fn reencode(bytes: &[u8]) -> Result<Vec<u8>, ImageError> {
    let format = if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        ImageFormat::Png
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        ImageFormat::Jpeg
    } else {
        return Err(ImageError::NotAnImage);
    };
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    reader.limits(limits);
    let image = reader.decode().map_err(|_| ImageError::NotAnImage)?;
    let mut out = Cursor::new(Vec::new());
    image
        .write_to(&mut out, ImageFormat::Png)
        .map_err(|e| ImageError::Encode(e.to_string()))?;
    Ok(out.into_inner())
}

/// Width and height from the first bytes of an image file (its header); None when they do not
/// say (not an image, or the header lies beyond the bytes given).
pub fn dimensions(head: &[u8]) -> Option<(u32, u32)> {
    ImageReader::new(Cursor::new(head))
        .with_guessed_format()
        .ok()?
        .into_dimensions()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(w: u32, h: u32, format: ImageFormat) -> Vec<u8> {
        let mut out = Cursor::new(Vec::new());
        image::RgbImage::new(w, h)
            .write_to(&mut out, format)
            .unwrap();
        out.into_inner()
    }

    #[test]
    fn pngs_and_jpegs_are_reencoded_and_others_refused() {
        let png = encoded(8, 8, ImageFormat::Png);
        assert!(reencode(&png).unwrap().starts_with(b"\x89PNG"));
        let jpeg = encoded(8, 8, ImageFormat::Jpeg);
        assert!(reencode(&jpeg).unwrap().starts_with(b"\x89PNG"));
        assert_eq!(
            reencode(b"hello, I am text pretending"),
            Err(ImageError::NotAnImage)
        );
        let mut fake = b"\x89PNG\r\n\x1a\n".to_vec();
        fake.extend_from_slice(b"not really a png");
        assert_eq!(
            reencode(&fake),
            Err(ImageError::NotAnImage),
            "magic bytes alone are not enough"
        );
    }

    #[test]
    fn images_over_4096_pixels_a_side_are_refused() {
        let wide = encoded(MAX_SIDE + 1, 1, ImageFormat::Png);
        assert_eq!(reencode(&wide), Err(ImageError::NotAnImage));
        assert!(reencode(&encoded(MAX_SIDE, 1, ImageFormat::Png)).is_ok());
    }

    #[test]
    fn dimensions_come_from_the_header() {
        let jpeg = encoded(120, 90, ImageFormat::Jpeg);
        assert_eq!(dimensions(&jpeg), Some((120, 90)));
        assert_eq!(dimensions(&jpeg[..20]), None);
        assert_eq!(dimensions(b"GIF89a but not"), None);
    }
}
