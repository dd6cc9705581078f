//! Content blocks (admin/edit-content): admins write the title, text and image of each block
//! per language; user pages read them on every visit, so a change shows without a redeploy.
//!
//! - GET  /api/v1/content/{block}?lang=xx            any signed-in account; falls back to en
//! - GET  /api/v1/admin/content                      admin: every block in every language
//! - PUT  /api/v1/admin/content/{block}/{lang}        admin: {title, description, clearImage?}
//! - POST /api/v1/admin/content/{block}/{lang}/image  admin: multipart part "image", ≤ 2 MB
//!
//! Images are JPEG or PNG re-encoded as PNG under a name the server chooses, served from
//! /content/{file} like avatars.

use rusqlite::{params, Connection, OptionalExtension, Row};
use serde::Deserialize;
use serde_json::{json, Value};
use warp::filters::multipart::FormData;
use warp::filters::BoxedFilter;
use warp::{Filter, Rejection};

use super::{images, json, reject};
use crate::error::ApiError;
use crate::session::{self, Authed};
use crate::{now_ms, App};
use lvlx_core::content;
use lvlx_core::validation::{self, Field};

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

fn block_json(r: &Row) -> rusqlite::Result<Value> {
    let image: Option<String> = r.get(4)?;
    Ok(json!({
        "block": r.get::<_, String>(0)?,
        "language": r.get::<_, String>(1)?,
        "title": r.get::<_, String>(2)?,
        "description": r.get::<_, String>(3)?,
        "image": image.map(|file| format!("{PUBLIC_PATH}{file}")),
        "updatedAt": r.get::<_, i64>(5)?,
    }))
}

const COLUMNS: &str = "block, language, title, description, image, updated_at";

/// The block in `language`, else in English, else empty.
fn read(c: &Connection, block: &str, language: &str) -> Result<Value, ApiError> {
    let mut stmt = c.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM content_blocks WHERE block = ?1 AND language IN (?2, 'en')
         ORDER BY language = ?2 DESC LIMIT 1"
    ))?;
    Ok(stmt
        .query_row(params![block, language], block_json)
        .optional()?
        .unwrap_or_else(|| {
            json!({"block": block, "language": language, "title": "", "description": "", "image": null, "updatedAt": null})
        }))
}

fn checked(block: &str, language: &str) -> Result<(), ApiError> {
    if content::is_block(block) && content::is_language(language) {
        Ok(())
    } else {
        Err(ApiError::NotFound)
    }
}

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    let with = {
        let app = app.clone();
        warp::any().map(move || app.clone())
    };
    let public = warp::path!("content" / String)
        .and(warp::get())
        .and(session::authed(app.clone()))
        .and(warp::query::<Language>())
        .and(with.clone())
        .and_then(
            |block: String, _: Authed, q: Language, app: App| async move {
                let language = q.lang.unwrap_or_else(|| "en".into());
                checked(&block, &language).map_err(reject)?;
                let value = app
                    .db
                    .read(move |c| read(c, &block, &language))
                    .await
                    .map_err(reject)?;
                Ok::<_, Rejection>(json(&value))
            },
        );
    let list = warp::path!("admin" / "content")
        .and(warp::get())
        .and(session::admin(app.clone()))
        .and(with.clone())
        .and_then(|_: Authed, app: App| async move {
            let blocks = app
                .db
                .read(|c| {
                    let mut stmt = c.prepare_cached(&format!(
                        "SELECT {COLUMNS} FROM content_blocks ORDER BY block, language"
                    ))?;
                    let rows = stmt.query_map([], block_json)?;
                    Ok(rows.collect::<Result<Vec<_>, _>>()?)
                })
                .await
                .map_err(reject)?;
            Ok::<_, Rejection>(json(&json!({ "blocks": blocks })))
        });
    let edit = warp::path!("admin" / "content" / String / String)
        .and(warp::put())
        .and(session::admin(app.clone()))
        .and(warp::body::content_length_limit(MAX_EDIT_BODY))
        .and(warp::body::json::<Edit>())
        .and(with.clone())
        .and_then(|block: String, language: String, who: Authed, edit: Edit, app: App| async move {
            checked(&block, &language).map_err(reject)?;
            let title = edit.title.trim().to_string();
            let description = edit.description.trim().to_string();
            for (field, value) in [(Field::ContentTitle, &title), (Field::ContentDescription, &description)] {
                validation::validate(field, value, None).map_err(|e| reject(ApiError::Invalid(e)))?;
            }
            let removed = app
                .db
                .run(move |c| {
                    let old: Option<String> = c
                        .query_row(
                            "SELECT image FROM content_blocks WHERE block = ?1 AND language = ?2",
                            params![block, language],
                            |r| r.get(0),
                        )
                        .optional()?
                        .flatten();
                    c.execute(
                        "INSERT INTO content_blocks (block, language, title, description, image, updated_at, updated_by)
                         VALUES (?1, ?2, ?3, ?4, NULL, ?5, ?6)
                         ON CONFLICT (block, language) DO UPDATE SET title = ?3, description = ?4,
                           image = CASE WHEN ?7 THEN NULL ELSE image END, updated_at = ?5, updated_by = ?6",
                        params![block, language, title, description, now_ms(), who.user.id.0, edit.clear_image],
                    )?;
                    let value = read(c, &block, &language)?;
                    Ok((value, old.filter(|_| edit.clear_image)))
                })
                .await
                .map_err(reject)?;
            let (value, stale) = removed;
            if let Some(file) = stale {
                let _ = tokio::fs::remove_file(folder(&app).join(file)).await;
            }
            Ok::<_, Rejection>(json(&value))
        });
    let image = warp::path!("admin" / "content" / String / String / "image")
        .and(warp::post())
        .and(session::admin(app))
        .and(with)
        .and(warp::body::content_length_limit(
            images::MAX_BYTES + 16 * 1024,
        ))
        .and(warp::multipart::form().max_length(images::MAX_BYTES + 16 * 1024))
        .and_then(upload);
    public
        .or(list)
        .unify()
        .or(edit)
        .unify()
        .or(image)
        .unify()
        .boxed()
}

async fn upload(
    block: String,
    language: String,
    who: Authed,
    app: App,
    form: FormData,
) -> Result<warp::reply::Response, Rejection> {
    checked(&block, &language).map_err(reject)?;
    let png = images::png_from_part(form, "image").await.map_err(reject)?;
    let dir = folder(&app);
    // A fresh name per upload: pages holding the old address keep a consistent image.
    let file = format!("{block}-{language}-{}.png", crate::crypto::random_hex(8));
    let write = async {
        tokio::fs::create_dir_all(&dir).await?;
        let temp = dir.join(format!("{file}.part"));
        tokio::fs::write(&temp, &png).await?;
        tokio::fs::rename(&temp, dir.join(&file)).await
    };
    write
        .await
        .map_err(|e| reject(ApiError::Internal(format!("content image write: {e}"))))?;
    let name = file.clone();
    let (value, old) = app
        .db
        .run(move |c| {
            let old: Option<Option<String>> = c
                .query_row(
                    "SELECT image FROM content_blocks WHERE block = ?1 AND language = ?2",
                    params![block, language],
                    |r| r.get(0),
                )
                .optional()?;
            let Some(old) = old else {
                // The text comes first: an image alone is not a block.
                return Err(ApiError::NotFound);
            };
            c.execute(
                "UPDATE content_blocks SET image = ?3, updated_at = ?4, updated_by = ?5
                 WHERE block = ?1 AND language = ?2",
                params![block, language, name, now_ms(), who.user.id.0],
            )?;
            Ok((read(c, &block, &language)?, old))
        })
        .await
        .map_err(|e| {
            let path = folder(&app).join(&file);
            tokio::spawn(async move { tokio::fs::remove_file(path).await });
            reject(e)
        })?;
    if let Some(old) = old {
        let _ = tokio::fs::remove_file(folder(&app).join(old)).await;
    }
    Ok(json(&value))
}
