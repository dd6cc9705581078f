//! Images from outside (docs/product/accounts.md#avatars): what the server accepts and how it reads
//! them. Pure bytes in, bytes out; the server does the reading and writing (feature `images`, so
//! the browser's WASM does not carry an image decoder).

use std::io::Cursor;

use image::{ImageDecoder, ImageFormat, ImageReader, Limits};
use thiserror::Error;

/// The largest accepted side of an uploaded image, in pixels.
pub const MAX_SIDE: u32 = 4096;
/// The most bytes an accepted image may decode to: 4096 × 4096 at 8-bit RGBA (64 MiB). A
/// 130 KB PNG of 4096 × 4096 16-bit RGBA decodes to 128 MiB; it is refused from its header,
/// before any pixel is decoded.
pub const MAX_DECODED: u64 = 4096 * 4096 * 4;

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
    // The decoder's own allocations too (its buffers beside the image).
    limits.max_alloc = Some(MAX_DECODED + MAX_DECODED / 4);
    reader.limits(limits);
    let decoder = reader.into_decoder().map_err(|_| ImageError::NotAnImage)?;
    // The header says what decoding would take: refused before a pixel is read.
    if decoder.total_bytes() > MAX_DECODED {
        return Err(ImageError::NotAnImage);
    }
    let image = image::DynamicImage::from_decoder(decoder).map_err(|_| ImageError::NotAnImage)?;
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

    /// 4096 × 4096 16-bit RGBA, all zero: 128 MiB decoded, a small file.
    pub fn bomb() -> Vec<u8> {
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(std::io::Cursor::new(&mut out), MAX_SIDE, MAX_SIDE);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Sixteen);
        encoder.set_compression(png::Compression::High);
        let mut writer = encoder.write_header().unwrap();
        let mut stream = writer.stream_writer().unwrap();
        let row = vec![0u8; MAX_SIDE as usize * 8];
        for _ in 0..MAX_SIDE {
            std::io::Write::write_all(&mut stream, &row).unwrap();
        }
        stream.finish().unwrap();
        writer.finish().unwrap();
        out
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

    /// A decompression bomb: 4096 × 4096 16-bit RGBA compresses to ~130 KB and decodes to
    /// 128 MiB. Refused from its header.
    #[test]
    fn an_image_decoding_past_64_mib_is_refused_before_decoding() {
        let bomb = bomb();
        assert!(bomb.len() < 300_000, "{} bytes", bomb.len());
        assert_eq!(reencode(&bomb), Err(ImageError::NotAnImage));
    }

    #[test]
    fn dimensions_come_from_the_header() {
        let jpeg = encoded(120, 90, ImageFormat::Jpeg);
        assert_eq!(dimensions(&jpeg), Some((120, 90)));
        assert_eq!(dimensions(&jpeg[..20]), None);
        assert_eq!(dimensions(b"GIF89a but not"), None);
    }
}
