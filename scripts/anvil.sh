#!/usr/bin/env bash
# anvil from npm (@foundry-rs/anvil, installed by scripts/setup.sh). Execs the platform package's
# binary itself rather than npm's Node wrapper, so that whoever started it can stop it with any
# signal (a test's SIGKILL would otherwise leave the real anvil running).
set -euo pipefail
case "$(uname -m)" in
  x86_64) arch=amd64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "anvil: no npm build for $(uname -m)" >&2; exit 1 ;;
esac
os=$(uname -s | tr '[:upper:]' '[:lower:]')
exec "$(dirname "$0")/../node_modules/@foundry-rs/anvil-$os-$arch/bin/anvil" "$@"
