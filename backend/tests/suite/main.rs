//! Every integration test of the server in one binary: one link instead of one per file, and
//! the helpers in `common` compiled once. `cargo test -p lvlx-backend --test suite staking::`
//! runs one file's tests.

mod common;

mod accounts;
mod admin;
mod audit;
mod backup;
mod books;
mod chain;
mod codes;
mod content;
mod distributor;
mod durability;
mod faq;
mod history;
mod http;
mod instances;
mod kyc;
mod logs;
mod metrics;
mod network;
mod openapi;
mod owners;
mod reorg;
mod rollout;
mod smtp;
mod sockets;
mod staking;
mod storage;
mod stuck;
mod uploads;
mod wallet;
