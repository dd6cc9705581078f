//! The operator's tools behind `lvlx chain …` and `lvlx demo identity`: the development
//! deployment and its demo stakes, the demo's identity provider (`identity`, its own process),
//! and the deployment to a real network from a keystore (`rollout`). Production serving never
//! calls them; the server crate reaches them only through its command line.

pub mod demo;
pub mod deploy;
pub mod identity;
pub mod journal;
pub mod rollout;
