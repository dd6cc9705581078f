//! Content blocks: a title, a text and an optional image per block and language.

use super::Row;
use crate::args;

use super::{Conn, Result};
use crate::user::UserId;

/// A stored block in one language; `image` is a file name under the content folder.
#[derive(Debug, Clone)]
pub struct Block {
    pub block: String,
    pub language: String,
    pub title: String,
    pub description: String,
    pub image: Option<String>,
    pub updated_at: i64,
}

const COLUMNS: &str = "block, language, title, description, image, updated_at";

fn from_row(r: &Row) -> Result<Block> {
    Ok(Block {
        block: r.get(0)?,
        language: r.get(1)?,
        title: r.get(2)?,
        description: r.get(3)?,
        image: r.get(4)?,
        updated_at: r.get(5)?,
    })
}

/// The block in the first of `languages` that has it.
pub fn first_of(c: Conn, block: &str, languages: &[&str]) -> Result<Option<Block>> {
    for language in languages {
        let found = c.query_opt(
            &format!("SELECT {COLUMNS} FROM content_blocks WHERE block = ?1 AND language = ?2"),
            args![block, language],
            from_row,
        )?;
        if found.is_some() {
            return Ok(found);
        }
    }
    Ok(None)
}

/// Every block in every language.
pub fn all(c: Conn) -> Result<Vec<Block>> {
    let stmt_sql = &format!("SELECT {COLUMNS} FROM content_blocks ORDER BY block, language");
    let rows = c.query_all(stmt_sql, args![], from_row)?;
    Ok(rows)
}

/// `None` when the block has no text in `language`; else its image file, if any.
pub fn image(c: Conn, block: &str, language: &str) -> Result<Option<Option<String>>> {
    c.query_opt(
        "SELECT image FROM content_blocks WHERE block = ?1 AND language = ?2",
        args![block, language],
        |r| r.get(0),
    )
}

pub struct Edit<'a> {
    pub block: &'a str,
    pub language: &'a str,
    pub title: &'a str,
    pub description: &'a str,
    pub clear_image: bool,
    pub by: UserId,
    pub at: i64,
}

/// Writes the text of a block (creating it), keeping or clearing its image.
pub fn write_text(c: Conn, e: &Edit) -> Result<()> {
    c.execute(
        "INSERT INTO content_blocks (block, language, title, description, image, updated_at, updated_by)
         VALUES (?1, ?2, ?3, ?4, NULL, ?5, ?6)
         ON CONFLICT (block, language) DO UPDATE SET title = ?3, description = ?4,
           image = CASE WHEN ?7 THEN NULL ELSE content_blocks.image END, updated_at = ?5, updated_by = ?6", args![e.block, e.language, e.title, e.description, e.at, e.by.0, e.clear_image])?;
    Ok(())
}

pub fn set_image(
    c: Conn,
    block: &str,
    language: &str,
    file: &str,
    by: UserId,
    at: i64,
) -> Result<()> {
    c.execute(
        "UPDATE content_blocks SET image = ?3, updated_at = ?4, updated_by = ?5
         WHERE block = ?1 AND language = ?2",
        args![block, language, file, at, by.0],
    )?;
    Ok(())
}
