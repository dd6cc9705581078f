//! The rank table as admins edit it: each write checked whole by the core, audited, and
//! applied from now on: to purchases in chain blocks the indexer has not read yet (bonuses
//! already credited stay, and reading the chain again credits what was credited).

use lvlx_core::network::{self, Rank};

use crate::error::Error;
use crate::store;
use crate::user::UserId;

/// Rank changes the admin page lists.
const AUDIT_ROWS: i64 = 200;

/// The ranks and the newest changes (who, when, before, after).
pub async fn admin_view(store: &crate::Store) -> Result<RanksAdmin, Error> {
    let (ranks, audit) = store
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
pub async fn put(store: &crate::Store, admin: UserId, rank: Rank) -> Result<Vec<Rank>, Error> {
    let rank = Rank {
        name: rank.name.trim().to_string(),
        ..rank
    };
    store
        .write(move |c| {
            c.transaction(|tx| {
                let mut table = store::ranks::table(tx)?;
                let before = table.iter().find(|r| r.id == rank.id).cloned();
                match table.iter_mut().find(|r| r.id == rank.id) {
                    Some(r) => *r = rank.clone(),
                    None => table.push(rank.clone()),
                }
                network::validate_ranks(&table)?;
                let now = crate::now_ms();
                store::ranks::put_rank(tx, &rank, now)?;
                let from = store::cursors::next_block(tx)?;
                store::ranks::keep_version(tx, from)?;
                // Members' stored rank names follow a renamed rank.
                if let Some(old) = before.as_ref().filter(|old| old.name != rank.name) {
                    store::users::rename_rank(tx, rank.id, &old.name, &rank.name)?;
                }
                let json = |r: &Rank| serde_json::to_value(r).unwrap_or_default();
                store::audit::append(
                    tx,
                    "rank",
                    Some(i64::from(rank.id)),
                    admin,
                    now,
                    before.as_ref().map(json),
                    &json(&rank),
                )?;
                Ok::<_, Error>(store::ranks::table(tx)?)
            })
        })
        .await
}
