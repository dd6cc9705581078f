//! Content blocks (admin/edit-content): admins write the title, text and image of each block
//! per language; user pages read them on every visit, so a change shows without a redeploy.
//! Every change is written with its audit row in one transaction.
//!
//! Images are JPEG or PNG re-encoded as PNG under a name the server chooses, stored in the
//! database (`store::uploads`) and served from /content/{file} like avatars.

use lvlx_core::content;
use lvlx_core::validation::{self, Field};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::Error;
use crate::store::content::{self as blocks, Block, Edit as StoredEdit};
use crate::store::{uploads, Conn};
use crate::user::UserId;
use crate::{now_ms, App};

/// A block's JSON: 4000 characters of up to 4 bytes each, escaped, fit well within this.
pub const MAX_EDIT_BODY: u64 = 64 * 1024;

/// Where the browser finds content images.
pub const PUBLIC_PATH: &str = "/content/";

/// The stored name (`store::uploads`) of the content image `file`.
pub fn stored_name(file: &str) -> String {
    format!("content/{file}")
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Edit {
    title: String,
    description: String,
    #[serde(default)]
    clear_image: bool,
}

fn block_json(b: &Block) -> Value {
    json!({
        "block": b.block,
        "language": b.language,
        "title": b.title,
        "description": b.description,
        "image": b.image.as_ref().map(|file| format!("{PUBLIC_PATH}{file}")),
        "updatedAt": b.updated_at,
    })
}

/// The block in `language`, else in the fallback language, else empty.
fn shown(found: Option<Block>, block: &str, language: &str) -> Value {
    found.as_ref().map(block_json).unwrap_or_else(|| {
        json!({"block": block, "language": language, "title": "", "description": "", "image": null, "updatedAt": null})
    })
}

/// Appends an admin's change of a block (as shown before and after) to the append-only audit.
fn audit(
    c: Conn,
    admin: UserId,
    at: i64,
    before: Option<Value>,
    after: &Value,
) -> Result<(), Error> {
    crate::store::audit::append(c, "content", None, admin, at, before, after)?;
    Ok(())
}

/// NotFound unless `block` is a content block and `language` one of the app's.
pub fn checked(block: &str, language: &str) -> Result<(), Error> {
    if content::is_block(block) && lvlx_core::is_language(language) {
        Ok(())
    } else {
        Err(Error::NotFound)
    }
}

/// Block `block` in `language` (English when it has none), as user pages show it.
pub async fn read(app: &App, block: String, language: Option<String>) -> Result<Value, Error> {
    let language = language.unwrap_or_else(|| lvlx_core::DEFAULT_LANGUAGE.into());
    checked(&block, &language)?;
    app.store
        .read(move |c| {
            let order = content::fallback_order(&language);
            let found = blocks::first_of(c, &block, &order)?;
            Ok::<_, Error>(shown(found, &block, &language))
        })
        .await
}

/// A block anyone may read (the landing page's terms, privacy and risk notices), as [`read`];
/// NotFound for any other.
pub async fn read_public(
    app: &App,
    block: String,
    language: Option<String>,
) -> Result<Value, Error> {
    if !content::is_public(&block) {
        return Err(Error::NotFound);
    }
    read(app, block, language).await
}

/// Every block in every language: `{blocks}`.
pub async fn all(app: &App) -> Result<Value, Error> {
    let all = app.store.read(blocks::all).await?;
    let blocks: Vec<Value> = all.iter().map(block_json).collect();
    Ok(json!({ "blocks": blocks }))
}

/// An admin's edit of a block's text (and clearing its image), with its audit row.
pub async fn edit(
    app: &App,
    admin: UserId,
    block: String,
    language: String,
    edit: Edit,
) -> Result<Value, Error> {
    checked(&block, &language)?;
    let title = edit.title.trim().to_string();
    let description = edit.description.trim().to_string();
    validation::validate(Field::ContentTitle, &title, None)?;
    validation::validate(Field::ContentDescription, &description, None)?;
    app.store
        .write(move |c| {
            c.transaction(|tx| {
                let before = blocks::first_of(tx, &block, &[&language])?;
                let old = before.as_ref().and_then(|b| b.image.clone());
                let before = before.map(|b| shown(Some(b), &block, &language));
                let at = now_ms();
                blocks::write_text(
                    tx,
                    &StoredEdit {
                        block: &block,
                        language: &language,
                        title: &title,
                        description: &description,
                        clear_image: edit.clear_image,
                        by: admin,
                        at,
                    },
                )?;
                let value = shown(
                    blocks::first_of(tx, &block, &[&language])?,
                    &block,
                    &language,
                );
                audit(tx, admin, at, before, &value)?;
                if let Some(file) = old.filter(|_| edit.clear_image) {
                    uploads::remove(tx, &stored_name(&file))?;
                }
                Ok::<_, Error>(value)
            })
        })
        .await
}

/// An admin's new image for a block whose text exists: stored under a fresh name with the
/// block and its audit row in one transaction; the old image goes in the same one.
pub async fn set_image(
    app: &App,
    admin: UserId,
    block: String,
    language: String,
    png: Vec<u8>,
) -> Result<Value, Error> {
    checked(&block, &language)?;
    // A fresh name per upload: pages holding the old address keep a consistent image.
    let file = format!("{block}-{language}-{}.png", crate::crypto::random_hex(8));
    app.store
        .write(move |c| {
            c.transaction(|tx| {
                // The text comes first: an image alone is not a block.
                let before = blocks::first_of(tx, &block, &[&language])?.ok_or(Error::NotFound)?;
                let old = before.image.clone();
                let before = shown(Some(before), &block, &language);
                let at = now_ms();
                uploads::put(tx, &stored_name(&file), &png, at)?;
                blocks::set_image(tx, &block, &language, &file, admin, at)?;
                if let Some(old) = old {
                    uploads::remove(tx, &stored_name(&old))?;
                }
                let value = shown(
                    blocks::first_of(tx, &block, &[&language])?,
                    &block,
                    &language,
                );
                audit(tx, admin, at, Some(before), &value)?;
                Ok(value)
            })
        })
        .await
}
