//! The `lvlx` command (`cli`): serving (crate `lvlx-server`, re-exported here whole) and the
//! operator's tools beside it (deployment, rollout, demo stakes, under `crate::chain`), which only
//! the command line uses.

pub use lvlx_server::*;

/// The domain's chain module and, beside it, the operator's tools (deployment, rollout, demo
/// stakes), which only the command line uses: the server does not link them.
pub mod chain {
    pub use lvlx_domain::chain::*;
    pub use lvlx_tools::{demo, deploy, journal, rollout};
}

pub mod cli;
