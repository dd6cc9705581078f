//! Uploaded images (docs/product/accounts.md#avatars; content images): at most 2 MB, JPEG or
//! PNG by their magic bytes, decoded (at most 4096×4096), scaled to their kind's bound and
//! re-encoded as PNG by the core, a few at a time so a burst of uploads cannot take the
//! server's memory.

use std::future::Future;

use tokio::sync::SemaphorePermit;

pub use lvlx_core::images::Kind;
use lvlx_core::images::{self, ImageError};

use crate::error::Error;

pub const MAX_BYTES: u64 = 2 * 1024 * 1024;

/// Images decoded at once: each may take up to 64 MiB (`images::MAX_DECODED`) and a core, so
/// uploads beyond these wait their turn (16 bombs at once took the server to 3.9 GiB).
pub const DECODES_AT_ONCE: usize = 2;

/// Bytes of upload bodies held in memory at once (eight bodies of [`MAX_BYTES`]). Each chunk
/// takes its bytes from this budget as it arrives and keeps them until the image is decoded, so
/// a slow sender holds only what it has sent: eight senders trickling a byte at a time held all
/// eight places of the former whole-upload turns, and every member's upload waited. Beyond the
/// budget senders wait, their bytes still in the network's buffers (250 uploads of 2 MB at once
/// took 630 MB when every body was read before waiting to decode).
pub const UPLOAD_BYTES: usize = 8 * MAX_BYTES as usize;

/// The image `read` brings (at most [`MAX_BYTES`], with its share of [`UPLOAD_BYTES`]),
/// re-encoded as PNG off the async threads, [`DECODES_AT_ONCE`] at a time.
pub async fn png_from(
    decodes: &tokio::sync::Semaphore,
    kind: Kind,
    read: impl Future<Output = Result<(Vec<u8>, SemaphorePermit<'_>), Error>>,
) -> Result<Vec<u8>, Error> {
    let (bytes, _held) = read.await?;
    let _turn = decodes
        .acquire()
        .await
        .map_err(|e| Error::Internal(format!("image decodes: {e}")))?;
    tokio::task::spawn_blocking(move || reencode(&bytes, kind))
        .await
        .map_err(|e| Error::Internal(format!("image task: {e}")))?
}

/// The core's acceptance rule ([`lvlx_core::images::reencode`]) in the server's errors.
fn reencode(bytes: &[u8], kind: Kind) -> Result<Vec<u8>, Error> {
    images::reencode(bytes, kind).map_err(|e| match e {
        ImageError::NotAnImage => Error::NotAnImage,
        ImageError::Encode(e) => Error::Internal(e),
    })
}
