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

use crate::config;

/// The chain section, when the activation node and claim distributor are configured.
pub fn contracts(config: &config::Config) -> Option<&config::Chain> {
    config
        .chain
        .as_ref()
        .filter(|c| !c.activation_node.is_empty() && !c.claim_distributor.is_empty())
}
