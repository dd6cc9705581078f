#!/usr/bin/env bash
# Every test: formatting and lints, the Rust workspace, the core's vectors on the WebAssembly
# build, the translation checks, a short run of every fuzz target, the API contract cases, and
# the browser tests in headless Chromium, then every row of the load bench for a second.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
step() { printf '\n== %s  [%ds]\n' "$*" "$SECONDS"; }

scripts/setup.sh --test

step "rustfmt and clippy"
cargo fmt --all --check
(cd fuzz && cargo fmt --check)
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo clippy -p lvlx-core --target wasm32-unknown-unknown --features wasm --locked -- -D warnings

step "Rust tests"
cargo test --workspace --locked

step "storage and HTTP API suites again, on a throwaway PostgreSQL (scripts/pg.sh)"
pg_dir=$(mktemp -d /tmp/lvlx-test-pg.XXXXXX)
trap 'scripts/pg.sh stop "$pg_dir"' EXIT
pg_url=$(scripts/pg.sh start "$pg_dir")
LVLX_TEST_POSTGRES=$pg_url cargo test -p lvlx-backend --locked

step "build (wasm core, web app; the server is the debug binary cargo test built above)"
# `cargo build` here would compile the server a second time (about a minute): without the test
# targets, dev-dependencies' features (warp's test module, figment's Jail, the core's dev-wallet
# signer) drop out, and with them the build the tests share. None changes what the server does.
scripts/build.sh --web

step "core vectors on the WebAssembly build"
npm run --silent test:core

step "contract artifacts match their sources (solc-js)"
node contracts/build.mjs --check

step "translations and source rules"
npm run --silent test:source

step "JavaScript lint and format (ESLint with the React hooks rules, Prettier)"
npm run --silent lint

step "fuzz targets of the parsers: a short run of each (scripts/fuzz.sh SECONDS for longer)"
FUZZ_PROFILE=--dev scripts/fuzz.sh 2

step "API contract: Schemathesis cases from the OpenAPI document (a short run; npm run test:api for longer)"
node --experimental-wasm-modules --no-warnings scripts/schemathesis.mjs 10

step "browser tests (headless Chromium)"
TEST_SERVER_BINARY=target/debug/lvlx npm run --silent test:browser

step "load bench smoke: every row of bench:load for 1 s on the debug server (npm run bench:load for figures)"
BENCH_SERVER_BINARY=target/debug/lvlx npm run --silent bench:load 1

step "statements per request on the throwaway PostgreSQL (each request authenticates once)"
BENCH_POSTGRES=$pg_url BENCH_POSTGRES_LOG=$pg_dir/server.log BENCH_SERVER_BINARY=target/debug/lvlx \
  npm run --silent bench:queries

printf '\nAll tests passed in %ds.\n' "$SECONDS"
