#!/usr/bin/env bash
# Builds what is missing and prints the benchmark table (see README).
#   scripts/bench.sh [--smoke] [--json] [--samples N]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
if [ ! -x "$BUILD_NATIVE/bin/attnlab_bench" ] || [ ! -f "$BUILD_WASM/cpp/attnlab_bench_simd.wasm" ] ||
   [ ! -f "$BUILD_WASM_RELAXED/cpp/attnlab_bench_relaxed.wasm" ]; then
  "$ROOT/scripts/setup.sh"
  "$ROOT/scripts/build.sh"
fi
# --experimental-wasm-relaxed-simd: Node 20 runs the relaxed-SIMD build only behind it.
exec node --no-liftoff --experimental-wasm-relaxed-simd "$ROOT/scripts/bench.mjs" "$@"
