//! Where the indexer stands, for the admin pages (`lvlx_chain::status`), as the domain answers.

pub use lvlx_chain::status::Standing;

use crate::error::Error;
use crate::App;

pub async fn read(app: &App) -> Result<Standing, Error> {
    Ok(lvlx_chain::status::read(&app.store, &app.config, &app.indexing).await?)
}
