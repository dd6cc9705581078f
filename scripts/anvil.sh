#!/usr/bin/env bash
# anvil from npm: Foundry's prebuilt binary for this platform (@foundry-rs/anvil-linux-amd64, an
# optional dependency in package.json, installed by scripts/setup.sh). package.json names the
# platform package rather than the @foundry-rs/anvil wrapper: the wrapper's lock entry lists every
# platform's package, which `npm ci` then demands, and the binary is exec'd directly so any
# signal (a test's SIGKILL) reaches anvil itself. Another platform: npm i -O @foundry-rs/anvil-<os>-<arch>.
set -euo pipefail
case "$(uname -m)" in
  x86_64) arch=amd64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "anvil: no npm build for $(uname -m)" >&2; exit 1 ;;
esac
os=$(uname -s | tr '[:upper:]' '[:lower:]')
bin="$(dirname "$0")/../node_modules/@foundry-rs/anvil-$os-$arch/bin/anvil"
[ -x "$bin" ] || { echo "anvil: run scripts/setup.sh (or npm i -O @foundry-rs/anvil-$os-$arch@1.7.1)" >&2; exit 1; }
exec "$bin" "$@"
