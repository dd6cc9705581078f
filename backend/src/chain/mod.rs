//! The chain (docs/product/chain.md): a JSON-RPC client, the development deployment, the owner's
//! development transactions, shared reads and the indexer.

pub mod indexer;
pub mod reads;
mod recording;
pub mod rollback;
pub mod status;

// The client side and the operator's tools are crates of their own, below this one: here under
// their old paths.
pub use lvlx_rpc::{keyed, owner, rpc};
pub use lvlx_tools::{demo, deploy, journal, rollout};
