#!/usr/bin/env bash
# Builds the Catch2 suite with AddressSanitizer + UndefinedBehaviorSanitizer
# (build/asan, -DATTN_SANITIZE=ON) and runs it once. Any report fails the run:
# UBSan does not recover, ASan stops at the first error, LeakSanitizer is on.
# Tests tagged [slow] (the training lab's long statistical runs: about 8 minutes
# under ASan, through code the short trainer tests already cover) are left out
# unless asked for: scripts/sanitize.sh '*' runs everything.
#   scripts/sanitize.sh [--build-only | --no-build] [CATCH2_TEST_SPEC]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
BUILD_ASAN="$ROOT/build/asan"

mode=all
case "${1:-}" in
  --build-only) mode=build; shift ;;
  --no-build) mode=run; shift ;;
esac
if [ "$mode" != run ]; then
  log "sanitizer build (build/asan, -fsanitize=address,undefined)"
  cmake -S "$ROOT" -B "$BUILD_ASAN" -DATTN_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo "${CMAKE_LAUNCHER[@]}" >/dev/null
  cmake --build "$BUILD_ASAN" -j "$JOBS" --target attn_tests
fi
[ "$mode" = build ] && exit 0
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
"$BUILD_ASAN/tests/attn_tests" "${1:-~[slow]}"
