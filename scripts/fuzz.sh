#!/usr/bin/env bash
# Fuzzes every parser that takes outside bytes (fuzz/fuzz_targets/*.rs) with libFuzzer through
# cargo-fuzz, SECONDS each (default 300), and prints a table: runs, executions per second,
# coverage, crashes. Exit status 1 when any target crashed (its input is kept under
# fuzz/artifacts/<target>/; `cargo fuzz fmt -s none <target> <file>` shows it).
#   scripts/fuzz.sh [SECONDS] [TARGET...]
# Stable toolchain: no sanitizer (-s none); release with debug assertions, so overflows and
# out-of-bounds indexing panic. Corpora grow in fuzz/corpus/ (not committed).
# FUZZ_PROFILE=--dev builds unoptimised instead (a minute sooner; fewer runs a second): the test
# command's short smoke uses it. FUZZ_BUILD_ONLY=1 builds the targets and stops.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
export PATH="$HOME/.cargo/bin:$PATH"

seconds=${1:-300}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cargo fuzz list)

profile=${FUZZ_PROFILE:--O}
cargo fuzz build -s none "$profile"
[ -z "${FUZZ_BUILD_ONLY:-}" ] || exit 0
mkdir -p ../target/fuzz-logs
printf '\n%-11s %12s %10s %6s %8s\n' target runs exec/s cov crashes
failed=0
for target in "${targets[@]}"; do
  log=../target/fuzz-logs/$target.log
  status=0
  cargo fuzz run -s none "$profile" "$target" -- -max_total_time="$seconds" -rss_limit_mb=2048 \
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
