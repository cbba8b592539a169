#!/usr/bin/env bash
# Builds the libFuzzer targets (clang++, ASan + UBSan) in build/fuzz and runs
# each for a bounded time, starting from its committed seed corpus
# (tests/fuzz/corpus/<target>, which every run only reads: new inputs go to
# build/fuzz/corpus/<target>). Prints each target's execution count; exits
# non-zero on the first finding (crash, leak, UB, timeout or out-of-memory),
# whose input is saved as build/fuzz/artifacts/<target>-*.
#   scripts/fuzz.sh [SECONDS_PER_TARGET]    (default 45; CI runs 5 targets)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

secs="${1:-45}"
[[ "$secs" =~ ^[0-9]+$ ]] || die "usage: scripts/fuzz.sh [SECONDS_PER_TARGET]"
BUILD_FUZZ="$ROOT/build/fuzz"
TARGETS=(npy npz csv json check_args attention cli_args)

log "fuzz build (build/fuzz, clang++ -fsanitize=fuzzer,address,undefined)"
command -v clang++ >/dev/null || die "clang++ is missing: run scripts/setup.sh"
cmake -S "$ROOT" -B "$BUILD_FUZZ" -DATTN_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$BUILD_FUZZ" -j "$JOBS" --target "${TARGETS[@]/#/fuzz_}"

# Leaks count as findings; abort on the first UBSan report, with a stack.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
mkdir -p "$BUILD_FUZZ/artifacts"
printf '%-16s %12s %10s %8s\n' target executions exec/s seconds
for t in "${TARGETS[@]}"; do
  work="$BUILD_FUZZ/corpus/$t"
  rm -rf "$work" && mkdir -p "$work"
  dict=()
  [ -f "$ROOT/tests/fuzz/$t.dict" ] && dict=(-dict="$ROOT/tests/fuzz/$t.dict")
  logf="$BUILD_FUZZ/fuzz_$t.log"
  start=$SECONDS
  if ! "$BUILD_FUZZ/tests/fuzz/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$BUILD_FUZZ/artifacts/$t-" "${dict[@]}" \
      "$work" "$ROOT/tests/fuzz/corpus/$t" >"$logf" 2>&1; then
    tail -n 40 "$logf" >&2
    die "fuzz_$t found a problem (input saved under build/fuzz/artifacts/$t-*, log $logf)"
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logf")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$logf")
  printf '%-16s %12s %10s %8s\n' "fuzz_$t" "$runs" "$rate" "$((SECONDS - start))"
done
log "fuzzing: no finding in ${#TARGETS[@]} targets x ${secs} s"
