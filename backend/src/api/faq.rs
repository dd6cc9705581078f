//! The FAQ's data (issue 14) and the card on-ramp: what the page shows beside its translated
//! text (the USDT contract and explorer from configuration, the guide's screenshots with their
//! dimensions, the videos' metadata), and the on-ramp session a member opens.

use std::net::IpAddr;

use serde_json::json;
use warp::filters::BoxedFilter;
use warp::Filter;

use super::auth::authed;
use super::client;
use super::error::reply;
use super::{ok, with};
use crate::error::Error;
use crate::session::Authed;
use crate::store::onramp as stored;
use crate::{faq, now_ms, onramp, App};

/// On-ramp sessions one member may create per hour (each is a call on the provider's account).
const ONRAMP_PER_HOUR: i64 = 10;

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // GET /api/v1/faq?lng= — {usdt, explorer, images: [{src, width, height}], videos:
    // {faqsN: {id, url, title, duration, thumbnail}}, onramp}. Images in the asked language
    // (the default language's when it has none).
    let data = warp::path!("faq")
        .and(warp::get())
        .and(warp::query::<std::collections::HashMap<String, String>>())
        .and(authed(app.clone()))
        .and(with(&app))
        .then(
            |query: std::collections::HashMap<String, String>, _who: Authed, app: App| async move {
                let config = app.config.clone();
                let language = lvlx_core::language_or(
                    query.get("lng").map(String::as_str),
                    lvlx_core::DEFAULT_LANGUAGE,
                )
                .to_string();
                let ids: Vec<String> = config.faq_videos.values().cloned().collect();
                let cached = app
                    .store
                    .read(move |c| {
                        Ok::<_, Error>(
                            ids.iter()
                                .filter_map(|id| Some((id.clone(), faq::cached_video(c, id)?)))
                                .collect::<std::collections::HashMap<_, _>>(),
                        )
                    })
                    .await?;
                let cache = app.videos.clone();
                let now = now_ms();
                let (images, (videos, fetched)) = tokio::task::spawn_blocking(move || {
                    let mut images = faq::guide_images(&config.guides_dir, &language);
                    if images.is_empty() {
                        images = faq::guide_images(&config.guides_dir, lvlx_core::DEFAULT_LANGUAGE);
                    }
                    let api = config
                        .video_api_key
                        .as_ref()
                        .map(|k| (config.video_api_url.as_str(), k.expose()));
                    let videos = faq::videos(&cached, &cache, &config.faq_videos, api, now);
                    (images, videos)
                })
                .await
                .map_err(|e| Error::Internal(e.to_string()))?;
                if !fetched.is_empty() {
                    app.store
                        .write(move |c| {
                            for v in &fetched {
                                faq::keep_video(c, v, now);
                            }
                            Ok::<_, Error>(())
                        })
                        .await?;
                }
                let videos: serde_json::Map<String, serde_json::Value> = videos
                    .into_iter()
                    .map(|(entry, v)| (entry, serde_json::to_value(v).unwrap_or_default()))
                    .collect();
                let chain = app.config.chain.as_ref();
                ok(&json!({
                    "usdt": chain.map(|c| c.usdt.clone()),
                    "explorer": chain.map(|c| c.explorer_url.clone()),
                    "images": images,
                    "videos": videos,
                    "onramp": app.config.card.is_some(),
                }))
            },
        )
        .map(reply);

    // POST /api/v1/onramp/session — creates the card provider's on-ramp session for the
    // member's linked wallet → {id, clientSecret, redirectUrl, publishableKey, currency}.
    // 404 when no provider is configured; 409 without a linked wallet; 429 past 10 an hour.
    let session = warp::path!("onramp" / "session")
        .and(warp::post())
        .and(client::address(&app))
        .and(authed(app.clone()))
        .and(with(&app))
        .then(|ip: Option<IpAddr>, who: Authed, app: App| async move {
            let card = app.config.card.clone().ok_or(Error::NotFound)?;
            let wallet = who.user.wallet.clone().ok_or(Error::WalletRequired)?;
            let user = who.user.id;
            let recent = app
                .store
                .read(move |c| stored::count_since(c, user, now_ms() - 3_600_000))
                .await
                .map_err(Error::from)?;
            if recent >= ONRAMP_PER_HOUR {
                return Err(Error::RateLimited {
                    retry_after_secs: 600,
                });
            }
            let customer_ip = ip.map(|a| a.to_string());
            let for_wallet = wallet.clone();
            let session = tokio::task::spawn_blocking(move || {
                onramp::create(&card, &for_wallet, customer_ip.as_deref())
            })
            .await
            .map_err(|e| Error::Internal(e.to_string()))??;
            let id = session.id.clone();
            app.store
                .write(move |c| stored::record(c, &id, user, &wallet, now_ms()))
                .await
                .map_err(Error::from)?;
            ok(&session)
        })
        .map(reply);

    data.or(session).unify().boxed()
}
