#!/usr/bin/env bash
# Builds the core to WebAssembly for webpack (web/pkg), then shrinks it with wasm-opt from the
# npm `binaryen` package (never Debian's binaryen: its old wasm-opt breaks wasm-bindgen output).
#   scripts/build-wasm.sh          the shipped file: release, wasm-opt -O3 (~1.1 MB)
#   scripts/build-wasm.sh --test   the test command's: the same code unoptimised (profile
#                                  wasm-test, ~3.3 MB) without wasm-opt; 145 s of CPU against
#                                  release's 283 s + wasm-opt's 32 s on 2 cores
# Both also build the sign-in page's small core (web/pkg-forms, feature `forms`).
set -euo pipefail
profile=release
[ "${1:-}" != "--test" ] || profile=wasm-test
cd "$(dirname "$0")/.."
# Panic messages carry source paths: the build machine's (its home, the toolchain, the checkout)
# are remapped so the shipped file names none of them (42 did).
cargo_home=${CARGO_HOME:-$HOME/.cargo}
sysroot=$(rustc --print sysroot)
export RUSTFLAGS="${RUSTFLAGS:-} --remap-path-prefix=$cargo_home=/cargo --remap-path-prefix=$sysroot=/rustc --remap-path-prefix=$PWD=/lvlx --remap-path-prefix=$HOME=/home"
# The core for wasm32, then wasm-bindgen's JS glue for webpack (what wasm-pack did, without the
# two minutes of installing it on a new machine).
# Its own target folder: this build never waits for the host's (the test command runs both at
# once) and never evicts its artifacts.
export CARGO_TARGET_DIR=target/wasm
cargo build --quiet --profile "$profile" -p lvlx-core --lib --features wasm --target wasm32-unknown-unknown
rm -rf web/pkg
wasm-bindgen --target bundler --out-dir web/pkg --out-name lvlx_core \
  "target/wasm/wasm32-unknown-unknown/$profile/lvlx_core.wasm"
if [ "$profile" = release ]; then
  node_modules/.bin/wasm-opt -O3 \
    --enable-bulk-memory --enable-reference-types --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-multivalue \
    web/pkg/lvlx_core_bg.wasm -o web/pkg/lvlx_core_bg.wasm
fi
# The sign-in page's small core (feature `forms` alone: the captcha's proof of work), which it
# loads before the app (web/src/accounts/early.js): the same crate, so the same rule. Always
# through wasm-opt, which takes a second on it and leaves a few kilobytes even of the test build.
cargo build --quiet --profile "$profile" -p lvlx-core --lib --features forms --target wasm32-unknown-unknown
rm -rf web/pkg-forms
wasm-bindgen --target bundler --out-dir web/pkg-forms --out-name lvlx_forms \
  "target/wasm/wasm32-unknown-unknown/$profile/lvlx_core.wasm"
node_modules/.bin/wasm-opt -O3 --strip-debug \
  --enable-bulk-memory --enable-reference-types --enable-nontrapping-float-to-int \
  --enable-sign-ext --enable-mutable-globals --enable-multivalue \
  web/pkg-forms/lvlx_forms_bg.wasm -o web/pkg-forms/lvlx_forms_bg.wasm
for file in web/pkg/lvlx_core_bg.wasm web/pkg-forms/lvlx_forms_bg.wasm; do
  if grep -aq -e "$HOME/" -e "$PWD/" "$file"; then
    echo "$file names build-machine paths:" >&2
    grep -ao -e "$HOME/[[:print:]]*" -e "$PWD/[[:print:]]*" "$file" | sort -u | head >&2
    exit 1
  fi
done
echo "core wasm: $(wc -c < web/pkg/lvlx_core_bg.wasm) bytes; forms wasm: $(wc -c < web/pkg-forms/lvlx_forms_bg.wasm) bytes"
