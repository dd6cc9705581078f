//! The FAQ videos' cached metadata.

use crate::args;

use super::{Conn, Result};

/// (title, duration, thumbnail, fetched_at) of a video, when kept.
pub fn video(c: Conn, id: &str) -> Result<Option<(String, String, String, i64)>> {
    c.query_opt(
        "SELECT title, duration, thumbnail, fetched_at FROM video_meta WHERE video_id = ?1",
        args![id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )
}

pub fn keep_video(
    c: Conn,
    id: &str,
    title: &str,
    duration: &str,
    thumbnail: &str,
    now: i64,
) -> Result<()> {
    c.execute(
        "INSERT INTO video_meta (video_id, title, duration, thumbnail, fetched_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT(video_id) DO UPDATE SET title = ?2, duration = ?3, thumbnail = ?4, fetched_at = ?5", args![id, title, duration, thumbnail, now])?;
    Ok(())
}
