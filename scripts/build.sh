#!/usr/bin/env bash
# Builds everything: the core to WebAssembly, the web app, and the server.
#   scripts/build.sh           release server (what the run command serves)
#   scripts/build.sh --debug   debug server (what the tests start; shares cargo test's build)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
scripts/build-wasm.sh
npx webpack --mode production --stats errors-warnings
if [ "${1:-}" = "--debug" ]; then
  cargo build -p lvlx-backend
else
  cargo build --release -p lvlx-backend
fi
