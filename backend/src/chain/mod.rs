//! The chain (DESIGN §5): a JSON-RPC client, the development deployment and the indexer.

pub mod demo;
pub mod deploy;
pub mod indexer;
pub mod reads;
pub mod rpc;
