//! Content blocks (admin/edit-content): admins write the title, text and image of each block
//! per language; user pages read them on every visit, so a change shows without a redeploy.
//!
//! Images are JPEG or PNG re-encoded as PNG under a name the server chooses, served from
//! /content/{file} like avatars.

use lvlx_core::content;
use lvlx_core::validation::{self, Field};
use serde::Deserialize;
use serde_json::{json, Value};
use warp::filters::multipart::FormData;
use warp::filters::BoxedFilter;
use warp::Filter;

use super::auth::{admin, authed};
use super::error::reply;
use super::{images, ok, with, Answer};
use crate::error::Error;
use crate::session::Authed;
use crate::store::content::{self as blocks, Block, Edit as StoredEdit};
use crate::store::Conn;
use crate::user::UserId;
use crate::{now_ms, App};

/// A block's JSON: 4000 characters of up to 4 bytes each, escaped, fit well within this.
const MAX_EDIT_BODY: u64 = 64 * 1024;

/// Where the browser finds content images.
pub const PUBLIC_PATH: &str = "/content/";

pub fn folder(app: &App) -> std::path::PathBuf {
    app.config.data_dir.join("content")
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Language {
    lang: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Edit {
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

fn checked(block: &str, language: &str) -> Result<(), Error> {
    if content::is_block(block) && lvlx_core::is_language(language) {
        Ok(())
    } else {
        Err(Error::NotFound)
    }
}

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // GET /api/v1/content/{block}?lang=xx — any signed-in account; falls back to English.
    let public = warp::path!("content" / String)
        .and(warp::get())
        .and(authed(app.clone()))
        .and(warp::query::<Language>())
        .and(with(&app))
        .then(
            |block: String, _: Authed, q: Language, app: App| async move {
                let language = q.lang.unwrap_or_else(|| lvlx_core::DEFAULT_LANGUAGE.into());
                checked(&block, &language)?;
                let value = app
                    .store
                    .read(move |c| {
                        let order = content::fallback_order(&language);
                        let found = blocks::first_of(c, &block, &order)?;
                        Ok::<_, Error>(shown(found, &block, &language))
                    })
                    .await?;
                ok(&value)
            },
        )
        .map(reply);
    // GET /api/v1/admin/content — admin: every block in every language.
    let list = warp::path!("admin" / "content")
        .and(warp::get())
        .and(admin(app.clone()))
        .and(with(&app))
        .then(|_: Authed, app: App| async move {
            let all = app.store.read(blocks::all).await.map_err(Error::from)?;
            let blocks: Vec<Value> = all.iter().map(block_json).collect();
            ok(&json!({ "blocks": blocks }))
        })
        .map(reply);
    // PUT /api/v1/admin/content/{block}/{lang} — admin: {title, description, clearImage?}.
    let edit = warp::path!("admin" / "content" / String / String)
        .and(warp::put())
        .and(admin(app.clone()))
        .and(warp::body::content_length_limit(MAX_EDIT_BODY))
        .and(warp::body::json::<Edit>())
        .and(with(&app))
        .then(edit)
        .map(reply);
    // POST /api/v1/admin/content/{block}/{lang}/image — admin: multipart part "image", ≤ 2 MB.
    let image = warp::path!("admin" / "content" / String / String / "image")
        .and(warp::post())
        .and(admin(app.clone()))
        .and(with(&app))
        .and(warp::body::content_length_limit(
            images::MAX_BYTES + 16 * 1024,
        ))
        .and(warp::multipart::form().max_length(images::MAX_BYTES + 16 * 1024))
        .then(upload)
        .map(reply);
    public
        .or(list)
        .unify()
        .or(edit)
        .unify()
        .or(image)
        .unify()
        .boxed()
}

async fn edit(block: String, language: String, who: Authed, edit: Edit, app: App) -> Answer {
    checked(&block, &language)?;
    let title = edit.title.trim().to_string();
    let description = edit.description.trim().to_string();
    validation::validate(Field::ContentTitle, &title, None)?;
    validation::validate(Field::ContentDescription, &description, None)?;
    let (value, stale) = app
        .store
        .write(move |c| {
            let before = blocks::first_of(c, &block, &[&language])?;
            let old = before.as_ref().and_then(|b| b.image.clone());
            let before = before.map(|b| shown(Some(b), &block, &language));
            let at = now_ms();
            blocks::write_text(
                c,
                &StoredEdit {
                    block: &block,
                    language: &language,
                    title: &title,
                    description: &description,
                    clear_image: edit.clear_image,
                    by: who.user.id,
                    at,
                },
            )?;
            let value = shown(
                blocks::first_of(c, &block, &[&language])?,
                &block,
                &language,
            );
            audit(c, who.user.id, at, before, &value)?;
            Ok::<_, Error>((value, old.filter(|_| edit.clear_image)))
        })
        .await?;
    if let Some(file) = stale {
        let _ = tokio::fs::remove_file(folder(&app).join(file)).await;
    }
    ok(&value)
}

async fn upload(block: String, language: String, who: Authed, app: App, form: FormData) -> Answer {
    checked(&block, &language)?;
    let png = images::png_from_part(&app, form, "image").await?;
    let dir = folder(&app);
    // A fresh name per upload: pages holding the old address keep a consistent image.
    let file = format!("{block}-{language}-{}.png", crate::crypto::random_hex(8));
    let write = async {
        tokio::fs::create_dir_all(&dir).await?;
        let temp = dir.join(format!("{file}.{}.part", crate::crypto::random_hex(8)));
        tokio::fs::write(&temp, &png).await?;
        tokio::fs::rename(&temp, dir.join(&file)).await
    };
    write
        .await
        .map_err(|e| Error::Internal(format!("content image write: {e}")))?;
    let name = file.clone();
    let stored = app
        .store
        .write(move |c| {
            // The text comes first: an image alone is not a block.
            let before = blocks::first_of(c, &block, &[&language])?.ok_or(Error::NotFound)?;
            let old = before.image.clone();
            let before = shown(Some(before), &block, &language);
            let at = now_ms();
            blocks::set_image(c, &block, &language, &name, who.user.id, at)?;
            let value = shown(
                blocks::first_of(c, &block, &[&language])?,
                &block,
                &language,
            );
            audit(c, who.user.id, at, Some(before), &value)?;
            Ok((value, old))
        })
        .await;
    let (value, old) = match stored {
        Ok(stored) => stored,
        Err(e) => {
            let _ = tokio::fs::remove_file(folder(&app).join(&file)).await;
            return Err(e);
        }
    };
    if let Some(old) = old {
        let _ = tokio::fs::remove_file(folder(&app).join(old)).await;
    }
    ok(&value)
}
