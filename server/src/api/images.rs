//! POST /api/v1/image: a member's profile image, read from its multipart part and handed to
//! `crate::images` (limits, turns, re-encoding) and `accounts::avatars` (storage, the key).

use bytes::Buf;
use futures_util::TryStreamExt;
use tokio::sync::{Semaphore, SemaphorePermit};
use warp::filters::multipart::FormData;
use warp::Filter;

use super::auth::authed_app;
use super::error::reply;
use super::openapi::errors::*;
use super::openapi::Multipart;
use super::{ok, Answer, Route};
use crate::error::Error;
use crate::images::{Kind, MAX_BYTES};
use crate::session::Authed;
use crate::App;

/// The largest multipart body an image upload may send: the file plus a little framing.
pub const MAX_BODY: u64 = MAX_BYTES + 16 * 1024;

/// This module's operations, merged into the served document by `api::openapi`.
#[derive(utoipa::OpenApi)]
#[openapi(paths(upload))]
pub(super) struct Doc;

pub fn routes(app: App) -> Route {
    // Multipart, the file in the part "profile".
    warp::path!("image")
        .boxed()
        .and(warp::post())
        .and(authed_app(&app))
        .and(warp::body::content_length_limit(MAX_BODY))
        .and(warp::multipart::form().max_length(MAX_BODY))
        .then(upload)
        .map(reply)
        .boxed()
}

/// Profile image (multipart part "profile", JPEG or PNG ≤ 2 MB), re-encoded as PNG
///
/// The image is then served at `GET /avatars/{userId}.png?k={key}` (the `path` answered, the user's id, `.png`, and the key; the sign-in payload carries the same key as `avatarKey`). Without the key, or with another's, that address answers 404.
#[utoipa::path(
    post,
    path = "/image",
    operation_id = "post_image",
    security(("bearer" = [])),
    request_body(content = inline(Multipart), content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "OK", body = crate::accounts::avatars::AvatarSet),
        Member,
        (status = 413, response = E413),
        (status = 415, response = E415),
    ),
)]
async fn upload(who: Authed, app: App, form: FormData) -> Answer {
    let png = crate::images::png_from(
        &app.decodes,
        Kind::Avatar,
        read_part(form, "profile", &app.uploads),
    )
    .await?;
    ok(&crate::accounts::avatars::set(&app.store, &app.mac_key, who.user.id, png).await?)
}

/// The bytes of the multipart part `name`, refused past [`MAX_BYTES`].
/// Each chunk takes its bytes from `budget` as it arrives (`crate::images::UPLOAD_BYTES`); the
/// permit holds them until the caller drops it.
pub async fn read_part<'a>(
    form: FormData,
    name: &str,
    budget: &'a Semaphore,
) -> Result<(Vec<u8>, SemaphorePermit<'a>), Error> {
    let take = |n: usize| async move {
        budget
            .acquire_many(n as u32)
            .await
            .map_err(|e| Error::Internal(format!("image uploads: {e}")))
    };
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
        let mut held = take(0).await?;
        let mut stream = part.stream();
        while let Some(chunk) = stream
            .try_next()
            .await
            .map_err(|e| Error::Malformed(format!("multipart: {e}")))?
        {
            let bytes = chunk.chunk();
            if (data.len() + bytes.len()) as u64 > MAX_BYTES {
                return Err(Error::TooLarge);
            }
            held.merge(take(bytes.len()).await?);
            data.extend_from_slice(bytes);
        }
        return Ok((data, held));
    }
    Err(Error::Malformed(format!("no {name} part")))
}
