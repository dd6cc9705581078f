//! The referral network (docs/product/network.md): settling purchases, recording the chain's
//! network events, the activation node, ranks, claims, and what the member pages read. The HTTP
//! routes live in `api::network`.

pub mod claims;
pub mod events;
pub mod nodes;
pub mod pages;
pub mod ranks;
pub mod settlement;
pub mod signer;
