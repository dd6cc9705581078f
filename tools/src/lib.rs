//! The operator's tools behind `lvlx chain …`, `lvlx demo identity` and `lvlx seed`: the
//! development deployment and its demo stakes, the demo's identity provider (`identity`, its own
//! process), the deployment to a real network from a keystore (`rollout`) and the seeded demo
//! history (`seed`). Production serving never calls them; only the command line does.

pub mod demo;
pub mod deploy;
pub mod identity;
pub mod journal;
pub mod rollout;
pub mod seed;
