//! Uploaded images (avatars, content images) by name ("avatars/12.png",
//! "content/{block}-{language}-{random}.png"): in the database, so every instance serves the
//! same bytes and `lvlx db copy` and backups carry them.

use sha2::{Digest, Sha256};

use super::{Conn, Result};
use crate::args;

/// What an image answers with.
pub struct Upload {
    pub body: Vec<u8>,
    /// A strong validator, quoted as HTTP wants it.
    pub etag: String,
}

/// Writes (or replaces) the image `name`.
pub fn put(c: Conn, name: &str, body: &[u8], now: i64) -> Result<()> {
    let etag = format!("\"{}\"", &hex::encode(Sha256::digest(body))[..32]);
    c.execute(
        "INSERT INTO uploads (name, body, etag, created_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (name) DO UPDATE SET body = excluded.body, etag = excluded.etag,
             created_at = excluded.created_at",
        args![name, body, etag, now],
    )?;
    Ok(())
}

/// Writes `name` unless it exists (the import of files written before 0015).
pub fn put_new(c: Conn, name: &str, body: &[u8], now: i64) -> Result<bool> {
    let etag = format!("\"{}\"", &hex::encode(Sha256::digest(body))[..32]);
    Ok(c.execute(
        "INSERT INTO uploads (name, body, etag, created_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (name) DO NOTHING",
        args![name, body, etag, now],
    )? > 0)
}

pub fn get(c: Conn, name: &str) -> Result<Option<Upload>> {
    c.query_opt(
        "SELECT body, etag FROM uploads WHERE name = ?1",
        args![name],
        |r| {
            Ok(Upload {
                body: r.get(0)?,
                etag: r.get(1)?,
            })
        },
    )
}

/// The validator alone: a revalidation answers 304 without reading the body.
pub fn etag(c: Conn, name: &str) -> Result<Option<String>> {
    c.query_opt(
        "SELECT etag FROM uploads WHERE name = ?1",
        args![name],
        |r| r.get(0),
    )
}

pub fn remove(c: Conn, name: &str) -> Result<()> {
    c.execute("DELETE FROM uploads WHERE name = ?1", args![name])?;
    Ok(())
}
