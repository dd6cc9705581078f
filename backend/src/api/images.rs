//! Profile images (SPEC §4 "Avatar", §7 POST image): at most 2 MB, JPEG or PNG by their magic
//! bytes, decoded (at most 4096×4096) and re-encoded as PNG under a name the server chooses
//! (the user id), stored in the database (`store::uploads`), served as /avatars/{id}.png?k={key} with nosniff: the key is a MAC of the id
//! only the server can make (it reaches the member in their sign-in payload), so sequential ids
//! no longer list every member's face.

use bytes::Buf;
use futures_util::TryStreamExt;
use lvlx_core::images::{self, ImageError};
use warp::filters::multipart::FormData;
use warp::filters::BoxedFilter;
use warp::Filter;

use super::auth::authed;
use super::error::reply;
use super::{ok, with, Answer};
use crate::error::Error;
use crate::session::Authed;
use crate::App;

pub const MAX_BYTES: u64 = 2 * 1024 * 1024;
/// Where the browser finds avatars: this path, the user id, ".png" (SPEC §7).
pub const PUBLIC_PATH: &str = "/avatars/";

/// The key that opens user `id`'s avatar (128 bits of a MAC under the server's key).
pub fn avatar_key(mac_key: &[u8], id: i64) -> String {
    let mut mac = crate::crypto::hmac_hex(mac_key, &["avatar", &id.to_string()]);
    mac.truncate(32);
    mac
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
    let png = png_from_part(&app, form, "profile").await?;
    ok(&crate::accounts::avatars::set(&app, who.user.id, png).await?)
}

/// The stored name of user `id`'s avatar.
pub fn avatar_name(id: i64) -> String {
    format!("avatars/{id}.png")
}

/// Images decoded at once: each may take up to 64 MiB (`images::MAX_DECODED`) and a core, so
/// uploads beyond these wait their turn (16 bombs at once took the server to 3.9 GiB).
pub const DECODES_AT_ONCE: usize = 2;

/// Upload bodies read into memory at once (up to [`MAX_BYTES`] each): the rest wait, their bytes
/// still in the network's buffers, until a place frees or the request deadline passes (250
/// uploads of 2 MB at once took 630 MB when every body was read before waiting to decode).
pub const UPLOADS_AT_ONCE: usize = 8;

/// The multipart part `name` (at most [`MAX_BYTES`]), JPEG or PNG, re-encoded as PNG off the
/// async threads: [`UPLOADS_AT_ONCE`] read at a time, [`DECODES_AT_ONCE`] decoded.
pub async fn png_from_part(app: &App, form: FormData, name: &str) -> Result<Vec<u8>, Error> {
    let _place = app
        .uploads
        .acquire()
        .await
        .map_err(|e| Error::Internal(format!("image uploads: {e}")))?;
    let bytes = read_part(form, name).await?;
    let _turn = app
        .decodes
        .acquire()
        .await
        .map_err(|e| Error::Internal(format!("image decodes: {e}")))?;
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

/// The core's acceptance rule ([`lvlx_core::images::reencode`]) in the server's errors.
fn reencode(bytes: &[u8]) -> Result<Vec<u8>, Error> {
    images::reencode(bytes).map_err(|e| match e {
        ImageError::NotAnImage => Error::NotAnImage,
        ImageError::Encode(e) => Error::Internal(e),
    })
}
