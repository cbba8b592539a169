#!/usr/bin/env bash
# Builds what is missing and prints the benchmark table (see README).
#   scripts/bench.sh [--smoke] [--json] [--samples N]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
if [ ! -x "$BUILD_NATIVE/bin/attnlab_bench" ] || [ ! -f "$BUILD_WASM/cpp/attnlab_bench_simd.wasm" ]; then
  "$ROOT/scripts/setup.sh"
  "$ROOT/scripts/build.sh"
fi
exec node --no-liftoff "$ROOT/scripts/bench.mjs" "$@"
