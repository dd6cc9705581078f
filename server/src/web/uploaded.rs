//! Stored uploads (avatars, content images) as answers. Every reader of one image shares one
//! copy of its bytes: a body is an `Arc`-counted buffer handed to each response, so N slow
//! readers of the same image hold it once, not N times (16 slow readers of one 50 MB avatar
//! took the server from 682 MB to 1.6 GB when each answer read its own copy).

use std::collections::BTreeMap;
use std::sync::Mutex;

use bytes::Bytes;
use warp::http::header::{HeaderValue, CONTENT_TYPE, ETAG};
use warp::http::StatusCode;
use warp::{Rejection, Reply};

use crate::store::{uploads, Store, StoreError};

/// The bytes of recently served images kept for the next reader. An image is at most 4 MiB
/// (`lvlx_core::images::Kind::max_stored`), so this holds a few of the largest or many avatars.
const KEPT_BYTES: usize = 32 * 1024 * 1024;

/// The images being served, shared between readers, by stored name: (ETag, body).
#[derive(Default)]
pub struct Shared {
    kept: Mutex<BTreeMap<String, (String, Bytes)>>,
}

impl Shared {
    /// The bytes of `name` at `etag`: the kept copy, or read once from the store and kept.
    async fn body(
        &self,
        store: &Store,
        name: &str,
        etag: &str,
    ) -> Result<Option<Bytes>, StoreError> {
        if let Some((tag, body)) = self.kept().get(name) {
            if tag == etag {
                return Ok(Some(body.clone()));
            }
        }
        let key = name.to_string();
        let Some(found) = store.read(move |c| uploads::get(c, &key)).await? else {
            return Ok(None);
        };
        let body = Bytes::from(found.body);
        let mut kept = self.kept();
        kept.insert(name.to_string(), (found.etag, body.clone()));
        let mut total: usize = kept.values().map(|(_, b)| b.len()).sum();
        // Oldest names first is as good as any order here: the bound is what matters.
        while total > KEPT_BYTES {
            let Some(other) = kept.keys().find(|k| k.as_str() != name).cloned() else {
                break;
            };
            total -= kept.remove(&other).map_or(0, |(_, b)| b.len());
        }
        Ok(Some(body))
    }

    fn kept(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, (String, Bytes)>> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The stored upload `name` as a PNG (304 when `seen` names its ETag or is `*`), or a 404.
    pub async fn answer(
        &self,
        store: &Store,
        name: String,
        seen: Option<String>,
    ) -> Result<warp::reply::Response, Rejection> {
        let failed = |e: StoreError| {
            tracing::warn!(error = %e, "upload read failed");
            warp::reject::not_found()
        };
        let key = name.clone();
        let etag = store
            .read(move |c| uploads::etag(c, &key))
            .await
            .map_err(failed)?
            .ok_or_else(warp::reject::not_found)?;
        let mut response = if seen.as_deref().is_some_and(|tags| names_tag(tags, &etag)) {
            StatusCode::NOT_MODIFIED.into_response()
        } else {
            let body = self
                .body(store, &name, &etag)
                .await
                .map_err(failed)?
                .ok_or_else(warp::reject::not_found)?;
            let mut response = warp::reply::Response::new(body.into());
            response
                .headers_mut()
                .insert(CONTENT_TYPE, HeaderValue::from_static("image/png"));
            response
        };
        if let Ok(etag) = HeaderValue::from_str(&etag) {
            response.headers_mut().insert(ETAG, etag);
        }
        response.headers_mut().insert(
            "x-content-type-options",
            HeaderValue::from_static("nosniff"),
        );
        Ok(response)
    }
}

/// Whether an `If-None-Match` value (a list of entity tags, or `*`) names `etag`, compared
/// weakly as RFC 9110 §13.1.2 asks for GET and HEAD.
pub fn names_tag(if_none_match: &str, etag: &str) -> bool {
    let etag = etag.trim_start_matches("W/");
    if_none_match
        .split(',')
        .map(str::trim)
        .any(|tag| tag == "*" || tag.trim_start_matches("W/") == etag)
}

#[cfg(test)]
mod tests {
    use super::names_tag;

    #[test]
    fn if_none_match_is_a_list_or_a_star_compared_weakly() {
        let etag = "\"abc\"";
        assert!(names_tag("\"abc\"", etag));
        assert!(names_tag("*", etag));
        assert!(names_tag("\"x\", W/\"abc\"", etag));
        assert!(names_tag(" \"x\" ,\"abc\" ", etag));
        assert!(!names_tag("\"x\", \"y\"", etag));
        assert!(!names_tag("abc", etag));
        assert!(!names_tag("", etag));
    }
}
