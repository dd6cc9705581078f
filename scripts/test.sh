#!/usr/bin/env bash
# Every test: formatting and lints, the Rust workspace, the core's vectors on the WebAssembly
# build, the translation checks, and the browser tests in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
step() { printf '\n== %s\n' "$*"; }

scripts/setup.sh --test

step "rustfmt and clippy"
cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo clippy -p lvlx-core --target wasm32-unknown-unknown --features wasm --locked -- -D warnings

step "Rust tests"
cargo test --workspace --locked

step "build (wasm core, web app, server)"
scripts/build.sh --debug

step "core vectors on the WebAssembly build"
npm run --silent test:core

step "contract artifacts match their sources (solc-js)"
node contracts/build.mjs --check

step "translations and source rules"
npm run --silent test:source

step "API contract: Schemathesis cases from the OpenAPI document (a short run; npm run test:api for longer)"
node --experimental-wasm-modules --no-warnings scripts/schemathesis.mjs 10

step "browser tests (headless Chromium)"
TEST_SERVER_BINARY=target/debug/lvlx npm run --silent test:browser

printf '\nAll tests passed.\n'
