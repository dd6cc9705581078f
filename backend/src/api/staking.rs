//! The member staking pages and the admin reserve monitor (issue 12).

use lvlx_core::staking::Pool;
use serde_json::json;
use warp::filters::BoxedFilter;
use warp::Filter;

use super::auth::{admin, authed};
use super::error::reply;
use super::{ok, with};
use crate::error::Error;
use crate::session::Authed;
use crate::staking;
use crate::store::stakes;
use crate::{now_ms, App};

const DAY_MS: i64 = 86_400_000;

pub fn routes(app: App) -> BoxedFilter<(warp::reply::Response,)> {
    // GET /api/v1/staking — the member's staking page: terms and NFT prices as the contracts
    // hold them, both reserves, the wallet's NFTs and LVLX, the member's positions with their
    // figures at `now` (seconds: the later of the server's clock and the latest block's), or
    // {available: false} when no staking contracts are configured.
    let member = warp::path!("staking")
        .and(warp::get())
        .and(authed(app.clone()))
        .and(with(&app))
        .then(|who: Authed, app: App| async move {
            let Some(chain) = staking::contracts(&app.config).cloned() else {
                return ok(&json!({ "available": false }));
            };
            let wallet = who.user.wallet.clone();
            let on_chain = staking::on_chain(&app, &chain, wallet.as_deref()).await?;
            let user = who.user.id;
            let (nft, lvlx) = app.store.read(move |c| stakes::of_member(c, user)).await?;
            let now = on_chain.block_time.max((now_ms() / 1000) as u64);
            ok(&staking::overview(&on_chain, &nft, &lvlx, now))
        })
        .map(reply);
    // GET /api/v1/staking/reserve — admin: per pool the free and reserved reward reserve (from
    // the chain), the rewards reserved in the last 30 days and how many weeks of stakes at that
    // pace the free reserve covers, with a warning under the configured number of weeks.
    let reserve = warp::path!("staking" / "reserve")
        .and(warp::get())
        .and(admin(app.clone()))
        .and(with(&app))
        .then(|_: Authed, app: App| async move {
            let Some(chain) = staking::contracts(&app.config).cloned() else {
                return ok(&json!({ "available": false }));
            };
            let weeks = chain.reserve_warning_weeks;
            let on_chain = staking::on_chain(&app, &chain, None).await?;
            let since = now_ms() - 30 * DAY_MS;
            let (nft, lvlx) = app
                .store
                .read(move |c| {
                    Ok::<_, Error>((
                        stakes::reserved_since(c, Pool::Nft, since)?,
                        stakes::reserved_since(c, Pool::Lvlx, since)?,
                    ))
                })
                .await?;
            ok(&json!({
                "available": true,
                "warningWeeks": weeks,
                "nft": staking::monitor(on_chain.nft_reserve, nft, weeks),
                "lvlx": staking::monitor(on_chain.lvlx_reserve, lvlx, weeks),
            }))
        })
        .map(reply);
    reserve.or(member).unify().boxed()
}
