//! The operator's tools behind `lvlx chain …`: the development deployment and its demo stakes,
//! and the deployment to a real network from a keystore (`rollout`). Production serving never
//! calls them; the server crate reaches them only through its command line.

pub mod demo;
pub mod deploy;
pub mod journal;
pub mod rollout;
