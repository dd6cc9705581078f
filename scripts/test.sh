#!/usr/bin/env bash
# Every test: formatting and lints, the Rust workspace (a short run of every fuzz target among
# them), the core's vectors on the WebAssembly build, the translation checks, the API contract
# cases, and the browser tests in headless Chromium, then every row of the load bench for a second.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
step() { printf '\n== %s  [%ds]\n' "$*" "$SECONDS"; }

logs=target/test-logs
mkdir -p "$logs"
declare -A pids=()
background() { # NAME COMMAND...: runs COMMAND in the background, its output in $logs/NAME.log
  local name=$1
  shift
  # Its own process group (setsid), so that stopping it stops what it started too (test
  # binaries, their chains, databases and browsers), not just the cargo or npm at its top.
  setsid "$@" >"$logs/$name.log" 2>&1 &
  pids[$name]=$!
}
# A lower priority for a job that should take only what the others leave. Each background job is
# a session of its own (setsid), and with the kernel's autogroups (on by default) a session shares
# the CPU with every other as an equal whatever its nice value: the group's own nice is what
# lowers it.
low() { # NAME NICE COMMAND...: background, at priority NICE (19 the lowest)
  local name=$1 nice=$2
  shift 2
  background "$name" bash -c 'echo "$0" >/proc/self/autogroup 2>/dev/null || true; exec nice -n "$0" "$@"' "$nice" "$@"
}
finish() { # NAME...: waits for each job, shows its output, stops at the first that failed
  local name
  for name in "$@"; do
    local status=0
    wait "${pids[$name]}" || status=$?
    printf '\n-- %s (exit %d)  [%ds]\n' "$name" "$status" "$SECONDS"
    cat "$logs/$name.log"
    [ "$status" = 0 ] || { echo "$name failed" >&2; exit 1; }
  done
}
pg_dir=$(mktemp -d /tmp/lvlx-test-pg.XXXXXX)
stop_jobs() {
  local name
  for name in "${!pids[@]}"; do
    # Packages being installed are let finish: a dpkg stopped mid-unpack breaks the next install.
    [ "$name" = system ] || kill -- "-${pids[$name]}" 2>/dev/null || true
  done
  [ -z "${pids[system]:-}" ] || wait "${pids[system]}" 2>/dev/null || true
}
trap 'stop_jobs; scripts/pg.sh stop "$pg_dir"' EXIT

# What the tests need from the system (Debian's and Python's packages, which a new machine
# downloads and unpacks) installs in the background, beside the builds, and is awaited before the
# first test. Not where sudo would ask for a password: a background job cannot be asked, so it
# installs first, in the foreground. nginx is in /usr/sbin, which a user's PATH may not name.
export PATH="$PATH:/usr/sbin"
# Every tool a test needs is installed here, so a test that would skip for want of one (nginx,
# prometheus, a tmpfs as root) fails instead of passing unseen.
export REQUIRE_TEST_TOOLS=1
if [ "$(id -u)" = 0 ] || sudo -n true 2>/dev/null; then
  background system scripts/setup.sh --system
else
  step "what the tests need from the system (scripts/setup.sh --system)"
  scripts/setup.sh --system
  background system true
fi
# The web app's build (the core for wasm32, then webpack) starts first and runs beside the host
# build at an equal share; the browser tests need both. The order moves little: at the lowest
# priority it got almost nothing beside the host build and the browser tests waited for it until
# 863 s of 1,780 s on a fresh clone; at an equal share both were done at 690 s of 1,814 s, the
# browser tests then sharing the CPU with the suites for longer (2026-11-29). The machine is busy
# throughout; what would shorten the run is less CPU (docs/performance.md).
step "what the web build needs (scripts/setup.sh: the wasm target, wasm-bindgen, npm ci), then the web app's build (the core for wasm32, webpack), beside the host build"
# `cargo build` here would compile the server a second time: the tests' debug binary is the
# server from here on (without the test targets, dev-dependencies' features drop out and with
# them the build the tests share; none changes what the server does).
# The host build needs none of what setup.sh installs, so it no longer waits for it (npm ci took
# the first 37 s of a fresh clone's run with a core idle). The Rust tests do (anvil is an npm
# package): they wait for the mark the web job leaves once setup is done (`setup_done`).
setup_mark=$logs/setup.done
rm -f "$setup_mark"
background web bash -c 'scripts/setup.sh && touch "$0" && scripts/build.sh --test' "$setup_mark"
setup_done() { # until setup.sh has run in the web job; if that job ended without it, its failure
  while [ ! -e "$setup_mark" ] && kill -0 "${pids[web]}" 2>/dev/null; do sleep 1; done
  [ -e "$setup_mark" ] || finish web
}

step "formatting (rustfmt)"
cargo fmt --all --check
(cd fuzz/libfuzzer && cargo fmt --check)

# Clippy as the compiler (what `cargo clippy` does under `cargo check`): the workspace's crates
# are linted while they are built for the tests, so the dependencies compile once, not twice
# (a separate `cargo clippy --all-targets` took 200 s of a 30-minute run). Every cargo command
# that builds the host workspace below uses it, or cargo would rebuild without it. The core's
# binding (src/wasm.rs, feature `wasm`) is built and linted here too: wasm-bindgen compiles for
# the host, so a separate clippy run for wasm32 (45 s) checks nothing more.
lint=(env "RUSTC_WORKSPACE_WRAPPER=$(rustc --print sysroot)/bin/clippy-driver"
  "CLIPPY_ARGS=-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__" cargo)
features=(--locked --features lvlx-core/wasm)
step "build every Rust target, linted by clippy as it compiles (-D warnings)"
"${lint[@]}" test --workspace --all-targets "${features[@]}" --no-run

finish system
setup_done
pg_url=$(scripts/pg.sh start "$pg_dir")
step "Rust tests on SQLite; beside them the storage and HTTP API suites on a throwaway PostgreSQL (scripts/pg.sh), then the browser tests"
background sqlite "${lint[@]}" test --workspace "${features[@]}"
# On PostgreSQL the suites whose subject is not the database are not run a second time: the
# SQLite file tools (backup, crash durability), sockets, logs, metrics, error codes, the OpenAPI
# document, the mail path, the stuck indexer's process, the deployment tool and the contracts'
# own rules on anvil (the distributor's, the sale's, the node's, the vouchers', the pools' and
# their gas: no store in them).
pg_skip=(--skip backup:: --skip durability:: --skip sockets:: --skip logs:: --skip metrics::
  --skip codes:: --skip openapi:: --skip smtp:: --skip stuck:: --skip rollout:: --skip distributor::
  --skip chain::the_sale_sells --skip network::the_activation_node_sells
  --skip network::a_voucher_pays --skip network::an_account_s_daily_cap
  --skip network::the_owner_cannot_drain --skip staking::the_chain_holds
  --skip staking::nfts_are_bought --skip staking::gas_per_member_action)
background postgres env LVLX_TEST_POSTGRES="$pg_url" "${lint[@]}" test -p lvlx-backend "${features[@]}" \
  -- "${pg_skip[@]}"
# The browser tests beside the suites, below them: the suites mostly wait (on chains, sockets and
# timers: 73% of the CPU idle with the SQLite suite alone) and the browser tests are bound by
# the CPU, so they take what the suites leave. At the suites' own priority they starved a
# timing-bound socket test (38 s against its 20 s window on 2026-11-29); nice 10 is a tenth of
# the suites' weight, so the suites run as if alone.
finish web
step "browser tests (headless Chromium), beside the suites at a lower priority"
low browser 10 env TEST_SERVER_BINARY=target/debug/lvlx npm run --silent test:browser
finish sqlite postgres

# After the Rust tests: the admin tables' vectors read the Arrow streams core-wasm/tests/tables.rs
# leaves in target/tmp.
step "core vectors on the WebAssembly build"
npm run --silent test:core

step "contract artifacts match their sources (solc-js)"
node contracts/build.mjs --check

step "translations and source rules"
npm run --silent test:source

step "JavaScript lint and format (ESLint with the React hooks rules, Prettier)"
npm run --silent lint

step "API contract: Schemathesis cases from the OpenAPI document (a short run; npm run test:api for longer)"
node --experimental-wasm-modules --no-warnings scripts/schemathesis.mjs 10

# The bench smokes beside the browser tests' last stretch too: they mostly wait (wrk's second, the
# 2 s blocks, the slow readers) and assert no timing, only answers, memory and statement counts;
# after the browser tests they were 49 s of a fresh clone's run with the CPU mostly idle.
step "load bench smoke: every row of bench:load for 1 s on the debug server (npm run bench:load for figures)"
BENCH_SERVER_BINARY=target/debug/lvlx npm run --silent bench:load 1

step "image bench smoke: 128 slow readers of the largest avatar and content image hold one copy (npm run bench:images for figures)"
BENCH_SERVER_BINARY=target/debug/lvlx npm run --silent bench:images 128

step "pending-latency bench smoke: one purchase on 2 s blocks to My assets, pending then final (npm run bench:pending for figures)"
BENCH_SERVER_BINARY=target/debug/lvlx BENCH_ROUNDS=1 npm run --silent bench:pending

step "statements per request on the throwaway PostgreSQL (each request authenticates once)"
BENCH_POSTGRES=$pg_url BENCH_POSTGRES_LOG=$pg_dir/server.log BENCH_SERVER_BINARY=target/debug/lvlx \
  npm run --silent bench:queries

finish browser

printf '\nAll tests passed in %ds.\n' "$SECONDS"
