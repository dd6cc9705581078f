//! The web app as files: built assets, translations, the offline landing page, and the SPA
//! fallback (client routes get index.html; a missing asset is a real 404).

use warp::filters::BoxedFilter;
use warp::http::header::{HeaderValue, CACHE_CONTROL};
use warp::http::StatusCode;
use warp::path::FullPath;
use warp::{Filter, Reply};

use crate::Config;

pub fn routes(config: &Config) -> BoxedFilter<(warp::reply::Response,)> {
    // Profile images: PNGs the server wrote itself (see api::images), named by user id.
    let avatars = warp::path("avatars")
        .and(warp::get().or(warp::head()).unify())
        .and(warp::fs::dir(config.data_dir.join("avatars")))
        .map(|file: warp::fs::File| revalidate(file.into_response()));
    // Content images: PNGs the server wrote itself (see api::content), fresh names per upload.
    let content = warp::path("content")
        .and(warp::get().or(warp::head()).unify())
        .and(warp::fs::dir(config.data_dir.join("content")))
        .map(|file: warp::fs::File| revalidate(file.into_response()));
    // HEAD too: monitors and link checkers ask with it.
    let read = || warp::get().or(warp::head()).unify().boxed();
    // The FAQ guide's screenshots (issue 14), per language.
    let guides = warp::path("guides")
        .and(read())
        .and(warp::fs::dir(config.guides_dir.clone()))
        .map(|file: warp::fs::File| revalidate(file.into_response()));
    let locales = warp::path("locales")
        .and(read())
        .and(warp::fs::dir(config.locales_dir.clone()))
        .map(|file: warp::fs::File| revalidate(file.into_response()));
    let landing = warp::path!("landing")
        .and(read())
        .and(warp::fs::file(config.web_dir.join("landing.html")))
        .map(|file: warp::fs::File| revalidate(file.into_response()));
    let assets =
        warp::get()
            .and(warp::fs::dir(config.web_dir.clone()))
            .map(|file: warp::fs::File| {
                let is_page = file.path().extension().is_some_and(|e| e == "html");
                let response = file.into_response();
                if is_page {
                    revalidate(response)
                } else {
                    response
                }
            });
    let index = read()
        .and(warp::path::full())
        .and_then(|path: FullPath| async move {
            if is_client_route(path.as_str()) {
                Ok(())
            } else {
                Err(warp::reject::not_found())
            }
        })
        .untuple_one()
        .and(warp::fs::file(config.web_dir.join("index.html")))
        .map(|file: warp::fs::File| revalidate(file.into_response()));
    avatars
        .or(content)
        .unify()
        .or(locales)
        .unify()
        .or(guides)
        .unify()
        .or(landing)
        .unify()
        .or(assets)
        .unify()
        .or(index)
        .unify()
        .recover(|_| async {
            Ok::<_, std::convert::Infallible>(
                warp::reply::with_status("Not found", StatusCode::NOT_FOUND).into_response(),
            )
        })
        .unify()
        .boxed()
}

/// A client route has no file extension in its last segment; "/main.3f2a.js" is an asset.
fn is_client_route(path: &str) -> bool {
    let last = path.rsplit('/').next().unwrap_or("");
    !last.contains('.')
}

/// Pages and translations must be re-checked so a deploy shows at once; hashed assets need not.
fn revalidate(mut response: warp::reply::Response) -> warp::reply::Response {
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

#[cfg(test)]
mod tests {
    use super::is_client_route;

    #[test]
    fn client_routes_have_no_extension() {
        assert!(is_client_route("/admin/tables/users"));
        assert!(is_client_route("/register/referred/0123456789abcdef"));
        assert!(is_client_route("/"));
        assert!(!is_client_route("/main.js"));
        assert!(!is_client_route("/static/logo.png"));
    }
}
