//! Profile images (SPEC §4 "Avatar", §7 POST image): at most 2 MB, JPEG or PNG by their magic
//! bytes, decoded (at most 4096×4096) and re-encoded as PNG under a name the server chooses
//! (the user id), served as /avatars/{id}.png with nosniff.

use std::io::Cursor;
use std::path::PathBuf;

use bytes::Buf;
use futures_util::TryStreamExt;
use image::{ImageFormat, ImageReader, Limits};
use serde_json::json;
use warp::filters::multipart::FormData;
use warp::filters::BoxedFilter;
use warp::Filter;

use super::auth::authed;
use super::error::reply;
use super::{ok, with, Answer};
use crate::error::Error;
use crate::session::Authed;
use crate::store::users;
use crate::App;

pub const MAX_BYTES: u64 = 2 * 1024 * 1024;
pub const MAX_SIDE: u32 = 4096;
/// Where the browser finds avatars: this path, the user id, ".png" (SPEC §7).
pub const PUBLIC_PATH: &str = "/avatars/";

pub fn folder(app: &App) -> PathBuf {
    app.config.data_dir.join("avatars")
}

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // POST /api/v1/image — multipart, the file in the part "profile".
    warp::path!("image")
        .and(warp::post())
        .and(authed(app.clone()))
        .and(with(&app))
        // The whole body: the file plus a little multipart framing.
        .and(warp::body::content_length_limit(MAX_BYTES + 16 * 1024))
        .and(warp::multipart::form().max_length(MAX_BYTES + 16 * 1024))
        .then(upload)
        .map(reply)
        .boxed()
}

async fn upload(who: Authed, app: App, form: FormData) -> Answer {
    let png = png_from_part(form, "profile").await?;
    let dir = folder(&app);
    let id = who.user.id.0;
    let write = async {
        tokio::fs::create_dir_all(&dir).await?;
        // Write then rename: a reader never sees half a file.
        let temp = dir.join(format!("{id}.png.part"));
        tokio::fs::write(&temp, &png).await?;
        tokio::fs::rename(&temp, dir.join(format!("{id}.png"))).await
    };
    write
        .await
        .map_err(|e| Error::Internal(format!("avatar write: {e}")))?;
    let user = who.user.id;
    app.store
        .write(move |c| users::set_has_avatar(c, user))
        .await
        .map_err(Error::from)?;
    ok(&json!({"path": PUBLIC_PATH}))
}

/// The multipart part `name` (at most [`MAX_BYTES`]), JPEG or PNG, re-encoded as PNG off the
/// async threads.
pub async fn png_from_part(form: FormData, name: &str) -> Result<Vec<u8>, Error> {
    let bytes = read_part(form, name).await?;
    tokio::task::spawn_blocking(move || reencode(&bytes))
        .await
        .map_err(|e| Error::Internal(format!("image task: {e}")))?
}

async fn read_part(form: FormData, name: &str) -> Result<Vec<u8>, Error> {
    let mut parts = form;
    while let Some(part) = parts
        .try_next()
        .await
        .map_err(|e| Error::Malformed(format!("multipart: {e}")))?
    {
        if part.name() != name {
            continue;
        }
        let mut data = Vec::new();
        let mut stream = part.stream();
        while let Some(chunk) = stream
            .try_next()
            .await
            .map_err(|e| Error::Malformed(format!("multipart: {e}")))?
        {
            data.extend_from_slice(chunk.chunk());
            if data.len() as u64 > MAX_BYTES {
                return Err(Error::TooLarge);
            }
        }
        return Ok(data);
    }
    Err(Error::Malformed(format!("no {name} part")))
}

/// JPEG or PNG by content (never by name or declared type), decoded within limits, as PNG.
fn reencode(bytes: &[u8]) -> Result<Vec<u8>, Error> {
    let format = if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        ImageFormat::Png
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        ImageFormat::Jpeg
    } else {
        return Err(Error::NotAnImage);
    };
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    reader.limits(limits);
    let image = reader.decode().map_err(|_| Error::NotAnImage)?;
    let mut out = Cursor::new(Vec::new());
    image
        .write_to(&mut out, ImageFormat::Png)
        .map_err(|e| Error::Internal(format!("png encode: {e}")))?;
    Ok(out.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(w: u32, h: u32) -> Vec<u8> {
        let mut out = Cursor::new(Vec::new());
        image::RgbImage::new(w, h)
            .write_to(&mut out, ImageFormat::Png)
            .unwrap();
        out.into_inner()
    }

    #[test]
    fn pngs_and_jpegs_are_reencoded_and_others_refused() {
        assert!(reencode(&png(8, 8)).unwrap().starts_with(b"\x89PNG"));
        let mut jpeg = Cursor::new(Vec::new());
        image::RgbImage::new(8, 8)
            .write_to(&mut jpeg, ImageFormat::Jpeg)
            .unwrap();
        assert!(reencode(jpeg.get_ref()).unwrap().starts_with(b"\x89PNG"));
        assert!(matches!(
            reencode(b"hello, I am text pretending"),
            Err(Error::NotAnImage)
        ));
        let mut fake = b"\x89PNG\r\n\x1a\n".to_vec();
        fake.extend_from_slice(b"not really a png");
        assert!(
            matches!(reencode(&fake), Err(Error::NotAnImage)),
            "magic bytes alone are not enough"
        );
    }

    #[test]
    fn images_over_4096_pixels_a_side_are_refused() {
        assert!(matches!(reencode(&png(4097, 1)), Err(Error::NotAnImage)));
        assert!(reencode(&png(4096, 1)).is_ok());
    }
}
