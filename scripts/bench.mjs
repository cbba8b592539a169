// The benchmark table: native scalar and native Eigen (from attnlab_bench),
// wasm scalar, SIMD128 and relaxed-SIMD (FMA) builds (loaded here, under
// Node), all measured in this one run, as GFLOP/s medians with their spread,
// the ratios, and each wasm build's share of its own ceiling (multiplies and
// adds from registers; fused relaxed_madd in the relaxed build), sampled
// through the same run (measure.js, ceilingSampler).
//   node --no-liftoff --experimental-wasm-relaxed-simd scripts/bench.mjs [--smoke] [--json] [--samples N]
// --no-liftoff: V8 would otherwise keep a long-running wasm loop in its
// baseline tier; the warm-up samples below also let it tier up.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { measureInterleaved, ceilingSampler, summarize as stats, caseName, isTraining } from '../web/src/pages/bench/measure.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const asJson = args.includes('--json');
const si = args.indexOf('--samples');
const SAMPLES = smoke ? 1 : si >= 0 ? Number(args[si + 1]) : 15;
const MIN_SECONDS = smoke ? 0 : 0.02;
const WARMUP = smoke ? 0 : 3;
if (!(Number.isInteger(SAMPLES) && SAMPLES >= 1 && SAMPLES <= 1000)) {
  console.error('bench: --samples must be an integer in [1, 1000]');
  process.exit(2);
}

// The benchmarks' module (attnlab_bench_<variant>), one build at a time.
async function loadWasm(variant) {
  const dir = path.join(ROOT, variant === 'relaxed' ? 'build/wasm-relaxed/cpp' : 'build/wasm/cpp');
  const { default: create } = await import(path.join(dir, `attnlab_bench_${variant}.js`));
  return create({ wasmBinary: fs.readFileSync(path.join(dir, `attnlab_bench_${variant}.wasm`)) });
}

const key = (c) => `${c.kernel} ${c.n} ${c.d}`;
const rows = new Map();

const nativeArgs = smoke ? ['--smoke'] : ['--samples', String(SAMPLES)];
const native = JSON.parse(execFileSync(path.join(ROOT, 'build/native/bin/attnlab_bench'), nativeArgs,
  { encoding: 'utf8', maxBuffer: 1 << 26 }));
for (const r of native) {
  const k = key(r);
  if (!rows.has(k)) rows.set(k, { kernel: r.kernel, n: r.n, d: r.d });
  rows.get(k)[r.column] = stats(r.gflops);
}

// Each case in the three builds, their samples interleaved (measure.js), and
// a sample of every ceiling loop in the middle of each case's samples (and
// before the first and after the last): a drift in the host's speed falls on
// all alike.
const VARIANTS = ['scalar', 'simd', 'relaxed'];
const modules = {};
for (const variant of VARIANTS) {
  const M = await loadWasm(variant);
  const expected = variant !== 'scalar';
  if (M.buildInfo().simd !== expected) throw new Error(`attnlab_bench_${variant} reports simd=${M.buildInfo().simd}`);
  if (M.buildInfo().dotKernel.includes('relaxed') !== (variant === 'relaxed'))
    throw new Error(`attnlab_bench_${variant} runs ${M.buildInfo().dotKernel}`);
  modules[variant] = M;
}
const ceilings = ceilingSampler(modules, { warmup: WARMUP, minSeconds: MIN_SECONDS });
ceilings.take();
const opts = { samples: SAMPLES, warmup: WARMUP, minSeconds: MIN_SECONDS, midway: ceilings.take };
for (const c of JSON.parse(modules.simd.benchCasesJson(smoke))) {
  if (!rows.has(key(c))) throw new Error(`case ${key(c)} missing from the native run`);
  const samples = measureInterleaved(VARIANTS.map((v) => [modules[v], c]), opts);
  VARIANTS.forEach((v, i) => { rows.get(key(c))[`wasm_${v}`] = stats(samples[i]); });
}
ceilings.take();
// Each build's peak: the fastest sample of its ceiling loops in this run.
const peaks = ceilings.peaks();

// The training steps have no Eigen column: their last ratio is wasm SIMD / native scalar.
const table = [...rows.values()].map((r) => ({
  ...r,
  simd_over_scalar: r.wasm_simd.median / r.wasm_scalar.median,
  wasm_over_eigen: r.native_eigen ? r.wasm_simd.median / r.native_eigen.median : null,
  wasm_over_native: r.wasm_simd.median / r.native_scalar.median,
  of_scalar_peak: isTraining(r) ? null : r.wasm_scalar.median / peaks.scalar.peak,
  of_peak: isTraining(r) ? null : r.wasm_simd.median / peaks.simd.peak,
  relaxed_over_simd: r.wasm_relaxed.median / r.wasm_simd.median,
  of_fma_peak: isTraining(r) ? null : r.wasm_relaxed.median / peaks.relaxed.peak,
}));

// Converged over fresh training steps per column, same run: a converged run
// once met subnormal floats and ran several times slower.
const fresh = table.find((r) => r.kernel === 'train'), conv = table.find((r) => r.kernel === 'train_converged');
const converged_over_fresh = Object.fromEntries(['native_scalar', 'wasm_scalar', 'wasm_simd', 'wasm_relaxed']
  .map((col) => [col, conv[col].median / fresh[col].median]));

if (asJson) {
  console.log(JSON.stringify({ samples: SAMPLES, smoke, peaks, rows: table, converged_over_fresh }, null, 1));
} else {
  const cell = (s) => (s ? `${s.median.toFixed(2)} ±${(100 * s.spread).toFixed(0)}%` : '–');
  const head = ['work', 'native scalar', 'native Eigen', 'wasm scalar', 'wasm SIMD', 'wasm relaxed', 'SIMD/scalar',
    'relaxed/SIMD', 'wasm/Eigen', 'scalar of peak', 'SIMD of peak', 'relaxed of FMA peak'];
  const pct = (x) => (x === null ? '–' : `${(100 * x).toFixed(0)}%`);
  const lines = table.map((r) => [caseName(r), cell(r.native_scalar), cell(r.native_eigen), cell(r.wasm_scalar),
    cell(r.wasm_simd), cell(r.wasm_relaxed), `${r.simd_over_scalar.toFixed(1)}×`, `${r.relaxed_over_simd.toFixed(2)}×`,
    r.wasm_over_eigen === null ? `${r.wasm_over_native.toFixed(2)}× native` : `${r.wasm_over_eigen.toFixed(2)}×`,
    pct(r.of_scalar_peak), pct(r.of_peak), pct(r.of_fma_peak)]);
  const width = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (l) => `| ${l.map((x, i) => x.padEnd(width[i])).join(' | ')} |`;
  console.log(`GFLOP/s (training step: steps/s), median ±half-IQR of ${SAMPLES} samples; ` +
    'a multiply-add = 2 flops, attention = 4·n·m·d');
  console.log(fmt(head));
  console.log(`|${width.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  lines.forEach((l) => console.log(fmt(l)));
  // Each peak: the fastest sample, the loop that gave it, and that loop's median (how much the host's speed moved).
  const peakText = (p) => `${p.peak.toFixed(2)} GFLOP/s (${p.kernel}; median ${p.median.toFixed(2)} of ${p.samples} samples)`;
  console.log(`scalar of peak: wasm scalar divided by ${peakText(peaks.scalar)}, f32 multiplies and adds from registers`);
  console.log(`SIMD of peak: wasm SIMD divided by ${peakText(peaks.simd)}, f32x4 multiplies and adds from registers`);
  console.log(`relaxed of FMA peak: wasm relaxed divided by ${peakText(peaks.relaxed)}, f32x4.relaxed_madd from registers ` +
    `(${(peaks.relaxed.peak / peaks.simd.peak).toFixed(2)}× the SIMD peak)`);
  console.log('peak: the fastest sample of register-only loops (no loads; independent chains, two shapes of multiplies and adds), ' +
    'sampled through this run; wasm/Eigen is the SIMD128 column\'s');
  console.log(`training step, converged / fresh: ${Object.entries(converged_over_fresh)
    .map(([col, r]) => `${col.replace('_', ' ')} ${r.toFixed(2)}×`).join(', ')}`);
}
