//! The FAQ's data route (`crate::faq::page`): what the page shows beside its translated text.

use std::collections::HashMap;

use warp::filters::BoxedFilter;
use warp::Filter;

use super::auth::authed;
use super::error::reply;
use super::{ok, with, Answer};
use crate::session::Authed;
use crate::{faq, App};

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // GET /api/v1/faq?lng= — {usdt, explorer, images: [{src, width, height}], videos:
    // {faqsN: {id, url, title, duration, thumbnail}}, onramp}. Images in the asked language
    // (the default language's when it has none).
    warp::path!("faq")
        .and(warp::get())
        .and(warp::query::<HashMap<String, String>>())
        .and(authed(app.clone()))
        .and(with(&app))
        .then(page)
        .map(reply)
        .boxed()
}

async fn page(query: HashMap<String, String>, _: Authed, app: App) -> Answer {
    ok(&faq::page(&app, query.get("lng").map(String::as_str)).await?)
}
