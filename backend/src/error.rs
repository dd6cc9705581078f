//! The one error type of the API and the one function that turns any rejection into an HTTP
//! status and a `{code, message}` body. `code` is stable and is also a translation key.

use std::convert::Infallible;

use lvlx_core::validation::Invalid;
use serde::Serialize;
use warp::http::StatusCode;
use warp::{Rejection, Reply};

#[derive(Debug, Clone, thiserror::Error)]
pub enum ApiError {
    #[error("not found")]
    NotFound,
    #[error("method not allowed")]
    MethodNotAllowed,
    #[error("request body too large")]
    PayloadTooLarge,
    #[error("unsupported media type")]
    UnsupportedMediaType,
    #[error("malformed request: {0}")]
    BadRequest(String),
    #[error("invalid field: {0}")]
    Invalid(Invalid),
    #[error("authentication required")]
    Unauthorized,
    #[error("email or password is wrong")]
    Credentials,
    #[error("the code is wrong, used or expired")]
    Code,
    #[error("the captcha was not solved")]
    Captcha,
    #[error("unknown referral code")]
    ReferralUnknown,
    #[error("this email already has an account")]
    EmailTaken,
    #[error("not allowed for this account")]
    Forbidden,
    #[error("the secret is wrong")]
    SecretWrong,
    #[error("no operational key has been provisioned")]
    SecretMissing,
    #[error("wallet link refused: {0}")]
    WalletLink(lvlx_core::siwe::SiweError),
    #[error("this wallet belongs to another account")]
    WalletTaken,
    #[error("this account already has another wallet")]
    WalletAlreadyLinked,
    #[error("too many requests, retry in {retry_after_secs} s")]
    TooManyRequests { retry_after_secs: u64 },
    /// Details are logged, never sent.
    #[error("internal error")]
    Internal(String),
}

impl warp::reject::Reject for ApiError {}

impl From<rusqlite::Error> for ApiError {
    fn from(e: rusqlite::Error) -> Self {
        ApiError::Internal(format!("database: {e}"))
    }
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::NotFound => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::BadRequest(_) | ApiError::Invalid(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized | ApiError::Credentials => StatusCode::UNAUTHORIZED,
            ApiError::Code | ApiError::Captcha | ApiError::ReferralUnknown => {
                StatusCode::BAD_REQUEST
            }
            ApiError::EmailTaken | ApiError::WalletTaken | ApiError::WalletAlreadyLinked => {
                StatusCode::CONFLICT
            }
            ApiError::WalletLink(_) => StatusCode::BAD_REQUEST,
            ApiError::Forbidden | ApiError::SecretWrong => StatusCode::FORBIDDEN,
            ApiError::SecretMissing => StatusCode::CONFLICT,
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// Stable code; the web app translates it (locales have an entry for each).
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::NotFound => "error-not-found",
            ApiError::MethodNotAllowed => "error-method",
            ApiError::PayloadTooLarge => "error-too-large",
            ApiError::UnsupportedMediaType => "error-media-type",
            ApiError::BadRequest(_) => "error-bad-request",
            ApiError::Invalid(invalid) => invalid.key(),
            ApiError::Unauthorized => "error-unauthorized",
            ApiError::Credentials => "error-credentials",
            ApiError::Code => "error-code",
            ApiError::Captcha => "error-captcha",
            ApiError::ReferralUnknown => "error-referral-unknown",
            ApiError::EmailTaken => "error-email-taken",
            ApiError::WalletLink(e) => e.key(),
            ApiError::WalletTaken => "wallet-taken",
            ApiError::WalletAlreadyLinked => "wallet-already-linked",
            ApiError::Forbidden => "error-forbidden",
            ApiError::SecretWrong => "secretKey.failed",
            ApiError::SecretMissing => "error-secret-missing",
            ApiError::TooManyRequests { .. } => "error-rate-limit",
            ApiError::Internal(_) => "error-internal",
        }
    }

    pub fn into_response(self) -> warp::reply::Response {
        if let ApiError::Internal(detail) = &self {
            tracing::error!(%detail, "request failed");
        }
        let body = ErrorBody {
            code: self.code(),
            message: self.to_string(),
        };
        let mut response =
            warp::reply::with_status(warp::reply::json(&body), self.status()).into_response();
        if let ApiError::TooManyRequests { retry_after_secs } = self {
            response
                .headers_mut()
                .insert("retry-after", retry_after_secs.max(1).into());
        }
        response
    }
}

#[derive(Serialize)]
struct ErrorBody {
    code: &'static str,
    message: String,
}

/// Maps every rejection inside /api to a JSON error. Unknown routes are 404 JSON, never HTML.
pub async fn recover(rejection: Rejection) -> Result<warp::reply::Response, Infallible> {
    Ok(from_rejection(&rejection).into_response())
}

fn from_rejection(rejection: &Rejection) -> ApiError {
    use warp::reject;
    if let Some(e) = rejection.find::<ApiError>() {
        return e.clone();
    }
    // A path that exists with another method is a 405, even though other routes said 404.
    if rejection.find::<reject::MethodNotAllowed>().is_some() {
        ApiError::MethodNotAllowed
    } else if rejection.is_not_found() {
        ApiError::NotFound
    } else if rejection.find::<reject::PayloadTooLarge>().is_some() {
        ApiError::PayloadTooLarge
    } else if rejection.find::<reject::UnsupportedMediaType>().is_some() {
        ApiError::UnsupportedMediaType
    } else if let Some(e) = rejection.find::<warp::body::BodyDeserializeError>() {
        ApiError::BadRequest(
            std::error::Error::source(e).map_or_else(|| e.to_string(), ToString::to_string),
        )
    } else if rejection.find::<reject::LengthRequired>().is_some() {
        ApiError::BadRequest("length required".into())
    } else if let Some(e) = rejection.find::<reject::InvalidQuery>() {
        ApiError::BadRequest(e.to_string())
    } else if let Some(e) = rejection.find::<reject::MissingHeader>() {
        ApiError::BadRequest(e.to_string())
    } else if let Some(e) = rejection.find::<reject::InvalidHeader>() {
        ApiError::BadRequest(e.to_string())
    } else {
        ApiError::Internal(format!("unhandled rejection: {rejection:?}"))
    }
}
