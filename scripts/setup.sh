#!/usr/bin/env bash
# Installs what the build needs and is missing; does nothing that is already in place.
#   scripts/setup.sh            Rust wasm target, wasm-bindgen CLI (the version in Cargo.lock),
#                               npm packages (wasm-opt comes from npm `binaryen`)
#   scripts/setup.sh --test     also what the tests need: Debian's chromium (browser tests) and
#                               Python's aiosmtpd (a local SMTP sink for the mail test) and
#                               schemathesis (API cases from the OpenAPI document),
#                               Debian's postgresql and nginx-light and wrk (load bench),
#                               and prometheus (the metrics test)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

step() { printf '\n== %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  step "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# wasm-bindgen's CLI must be exactly the library's version (scripts/build-wasm.sh runs it).
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  step "cargo install wasm-bindgen-cli $want (about a minute, once)"
  # --force: cargo's own record may say it is installed while the binary is gone or another
  # version answers on PATH (then a plain install does nothing and the build fails).
  # --debug: built unoptimised it installs in 46 s instead of ~141 s on 2 cores, and writes the
  # same files (compared byte for byte) in 1.1 s instead of 0.3 s a build.
  cargo install wasm-bindgen-cli --version "=$want" --locked --force --debug
fi


# npm ci when node_modules is missing or older than the lock file.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  step "npm ci"
  npm ci --no-audit --no-fund
fi

if [ "${1:-}" = "--test" ] && ! python3 -c 'import aiosmtpd' 2>/dev/null; then
  step "pip install aiosmtpd"
  python3 -m pip install --quiet aiosmtpd
fi

# Schemathesis (PyPI) generates API cases from the OpenAPI document (scripts/schemathesis.mjs).
if [ "${1:-}" = "--test" ] && ! python3 -c 'import schemathesis' 2>/dev/null; then
  step "pip install schemathesis"
  python3 -m pip install --quiet 'schemathesis>=4.3,<5'
fi

if [ "${1:-}" = "--test" ] && { ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || ! command -v nginx >/dev/null; }; then
  # The storage and API suites also run on a throwaway PostgreSQL (scripts/pg.sh),
  # and two instances behind a loopback nginx (backend/tests/suite/instances.rs). Neither runs as a
  # system service: the packages' own services are stopped again.
  step "apt-get install postgresql nginx-light"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql nginx-light >/dev/null
  $sudo service nginx stop >/dev/null 2>&1 || true
  $sudo service postgresql stop >/dev/null 2>&1 || true
fi

if [ "${1:-}" = "--test" ] && ! command -v prometheus >/dev/null; then
  # A real Prometheus scrapes the server and loads its alert rules (backend/tests/suite/metrics.rs);
  # it runs in the test's own folder, never as the package's service.
  step "apt-get install prometheus"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends prometheus >/dev/null
  $sudo service prometheus stop >/dev/null 2>&1 || true
fi

if [ "${1:-}" = "--test" ] && ! command -v wrk >/dev/null; then
  # The load bench (bench/load.mjs), whose rows the test command runs for a second each.
  step "apt-get install wrk"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq wrk >/dev/null
fi

if [ "${1:-}" = "--test" ] && [ ! -x /usr/bin/chromium ]; then
  step "apt-get install chromium"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium fonts-noto-core >/dev/null
fi
