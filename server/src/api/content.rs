//! Content block routes (`crate::content`): members read blocks; admins list, edit and set
//! their images.

use serde::Deserialize;
use warp::filters::multipart::FormData;
use warp::Filter;

use super::auth::{admin, admin_app, authed};
use super::error::reply;
use super::openapi::errors::*;
use super::openapi::{LanguageCode, Multipart, PublicBlock};
use super::{first_of, images, ok, with, Answer, Route};
use crate::content::{self, Edit, MAX_EDIT_BODY};
use crate::session::Authed;
use crate::App;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Language {
    lang: Option<String>,
}

/// This module's operations, merged into the served document by `api::openapi`.
#[derive(utoipa::OpenApi)]
#[openapi(paths(read, list, edit, upload, read_public))]
pub(super) struct Doc;

pub fn routes(app: App) -> Route {
    // Any signed-in account; falls back to English.
    let public = warp::path!("content" / String)
        .boxed()
        .and(warp::get())
        .and(authed(app.clone()))
        .and(warp::query::<Language>())
        .and(with(&app))
        .then(read)
        .map(reply)
        .boxed();
    // Anyone, no session: the landing page's terms, privacy and risk notices only; falls back to
    // English.
    let open = warp::path!("public" / "content" / String)
        .boxed()
        .and(warp::get())
        .and(warp::query::<Language>())
        .and(with(&app))
        .then(read_public)
        .map(reply)
        .boxed();
    // Admin: every block in every language.
    let list = warp::path!("admin" / "content")
        .boxed()
        .and(warp::get())
        .and(admin_app(&app))
        .then(list)
        .map(reply)
        .boxed();
    // Admin: {title, description, clearImage?}.
    let edit = warp::path!("admin" / "content" / String / String)
        .boxed()
        .and(warp::put())
        .and(admin(app.clone()))
        .and(warp::body::content_length_limit(MAX_EDIT_BODY))
        .and(warp::body::json::<Edit>())
        .and(with(&app))
        .then(edit)
        .map(reply)
        .boxed();
    // Admin: multipart part "image", ≤ 2 MB.
    let image = warp::path!("admin" / "content" / String / String / "image")
        .boxed()
        .and(warp::post())
        .and(admin_app(&app))
        .and(warp::body::content_length_limit(images::MAX_BODY))
        .and(warp::multipart::form().max_length(images::MAX_BODY))
        .then(upload)
        .map(reply)
        .boxed();
    first_of([public, open, list, edit, image])
}

/// A content block in a language (falls back to English)
#[utoipa::path(
    get,
    path = "/content/{block}",
    operation_id = "get_content_block",
    security(("bearer" = [])),
    params(
        ("block" = String, Path),
        ("lang" = Option<LanguageCode>, Query),
    ),
    responses(
        (status = 200, description = "OK", body = crate::content::ContentBlock),
        Member,
        (status = 404, response = E404),
        (status = 405, response = E405),
    ),
)]
async fn read(block: String, _: Authed, q: Language, app: App) -> Answer {
    ok(&content::read(&app.store, block, q.lang).await?)
}

/// A public content block (terms, privacy, risk) in a language, without a session
#[utoipa::path(
    get,
    path = "/public/content/{block}",
    operation_id = "get_public_content_block",
    security(),
    params(
        ("block" = PublicBlock, Path),
        ("lang" = Option<LanguageCode>, Query),
    ),
    responses(
        (status = 200, description = "OK", body = crate::content::ContentBlock),
        (status = 400, response = E400),
        (status = 404, response = E404),
        (status = 405, response = E405),
        (status = 500, response = E500),
    ),
)]
async fn read_public(block: String, q: Language, app: App) -> Answer {
    ok(&content::read_public(&app.store, block, q.lang).await?)
}

/// Every content block in every language
///
/// Admins only (the role is re-read from the database).
#[utoipa::path(
    get,
    path = "/admin/content",
    operation_id = "get_admin_content",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "OK", body = crate::content::ContentBlocks),
        Admin,
    ),
)]
async fn list(_: Authed, app: App) -> Answer {
    ok(&content::all(&app.store).await?)
}

/// Writes a content block in a language
///
/// Admins only (the role is re-read from the database).
#[utoipa::path(
    put,
    path = "/admin/content/{block}/{lang}",
    operation_id = "put_admin_content_block_lang",
    security(("bearer" = [])),
    params(
        ("block" = String, Path),
        ("lang" = LanguageCode, Path),
    ),
    request_body = crate::content::Edit,
    responses(
        (status = 200, description = "OK", body = crate::content::ContentBlock),
        Admin,
        (status = 404, response = E404),
        (status = 405, response = E405),
        (status = 413, response = E413),
    ),
)]
async fn edit(block: String, language: String, who: Authed, edit: Edit, app: App) -> Answer {
    ok(&content::edit(&app.store, who.user.id, block, language, edit).await?)
}

/// A content block's image (multipart part "image")
///
/// Admins only (the role is re-read from the database).
#[utoipa::path(
    post,
    path = "/admin/content/{block}/{lang}/image",
    operation_id = "post_admin_content_block_lang_image",
    security(("bearer" = [])),
    params(
        ("block" = String, Path),
        ("lang" = LanguageCode, Path),
    ),
    request_body(content = inline(Multipart), content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "OK", body = crate::content::ContentBlock),
        Admin,
        (status = 404, response = E404),
        (status = 405, response = E405),
        (status = 413, response = E413),
        (status = 415, response = E415),
    ),
)]
async fn upload(block: String, language: String, who: Authed, app: App, form: FormData) -> Answer {
    let image = images::read_part(form, "image", &app.uploads);
    ok(&content::set_image(
        &app.store,
        &app.decodes,
        who.user.id,
        block,
        language,
        image,
    )
    .await?)
}
