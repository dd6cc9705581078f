//! The rank table as admins edit it: each write checked whole by the core, audited, and
//! applied from now on (bonuses already credited stay).

use lvlx_core::network::{self, Rank};

use crate::error::Error;
use crate::store;
use crate::user::UserId;

/// Rank changes the admin page lists.
const AUDIT_ROWS: i64 = 200;

/// The ranks and the newest changes (who, when, before, after).
pub async fn admin_view(app: &crate::App) -> Result<RanksAdmin, Error> {
    let (ranks, audit) = app
        .store
        .read(|c| {
            Ok::<_, Error>((
                store::ranks::table(c)?,
                store::audit::changes(c, "rank", AUDIT_ROWS)?,
            ))
        })
        .await?;
    Ok(RanksAdmin { ranks, audit })
}

/// The admin's rank page.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct RanksAdmin {
    ranks: Vec<Rank>,
    /// The newest changes first.
    audit: Vec<store::audit::Change>,
}

/// The rank table after a change.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct RankTable {
    pub ranks: Vec<Rank>,
}

/// Writes one rank (new or changed) with its audit row, in one transaction; the whole table
/// after the change.
pub async fn put(app: &crate::App, admin: UserId, rank: Rank) -> Result<Vec<Rank>, Error> {
    app.store
        .write(move |c| {
            c.transaction(|tx| {
                let mut table = store::ranks::table(tx)?;
                match table.iter_mut().find(|r| r.id == rank.id) {
                    Some(r) => *r = rank.clone(),
                    None => table.push(rank.clone()),
                }
                network::validate_ranks(&table)?;
                store::ranks::put_rank(tx, &rank, admin, crate::now_ms())?;
                Ok::<_, Error>(store::ranks::table(tx)?)
            })
        })
        .await
}
