//! The JSON API under /api/v1 (DESIGN §8): `Cache-Control: no-store` on every answer, errors
//! as `{code, message}`, and an unknown /api path is a 404 JSON error, never the web app.

mod accounts;
pub mod content;
mod health;
pub mod images;
mod keys;
mod live;
mod sessions;
mod settings;
mod statistics;
mod wallet;

use warp::filters::BoxedFilter;
use warp::http::header::{HeaderValue, CACHE_CONTROL};
use warp::{Filter, Reply};

use crate::error;
use crate::App;

/// Largest JSON body any endpoint of this version accepts.
pub const MAX_JSON_BODY: u64 = 16 * 1024;

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    let v1 = health::routes(app.clone())
        .or(settings::routes(app.clone()))
        .unify()
        .or(accounts::routes(app.clone()))
        .unify()
        .or(sessions::routes(app.clone()))
        .unify()
        .or(images::routes(app.clone()))
        .unify()
        .or(statistics::routes(app.clone()))
        .unify()
        .or(keys::routes(app.clone()))
        .unify()
        .or(content::routes(app.clone()))
        .unify()
        .or(wallet::routes(app.clone()))
        .unify()
        .or(live::routes(app))
        .unify()
        .boxed();
    warp::path("api")
        .and(
            // Everything under /api is answered here, so an unknown path becomes a JSON 404.
            warp::path("v1")
                .and(v1)
                .recover(error::recover)
                .unify()
                .map(|reply: warp::reply::Response| no_store(reply)),
        )
        .boxed()
}

fn no_store(mut response: warp::reply::Response) -> warp::reply::Response {
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// A JSON body of at most [`MAX_JSON_BODY`] bytes whose unknown fields are refused (the types
/// say `deny_unknown_fields`).
pub fn json_body<T: serde::de::DeserializeOwned + Send>(
) -> impl Filter<Extract = (T,), Error = warp::Rejection> + Clone {
    warp::body::content_length_limit(MAX_JSON_BODY).and(warp::body::json())
}

/// An API error as a warp rejection (answered by `error::recover`).
pub(crate) fn reject(e: error::ApiError) -> warp::Rejection {
    warp::reject::custom(e)
}

pub(crate) fn json(value: &impl serde::Serialize) -> warp::reply::Response {
    warp::reply::json(value).into_response()
}
