//! The chain (docs/product/chain.md): a JSON-RPC client, the development deployment, the owner's
//! development transactions, shared reads and the indexer.

pub mod demo;
pub mod deploy;
pub mod indexer;
pub mod keyed;
pub mod owner;
pub mod reads;
mod recording;
pub mod rollback;
pub mod rollout;
pub mod rpc;
pub mod status;
