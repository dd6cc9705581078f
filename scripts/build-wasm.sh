#!/usr/bin/env bash
# Builds the core to WebAssembly for webpack (web/pkg), then shrinks it with wasm-opt from the
# npm `binaryen` package (never Debian's binaryen: its old wasm-opt breaks wasm-bindgen output).
set -euo pipefail
cd "$(dirname "$0")/.."
wasm-pack --quiet build core-wasm --release --target bundler --out-dir ../web/pkg --out-name lvlx_core --no-pack -- --features wasm
node_modules/.bin/wasm-opt -O3 \
  --enable-bulk-memory --enable-reference-types --enable-nontrapping-float-to-int \
  --enable-sign-ext --enable-mutable-globals --enable-multivalue \
  web/pkg/lvlx_core_bg.wasm -o web/pkg/lvlx_core_bg.wasm
echo "core wasm: $(wc -c < web/pkg/lvlx_core_bg.wasm) bytes"
