//! The FAQ's server side: the guide screenshots' dimensions (read from at most the
//! first 262,144 bytes of each file, docs/product/help.md#faq, so the page reserves their space),
//! and the FAQ videos' metadata from the video provider (YouTube Data API v3, `videos?part=snippet,
//! contentDetails`), with the key kept on the server and answers cached in the store.

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use crate::store::Conn;

/// The most bytes the image metadata reader reads of a file (docs/product/help.md#faq).
pub const IMAGE_READ_LIMIT: u64 = 262_144;
/// The guide's screenshots, per language: `{guides_dir}/{lng}/{name}`.
pub const GUIDE_IMAGES: [&str; 3] = ["buy-1.jpg", "buy-2.jpg", "buy-3.jpg"];
/// How long a video's metadata is kept before it is asked again.
const VIDEO_TTL_MS: i64 = 24 * 3600 * 1000;
/// How long a failed lookup is not retried (the page shows a plain link meanwhile).
const VIDEO_BACKOFF_MS: i64 = 5 * 60 * 1000;
/// The provider's answer must come within this, or the page shows a plain link.
const VIDEO_TIMEOUT: Duration = Duration::from_secs(3);

/// Width and height of an image, read from at most [`IMAGE_READ_LIMIT`] bytes of the file;
/// None when those bytes do not say (not an image, or its header lies beyond the limit).
pub fn image_size(path: &Path) -> Option<(u32, u32)> {
    let mut head = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(IMAGE_READ_LIMIT)
        .read_to_end(&mut head)
        .ok()?;
    lvlx_core::images::dimensions(&head)
}

/// One screenshot as the page places it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = GuideImage)]
pub struct Shot {
    pub src: String,
    pub width: u32,
    pub height: u32,
}

/// The guide's screenshots in `language` that exist and read, in order.
pub fn guide_images(dir: &Path, language: &str) -> Vec<Shot> {
    GUIDE_IMAGES
        .iter()
        .filter_map(|name| {
            let (width, height) = image_size(&dir.join(language).join(name))?;
            Some(Shot {
                src: format!("/guides/{language}/{name}"),
                width,
                height,
            })
        })
        .collect()
}

/// A video's metadata as the page shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Video {
    pub id: String,
    pub url: String,
    pub title: Option<String>,
    /// ISO 8601 (PT4M13S); the page formats it through the core.
    pub duration: Option<String>,
    pub thumbnail: Option<String>,
}

impl Video {
    fn plain(id: &str) -> Video {
        Video {
            id: id.to_string(),
            url: watch_url(id),
            title: None,
            duration: None,
            thumbnail: None,
        }
    }
}

pub fn watch_url(id: &str) -> String {
    format!("https://www.youtube.com/watch?v={id}")
}

/// A YouTube video id: 11 characters of [A-Za-z0-9_-] (anything else is not asked for).
pub fn is_video_id(id: &str) -> bool {
    id.len() == 11
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// When each video's last lookup failed (this instance backs off; a cache, not state).
#[derive(Clone, Default)]
pub struct VideoCache {
    failed: Arc<Mutex<HashMap<String, i64>>>,
}

impl VideoCache {
    fn backing_off(&self, id: &str, now: i64) -> bool {
        self.failed
            .lock()
            .map(|m| m.get(id).is_some_and(|at| now - at < VIDEO_BACKOFF_MS))
            .unwrap_or(false)
    }

    fn failed(&self, id: &str, now: i64) {
        if let Ok(mut m) = self.failed.lock() {
            m.insert(id.to_string(), now);
        }
    }
}

/// Reads the provider's answer for one video: title, duration, the medium thumbnail.
pub fn parse_video(id: &str, answer: &Value) -> Option<Video> {
    let item = answer["items"]
        .as_array()?
        .iter()
        .find(|i| i["id"].as_str() == Some(id))?;
    let snippet = &item["snippet"];
    let thumbs = &snippet["thumbnails"];
    let thumbnail = ["medium", "high", "default"]
        .iter()
        .find_map(|k| thumbs[*k]["url"].as_str())
        .filter(|u| u.starts_with("https://") || u.starts_with("http://"));
    Some(Video {
        id: id.to_string(),
        url: watch_url(id),
        title: Some(snippet["title"].as_str()?.chars().take(200).collect()),
        duration: item["contentDetails"]["duration"]
            .as_str()
            .filter(|d| d.starts_with('P') && d.len() <= 32)
            .map(String::from),
        thumbnail: thumbnail.map(String::from),
    })
}

/// Asks the provider about one video (blocking; call off the runtime).
pub fn fetch_video(api_url: &str, key: &str, id: &str) -> Option<Video> {
    let agent = ureq::Agent::config_builder()
        .timeout_global(Some(VIDEO_TIMEOUT))
        .build()
        .new_agent();
    let url = format!("{api_url}/videos");
    let mut answer = agent
        .get(&url)
        .query("part", "snippet,contentDetails")
        .query("id", id)
        .query("key", key)
        .call()
        .ok()?;
    let text = answer
        .body_mut()
        .with_config()
        .limit(256 * 1024)
        .read_to_string()
        .ok()?;
    parse_video(id, &serde_json::from_str(&text).ok()?)
}

/// The FAQ's videos (entry → video) from what the store keeps (`cached`, with when it was
/// fetched): kept answers while fresh, else the provider's (when a key is configured and the
/// last failure is not recent), else the kept one however old, else a plain link. Blocking (it
/// may call the provider). Also returns the answers fetched now, for the store to keep.
pub fn videos(
    cached: &HashMap<String, (Video, i64)>,
    cache: &VideoCache,
    entries: &std::collections::BTreeMap<String, String>,
    api: Option<(&str, &str)>,
    now: i64,
) -> (Vec<(String, Video)>, Vec<Video>) {
    let mut fetched = Vec::new();
    let shown = entries
        .iter()
        .filter(|(_, id)| is_video_id(id))
        .map(|(entry, id)| {
            let kept = cached.get(id.as_str()).cloned();
            let video = match (kept, api) {
                (Some((v, at)), _) if now - at < VIDEO_TTL_MS => v,
                (kept, Some((url, key))) if !cache.backing_off(id, now) => {
                    match fetch_video(url, key, id) {
                        Some(v) => {
                            fetched.push(v.clone());
                            v
                        }
                        None => {
                            cache.failed(id, now);
                            kept.map(|(v, _)| v).unwrap_or_else(|| Video::plain(id))
                        }
                    }
                }
                (Some((v, _)), _) => v,
                (None, _) => Video::plain(id),
            };
            (entry.clone(), video)
        })
        .collect();
    (shown, fetched)
}

/// Store glue for [`videos`].
pub fn cached_video(c: Conn, id: &str) -> Option<(Video, i64)> {
    let (title, duration, thumbnail, at) = crate::store::faq::video(c, id).ok()??;
    Some((
        Video {
            id: id.to_string(),
            url: watch_url(id),
            title: Some(title),
            duration: Some(duration).filter(|d| !d.is_empty()),
            thumbnail: Some(thumbnail).filter(|t| !t.is_empty()),
        },
        at,
    ))
}

pub fn keep_video(c: Conn, v: &Video, now: i64) {
    let _ = crate::store::faq::keep_video(
        c,
        &v.id,
        v.title.as_deref().unwrap_or(""),
        v.duration.as_deref().unwrap_or(""),
        v.thumbnail.as_deref().unwrap_or(""),
        now,
    );
}

/// What the FAQ page shows beside its translated text: `{usdt, explorer, images: [{src, width,
/// height}], videos: {faqsN: {id, url, title, duration, thumbnail}}, onramp}`. Images in
/// `language` (the default language's when it has none); video metadata from the cache, the
/// provider asked for what is missing or stale and the answers kept.
/// `video_cache`: the provider's answers kept in memory.
pub async fn page(
    store: &crate::Store,
    config: &std::sync::Arc<crate::Config>,
    video_cache: &VideoCache,
    language: Option<&str>,
) -> Result<FaqPage, crate::error::Error> {
    use crate::error::Error;
    let (cache, for_task) = (video_cache.clone(), config.clone());
    let language = lvlx_core::language_or(language, lvlx_core::DEFAULT_LANGUAGE).to_string();
    let ids: Vec<String> = config.faq_videos.values().cloned().collect();
    let cached = store
        .read(move |c| {
            Ok::<_, Error>(
                ids.iter()
                    .filter_map(|id| Some((id.clone(), cached_video(c, id)?)))
                    .collect::<HashMap<_, _>>(),
            )
        })
        .await?;
    let now = crate::now_ms();
    let (images, (videos, fetched)) = tokio::task::spawn_blocking(move || {
        let config = for_task;
        let mut images = guide_images(&config.guides_dir, &language);
        if images.is_empty() {
            images = guide_images(&config.guides_dir, lvlx_core::DEFAULT_LANGUAGE);
        }
        let api = config
            .video_api_key
            .as_ref()
            .map(|k| (config.video_api_url.as_str(), k.expose()));
        let videos = videos(&cached, &cache, &config.faq_videos, api, now);
        (images, videos)
    })
    .await
    .map_err(|e| Error::Internal(e.to_string()))?;
    if !fetched.is_empty() {
        store
            .write(move |c| {
                for v in &fetched {
                    keep_video(c, v, now);
                }
                Ok::<_, Error>(())
            })
            .await?;
    }
    let chain = config.chain.as_ref();
    Ok(FaqPage {
        usdt: chain.map(|c| c.usdt.clone()),
        explorer: chain.map(|c| c.explorer_url.clone()),
        images,
        videos: videos.into_iter().collect(),
        onramp: config.card.is_some(),
    })
}

/// What the FAQ page shows beside its translated text.
#[derive(Serialize, utoipa::ToSchema)]
pub struct FaqPage {
    /// The USDT contract, for the wallet guide; null without a chain.
    usdt: Option<String>,
    /// The block explorer's address; null without a chain.
    explorer: Option<String>,
    /// The guide's screenshots in the page's language.
    images: Vec<Shot>,
    /// Each FAQ entry's video, by entry (faqsN).
    videos: std::collections::BTreeMap<String, Video>,
    /// Whether a card on-ramp is configured.
    onramp: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_image_reader_stops_at_its_limit() {
        let dir = tempfile::tempdir().unwrap();
        // A JPEG larger than the limit: its header is at the front, so it still reads.
        let mut big = image::RgbImage::new(1200, 900);
        for (x, y, p) in big.enumerate_pixels_mut() {
            *p = image::Rgb([
                (x * 7 % 251) as u8,
                (y * 13 % 241) as u8,
                ((x ^ y) % 239) as u8,
            ]);
        }
        let path = dir.path().join("big.jpg");
        big.save(&path).unwrap();
        assert!(std::fs::metadata(&path).unwrap().len() > IMAGE_READ_LIMIT);
        assert_eq!(image_size(&path), Some((1200, 900)));
        // A file whose first 262,144 bytes are not an image header: nothing is read past them.
        let mut padded = vec![0u8; IMAGE_READ_LIMIT as usize];
        padded.extend(std::fs::read(&path).unwrap());
        let hidden = dir.path().join("hidden.jpg");
        std::fs::write(&hidden, padded).unwrap();
        assert_eq!(image_size(&hidden), None);
        assert_eq!(image_size(&dir.path().join("missing.jpg")), None);
    }

    #[test]
    fn a_youtube_answer_parses_and_a_foreign_one_does_not() {
        let answer = serde_json::json!({"kind": "youtube#videoListResponse", "items": [{
            "kind": "youtube#video", "id": "abcdefghijk",
            "snippet": {"title": "How to buy", "thumbnails": {"default": {"url": "https://i.ytimg.com/vi/x/default.jpg"}, "medium": {"url": "https://i.ytimg.com/vi/x/mqdefault.jpg", "width": 320, "height": 180}}},
            "contentDetails": {"duration": "PT4M13S"}}]});
        let v = parse_video("abcdefghijk", &answer).unwrap();
        assert_eq!(v.title.as_deref(), Some("How to buy"));
        assert_eq!(v.duration.as_deref(), Some("PT4M13S"));
        assert_eq!(
            v.thumbnail.as_deref(),
            Some("https://i.ytimg.com/vi/x/mqdefault.jpg")
        );
        assert_eq!(
            parse_video("zzzzzzzzzzz", &answer),
            None,
            "another video's answer"
        );
        assert_eq!(
            parse_video("abcdefghijk", &serde_json::json!({"items": []})),
            None
        );
        assert!(is_video_id("abcdefghijk") && !is_video_id("abc/../x") && !is_video_id(""));
    }
}
