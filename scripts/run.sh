#!/usr/bin/env bash
# Quick start: set up what is missing, build, and serve the app on the embedded defaults
# (SQLite in ./data, http://127.0.0.1:8080/; see lvlx.example.toml to change them), with a demo
# admin, a demo user whose sign-in codes land in ./data/outbox, and seeded demo data.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
# Demo accounts (created once) and how to sign in with them, then a small seeded history for
# the admin screens (once: a ledger with rows is left as it is).
target/release/lvlx demo
target/release/lvlx seed --users 300 --ico-tx 3000 --nft-stakes 400 --lvlx-stakes 300 --seed 1
exec target/release/lvlx serve "$@"
