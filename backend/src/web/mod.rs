//! The web app as files: built assets, translations, the offline landing page, and the SPA
//! fallback (client routes get index.html; a missing asset is a real 404).

use warp::filters::BoxedFilter;
use warp::http::header::{HeaderValue, CACHE_CONTROL};
use warp::http::StatusCode;
use warp::path::{FullPath, Tail};
use warp::{Filter, Rejection, Reply};

use assets::Assets;

mod assets;

use crate::App;

#[derive(serde::Deserialize)]
struct AvatarKey {
    k: String,
}

pub fn routes(app: &App) -> BoxedFilter<(warp::reply::Response,)> {
    let config = &app.config;
    // Profile images: PNGs the server wrote itself (see api::images), named by user id, each
    // opened by its key (?k=): without it, or with another's, 404 as if absent.
    let mac_key = app.mac_key.clone();
    let avatars = warp::path("avatars")
        .and(warp::get().or(warp::head()).unify())
        .and(warp::path::peek())
        .and(
            warp::query::<AvatarKey>()
                .map(Some)
                .or(warp::any().map(|| None))
                .unify(),
        )
        .and_then(move |file: warp::path::Peek, key: Option<AvatarKey>| {
            let id = file
                .as_str()
                .strip_suffix(".png")
                .and_then(|id| id.parse::<i64>().ok());
            let opened = match (id, key) {
                (Some(id), Some(key)) => {
                    crate::crypto::same(&key.k, &crate::api::images::avatar_key(&mac_key, id))
                }
                _ => false,
            };
            async move {
                if opened {
                    Ok(())
                } else {
                    Err(warp::reject::not_found())
                }
            }
        })
        .untuple_one()
        .and(warp::fs::dir(config.data_dir.join("avatars")))
        .map(|file: warp::fs::File| own_site(revalidate(file.into_response())));
    // Content images: PNGs the server wrote itself (see crate::content), fresh names per upload.
    let content = warp::path("content")
        .and(warp::get().or(warp::head()).unify())
        .and(warp::fs::dir(config.data_dir.join("content")))
        .map(|file: warp::fs::File| own_site(revalidate(file.into_response())));
    // HEAD too: monitors and link checkers ask with it.
    let read = || warp::get().or(warp::head()).unify().boxed();
    // The FAQ guide's screenshots, per language.
    let guides = warp::path("guides")
        .and(read())
        .and(warp::fs::dir(config.guides_dir.clone()))
        .map(|file: warp::fs::File| revalidate(file.into_response()));
    // The app and the translations: in memory, gzipped once, ETags (web::assets).
    let app = Assets::load(&config.web_dir);
    let translations = Assets::load(&config.locales_dir);
    tracing::info!(
        files = app.len(),
        translations = translations.len(),
        "web app held in memory"
    );
    let tail = || warp::path::tail().map(|tail: Tail| tail.as_str().to_string());
    let locales = serve(translations, warp::path("locales").and(read()).and(tail()));
    let landing = serve(
        app.clone(),
        warp::path!("landing")
            .and(read())
            .map(|| "landing.html".to_string()),
    );
    let assets = serve(app.clone(), read().and(tail()));
    let index = serve(
        app,
        read()
            .and(warp::path::full())
            .and_then(|path: FullPath| async move {
                if is_client_route(path.as_str()) {
                    Ok("index.html".to_string())
                } else {
                    Err(warp::reject::not_found())
                }
            }),
    );
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

/// Answers the file that `name` extracts from `files` (with 304 and gzip as the request asks),
/// or rejects as not found.
fn serve<F>(files: Assets, name: F) -> BoxedFilter<(warp::reply::Response,)>
where
    F: Filter<Extract = (String,), Error = Rejection> + Clone + Send + Sync + 'static,
{
    name.and(warp::header::optional::<String>("if-none-match"))
        .and(warp::header::optional::<String>("accept-encoding"))
        .and_then(
            move |name: String, tag: Option<String>, accept: Option<String>| {
                let found = files
                    .get(&name)
                    .map(|file| file.reply(tag.as_deref(), accept.as_deref()));
                async move { found.ok_or_else(warp::reject::not_found) }
            },
        )
        .boxed()
}

/// A client route has no file extension in its last segment; "/main.3f2a.js" is an asset.
fn is_client_route(path: &str) -> bool {
    let last = path.rsplit('/').next().unwrap_or("");
    !last.contains('.')
}

/// Pages and translations must be re-checked so a deploy shows at once; hashed assets need not.
/// Members' uploads are read by this site's pages only (another site cannot embed a member's
/// face or fetch it with no-cors): `Cross-Origin-Resource-Policy: same-origin`.
fn own_site(mut response: warp::reply::Response) -> warp::reply::Response {
    response.headers_mut().insert(
        "cross-origin-resource-policy",
        HeaderValue::from_static("same-origin"),
    );
    response
}

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
