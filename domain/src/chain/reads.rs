//! Chain reads shared across requests (`lvlx_chain::reads`), and [`blocking`], which runs the
//! domain's own reads off the runtime in its error.

pub use lvlx_chain::reads::*;

use crate::error::Error;

/// Runs blocking chain reads off the runtime.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, Error> + Send + 'static,
) -> Result<T, Error> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| Error::Internal(e.to_string()))?
}
