#!/usr/bin/env bash
# Builds everything: the core to WebAssembly, the web app, and the server.
#   scripts/build.sh           release server (what the run command serves)
#   scripts/build.sh --debug   debug server
#   scripts/build.sh --web     the core and the web app only (the test command: its server is
#                              the debug binary `cargo test` built for the integration tests)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
scripts/build-wasm.sh
npx webpack --mode production --stats errors-warnings
if [ "${1:-}" = "--web" ]; then
  exit 0
elif [ "${1:-}" = "--debug" ]; then
  cargo build -p lvlx-backend
else
  cargo build --release -p lvlx-backend
fi
