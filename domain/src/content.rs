//! Content blocks (admin/edit-content): admins write the title, text and image of each block
//! per language; user pages read them on every visit, so a change shows without a redeploy.
//! Every change is written with its audit row in one transaction.
//!
//! Images are JPEG or PNG re-encoded as PNG under a name the server chooses, stored in the
//! database (`store::uploads`) and served from /content/{file} like avatars.

use lvlx_core::content;
use lvlx_core::validation::{self, Field};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::Error;
use crate::store::content::{self as blocks, Block, Edit as StoredEdit};
use crate::store::{uploads, Conn};
use crate::user::UserId;
use crate::{now_ms, Store};

/// A block's JSON: 4000 characters of up to 4 bytes each, escaped, fit well within this.
pub const MAX_EDIT_BODY: u64 = 64 * 1024;

/// Where the browser finds content images.
pub const PUBLIC_PATH: &str = "/content/";

/// The stored name (`store::uploads`) of the content image `file`.
pub fn stored_name(file: &str) -> String {
    format!("content/{file}")
}

#[derive(Deserialize, utoipa::ToSchema)]
#[schema(as = ContentEdit)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Edit {
    title: String,
    description: String,
    #[serde(default)]
    clear_image: bool,
}

/// A content block as pages show it (empty when nobody wrote it yet).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContentBlock {
    block: String,
    language: String,
    title: String,
    description: String,
    /// Where the browser finds its image.
    image: Option<String>,
    /// Milliseconds; null when never written.
    updated_at: Option<i64>,
}

impl ContentBlock {
    fn of(b: &Block) -> Self {
        ContentBlock {
            block: b.block.clone(),
            language: b.language.clone(),
            title: b.title.clone(),
            description: b.description.clone(),
            image: b.image.as_ref().map(|file| format!("{PUBLIC_PATH}{file}")),
            updated_at: Some(b.updated_at),
        }
    }

    /// As the audit keeps it.
    fn value(&self) -> Result<Value, Error> {
        serde_json::to_value(self).map_err(|e| Error::Internal(e.to_string()))
    }
}

/// Every block in every language.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ContentBlocks {
    blocks: Vec<ContentBlock>,
}

/// The block in `language`, else in the fallback language, else empty.
fn shown(found: Option<Block>, block: &str, language: &str) -> ContentBlock {
    found
        .as_ref()
        .map(ContentBlock::of)
        .unwrap_or_else(|| ContentBlock {
            block: block.into(),
            language: language.into(),
            title: String::new(),
            description: String::new(),
            image: None,
            updated_at: None,
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
pub async fn read(
    store: &Store,
    block: String,
    language: Option<String>,
) -> Result<ContentBlock, Error> {
    // A browser's regional tag (es-ES, pt-BR) reads its language's block.
    let language = match language {
        None => lvlx_core::DEFAULT_LANGUAGE.to_string(),
        Some(tag) => lvlx_core::language_tag(&tag)
            .unwrap_or_default()
            .to_string(),
    };
    checked(&block, &language)?;
    store
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
    store: &Store,
    block: String,
    language: Option<String>,
) -> Result<ContentBlock, Error> {
    if !content::is_public(&block) {
        return Err(Error::NotFound);
    }
    read(store, block, language).await
}

/// Every block in every language: `{blocks}`.
pub async fn all(store: &Store) -> Result<ContentBlocks, Error> {
    let all = store.read(blocks::all).await?;
    let blocks = all.iter().map(ContentBlock::of).collect();
    Ok(ContentBlocks { blocks })
}

/// An admin's edit of a block's text (and clearing its image), with its audit row.
pub async fn edit(
    store: &Store,
    admin: UserId,
    block: String,
    language: String,
    edit: Edit,
) -> Result<ContentBlock, Error> {
    checked(&block, &language)?;
    let title = edit.title.trim().to_string();
    let description = edit.description.trim().to_string();
    validation::validate(Field::ContentTitle, &title, None)?;
    validation::validate(Field::ContentDescription, &description, None)?;
    store
        .write(move |c| {
            c.transaction(|tx| {
                let before = blocks::first_of(tx, &block, &[&language])?;
                let old = before.as_ref().and_then(|b| b.image.clone());
                let before = match before {
                    Some(b) => Some(shown(Some(b), &block, &language).value()?),
                    None => None,
                };
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
                audit(tx, admin, at, before, &value.value()?)?;
                if let Some(file) = old.filter(|_| edit.clear_image) {
                    uploads::remove(tx, &stored_name(&file))?;
                }
                Ok::<_, Error>(value)
            })
        })
        .await
}

/// An admin's new image (what `image` reads) for a block whose text exists, re-encoded
/// (`crate::images`): stored under a fresh name with the block and its audit row in one
/// transaction; the old image goes in the same one. The block is checked before the image is
/// read: no decode for a block that does not exist.
/// `decodes`: the turns to decode an image (`images::png_from`).
pub async fn set_image(
    store: &Store,
    decodes: &tokio::sync::Semaphore,
    admin: UserId,
    block: String,
    language: String,
    image: impl std::future::Future<Output = Result<(Vec<u8>, tokio::sync::SemaphorePermit<'_>), Error>>,
) -> Result<ContentBlock, Error> {
    checked(&block, &language)?;
    let png = crate::images::png_from(decodes, crate::images::Kind::Content, image).await?;
    // A fresh name per upload: pages holding the old address keep a consistent image.
    let file = format!("{block}-{language}-{}.png", crate::crypto::random_hex(8));
    store
        .write(move |c| {
            c.transaction(|tx| {
                // The text comes first: an image alone is not a block.
                let before = blocks::first_of(tx, &block, &[&language])?.ok_or(Error::NotFound)?;
                let old = before.image.clone();
                let before = shown(Some(before), &block, &language).value()?;
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
                audit(tx, admin, at, Some(before), &value.value()?)?;
                Ok(value)
            })
        })
        .await
}
