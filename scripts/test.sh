#!/usr/bin/env bash
# Installs what is missing, builds, and runs the test layers, each even if an
# earlier one failed; exits non-zero if any failed.
#   scripts/test.sh                    every layer
#   scripts/test.sh native node ...    only the layers named:
#     native    the Catch2 suite, built natively (CTest)
#     wasm      the same suite compiled to wasm with SIMD128, and with relaxed SIMD
#               (Node's --experimental-wasm-relaxed-simd), run by Node (CTest)
#     node      node --test tests/node/: the CLI and the wasm modules
#     browser   node --test tests/browser/: the pages in headless Chromium
#     sanitize  the Catch2 suite under ASan + UBSan (build/asan)
#     fuzz      every libFuzzer target for FUZZ_SECONDS each (default 60)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

LAYERS=(native wasm node browser sanitize fuzz)
wanted=("$@")
((${#wanted[@]})) || wanted=("${LAYERS[@]}")
for w in "${wanted[@]}"; do
  [[ " ${LAYERS[*]} " == *" $w "* ]] || { echo "test.sh: unknown layer '$w' (layers: ${LAYERS[*]})" >&2; exit 2; }
done

"$ROOT/scripts/setup.sh" || die "setup failed"
"$ROOT/scripts/build.sh" || die "build failed"

failed=()
run() {
  local layer="$1" name="$2"; shift 2
  [[ " ${wanted[*]} " == *" $layer "* ]] || return 0
  log "$name"
  "$@" || failed+=("$layer")
}
# CTest runs what catch_discover_tests found, and a test whose name matches no
# case passes having run nothing: a ';' in a case's name split it in two such
# tests (10 cases never ran), an unbalanced ']' folded 95 cases into one.
native_cases_all_registered() {
  local cases tests
  cases=$("$BUILD_NATIVE/tests/attn_tests" --list-tests | sed -n 's/^\([0-9]*\) test cases$/\1/p')
  tests=$(ctest --test-dir "$BUILD_NATIVE" -N | sed -n 's/^Total Tests: //p')
  [[ "$cases" == "$tests" ]] || { echo "CTest registers $tests tests for $cases Catch2 cases" >&2; return 1; }
}
run native   "Catch2 cases all registered"       native_cases_all_registered
run native   "Catch2, native"                    ctest --test-dir "$BUILD_NATIVE" --output-on-failure -j "$JOBS"
run wasm     "Catch2, wasm (SIMD128) under Node" ctest --test-dir "$BUILD_WASM" --output-on-failure
run wasm     "Catch2, wasm (relaxed SIMD) under Node" ctest --test-dir "$BUILD_WASM_RELAXED" --output-on-failure
run node     "CLI and wasm modules (node --test)" node --test "$ROOT/tests/node/"
run browser  "browser (headless Chromium)"       node --test --test-concurrency=1 "$ROOT/tests/browser/"
# The Catch2 suite once more under AddressSanitizer + UndefinedBehaviorSanitizer,
# then every libFuzzer target for FUZZ_SECONDS each (default 60: about 6 minutes with the build).
run sanitize "Catch2 under ASan + UBSan"         "$ROOT/scripts/sanitize.sh"
run fuzz     "fuzzers (libFuzzer, ASan + UBSan)" "$ROOT/scripts/fuzz.sh" "${FUZZ_SECONDS:-60}"

if ((${#failed[@]})); then
  log "FAILED: ${failed[*]}"
  exit 1
fi
log "test layers passed: ${wanted[*]}"
