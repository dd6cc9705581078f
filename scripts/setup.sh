#!/usr/bin/env bash
# Installs what is missing; does nothing that is already in place.
#   scripts/setup.sh            what the build needs: the Rust wasm target, the wasm-bindgen CLI
#                               (the version in Cargo.lock), the npm packages (wasm-opt comes from
#                               npm `binaryen`, anvil from npm `@foundry-rs/anvil-*`)
#   scripts/setup.sh --system   what the tests need from the system: Debian's chromium-headless-
#                               shell (browser tests), postgresql and nginx-light (the suites on
#                               PostgreSQL, two instances behind a proxy), wrk (load bench) and
#                               prometheus (the metrics test); Python's aiosmtpd (a local SMTP
#                               sink for the mail test) and schemathesis (API cases from the
#                               OpenAPI document)
#   scripts/setup.sh --test     both
# The test command runs the two parts side by side: the system's part mostly downloads and
# unpacks, while the build's part and the builds after it use the CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

step() { printf '\n== %s\n' "$*"; }

build=yes system=no
case "${1:-}" in
  "") ;;
  --system) build=no system=yes ;;
  --test) system=yes ;;
  *) echo "usage: scripts/setup.sh [--system|--test]" >&2; exit 2 ;;
esac

if [ "$build" = yes ]; then
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
fi

[ "$system" = yes ] || exit 0

# Debian's packages, after one update of the index. None runs as a system service: the tests
# start their own PostgreSQL (scripts/pg.sh), nginx (backend/tests/suite/instances.rs) and
# Prometheus (backend/tests/suite/metrics.rs) in their own folders, so the services of the packages
# installed here are stopped again. Prometheus without its recommended packages (exporters the
# tests do not use). nginx is in /usr/sbin, which a user's PATH may not name.
packages=() bare=() services=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || packages+=(postgresql) services+=(postgresql)
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null || packages+=(nginx-light) services+=(nginx)
command -v wrk >/dev/null || packages+=(wrk)
[ -x /usr/lib/chromium/chromium-headless-shell ] || packages+=(chromium-headless-shell fonts-noto-core)
command -v prometheus >/dev/null || bare+=(prometheus) services+=(prometheus)
if [ $((${#packages[@]} + ${#bare[@]})) -gt 0 ]; then
  step "apt-get install ${packages[*]} ${bare[*]}"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  # A new cloud machine may still be upgrading itself: wait for dpkg's lock rather than fail.
  install=($sudo env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq)
  $sudo apt-get update -qq
  [ ${#packages[@]} = 0 ] || "${install[@]}" "${packages[@]}" >/dev/null
  [ ${#bare[@]} = 0 ] || "${install[@]}" --no-install-recommends "${bare[@]}" >/dev/null
  for service in "${services[@]}"; do $sudo service "$service" stop >/dev/null 2>&1 || true; done
fi

# Python's packages, in one pip run.
python=()
python3 -c 'import aiosmtpd' 2>/dev/null || python+=(aiosmtpd)
python3 -c 'import schemathesis' 2>/dev/null || python+=('schemathesis>=4.3,<5')
if [ ${#python[@]} -gt 0 ]; then
  step "pip install ${python[*]}"
  # Debian's own Python refuses pip outside a virtual environment (PEP 668) unless told.
  PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install --quiet "${python[@]}"
fi
