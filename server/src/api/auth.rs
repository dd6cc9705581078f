//! The filters that authenticate a request from its `Authorization: Bearer` token: any signed-in
//! account, or an admin (the role re-read from the database, never trusted from the token).

use warp::filters::BoxedFilter;
use warp::Filter;

use super::error::reject;
use crate::error::Error;
use crate::session::{self, Authed};
use crate::App;

/// The token of an `Authorization: Bearer …` header.
pub fn bearer(header: Option<&str>) -> Result<&str, Error> {
    header
        .and_then(|h| h.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or(Error::Unauthorized)
}

/// The raw `Authorization` header, if any.
pub fn authorization() -> BoxedFilter<(Option<String>,)> {
    warp::header::optional::<String>("authorization").boxed()
}

/// Any signed-in account.
pub fn authed(app: App) -> BoxedFilter<(Authed,)> {
    authorization()
        .and_then(move |header: Option<String>| {
            let app = app.clone();
            async move {
                let token = bearer(header.as_deref()).map_err(reject)?;
                session::authenticate(&app.keys, &app.store, token)
                    .await
                    .map_err(reject)
            }
        })
        .boxed()
}

/// An admin.
pub fn admin(app: App) -> BoxedFilter<(Authed,)> {
    authed(app)
        .and_then(|who: Authed| async move {
            if who.user.is_admin() {
                Ok(who)
            } else {
                Err(reject(Error::Forbidden))
            }
        })
        .boxed()
}

/// Any signed-in account, and the app for the handler (the pair most endpoints take).
pub fn authed_app(app: &App) -> BoxedFilter<(Authed, App)> {
    authed(app.clone()).and(super::with(app)).boxed()
}

/// An admin, and the app for the handler.
pub fn admin_app(app: &App) -> BoxedFilter<(Authed, App)> {
    admin(app.clone()).and(super::with(app)).boxed()
}
