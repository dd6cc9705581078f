//! The web app as files: built assets, translations, the offline landing page, and the SPA
//! fallback (client routes get index.html; a missing asset is a real 404).

use warp::http::header::{HeaderValue, CACHE_CONTROL};
use warp::http::StatusCode;
use warp::path::{FullPath, Tail};
use warp::{Filter, Rejection, Reply};

use assets::Assets;
use uploaded::Shared;

mod assets;
mod uploaded;

use crate::api::{first_of, Route};
use crate::App;

#[derive(serde::Deserialize)]
struct AvatarKey {
    k: String,
}

/// Where the build left the product's name in the pages it rendered (web/prerender/render.jsx).
const PRODUCT_MARK: &str = "__LVLX_PRODUCT__";

/// The pages the build rendered, one per language (`landing.es.html`) and, for a visitor who has
/// decided on cookies (no banner), one more (`landing.es.decided.html`); and what each stands
/// for when none is there for the language (an older build). The build reads the same list.
static RENDERED: std::sync::LazyLock<std::collections::BTreeMap<String, String>> =
    std::sync::LazyLock::new(|| {
        serde_json::from_str(include_str!("../../../web/prerender/pages.json"))
            .expect("web/prerender/pages.json names the rendered pages")
    });

/// The cookie the app keeps the visitor's cookie decision in (web/src/common/CookieBanner.jsx).
const CONSENT_COOKIE: &str = "cookieConsent";

/// The cookie the app keeps the language chosen with its switcher in, for the server to render
/// the same (web/src/i18n.js).
const LANGUAGE_COOKIE: &str = "lng";

#[derive(serde::Deserialize)]
struct Lng {
    lng: Option<String>,
}

pub fn routes(app: &App) -> Route {
    let config = &app.config;
    // One shared copy of each image being served, for avatars and content images alike.
    let shared = std::sync::Arc::new(Shared::default());
    let (avatars, content) = (avatars(app, shared.clone()), content_images(app, shared));
    // HEAD too: monitors and link checkers ask with it.
    let read = || warp::get().or(warp::head()).unify().boxed();
    // The FAQ guide's screenshots, per language.
    let guides = warp::path("guides")
        .and(read())
        .and(warp::fs::dir(config.guides_dir.clone()))
        .map(|file: warp::fs::File| revalidate(file.into_response()));
    // The app and the translations: in memory, gzipped once, ETags (web::assets); the rendered
    // pages with the product's name filled in.
    let product = html_text(&config.product);
    let app = Assets::load_filled(&config.web_dir, |name, body| {
        if !is_rendered(name) {
            return body;
        }
        String::from_utf8(body)
            .map(|page| page.replace(PRODUCT_MARK, &product).into_bytes())
            .unwrap_or_else(|e| e.into_bytes())
    });
    let translations = Assets::load(&config.locales_dir);
    tracing::info!(
        files = app.len(),
        translations = translations.len(),
        "web app held in memory"
    );
    let tail = || warp::path::tail().map(|tail: Tail| tail.as_str().to_string());
    let locales = serve(translations, warp::path("locales").and(read()).and(tail()));
    let rendered = rendered_pages(&app);
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
    first_of([
        avatars,
        content,
        locales,
        guides.boxed(),
        rendered,
        assets,
        index,
    ])
    .recover(|_| async {
        Ok::<_, std::convert::Infallible>(
            warp::reply::with_status("Not found", StatusCode::NOT_FOUND).into_response(),
        )
    })
    .unify()
    .boxed()
}

/// Profile images: PNGs the server wrote itself (see accounts::avatars), named by user id, each opened
/// by its key (?k=): without it, or with another's, 404 as if absent. Stored in the database, so
/// any instance serves any upload.
fn avatars(app: &App, shared: std::sync::Arc<Shared>) -> Route {
    let mac_key = app.mac_key.clone();
    let store = app.store.clone();
    warp::path!("avatars" / String)
        .boxed()
        .and(warp::get().or(warp::head()).unify().boxed())
        .and(
            warp::query::<AvatarKey>()
                .map(Some)
                .or(warp::any().map(|| None))
                .unify()
                .boxed(),
        )
        .and(warp::header::optional::<String>("if-none-match"))
        .and_then(
            move |file: String, key: Option<AvatarKey>, seen: Option<String>| {
                let id = file
                    .strip_suffix(".png")
                    .and_then(|id| id.parse::<i64>().ok());
                let opened = match (id, &key) {
                    (Some(id), Some(key)) => crate::crypto::same(
                        &key.k,
                        &crate::accounts::avatars::avatar_key(&mac_key, id),
                    ),
                    _ => false,
                };
                let (store, shared) = (store.clone(), shared.clone());
                async move {
                    match id.filter(|_| opened) {
                        Some(id) => {
                            let name = crate::accounts::avatars::avatar_name(id);
                            shared
                                .answer(&store, name, seen)
                                .await
                                .map(own_site_revalidated)
                        }
                        None => Err(warp::reject::not_found()),
                    }
                }
            },
        )
        .boxed()
}

/// Content images: PNGs the server wrote itself (see crate::content), fresh names per upload.
fn content_images(app: &App, shared: std::sync::Arc<Shared>) -> Route {
    let store = app.store.clone();
    warp::path!("content" / String)
        .boxed()
        .and(warp::get().or(warp::head()).unify().boxed())
        .and(warp::header::optional::<String>("if-none-match"))
        .and_then(move |file: String, seen: Option<String>| {
            let (store, shared) = (store.clone(), shared.clone());
            async move {
                // A content image's name is new with every upload: browsers and proxies keep
                // it for good instead of asking again.
                let name = crate::content::stored_name(&file);
                shared
                    .answer(&store, name, seen)
                    .await
                    .map(own_site_revalidated)
                    .map(|mut response| {
                        response.headers_mut().insert(
                            CACHE_CONTROL,
                            HeaderValue::from_static("public, max-age=31536000, immutable"),
                        );
                        response
                    })
            }
        })
        .boxed()
}

/// The landing page and sign-in as the build rendered them, in the visitor's language (the one
/// `?lng=` names, else the browser's Accept-Language, as the app itself decides) and with or
/// without the cookie banner as their consent cookie says.
fn rendered_pages(app: &Assets) -> Route {
    first_of(RENDERED.iter().map(|(page, fallback)| {
        let files = app.clone();
        let name = warp::path(page)
            .and(warp::path::end())
            .and(warp::get().or(warp::head()).unify().boxed())
            .and(
                warp::query::<Lng>()
                    .or(warp::any().map(|| Lng { lng: None }))
                    .unify()
                    .boxed(),
            )
            .and(warp::header::optional::<String>("accept-language"))
            .and(warp::cookie::optional::<String>(LANGUAGE_COOKIE))
            .and(warp::cookie::optional::<String>(CONSENT_COOKIE))
            .map(
                move |query: Lng,
                      accept: Option<String>,
                      chosen: Option<String>,
                      consent: Option<String>| {
                    // As the app decides: `?lng=`, then the switcher's choice, then the browser.
                    let name = rendered_name(page, query.lng.or(chosen), accept, consent);
                    if files.get(&name).is_some() {
                        name
                    } else {
                        fallback.to_string()
                    }
                },
            );
        serve(app.clone(), name)
            .map(|mut response: warp::reply::Response| {
                response.headers_mut().insert(
                    warp::http::header::VARY,
                    HeaderValue::from_static("Accept-Encoding, Accept-Language, Cookie"),
                );
                response
            })
            .boxed()
    }))
}

/// The rendered file of `page` for this request: `login.es.html`, `landing.pt.decided.html`.
fn rendered_name(
    page: &str,
    lng: Option<String>,
    accept_language: Option<String>,
    consent: Option<String>,
) -> String {
    // `?lng=pt-BR` or `ES` names pt or es, as i18next reads it.
    let language = lvlx_core::language_or(
        lng.as_deref(),
        lvlx_core::preferred_language(accept_language.as_deref()),
    );
    let decided = matches!(consent.as_deref(), Some("accepted" | "declined"));
    format!(
        "{page}.{language}{}.html",
        if decided { ".decided" } else { "" }
    )
}

/// Answers the file that `name` extracts from `files` (with 304 and gzip as the request asks),
/// or rejects as not found.
fn serve<F>(files: Assets, name: F) -> Route
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

/// A page the build rendered for one language: `landing.es.html`, `login.pt.decided.html`.
fn is_rendered(name: &str) -> bool {
    RENDERED.iter().any(|(page, _)| {
        name.strip_prefix(page)
            .and_then(|rest| rest.strip_prefix('.'))
            .and_then(|rest| rest.strip_suffix(".html"))
            .map(|rest| rest.strip_suffix(".decided").unwrap_or(rest))
            .is_some_and(lvlx_core::is_language)
    })
}

/// `text` safe inside HTML text and attribute values.
fn html_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// A client route has no file extension in its last segment; "/main.3f2a.js" is an asset.
fn is_client_route(path: &str) -> bool {
    let last = path.rsplit('/').next().unwrap_or("");
    !last.contains('.')
}

/// Members' uploads are read by this site's pages only (another site cannot embed a member's
/// face or fetch it with no-cors): `Cross-Origin-Resource-Policy: same-origin`.
fn own_site_revalidated(response: warp::reply::Response) -> warp::reply::Response {
    own_site(revalidate(response))
}

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
    use super::{html_text, is_client_route, is_rendered, rendered_name, PRODUCT_MARK};

    #[test]
    fn rendered_pages_are_named_by_page_and_language_and_carry_the_builds_mark() {
        assert!(is_rendered("landing.es.html"));
        assert!(is_rendered("login.pt.html"));
        assert!(is_rendered("login.pt.decided.html"));
        assert!(!is_rendered("login.pt.other.html"));
        assert!(!is_rendered("landing.html"));
        assert!(!is_rendered("login.de.html"));
        assert!(!is_rendered("main.es.html"));
        assert!(include_str!("../../../web/prerender/render.jsx").contains(PRODUCT_MARK));
        let name = |lng: Option<&str>, accept: Option<&str>, consent: Option<&str>| {
            rendered_name(
                "login",
                lng.map(Into::into),
                accept.map(Into::into),
                consent.map(Into::into),
            )
        };
        assert_eq!(name(None, None, None), "login.en.html");
        assert_eq!(name(Some("pt"), Some("es-MX,es"), None), "login.pt.html");
        assert_eq!(
            name(Some("<script>"), Some("es-MX,es"), Some("accepted")),
            "login.es.decided.html"
        );
        assert_eq!(name(None, Some("pt-BR"), Some("maybe")), "login.pt.html");
        assert_eq!(
            name(Some("ES"), None, Some("declined")),
            "login.es.decided.html"
        );
        assert_eq!(name(Some("pt-BR"), Some("es"), None), "login.pt.html");
        assert_eq!(
            html_text("A&B <i>\"x\"</i>"),
            "A&amp;B &lt;i&gt;&quot;x&quot;&lt;/i&gt;"
        );
    }

    #[test]
    fn client_routes_have_no_extension() {
        assert!(is_client_route("/admin/tables/users"));
        assert!(is_client_route("/register/referred/0123456789abcdef"));
        assert!(is_client_route("/"));
        assert!(!is_client_route("/main.js"));
        assert!(!is_client_route("/static/logo.png"));
    }
}
