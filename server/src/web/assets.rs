//! The built web app and the translations held in memory: read once at start, each
//! with its ETag, its type, for text a gzip copy made then, and the brotli copy the build made
//! beside it (`main.….js.br`, webpack's compression plugin); answered without touching the
//! disk. Hashed names (`main.5cd27745.js`) never change and are cached for a year, immutable;
//! pages and translations are revalidated (`no-cache` + ETag → 304).

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use bytes::Bytes;
use flate2::write::GzEncoder;
use flate2::Compression;
use sha2::{Digest, Sha256};
use warp::http::header::{
    HeaderValue, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_LENGTH, CONTENT_TYPE, ETAG, VARY,
};
use warp::http::{Response, StatusCode};

/// Files larger than this stay on disk (none of the app's are; a stray upload would be).
const MAX_FILE: u64 = 16 * 1024 * 1024;

#[derive(Debug)]
pub struct Asset {
    body: Bytes,
    gzip: Option<Bytes>,
    brotli: Option<Bytes>,
    content_type: HeaderValue,
    etag: HeaderValue,
    cache: HeaderValue,
}

/// Every file below one folder, by its path relative to it ("main.5cd27745.js", "en/en.json").
#[derive(Debug, Clone, Default)]
pub struct Assets {
    files: Arc<HashMap<String, Asset>>,
}

impl Assets {
    /// Reads `dir` (a missing folder is an empty table: the app may not be built yet).
    pub fn load(dir: &Path) -> Assets {
        Assets::load_filled(dir, |_, body| body)
    }

    /// As [`Assets::load`], each file's body first passed through `fill(name, body)`.
    pub fn load_filled(dir: &Path, fill: impl Fn(&str, Vec<u8>) -> Vec<u8>) -> Assets {
        let mut files = HashMap::new();
        let mut pending = vec![dir.to_path_buf()];
        while let Some(folder) = pending.pop() {
            let Ok(entries) = std::fs::read_dir(&folder) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                let Ok(meta) = entry.metadata() else { continue };
                if meta.is_dir() {
                    pending.push(path);
                    continue;
                }
                if meta.len() > MAX_FILE {
                    continue;
                }
                let (Ok(relative), Ok(body)) = (path.strip_prefix(dir), std::fs::read(&path))
                else {
                    continue;
                };
                let name = relative.to_string_lossy().replace('\\', "/");
                let body = fill(&name, body);
                files.insert(name.clone(), Asset::new(&name, body));
            }
        }
        // The build's brotli copies join the file they compress; alone they are not served.
        let copies: Vec<String> = files
            .keys()
            .filter(|n| n.ends_with(".br"))
            .cloned()
            .collect();
        for name in copies {
            let copy = files.remove(&name).expect("listed");
            if let Some(asset) = files.get_mut(name.trim_end_matches(".br")) {
                asset.brotli = Some(copy.body).filter(|b| b.len() < asset.body.len());
            }
        }
        Assets {
            files: Arc::new(files),
        }
    }

    pub fn get(&self, name: &str) -> Option<&Asset> {
        self.files.get(name)
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }
}

impl Asset {
    fn new(name: &str, body: Vec<u8>) -> Asset {
        let content_type = mime_guess::from_path(name)
            .first_raw()
            .unwrap_or("application/octet-stream");
        let text = content_type.starts_with("text/")
            || ["javascript", "json", "svg", "wasm", "xml"]
                .iter()
                .any(|t| content_type.contains(t));
        let gzip = text.then(|| gzip(&body)).flatten();
        let digest = hex::encode(&Sha256::digest(&body)[..12]);
        Asset {
            gzip: gzip.filter(|z| z.len() < body.len()).map(Bytes::from),
            brotli: None,
            body: Bytes::from(body),
            content_type: HeaderValue::from_static(content_type),
            etag: HeaderValue::from_str(&format!("\"{digest}\"")).expect("hex is a header value"),
            cache: HeaderValue::from_static(if is_hashed(name) {
                "public, max-age=31536000, immutable"
            } else {
                "no-cache"
            }),
        }
    }

    /// The answer to a GET or HEAD with these request headers' `If-None-Match` and
    /// `Accept-Encoding` values.
    pub fn reply(
        &self,
        if_none_match: Option<&str>,
        accept_encoding: Option<&str>,
    ) -> warp::reply::Response {
        let mut builder = Response::builder()
            .header(ETAG, self.etag.clone())
            .header(CACHE_CONTROL, self.cache.clone())
            .header(VARY, "Accept-Encoding");
        let matches = if_none_match.is_some_and(|tags| {
            self.etag
                .to_str()
                .is_ok_and(|etag| super::uploaded::names_tag(tags, etag))
        });
        if matches {
            return builder
                .status(StatusCode::NOT_MODIFIED)
                .body(Bytes::new().into())
                .expect("static response");
        }
        builder = builder.header(CONTENT_TYPE, self.content_type.clone());
        let body = match (&self.brotli, &self.gzip) {
            (Some(br), _) if accepts(accept_encoding, "br") => {
                builder = builder.header(CONTENT_ENCODING, "br");
                br.clone()
            }
            (_, Some(z)) if accepts(accept_encoding, "gzip") => {
                builder = builder.header(CONTENT_ENCODING, "gzip");
                z.clone()
            }
            _ => self.body.clone(),
        };
        builder
            .header(CONTENT_LENGTH, body.len())
            .body(body.into())
            .expect("static response")
    }
}

fn gzip(body: &[u8]) -> Option<Vec<u8>> {
    let mut encoder = GzEncoder::new(Vec::with_capacity(body.len() / 3), Compression::best());
    encoder.write_all(body).ok()?;
    encoder.finish().ok()
}

/// `coding` (or `*`) among the accepted codings, and not with q=0.
fn accepts(accept: Option<&str>, wanted: &str) -> bool {
    accept.is_some_and(|a| {
        a.split(',').any(|part| {
            let mut pieces = part.split(';').map(str::trim);
            let coding = pieces.next().unwrap_or("");
            let refused = pieces.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q == 0.0)
            });
            (coding.eq_ignore_ascii_case(wanted) || coding == "*") && !refused
        })
    })
}

/// Webpack's content-hashed names: `name.0123abcd.js`, and `0123…(20 hex).module.wasm`.
fn is_hashed(name: &str) -> bool {
    let file = name.rsplit('/').next().unwrap_or(name);
    let parts: Vec<&str> = file.split('.').collect();
    parts
        .iter()
        .any(|p| p.len() >= 8 && p.bytes().all(|b| b.is_ascii_hexdigit()))
        && !file.ends_with(".html")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asset(name: &str, body: &[u8]) -> Asset {
        Asset::new(name, body.to_vec())
    }

    #[test]
    fn hashed_names_are_immutable_and_pages_revalidate() {
        let cache = |name| asset(name, b"x").cache;
        assert_eq!(
            cache("main.5cd27745.js"),
            "public, max-age=31536000, immutable"
        );
        assert_eq!(
            cache("0de155780f1d2d759b65.module.wasm"),
            "public, max-age=31536000, immutable"
        );
        assert_eq!(cache("index.html"), "no-cache");
        assert_eq!(cache("en/en.json"), "no-cache");
        assert_eq!(cache("favicon.svg"), "no-cache");
    }

    #[test]
    fn text_is_sent_gzipped_to_who_accepts_it_and_a_known_etag_gets_304() {
        let js = asset("main.5cd27745.js", "let a = 1;\n".repeat(400).as_bytes());
        let plain = js.reply(None, None);
        assert_eq!(plain.headers().get(CONTENT_ENCODING), None);
        assert_eq!(plain.headers()[CONTENT_TYPE], "text/javascript");
        let zipped = js.reply(None, Some("br, gzip;q=0.8"));
        assert_eq!(zipped.headers()[CONTENT_ENCODING], "gzip");
        let length: usize = zipped.headers()[CONTENT_LENGTH]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!(length < 4400 / 10, "{length}");
        assert_eq!(
            js.reply(None, Some("gzip;q=0"))
                .headers()
                .get(CONTENT_ENCODING),
            None
        );
        let etag = plain.headers()[ETAG].to_str().unwrap().to_string();
        assert_eq!(
            js.reply(Some(&etag), None).status(),
            StatusCode::NOT_MODIFIED
        );
        assert_eq!(js.reply(Some("\"other\""), None).status(), StatusCode::OK);
        // Images are not compressed again.
        assert!(asset("logo.png", &[0u8; 4000]).gzip.is_none());
    }

    #[test]
    fn the_builds_brotli_copy_goes_to_who_accepts_br_and_is_not_served_alone() {
        let dir = tempfile::tempdir().unwrap();
        let js = "let a = 1;\n".repeat(400);
        std::fs::write(dir.path().join("main.5cd27745.js"), &js).unwrap();
        std::fs::write(dir.path().join("main.5cd27745.js.br"), b"brotli bytes").unwrap();
        // A copy no smaller than its file is no use.
        std::fs::write(dir.path().join("tiny.js"), b"x").unwrap();
        std::fs::write(dir.path().join("tiny.js.br"), b"longer than x").unwrap();
        let assets = Assets::load(dir.path());
        assert_eq!(assets.len(), 2, "the .br files are not assets of their own");
        let main = assets.get("main.5cd27745.js").unwrap();
        let coding = |accept| {
            let r = main.reply(None, accept);
            let coding = r
                .headers()
                .get(CONTENT_ENCODING)
                .map(|v| v.to_str().unwrap().to_string());
            (
                coding,
                r.headers()[CONTENT_LENGTH]
                    .to_str()
                    .unwrap()
                    .parse::<usize>()
                    .unwrap(),
            )
        };
        assert_eq!(
            coding(Some("gzip, deflate, br, zstd")),
            (Some("br".into()), 12)
        );
        assert_eq!(coding(Some("br;q=0, gzip")).0.as_deref(), Some("gzip"));
        assert_eq!(coding(Some("gzip")).0.as_deref(), Some("gzip"));
        assert_eq!(coding(None), (None, js.len()));
        let tiny = assets.get("tiny.js").unwrap().reply(None, Some("br"));
        assert_eq!(tiny.headers().get(CONTENT_ENCODING), None);
    }
}
