//! The chain's client side: JSON-RPC with fallback nodes and retries (`rpc`), sending a
//! transaction and waiting for its receipt (`owner`), and signing with a Web3 Secret Storage
//! keystore (`keyed`). No rule of the product lives here: the calldata, events and reverts are
//! the core's.

pub mod keyed;
pub mod owner;
pub mod rpc;
