//! The API's edge for errors: the one mapping from a domain [`Error`] to an HTTP status and a
//! `{code, message}` body, and from warp's own rejections (unknown path, wrong method, bad
//! body) to the same shape. Nothing below the handlers knows HTTP.

use std::convert::Infallible;

use serde::Serialize;
use warp::http::StatusCode;
use warp::{Rejection, Reply};

use crate::error::Error;

/// Codes only the edge emits (beside [`Error::CODES`]).
pub const EDGE_CODES: &[&str] = &["error-method", "error-media-type"];

/// A domain error raised by a filter (authentication, role) before any handler runs.
#[derive(Debug)]
pub struct Rejected(pub Error);

impl warp::reject::Reject for Rejected {}

pub fn reject(e: Error) -> Rejection {
    warp::reject::custom(Rejected(e))
}

fn status(e: &Error) -> StatusCode {
    match e {
        Error::NotFound => StatusCode::NOT_FOUND,
        Error::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        Error::NotAnImage => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        Error::Malformed(_)
        | Error::Invalid(_)
        | Error::Rule(_)
        | Error::Code
        | Error::Captcha
        | Error::ReferralUnknown
        | Error::WalletLink(_) => StatusCode::BAD_REQUEST,
        Error::Unauthorized | Error::Credentials => StatusCode::UNAUTHORIZED,
        Error::Forbidden | Error::Blocked | Error::SecretWrong => StatusCode::FORBIDDEN,
        Error::EmailTaken
        | Error::WalletTaken
        | Error::WalletAlreadyLinked
        | Error::SecretMissing
        | Error::WalletRequired
        | Error::NothingToClaim
        | Error::OwnerStep
        | Error::BooksRunning => StatusCode::CONFLICT,
        Error::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
        Error::ChainUnavailable => StatusCode::SERVICE_UNAVAILABLE,
        // The write was rolled back; the same request succeeds once the disk has room.
        Error::Store(e) if e.is_full() => StatusCode::SERVICE_UNAVAILABLE,
        Error::Store(_) | Error::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// Every error's body.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = Error)]
pub(crate) struct Body<'a> {
    /// A translation key.
    code: &'a str,
    message: String,
}

/// A request not answered within `request_timeout_secs` (its body too slow): 408, and the
/// connection closes.
pub fn request_timeout() -> warp::reply::Response {
    let mut response = body(
        StatusCode::REQUEST_TIMEOUT,
        "error-bad-request",
        "the request took too long".into(),
    );
    response.headers_mut().insert(
        warp::http::header::CONNECTION,
        warp::http::HeaderValue::from_static("close"),
    );
    response
}

fn body(status: StatusCode, code: &str, message: String) -> warp::reply::Response {
    warp::reply::with_status(warp::reply::json(&Body { code, message }), status).into_response()
}

/// The response for a domain error.
pub fn respond(e: Error) -> warp::reply::Response {
    if let Some(detail) = e.detail() {
        tracing::error!(%detail, "request failed");
    }
    let mut response = body(status(&e), e.code(), e.to_string());
    if let Error::RateLimited { retry_after_secs } = e {
        response
            .headers_mut()
            .insert("retry-after", retry_after_secs.max(1).into());
    }
    response
}

/// A handler's result as the response.
pub fn reply(result: Result<warp::reply::Response, Error>) -> warp::reply::Response {
    result.unwrap_or_else(respond)
}

/// Maps every rejection inside /api to a JSON error. Unknown routes are 404 JSON, never HTML.
pub async fn recover(rejection: Rejection) -> Result<warp::reply::Response, Infallible> {
    use warp::reject;
    if let Some(Rejected(e)) = rejection.find::<Rejected>() {
        // A filter's failure (authentication, role; or the store behind them, logged here).
        if let Some(detail) = e.detail() {
            tracing::error!(%detail, "request failed");
        }
        return Ok(body(status(e), e.code(), e.to_string()));
    }
    // What a route that took the request's path and method said about it comes first: a path
    // served with two methods (GET and POST /owner-proposals) also holds the other method's
    // 405, which must not hide a malformed body.
    let e = if rejection.find::<reject::PayloadTooLarge>().is_some() {
        Error::TooLarge
    } else if rejection.find::<reject::UnsupportedMediaType>().is_some() {
        return Ok(body(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "error-media-type",
            "unsupported media type".into(),
        ));
    } else if let Some(e) = rejection.find::<warp::body::BodyDeserializeError>() {
        Error::Malformed(
            std::error::Error::source(e).map_or_else(|| e.to_string(), ToString::to_string),
        )
    } else if rejection.find::<reject::LengthRequired>().is_some() {
        Error::Malformed("length required".into())
    } else if let Some(e) = rejection.find::<reject::InvalidQuery>() {
        Error::Malformed(e.to_string())
    } else if let Some(e) = rejection.find::<reject::MissingHeader>() {
        Error::Malformed(e.to_string())
    } else if let Some(e) = rejection.find::<reject::InvalidHeader>() {
        Error::Malformed(e.to_string())
    } else if format!("{rejection:?}").contains("BodyReadError") {
        // A body cut short or stalled (the client's doing: a Content-Length it never sent, a
        // closed half). warp keeps this rejection's type private, so it is told by its name.
        Error::Malformed("the request body could not be read".into())
    } else if rejection.find::<reject::MethodNotAllowed>().is_some() {
        // A path that exists with another method is a 405, even though other routes said 404.
        return Ok(body(
            StatusCode::METHOD_NOT_ALLOWED,
            "error-method",
            "method not allowed".into(),
        ));
    } else if rejection.is_not_found() {
        Error::NotFound
    } else {
        Error::Internal(format!("unhandled rejection: {rejection:?}"))
    };
    Ok(respond(e))
}
