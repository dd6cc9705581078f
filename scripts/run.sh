#!/usr/bin/env bash
# Quick start: set up what is missing, build, and serve the app on the embedded defaults
# (SQLite in ./data, http://127.0.0.1:8080/; see lvlx.example.toml to change them), with a demo
# admin and a demo user whose sign-in codes land in ./data/outbox.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
# Demo accounts (created once) and how to sign in with them.
target/release/lvlx demo
exec target/release/lvlx serve "$@"
