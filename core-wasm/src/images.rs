//! Images from outside (docs/product/accounts.md#avatars): what the server accepts and how it reads
//! them. Pure bytes in, bytes out; the server does the reading and writing (feature `images`, so
//! the browser's WASM does not carry an image decoder).

use std::io::Cursor;

use image::imageops::FilterType;
use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits};
use thiserror::Error;

/// The largest accepted side of an uploaded image, in pixels.
pub const MAX_SIDE: u32 = 4096;
/// The most bytes an accepted image may decode to: 4096 × 4096 at 8-bit RGBA (64 MiB). A
/// 130 KB PNG of 4096 × 4096 16-bit RGBA decodes to 128 MiB; it is refused from its header,
/// before any pixel is decoded.
pub const MAX_DECODED: u64 = 4096 * 4096 * 4;

/// What an uploaded image becomes, and so how large it may be stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A member's profile image: shown at most a few hundred pixels wide (the crop is 390 × 295).
    Avatar,
    /// An image in an admin's content block (notices, legal pages).
    Content,
}

impl Kind {
    /// The longest side stored: larger images are scaled down to fit, keeping their shape.
    pub const fn max_side(self) -> u32 {
        match self {
            Kind::Avatar => 512,
            Kind::Content => 1600,
        }
    }

    /// The most bytes stored, whatever was uploaded: an image whose PNG is larger is scaled
    /// down until it fits. 512 × 512 RGB noise is 0.79 MB as PNG; 1600 × 1600 photos are
    /// 2–4 MB.
    pub const fn max_stored(self) -> usize {
        match self {
            Kind::Avatar => 1024 * 1024,
            Kind::Content => 4 * 1024 * 1024,
        }
    }
}

/// A stored image is never larger than this many times what was uploaded…
pub const STORED_PER_UPLOADED: usize = 4;
/// …unless it is at most this large (a tiny upload may become a small PNG).
pub const STORED_FLOOR: usize = 256 * 1024;

/// The bound on the PNG stored for an upload of `uploaded` bytes.
pub fn stored_bound(kind: Kind, uploaded: usize) -> usize {
    (uploaded.saturating_mul(STORED_PER_UPLOADED))
        .max(STORED_FLOOR)
        .min(kind.max_stored())
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum ImageError {
    /// Not a JPEG or PNG by content, undecodable, or larger than [`MAX_SIDE`] a side.
    #[error("not an accepted image")]
    NotAnImage,
    #[error("png encode: {0}")]
    Encode(String),
}

/// JPEG or PNG by content (never by name or declared type), decoded within limits, scaled to
/// fit `kind`'s side, as an 8-bit PNG of at most [`stored_bound`] bytes (scaled down further
/// until it is: a 1.6 MB JPEG of noise would otherwise become a 50 MB PNG).
pub fn reencode(bytes: &[u8], kind: Kind) -> Result<Vec<u8>, ImageError> {
    let image = decode(bytes)?;
    // 8 bits a channel, alpha only where the source has it: 16-bit PNGs would double the size.
    let mut image = if image.color().has_alpha() {
        DynamicImage::ImageRgba8(image.into_rgba8())
    } else {
        DynamicImage::ImageRgb8(image.into_rgb8())
    };
    let bound = stored_bound(kind, bytes.len());
    let mut side = kind.max_side();
    loop {
        if image.width() > side || image.height() > side {
            image = image.resize(side, side, FilterType::Triangle);
        }
        let png = png(&image)?;
        if png.len() <= bound {
            return Ok(png);
        }
        // About half the pixels each round; a 1 × 1 PNG is some 70 bytes, so this ends.
        side = (image.width().max(image.height()) * 7 / 10).max(1);
    }
}

/// Decodes a JPEG or PNG (by content) within [`MAX_SIDE`] and [`MAX_DECODED`].
fn decode(bytes: &[u8]) -> Result<DynamicImage, ImageError> {
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
    DynamicImage::from_decoder(decoder).map_err(|_| ImageError::NotAnImage)
}

fn png(image: &DynamicImage) -> Result<Vec<u8>, ImageError> {
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
        assert!(reencode(&png, Kind::Avatar)
            .unwrap()
            .starts_with(b"\x89PNG"));
        let jpeg = encoded(8, 8, ImageFormat::Jpeg);
        assert!(reencode(&jpeg, Kind::Avatar)
            .unwrap()
            .starts_with(b"\x89PNG"));
        assert_eq!(
            reencode(b"hello, I am text pretending", Kind::Avatar),
            Err(ImageError::NotAnImage)
        );
        let mut fake = b"\x89PNG\r\n\x1a\n".to_vec();
        fake.extend_from_slice(b"not really a png");
        assert_eq!(
            reencode(&fake, Kind::Avatar),
            Err(ImageError::NotAnImage),
            "magic bytes alone are not enough"
        );
    }

    #[test]
    fn images_over_4096_pixels_a_side_are_refused() {
        let wide = encoded(MAX_SIDE + 1, 1, ImageFormat::Png);
        assert_eq!(reencode(&wide, Kind::Avatar), Err(ImageError::NotAnImage));
        assert!(reencode(&encoded(MAX_SIDE, 1, ImageFormat::Png), Kind::Avatar).is_ok());
    }

    /// A decompression bomb: 4096 × 4096 16-bit RGBA compresses to ~130 KB and decodes to
    /// 128 MiB. Refused from its header.
    #[test]
    fn an_image_decoding_past_64_mib_is_refused_before_decoding() {
        let bomb = bomb();
        assert!(bomb.len() < 300_000, "{} bytes", bomb.len());
        assert_eq!(reencode(&bomb, Kind::Avatar), Err(ImageError::NotAnImage));
    }

    /// Noise does not compress: the worst case for what an upload costs to store and serve.
    fn noise(side: u32, format: ImageFormat, quality: u8) -> Vec<u8> {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let image = image::RgbImage::from_fn(side, side, |_, _| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let [r, g, b, ..] = state.to_le_bytes();
            image::Rgb([r, g, b])
        });
        let mut out = Cursor::new(Vec::new());
        if format == ImageFormat::Jpeg {
            image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, quality)
                .encode_image(&image)
                .unwrap();
        } else {
            image.write_to(&mut out, format).unwrap();
        }
        out.into_inner()
    }

    fn side_of(png: &[u8]) -> (u32, u32) {
        dimensions(png).unwrap()
    }

    /// A 2048 × 2048 JPEG of noise at quality 8 is ~0.4 MB; as a PNG at full size it would be
    /// 12.6 MB. Stored, it is at most 512 a side and within the bound for its upload size.
    #[test]
    fn avatars_are_scaled_to_their_side_and_stored_within_a_multiple_of_the_upload() {
        let jpeg = noise(2048, ImageFormat::Jpeg, 8);
        let png = reencode(&jpeg, Kind::Avatar).unwrap();
        let (w, h) = side_of(&png);
        assert!(w <= 512 && h <= 512, "{w} × {h}");
        assert!(
            png.len() <= stored_bound(Kind::Avatar, jpeg.len()),
            "{}",
            png.len()
        );
        assert!(png.len() <= Kind::Avatar.max_stored());
        // The same upload as a content image keeps more pixels, within its own bounds.
        let png = reencode(&jpeg, Kind::Content).unwrap();
        let (w, _) = side_of(&png);
        assert!(w <= 1600, "{w}");
        assert!(png.len() <= stored_bound(Kind::Content, jpeg.len()));
        // An image that compresses keeps the kind's whole side.
        let plain = encoded(2048, 1024, ImageFormat::Png);
        assert_eq!(
            side_of(&reencode(&plain, Kind::Content).unwrap()),
            (1600, 800)
        );
        assert_eq!(
            side_of(&reencode(&plain, Kind::Avatar).unwrap()),
            (512, 256)
        );
    }

    /// A small upload of noise that would grow past the floor and 4× its size is scaled down
    /// until it fits, keeping its shape.
    #[test]
    fn an_upload_growing_past_its_bound_is_scaled_down_until_it_fits() {
        let jpeg = noise(400, ImageFormat::Jpeg, 8);
        let png = reencode(&jpeg, Kind::Avatar).unwrap();
        assert!(
            png.len() <= STORED_FLOOR.max(4 * jpeg.len()),
            "{}",
            png.len()
        );
        let (w, h) = side_of(&png);
        assert_eq!(w, h);
        assert!(w < 400, "{w}");
        // A small image within every bound keeps its pixels.
        let small = noise(64, ImageFormat::Png, 0);
        assert_eq!(side_of(&reencode(&small, Kind::Avatar).unwrap()), (64, 64));
    }

    #[test]
    fn the_bound_is_the_floor_or_a_multiple_of_the_upload_within_the_kinds_most() {
        assert_eq!(stored_bound(Kind::Avatar, 10), STORED_FLOOR);
        assert_eq!(stored_bound(Kind::Avatar, 100_000), 400_000);
        assert_eq!(stored_bound(Kind::Avatar, 2_000_000), 1024 * 1024);
        assert_eq!(stored_bound(Kind::Content, 2_000_000), 4 * 1024 * 1024);
        assert_eq!(stored_bound(Kind::Content, usize::MAX), 4 * 1024 * 1024);
    }

    #[test]
    fn dimensions_come_from_the_header() {
        let jpeg = encoded(120, 90, ImageFormat::Jpeg);
        assert_eq!(dimensions(&jpeg), Some((120, 90)));
        assert_eq!(dimensions(&jpeg[..20]), None);
        assert_eq!(dimensions(b"GIF89a but not"), None);
    }
}
