//! A member's profile image: the PNG the upload was re-encoded to (`crate::images`), stored
//! under the name the server chooses (the user id) with the member's avatar flag, in one
//! transaction, so every instance serves it at once and a failure leaves neither. It is served
//! as /avatars/{id}.png?k={key} with nosniff: the key is a MAC of the id only the server can make
//! (it reaches the member in their sign-in payload), so sequential ids do not list every
//! member's face.

use crate::error::Error;
use crate::store::{uploads, users};
use crate::user::UserId;
use crate::Store;

/// Where the browser finds avatars: this path, the user id, ".png"
/// (docs/product/accounts.md#avatars).
pub const PUBLIC_PATH: &str = "/avatars/";

/// The key that opens user `id`'s avatar (128 bits of a MAC under the server's key).
pub fn avatar_key(mac_key: &[u8], id: i64) -> String {
    let mut mac = crate::crypto::hmac_hex(mac_key, &["avatar", &id.to_string()]);
    mac.truncate(32);
    mac
}

/// The stored name of user `id`'s avatar.
pub fn avatar_name(id: i64) -> String {
    format!("avatars/{id}.png")
}

/// Where the new avatar is served, and the key that opens it.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct AvatarSet {
    /// "/avatars/".
    path: &'static str,
    /// Opens the image: ?k={key}.
    key: String,
}

/// Stores `png` as `user`'s avatar; its name is keyed with `mac_key`.
pub async fn set(
    store: &Store,
    mac_key: &[u8],
    user: UserId,
    png: Vec<u8>,
) -> Result<AvatarSet, Error> {
    let id = user.0;
    store
        .write(move |c| {
            c.transaction(|tx| {
                uploads::put(tx, &avatar_name(id), &png, crate::now_ms())?;
                users::set_has_avatar(tx, user)
            })
        })
        .await?;
    Ok(AvatarSet {
        path: PUBLIC_PATH,
        key: avatar_key(mac_key, id),
    })
}
