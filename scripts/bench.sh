#!/usr/bin/env bash
# Builds what is missing and prints the benchmark table (see README), then the
# command line's sweep row: the same 8 runs with --jobs 1 and with --jobs 2.
#   scripts/bench.sh [--smoke] [--json] [--samples N]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
if [ ! -x "$BUILD_NATIVE/bin/attnlab_bench" ] || [ ! -x "$BUILD_NATIVE/bin/attnlab" ] ||
   [ ! -f "$BUILD_WASM/cpp/attnlab_bench_simd.wasm" ] ||
   [ ! -f "$BUILD_WASM_RELAXED/cpp/attnlab_bench_relaxed.wasm" ]; then
  "$ROOT/scripts/setup.sh"
  "$ROOT/scripts/build.sh"
fi
smoke=0 json=0
for a in "$@"; do
  case "$a" in
    --smoke) smoke=1 ;;
    --json) json=1 ;;
  esac
done

# --no-liftoff, --experimental-wasm-relaxed-simd: Node 20 runs the relaxed-SIMD
# build only behind the second (bench.mjs says why the first).
table="$(node --no-liftoff --experimental-wasm-relaxed-simd "$ROOT/scripts/bench.mjs" "$@")"

# The sweep row: 8 runs (d_k 16 and 32 x divisors sqrt and 1 x adam and sgd)
# of a small model (1 head, d_model 16), 2000 steps each (--smoke: 20), timed
# as one sweep with --jobs 1, then one with --jobs 2, in this run; ratio =
# jobs2 / jobs1 (0.5: the second core fully used; more on a busy machine).
steps=2000
[ "$smoke" = 1 ] && steps=20
sweep_seconds() {
  local t0="$EPOCHREALTIME"
  "$BUILD_NATIVE/bin/attnlab" sweep --dks 16,32 --divisors sqrt,1 --optimizers adam,sgd --heads 1 --dmodel 16 \
    --eval 64 --steps "$steps" --jobs "$1" --quiet >/dev/null
  awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }'
}
jobs1="$(sweep_seconds 1)"
jobs2="$(sweep_seconds 2)"
ratio="$(awk -v a="$jobs1" -v b="$jobs2" 'BEGIN { printf "%.2f", b / a }')"

if [ "$json" = 1 ]; then
  # The table's JSON, with the row as "sweep_jobs".
  printf '%s' "$table" | node -e '
    const j = JSON.parse(require("fs").readFileSync(0, "utf8"));
    const [steps, jobs1, jobs2, ratio] = process.argv.slice(1).map(Number);
    j.sweep_jobs = { runs: 8, steps, jobs1_seconds: jobs1, jobs2_seconds: jobs2, ratio };
    console.log(JSON.stringify(j, null, 1));' "$steps" "$jobs1" "$jobs2" "$ratio"
else
  printf '%s\n' "$table"
  echo "sweep 8 runs: jobs1 $jobs1 s, jobs2 $jobs2 s, ratio $ratio (attnlab sweep, $steps steps a run, this run)"
fi
