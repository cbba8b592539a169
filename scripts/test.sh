#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test layer: Catch2 natively,
# the same suite as wasm under Node, the Node tests of the CLI and the wasm
# modules, and the browser tests in headless Chromium. Runs every layer even
# if one fails; exits non-zero if any failed.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

"$ROOT/scripts/setup.sh" || die "setup failed"
"$ROOT/scripts/build.sh" || die "build failed"

failed=()
run() {
  local name="$1"; shift
  log "$name"
  "$@" || failed+=("$name")
}
run "Catch2, native"        ctest --test-dir "$BUILD_NATIVE" --output-on-failure -j "$JOBS"
run "Catch2, wasm (SIMD128) under Node" ctest --test-dir "$BUILD_WASM" --output-on-failure
run "CLI and wasm modules (node --test)" node --test "$ROOT/tests/node/"
run "browser (headless Chromium)" node --test --test-concurrency=1 "$ROOT/tests/browser/"
# The Catch2 suite once more under AddressSanitizer + UndefinedBehaviorSanitizer,
# then every libFuzzer target for FUZZ_SECONDS each (default 60: about 6 minutes with the build).
run "Catch2 under ASan + UBSan" "$ROOT/scripts/sanitize.sh"
run "fuzzers (libFuzzer, ASan + UBSan)" "$ROOT/scripts/fuzz.sh" "${FUZZ_SECONDS:-60}"

if ((${#failed[@]})); then
  log "FAILED: ${failed[*]}"
  exit 1
fi
log "all test layers passed"
