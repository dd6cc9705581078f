//! The chain (docs/product/chain.md): shared reads and the indexer, over the JSON-RPC client.

pub mod indexer;
pub mod reads;
mod recording;
pub mod rollback;
pub mod status;
pub mod watch;

// The client side is a crate of its own, below this one: here under its old paths.
pub use lvlx_rpc::{keyed, owner, rpc};
