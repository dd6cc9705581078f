//! The FAQ's data route (`crate::faq::page`): what the page shows beside its translated text.

use std::collections::HashMap;

use warp::Filter;

use super::auth::authed_app;
use super::error::reply;
use super::openapi::errors::*;
use super::openapi::LanguageCode;
use super::{ok, Answer, Route};
use crate::session::Authed;
use crate::{faq, App};

/// This module's operations, merged into the served document by `api::openapi`.
#[derive(utoipa::OpenApi)]
#[openapi(paths(page))]
pub(super) struct Doc;

pub fn routes(app: App) -> Route {
    // {usdt, explorer, images: [{src, width, height}], videos: {faqsN: {id, url, title, duration,
    // thumbnail}}, onramp}. Images in the asked language (the default language's when it has none).
    warp::path!("faq")
        .boxed()
        .and(warp::get())
        .and(warp::query::<HashMap<String, String>>())
        .and(authed_app(&app))
        .then(page)
        .map(reply)
        .boxed()
}

/// The FAQ's data: USDT contract, guide screenshots with dimensions, video metadata
#[utoipa::path(
    get,
    path = "/faq",
    operation_id = "get_faq",
    security(("bearer" = [])),
    params(
        ("lng" = Option<LanguageCode>, Query),
    ),
    responses(
        (status = 200, description = "OK", body = crate::faq::FaqPage),
        Member,
    ),
)]
async fn page(query: HashMap<String, String>, _: Authed, app: App) -> Answer {
    ok(&faq::page(
        &app.store,
        &app.config,
        &app.videos,
        query.get("lng").map(String::as_str),
    )
    .await?)
}
