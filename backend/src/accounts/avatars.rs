//! A member's profile image: the PNG the upload was re-encoded to (`api::images`), stored under
//! the name the server chooses with the member's avatar flag, in one transaction, so every
//! instance serves it at once and a failure leaves neither.

use crate::api::images::{avatar_key, avatar_name, PUBLIC_PATH};
use crate::error::Error;
use crate::store::{uploads, users};
use crate::user::UserId;
use crate::App;

/// Stores `png` as `user`'s avatar → {path, key} (the key opens it: `api::images::avatar_key`).
/// Where the new avatar is served, and the key that opens it.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct AvatarSet {
    /// "/avatars/".
    path: &'static str,
    /// Opens the image: ?k={key}.
    key: String,
}

pub async fn set(app: &App, user: UserId, png: Vec<u8>) -> Result<AvatarSet, Error> {
    let id = user.0;
    app.store
        .write(move |c| {
            c.transaction(|tx| {
                uploads::put(tx, &avatar_name(id), &png, crate::now_ms())?;
                users::set_has_avatar(tx, user)
            })
        })
        .await?;
    Ok(AvatarSet {
        path: PUBLIC_PATH,
        key: avatar_key(&app.mac_key, id),
    })
}
