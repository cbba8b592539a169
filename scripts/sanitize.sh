#!/usr/bin/env bash
# Builds the Catch2 suite with AddressSanitizer + UndefinedBehaviorSanitizer
# (build/asan, -DATTN_SANITIZE=ON) and runs it. Any report fails the run:
# UBSan does not recover, ASan stops at the first error, LeakSanitizer is on.
# The run is two processes side by side, the training tests ([train]) and the
# rest, which together are every case the test spec selects.
# Tests tagged [slow] (the training lab's long statistical runs: about 8 minutes
# under ASan, through code the short trainer tests already cover) are left out
# unless asked for: scripts/sanitize.sh '*' runs everything.
# (The fuzz targets' tree, build/fuzz, could host this suite too, but its
# libFuzzer coverage instrumentation ran the suite 3.5x slower: 5.9 CPU-minutes
# against 1.7.)
#   scripts/sanitize.sh [--build-only | --no-build] [CATCH2_TEST_SPEC]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
BUILD_ASAN="$ROOT/build/asan"

mode=all
case "${1:-}" in
  --build-only) mode=build; shift ;;
  --no-build) mode=run; shift ;;
esac
spec="${1:-~[slow]}"
if [ "$mode" != run ]; then
  log "sanitizer build (build/asan, -fsanitize=address,undefined)"
  cmake -S "$ROOT" -B "$BUILD_ASAN" -DATTN_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo "${CMAKE_LAUNCHER[@]}" >/dev/null
  cmake --build "$BUILD_ASAN" -j "$JOBS" --target attn_tests
fi
[ "$mode" = build ] && exit 0
log "Catch2 under ASan + UBSan: [train]$spec and ~[train]$spec side by side"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
bin="$BUILD_ASAN/tests/attn_tests"
out="$BUILD_ASAN/sanitize-"
"$bin" "[train]$spec" >"${out}train.log" 2>&1 & train=$!
"$bin" "~[train]$spec" >"${out}rest.log" 2>&1 & rest=$!
rc=0
wait "$train" || rc=1
wait "$rest" || rc=1
echo "-- the training tests ([train]$spec):"; tail -n 2 "${out}train.log"
echo "-- the rest (~[train]$spec):"; tail -n 2 "${out}rest.log"
if ((rc)); then
  for part in train rest; do echo "--- ${out}$part.log, its last 60 lines:" >&2; tail -n 60 "${out}$part.log" >&2; done
  die "the sanitizer run failed (logs: ${out}train.log, ${out}rest.log)"
fi
