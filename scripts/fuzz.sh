#!/usr/bin/env bash
# Builds the libFuzzer targets (clang++, ASan + UBSan) in build/fuzz and runs
# each for a bounded time, starting from its committed seed corpus
# (tests/fuzz/corpus/<target>, which every run only reads: new inputs go to
# build/fuzz/corpus/<target>). Targets run FUZZ_JOBS at a time (default: the
# machine's cores), each a single-threaded process for its full time, so the
# fuzzing per target is the same as one at a time. Prints each target's
# execution count; exits non-zero on any finding (crash, leak, UB, timeout or
# out-of-memory), whose input is saved as build/fuzz/artifacts/<target>-*.
#   scripts/fuzz.sh [--build-only | --no-build] [SECONDS_PER_TARGET]   (default 45)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

mode=all
case "${1:-}" in
  --build-only) mode=build; shift ;;
  --no-build) mode=run; shift ;;
esac
secs="${1:-45}"
[[ "$secs" =~ ^[0-9]+$ && $# -le 1 ]] || die "usage: scripts/fuzz.sh [--build-only | --no-build] [SECONDS_PER_TARGET]"
fuzz_jobs="${FUZZ_JOBS:-$JOBS}"
[[ "$fuzz_jobs" =~ ^[1-9][0-9]*$ ]] || die "FUZZ_JOBS must be a positive integer, not '$fuzz_jobs'"
BUILD_FUZZ="$ROOT/build/fuzz"
TARGETS=(npy npz csv json check_args attention cli_args)

if [ "$mode" != run ]; then
  log "fuzz build (build/fuzz, clang++ -fsanitize=fuzzer,address,undefined)"
  command -v clang++ >/dev/null || die "clang++ is missing: run scripts/setup.sh"
  cmake -S "$ROOT" -B "$BUILD_FUZZ" -DATTN_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo "${CMAKE_LAUNCHER[@]}" >/dev/null
  cmake --build "$BUILD_FUZZ" -j "$JOBS" --target "${TARGETS[@]/#/fuzz_}"
fi
[ "$mode" = build ] && exit 0

# Leaks count as findings; abort on the first UBSan report, with a stack.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
mkdir -p "$BUILD_FUZZ/artifacts"

# One target: its log in build/fuzz/fuzz_<t>.log, its table row in .row.
fuzz_one() {
  local t="$1" work="$BUILD_FUZZ/corpus/$1" logf="$BUILD_FUZZ/fuzz_$1.log" start=$SECONDS dict=()
  rm -rf "$work" && mkdir -p "$work"
  [ -f "$ROOT/tests/fuzz/$t.dict" ] && dict=(-dict="$ROOT/tests/fuzz/$t.dict")
  if ! "$BUILD_FUZZ/tests/fuzz/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$BUILD_FUZZ/artifacts/$t-" "${dict[@]}" \
      "$work" "$ROOT/tests/fuzz/corpus/$t" >"$logf" 2>&1; then
    printf '%-16s %s\n' "fuzz_$t" "FOUND A PROBLEM (input under build/fuzz/artifacts/$t-*, log $logf)" >"$logf.row"
    return 1
  fi
  local runs rate
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logf")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$logf")
  printf '%-16s %12s %10s %8s\n' "fuzz_$t" "$runs" "$rate" "$((SECONDS - start))" >"$logf.row"
}

log "fuzzing ${#TARGETS[@]} targets x ${secs} s, ${fuzz_jobs} at a time"
rm -f "$BUILD_FUZZ"/fuzz_*.log.row
for t in "${TARGETS[@]}"; do
  while (( $(jobs -rp | wc -l) >= fuzz_jobs )); do wait -n || true; done
  fuzz_one "$t" &
done
wait
failed=()
for t in "${TARGETS[@]}"; do
  if [ ! -f "$BUILD_FUZZ/fuzz_$t.log.row" ] || grep -q 'FOUND A PROBLEM' "$BUILD_FUZZ/fuzz_$t.log.row"; then
    failed+=("$t")
  fi
done
printf '%-16s %12s %10s %8s\n' target executions exec/s seconds
for t in "${TARGETS[@]}"; do cat "$BUILD_FUZZ/fuzz_$t.log.row" 2>/dev/null || echo "fuzz_$t: no result"; done
for t in "${failed[@]}"; do
  echo "--- fuzz_$t, the log's last 40 lines:" >&2
  tail -n 40 "$BUILD_FUZZ/fuzz_$t.log" >&2
done
((${#failed[@]} == 0)) || die "fuzzing found a problem in: ${failed[*]}"
log "fuzzing: no finding in ${#TARGETS[@]} targets x ${secs} s"
