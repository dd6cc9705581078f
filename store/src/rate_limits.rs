//! Per-IP request counts per minute, shared by every instance on the database.

use super::{Conn, Result};
use crate::args;

/// Counts one request of `key` against `bucket` in `minute`; answers the minute's count so far
/// (this one included). Minutes before the previous one are dropped as they pass.
pub fn hit(c: Conn, bucket: &str, key: &str, minute: i64) -> Result<i64> {
    let count: i64 = c.query_one(
        "INSERT INTO rate_limits (bucket, key, minute, count) VALUES (?1, ?2, ?3, 1)
         ON CONFLICT (bucket, key, minute) DO UPDATE SET count = rate_limits.count + 1
         RETURNING count",
        args![bucket, key, minute],
        |r| r.get(0),
    )?;
    if count == 1 {
        c.execute(
            "DELETE FROM rate_limits WHERE minute < ?1",
            args![minute - 1],
        )?;
    }
    Ok(count)
}
