#!/usr/bin/env bash
# Quick start: set up what is missing, build, and serve the app on the embedded defaults
# (SQLite in ./data, http://127.0.0.1:8080/; see lvlx.example.toml to change them).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
exec target/release/lvlx serve "$@"
