#!/usr/bin/env bash
# Fuzzes every parser that takes outside bytes (the targets in fuzz/src/, one libFuzzer binary each
# in fuzz/libfuzzer/) through cargo-fuzz, SECONDS each (default 300), and prints a table: runs,
# executions per second, coverage, crashes. Exit status 1 when any target crashed (its input is
# kept under fuzz/libfuzzer/artifacts/<target>/; `cargo fuzz fmt --fuzz-dir . -s none <target> <file>` there
# shows it). The test command does not build these: it runs each target for a second on
# pseudo-random inputs and on what this kept (fuzz/tests/smoke.rs).
#   scripts/fuzz.sh [SECONDS] [TARGET...]
# Stable toolchain: no sanitizer (-s none); release with debug assertions, so overflows and
# out-of-bounds indexing panic. Corpora grow in fuzz/libfuzzer/corpus/ (not committed).
# FUZZ_PROFILE=--dev builds unoptimised instead (a minute sooner; fewer runs a second).
# FUZZ_BUILD_ONLY=1 builds the targets and stops. Installs cargo-fuzz when it is missing.
set -euo pipefail
cd "$(dirname "$0")/../fuzz/libfuzzer"
export PATH="$HOME/.cargo/bin:$PATH"

CARGO_FUZZ_VERSION=0.13.2
if [ "$(cargo fuzz --version 2>/dev/null | awk '{print $2}' || true)" != "$CARGO_FUZZ_VERSION" ]; then
  echo "cargo install cargo-fuzz $CARGO_FUZZ_VERSION (once)"
  # --debug: it only drives cargo and libFuzzer; unoptimised it installs in a fraction of the time.
  cargo install cargo-fuzz --version "=$CARGO_FUZZ_VERSION" --locked --debug
fi

seconds=${1:-300}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cargo fuzz list --fuzz-dir .)

profile=${FUZZ_PROFILE:--O}
cargo fuzz build --fuzz-dir . -s none "$profile"
[ -z "${FUZZ_BUILD_ONLY:-}" ] || exit 0
mkdir -p ../../target/fuzz-logs
printf '\n%-11s %12s %10s %6s %8s\n' target runs exec/s cov crashes
failed=0
for target in "${targets[@]}"; do
  log=../../target/fuzz-logs/$target.log
  status=0
  cargo fuzz run --fuzz-dir . -s none "$profile" "$target" -- -max_total_time="$seconds" -rss_limit_mb=2048 \
    -print_final_stats=1 >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | awk '{print $2}')
  crashes=0
  if [ "$status" != 0 ]; then
    crashes=1
    failed=1
  fi
  printf '%-11s %12s %10s %6s %8s\n' "$target" "${runs:-?}" "${speed:-?}" "${cov:-?}" "$crashes"
  if [ "$status" != 0 ]; then
    grep -E 'panicked|ERROR|Test unit written' "$log" | head -5 | sed 's/^/    /'
  fi
done
exit $failed
