//! The rank table (edited by id, audited) and the one-time bonuses members were credited.

use super::{Conn, Result};
use crate::args;
use crate::user::UserId;
use lvlx_core::amount::Units;
use lvlx_core::network::Rank;
use serde::Serialize;

/// The rank table, by id.
pub fn table(c: Conn) -> Result<Vec<Rank>> {
    ranks(
        c,
        "SELECT id, name, threshold, bonus FROM ranks ORDER BY id",
        args![],
    )
}

/// The rank table in force at chain block `block`: the version with the latest start at or
/// before it (a seeded entry without a block settles by the newest, `i64::MAX`).
pub fn table_at(c: Conn, block: i64) -> Result<Vec<Rank>> {
    ranks(
        c,
        "SELECT id, name, threshold, bonus FROM rank_versions
         WHERE from_block = (SELECT MAX(from_block) FROM rank_versions WHERE from_block <= ?1)
         ORDER BY id",
        args![block],
    )
}

/// Ranks as `sql` answers them: id, name, threshold, bonus.
fn ranks(c: Conn, sql: &str, args: &[super::Arg]) -> Result<Vec<Rank>> {
    c.query_all(sql, args, |r| {
        Ok(Rank {
            id: r.get(0)?,
            name: r.get(1)?,
            threshold: r.units(2)?,
            bonus: r.units(3)?,
        })
    })
}

/// Keeps the rank table as it is now as the version applying from chain block `from`: what a
/// later version said from there on (a cursor taken back by a reorg) gives way to it.
pub fn keep_version(c: Conn, from: i64) -> Result<()> {
    c.execute(
        "DELETE FROM rank_versions WHERE from_block >= ?1",
        args![from],
    )?;
    c.execute(
        "INSERT INTO rank_versions (from_block, id, name, threshold, bonus)
         SELECT ?1, id, name, threshold, bonus FROM ranks",
        args![from],
    )?;
    Ok(())
}

/// Writes rank `rank.id` (new or changed). The caller validated the whole table with the core.
pub fn put_rank(c: Conn, rank: &Rank, now: i64) -> Result<()> {
    c.execute(
        "INSERT INTO ranks (id, name, threshold, bonus, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (id) DO UPDATE SET name = ?2, threshold = ?3, bonus = ?4, updated_at = ?5",
        args![
            rank.id,
            &rank.name,
            rank.threshold.to_string(),
            rank.bonus.to_string(),
            now
        ],
    )?;
    Ok(())
}

/// The ids of the ranks `user` was credited.
pub fn achieved(c: Conn, user: UserId) -> Result<Vec<u32>> {
    let stmt_sql = "SELECT rank_id FROM rank_bonuses WHERE user_id = ?1";
    let ids = c.query_all(stmt_sql, args![user.0], |r| r.get::<u32>(0))?;
    Ok(ids)
}

/// Credits `user` the bonus of `rank`, reached at network volume `volume`.
pub fn credit_bonus(c: Conn, user: UserId, rank: &Rank, volume: Units, now: i64) -> Result<()> {
    c.execute(
        "INSERT INTO rank_bonuses (user_id, rank_id, name, amount, volume, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        args![user.0, rank.id, &rank.name, rank.bonus.to_string(), volume.to_string(), now],
    )?;
    Ok(())
}

/// The ranks `user` was credited: (rank id, network volume when credited).
pub fn credited(c: Conn, user: UserId) -> Result<Vec<(u32, Units)>> {
    let rows = c.query_all(
        "SELECT rank_id, volume FROM rank_bonuses WHERE user_id = ?1",
        args![user.0],
        |r| Ok((r.get::<u32>(0)?, r.get::<String>(1)?)),
    )?;
    rows.into_iter()
        .map(|(id, volume)| Ok((id, super::units(&volume)?)))
        .collect()
}

/// Takes back `user`'s bonus of rank `rank_id`; the bonus amount, if it was credited.
pub fn revoke(c: Conn, user: UserId, rank_id: u32) -> Result<Option<Units>> {
    let amount: Option<String> = c.query_opt(
        "SELECT amount FROM rank_bonuses WHERE user_id = ?1 AND rank_id = ?2",
        args![user.0, rank_id],
        |r| r.get(0),
    )?;
    c.execute(
        "DELETE FROM rank_bonuses WHERE user_id = ?1 AND rank_id = ?2",
        args![user.0, rank_id],
    )?;
    amount.as_deref().map(super::units).transpose()
}

/// Names `user`'s rank.
pub fn set_rank(c: Conn, user: UserId, name: &str) -> Result<()> {
    c.execute(
        "UPDATE users SET rank = ?2 WHERE id = ?1",
        args![user.0, name],
    )?;
    Ok(())
}

/// A rank bonus a member received.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[schema(as = RankBonus)]
#[serde(rename_all = "camelCase")]
pub struct Bonus {
    pub rank_id: u32,
    pub name: String,
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    pub amount: Units,
    pub created_at: i64,
}

pub fn bonuses(c: Conn, user: UserId) -> Result<Vec<Bonus>> {
    let stmt_sql = "SELECT rank_id, name, amount, created_at FROM rank_bonuses WHERE user_id = ?1 ORDER BY created_at, rank_id";

    let mut out = Vec::new();
    c.query_each(stmt_sql, args![user.0], |r| {
        out.push(Bonus {
            rank_id: r.get(0)?,
            name: r.get(1)?,
            amount: r.units(2)?,
            created_at: r.get(3)?,
        });
        Ok(())
    })?;
    Ok(out)
}

/// The rank table and the ids of the ranks credited to `user`, in one query.
pub fn ranks_of(c: Conn, user: UserId) -> Result<(Vec<Rank>, Vec<u32>)> {
    let stmt_sql = "SELECT r.id, r.name, r.threshold, r.bonus, b.rank_id FROM ranks r
         LEFT JOIN rank_bonuses b ON b.rank_id = r.id AND b.user_id = ?1 ORDER BY r.id";
    let (mut ranks, mut achieved) = (Vec::new(), Vec::new());
    c.query_each(stmt_sql, args![user.0], |r| {
        let rank = Rank {
            id: r.get(0)?,
            name: r.get(1)?,
            threshold: r.units(2)?,
            bonus: r.units(3)?,
        };
        if r.get::<Option<u32>>(4)?.is_some() {
            achieved.push(rank.id);
        }
        ranks.push(rank);
        Ok(())
    })?;
    Ok((ranks, achieved))
}

/// Every rank bonus credited, as (member, rank id, amount).
pub fn bonuses_all(c: Conn) -> Result<Vec<(i64, u32, Units)>> {
    c.query_all(
        "SELECT user_id, rank_id, amount FROM rank_bonuses",
        args![],
        |r| Ok((r.get(0)?, r.get(1)?, r.units(2)?)),
    )
}
