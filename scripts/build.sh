#!/usr/bin/env bash
# Sets up what is missing (scripts/setup.sh) and builds everything: the core to WebAssembly, the
# web app, and the server.
#   scripts/build.sh           the run command's build: the server with profile `quick`
#                              (target/quick/lvlx) and the core unoptimised (build-wasm.sh
#                              --test), for a first start in minutes on a new machine
#   scripts/build.sh --release what production runs and the benchmarks measure: the release
#                              server (target/release/lvlx) and the optimised core (wasm-opt -O3)
#   scripts/build.sh --debug   debug server, optimised core
#   scripts/build.sh --web     the optimised core and the web app only
#   scripts/build.sh --test    the test command's core and web app; its server is the debug
#                              binary `cargo test` built for the tests
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

wasm=()
case "${1:-}" in
  --web) server=() ;;
  --test) server=() wasm=(--test) ;;
  --debug) server=(cargo build -p lvlx-backend --locked) ;;
  --release) server=(cargo build --release -p lvlx-backend --locked) ;;
  "") server=(cargo build --profile quick -p lvlx-backend --locked) wasm=(--test) ;;
  *) echo "usage: scripts/build.sh [--release|--debug|--web|--test]" >&2; exit 2 ;;
esac

# The server is most of a first build and needs nothing the rest makes: it compiles from the
# start, beside the one-time installs and the web build, whose single-threaded stretches
# (linking, the core's one codegen unit, wasm-opt, webpack) leave a core free. On 2 cores the
# first run command took 13.1 min with the steps one after another.
if [ ${#server[@]} -gt 0 ]; then
  mkdir -p target
  log=target/build-server.log
  echo "Building the server in the background (${server[*]}; output in $log)"
  "${server[@]}" >"$log" 2>&1 &
  server_pid=$!
  trap 'kill "$server_pid" 2>/dev/null || true' EXIT
fi

scripts/setup.sh
scripts/build-wasm.sh "${wasm[@]}"
npx webpack --mode production --stats errors-warnings

if [ ${#server[@]} -gt 0 ]; then
  status=0
  wait "$server_pid" || status=$?
  trap - EXIT
  if [ "$status" != 0 ]; then
    cat "$log" >&2
    echo "the server's build failed (exit $status)" >&2
    exit "$status"
  fi
  tail -n 1 "$log"
fi
