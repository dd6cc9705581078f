//! Session calls of SPEC §7: tokenVerify (refresh) and signout, plus the admin's own details.

use serde::Deserialize;
use serde_json::json;
use warp::filters::BoxedFilter;
use warp::{Filter, Rejection};

use super::{json, json_body};
use crate::session::{self, Authed};
use crate::{now_ms, App};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Signout {
    #[allow(dead_code)] // SPEC §7 sends it; the Authorization header is what is checked.
    token: String,
}

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    let with = {
        let app = app.clone();
        move || {
            let app = app.clone();
            warp::any().map(move || app.clone())
        }
    };
    // GET /api/v1/tokenVerify — {auth, token}: a fresh token while the session lives, else 401.
    let verify = warp::path!("tokenVerify")
        .and(warp::get())
        .and(session::authed(app.clone()))
        .and(with())
        .and_then(|who: Authed, app: App| async move {
            let token = session::token(&app, &who.user, &who.session_id, who.session_expires_ms)
                .map_err(warp::reject::custom)?;
            Ok::<_, Rejection>(json(&json!({"auth": true, "token": token})))
        });
    // POST /api/v1/signout — ends the session server-side: its token gets 401 from then on.
    let signout = warp::path!("signout")
        .and(warp::post())
        .and(session::authed(app.clone()))
        .and(with())
        .and(json_body::<Signout>())
        .and_then(|who: Authed, app: App, _body: Signout| async move {
            app.db
                .run(move |c| session::revoke(c, &who.session_id, now_ms()))
                .await
                .map_err(warp::reject::custom)?;
            Ok::<_, Rejection>(json(&json!({"auth": true})))
        });
    // GET /api/v1/admin/session — the signed-in admin (names for the side menu).
    let admin = warp::path!("admin" / "session")
        .and(warp::get())
        .and(session::admin(app))
        .map(|who: Authed| json(&json!({"names": who.user.names, "lastnames": who.user.lastnames, "roleAdmin": who.user.role, "email": who.user.email})));
    verify.or(signout).unify().or(admin).unify().boxed()
}
