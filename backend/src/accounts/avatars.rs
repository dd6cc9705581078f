//! A member's profile image: the PNG the upload was re-encoded to (`api::images`), stored under
//! the name the server chooses with the member's avatar flag, in one transaction, so every
//! instance serves it at once and a failure leaves neither.

use serde_json::{json, Value};

use crate::api::images::{avatar_key, avatar_name, PUBLIC_PATH};
use crate::error::Error;
use crate::store::{uploads, users};
use crate::user::UserId;
use crate::App;

/// Stores `png` as `user`'s avatar → {path, key} (the key opens it: `api::images::avatar_key`).
pub async fn set(app: &App, user: UserId, png: Vec<u8>) -> Result<Value, Error> {
    let id = user.0;
    app.store
        .write(move |c| {
            c.transaction(|tx| {
                uploads::put(tx, &avatar_name(id), &png, crate::now_ms())?;
                users::set_has_avatar(tx, user)
            })
        })
        .await?;
    Ok(json!({"path": PUBLIC_PATH, "key": avatar_key(&app.mac_key, id)}))
}
