//! The public settings the web app reads at start. Never a secret.

use serde::Serialize;
use warp::filters::BoxedFilter;
use warp::Filter;

use super::json;
use crate::App;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PublicConfig {
    landing_url: String,
    product: String,
    languages: [&'static str; 3],
    secret_pass_key: String,
}

/// GET /api/v1/config — settings the browser needs; never a secret.
pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    warp::path!("config")
        .and(warp::get())
        .map(move || {
            json(&PublicConfig {
                landing_url: app.config.landing_url.clone(),
                product: app.config.product.clone(),
                languages: ["en", "es", "pt"],
                secret_pass_key: app.config.secret_pass_key.clone(),
            })
        })
        .boxed()
}
