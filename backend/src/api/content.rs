//! Content block routes (`crate::content`): members read blocks; admins list, edit and set
//! their images.

use serde::Deserialize;
use warp::filters::multipart::FormData;
use warp::filters::BoxedFilter;
use warp::Filter;

use super::auth::{admin, authed};
use super::error::reply;
use super::{images, ok, with, Answer};
use crate::content::{self, Edit, MAX_EDIT_BODY};
use crate::session::Authed;
use crate::App;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Language {
    lang: Option<String>,
}

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // GET /api/v1/content/{block}?lang=xx — any signed-in account; falls back to English.
    let public = warp::path!("content" / String)
        .and(warp::get())
        .and(authed(app.clone()))
        .and(warp::query::<Language>())
        .and(with(&app))
        .then(read)
        .map(reply);
    // GET /api/v1/public/content/{block}?lang=xx — anyone, no session: the landing page's
    // terms, privacy and risk notices only; falls back to English.
    let open = warp::path!("public" / "content" / String)
        .and(warp::get())
        .and(warp::query::<Language>())
        .and(with(&app))
        .then(read_public)
        .map(reply);
    // GET /api/v1/admin/content — admin: every block in every language.
    let list = warp::path!("admin" / "content")
        .and(warp::get())
        .and(admin(app.clone()))
        .and(with(&app))
        .then(list)
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
        .and(warp::body::content_length_limit(images::MAX_BODY))
        .and(warp::multipart::form().max_length(images::MAX_BODY))
        .then(upload)
        .map(reply);
    public
        .or(open)
        .unify()
        .or(list)
        .unify()
        .or(edit)
        .unify()
        .or(image)
        .unify()
        .boxed()
}

async fn read(block: String, _: Authed, q: Language, app: App) -> Answer {
    ok(&content::read(&app, block, q.lang).await?)
}

async fn read_public(block: String, q: Language, app: App) -> Answer {
    ok(&content::read_public(&app, block, q.lang).await?)
}

async fn list(_: Authed, app: App) -> Answer {
    ok(&content::all(&app).await?)
}

async fn edit(block: String, language: String, who: Authed, edit: Edit, app: App) -> Answer {
    ok(&content::edit(&app, who.user.id, block, language, edit).await?)
}

async fn upload(block: String, language: String, who: Authed, app: App, form: FormData) -> Answer {
    let image = images::read_part(form, "image", &app.uploads);
    ok(&content::set_image(&app, who.user.id, block, language, image).await?)
}
