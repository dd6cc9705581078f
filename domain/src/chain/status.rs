//! Where the indexer stands, for the admin pages (`lvlx_chain::status`), as the domain answers.

pub use lvlx_chain::status::Standing;

use crate::error::Error;
use crate::{Config, Store};

/// `indexing`: whether this instance's indexer moves.
pub async fn read(
    store: &Store,
    config: &Config,
    indexing: &super::watch::Watch,
) -> Result<Standing, Error> {
    Ok(lvlx_chain::status::read(store, config, indexing).await?)
}
