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
# Both cores are used where the work allows: the sanitizer build, the fuzz
# build and the sanitizer run go on in the background at the lowest priority
# (nice 19) from before the main build on, taking only the CPU the rest leaves
# idle; the sanitizer run is two processes; the node and
# browser files run two at a time (each has its own temp dirs, server port and
# Chromium profile); the fuzzers run two at a time, each its full time. At the
# end it prints each step's wall time and the slowest tests of the node and
# browser layers (build/times/).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

LAYERS=(native wasm node browser sanitize fuzz)
wanted=("$@")
((${#wanted[@]})) || wanted=("${LAYERS[@]}")
for w in "${wanted[@]}"; do
  [[ " ${LAYERS[*]} " == *" $w "* ]] || { echo "test.sh: unknown layer '$w' (layers: ${LAYERS[*]})" >&2; exit 2; }
done
wants() { [[ " ${wanted[*]} " == *" $1 "* ]]; }

TIMES="$ROOT/build/times"
started=$SECONDS
summary=()
# timed NAME CMD...: runs CMD and records its wall time and result.
timed() {
  local name="$1" t0=$SECONDS rc; shift
  "$@"; rc=$?
  summary+=("$(printf '%-46.46s %5d s  %s' "$name" $((SECONDS - t0)) "$( ((rc == 0)) && echo ok || echo "FAILED ($rc)")")")
  return $rc
}

timed setup "$ROOT/scripts/setup.sh" || die "setup failed"
mkdir -p "$TIMES"
rm -f "$TIMES"/*.jsonl "$TIMES"/*.log "$TIMES"/*.rc

# The background checks, started before the main build so they soak up the
# CPU it and the test layers leave idle (single-threaded links, page loads,
# timers): the sanitizer build, the fuzz build, then the sanitizer run. Their
# output goes to build/times/checks.log, printed when they are waited for.
checks_pid=""
# The background checks run in a process group of their own (set -m), which
# an early exit (a failed build, Ctrl-C) ends with them.
set -m
trap '[ -n "$checks_pid" ] && kill -- "-$checks_pid" 2>/dev/null' EXIT
if wants sanitize || wants fuzz; then
  log "sanitizer build, fuzz build, sanitizer run: in the background at nice 19 (build/times/checks.log)"
  (
    exec >"$TIMES/checks.log" 2>&1
    # step NAME CMD...: runs CMD at nice 19 and writes "<exit status> <seconds>" to NAME.rc.
    step() { local name="$1" t0=$SECONDS; shift; nice -n 19 "$@"; echo "$? $((SECONDS - t0))" >"$TIMES/$name.rc"; }
    wants sanitize && step sanitize-build "$ROOT/scripts/sanitize.sh" --build-only
    wants fuzz && step fuzz-build "$ROOT/scripts/fuzz.sh" --build-only
    if wants sanitize; then
      if read -r rc _ <"$TIMES/sanitize-build.rc" && ((rc == 0)); then
        step sanitize "$ROOT/scripts/sanitize.sh" --no-build
      else
        echo "1 0" >"$TIMES/sanitize.rc"
      fi
    fi
    true
  ) &
  checks_pid=$!
fi
set +m

timed build "$ROOT/scripts/build.sh" || die "build failed"

failed=()
run() {
  local layer="$1" name="$2"; shift 2
  wants "$layer" || return 0
  log "$name"
  timed "$layer: $name" "$@" || failed+=("$layer")
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
# node --test with the spec reporter on stdout (its closing lines are the
# layer's count) and the durations of every test in build/times/<layer>.jsonl.
node_tests() {
  local layer="$1"; shift
  local concurrency="$JOBS"
  [ "$layer" = browser-alone ] && concurrency=1
  node --test --test-concurrency="$concurrency" \
    --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter="$ROOT/tests/tools/durations-reporter.mjs" --test-reporter-destination="$TIMES/$layer.jsonl" \
    "$@"
}
# The two wasm suites (one Node process each) side by side; each one's output
# is printed when both are done.
wasm_suites() {
  local rc=0
  ctest --test-dir "$BUILD_WASM" --output-on-failure >"$TIMES/wasm-simd.log" 2>&1 & local simd=$!
  ctest --test-dir "$BUILD_WASM_RELAXED" --output-on-failure >"$TIMES/wasm-relaxed.log" 2>&1 & local relaxed=$!
  wait "$simd" || rc=1
  wait "$relaxed" || rc=1
  echo "-- SIMD128 (build/wasm):"; cat "$TIMES/wasm-simd.log"
  echo "-- relaxed SIMD (build/wasm-relaxed):"; cat "$TIMES/wasm-relaxed.log"
  return $rc
}
# Every browser test file but Lighthouse's, whose scores are timings: it runs
# alone, after the background checks have finished.
BROWSER_ALONE="$ROOT/tests/browser/lighthouse.test.mjs"
browser_files=()
for f in "$ROOT"/tests/browser/*.test.mjs; do [ "$f" = "$BROWSER_ALONE" ] || browser_files+=("$f"); done
run native   "Catch2 cases all registered"       native_cases_all_registered
run native   "Catch2, native"                    ctest --test-dir "$BUILD_NATIVE" --output-on-failure -j "$JOBS"
run wasm     "Catch2 under Node: SIMD128, relaxed" wasm_suites
run node     "CLI and wasm modules (node --test)" node_tests node "$ROOT/tests/node/"
run browser  "browser (headless Chromium)"       node_tests browser "${browser_files[@]}"

# Wait for the background checks, show what they printed, then Lighthouse
# (alone), then the fuzzers.
# bg_row NAME LABEL: the summary row of a background step, from NAME.rc; fails if it failed.
bg_row() {
  local rc=1 secs=0
  read -r rc secs <"$TIMES/$1.rc" 2>/dev/null || true
  summary+=("$(printf '%-46.46s %5d s  %s' "$2" "$secs" "$( ((rc == 0)) && echo ok || echo "FAILED ($rc)")")")
  return "$rc"
}
if [ -n "$checks_pid" ]; then
  t0=$SECONDS
  log "waiting for the background checks (sanitizer build and run, fuzz build)"
  wait "$checks_pid"
  checks_pid=""
  cat "$TIMES/checks.log"
  summary+=("$(printf '%-46.46s %5d s' "(waited for them)" $((SECONDS - t0)))")
  if wants sanitize; then
    bg_row sanitize-build "sanitize: build (background)" && bg_row sanitize "sanitize: run (background)" || failed+=(sanitize)
  fi
  if wants fuzz; then bg_row fuzz-build "fuzz: build (background)" || failed+=(fuzz); fi
fi
# Nothing else runs now: Lighthouse's timings are the page's own.
run browser "browser: Lighthouse, alone"         node_tests browser-alone "$BROWSER_ALONE"
if wants fuzz && [[ " ${failed[*]} " != *" fuzz "* ]]; then
  run fuzz "fuzzers (libFuzzer, ASan + UBSan)" "$ROOT/scripts/fuzz.sh" --no-build "${FUZZ_SECONDS:-60}"
fi

log "wall time of each step (total $((SECONDS - started)) s)"
printf '%s\n' "${summary[@]}" >&2
for layer in node browser; do
  files=()
  for f in "$TIMES/$layer.jsonl" "$TIMES/$layer-alone.jsonl"; do [ -f "$f" ] && files+=("$f"); done
  if ((${#files[@]})); then
    log "$layer layer: the slowest tests"
    node "$ROOT/tests/tools/slowest.mjs" 10 "${files[@]}" >&2
  fi
done

if ((${#failed[@]})); then
  log "FAILED: ${failed[*]}"
  exit 1
fi
log "test layers passed: ${wanted[*]}"
