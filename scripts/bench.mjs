// The benchmark table: native scalar and native Eigen (from attnlab_bench),
// wasm scalar, SIMD128 and relaxed-SIMD (FMA) builds (loaded here, under
// Node), all measured in this one run, as GFLOP/s medians with their spread,
// the ratios, and both ceilings (f32x4 mul+add, and fused relaxed_madd).
//   node --no-liftoff --experimental-wasm-relaxed-simd scripts/bench.mjs [--smoke] [--json] [--samples N]
// --no-liftoff: V8 would otherwise keep a long-running wasm loop in its
// baseline tier; the warm-up samples below also let it tier up.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { measureInterleaved, summarize as stats, caseName, isTraining, PEAK_CASE } from '../web/src/bench/measure.js';

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
// likewise the two ceilings: a drift in the host's speed falls on all alike.
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
const opts = { samples: SAMPLES, warmup: WARMUP, minSeconds: MIN_SECONDS };
for (const c of JSON.parse(modules.simd.benchCasesJson(smoke))) {
  if (!rows.has(key(c))) throw new Error(`case ${key(c)} missing from the native run`);
  const samples = measureInterleaved(VARIANTS.map((v) => [modules[v], c]), opts);
  VARIANTS.forEach((v, i) => { rows.get(key(c))[`wasm_${v}`] = stats(samples[i]); });
}

// The ceilings: register-only f32x4 multiplies and adds in the SIMD build, and
// f32x4.relaxed_madd chains in the relaxed build, this run.
const peakCase = smoke ? { ...PEAK_CASE, n: 16 } : PEAK_CASE;
const [peak, fmaPeak] = measureInterleaved([[modules.simd, peakCase], [modules.relaxed, { ...peakCase, kernel: 'fma_peak' }]],
  opts).map(stats);

// The training steps have no Eigen column: their last ratio is wasm SIMD / native scalar.
const table = [...rows.values()].map((r) => ({
  ...r,
  simd_over_scalar: r.wasm_simd.median / r.wasm_scalar.median,
  wasm_over_eigen: r.native_eigen ? r.wasm_simd.median / r.native_eigen.median : null,
  wasm_over_native: r.wasm_simd.median / r.native_scalar.median,
  of_peak: isTraining(r) ? null : r.wasm_simd.median / peak.median,
  relaxed_over_simd: r.wasm_relaxed.median / r.wasm_simd.median,
  of_fma_peak: isTraining(r) ? null : r.wasm_relaxed.median / fmaPeak.median,
}));

// Converged over fresh training steps per column, same run: a converged run
// once met subnormal floats and ran several times slower.
const fresh = table.find((r) => r.kernel === 'train'), conv = table.find((r) => r.kernel === 'train_converged');
const converged_over_fresh = Object.fromEntries(['native_scalar', 'wasm_scalar', 'wasm_simd', 'wasm_relaxed']
  .map((col) => [col, conv[col].median / fresh[col].median]));

if (asJson) {
  console.log(JSON.stringify({ samples: SAMPLES, smoke, peak, fma_peak: fmaPeak, rows: table, converged_over_fresh }, null, 1));
} else {
  const cell = (s) => (s ? `${s.median.toFixed(2)} ±${(100 * s.spread).toFixed(0)}%` : '–');
  const head = ['work', 'native scalar', 'native Eigen', 'wasm scalar', 'wasm SIMD', 'wasm relaxed', 'SIMD/scalar',
    'relaxed/SIMD', 'wasm/Eigen', 'of peak', 'of FMA peak'];
  const pct = (x) => (x === null ? '–' : `${(100 * x).toFixed(0)}%`);
  const lines = table.map((r) => [caseName(r), cell(r.native_scalar), cell(r.native_eigen), cell(r.wasm_scalar),
    cell(r.wasm_simd), cell(r.wasm_relaxed), `${r.simd_over_scalar.toFixed(1)}×`, `${r.relaxed_over_simd.toFixed(2)}×`,
    r.wasm_over_eigen === null ? `${r.wasm_over_native.toFixed(2)}× native` : `${r.wasm_over_eigen.toFixed(2)}×`,
    pct(r.of_peak), pct(r.of_fma_peak)]);
  const width = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (l) => `| ${l.map((x, i) => x.padEnd(width[i])).join(' | ')} |`;
  console.log(`GFLOP/s (training step: steps/s), median ±half-IQR of ${SAMPLES} samples; ` +
    'a multiply-add = 2 flops, attention = 4·n·m·d');
  console.log(fmt(head));
  console.log(`|${width.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  lines.forEach((l) => console.log(fmt(l)));
  console.log(`of peak: wasm SIMD divided by ${peak.median.toFixed(2)} GFLOP/s (±${(100 * peak.spread).toFixed(0)}%), ` +
    'the rate of f32x4 multiplies and adds from registers (independent chains, no loads) in this run');
  console.log(`of FMA peak: wasm relaxed divided by ${fmaPeak.median.toFixed(2)} GFLOP/s (±${(100 * fmaPeak.spread).toFixed(0)}%), ` +
    `the rate of f32x4.relaxed_madd from registers in this run (${(fmaPeak.median / peak.median).toFixed(2)}× the mul+add ceiling)`);
  console.log('wasm/Eigen and of peak are the SIMD128 column\'s');
  console.log(`training step, converged / fresh: ${Object.entries(converged_over_fresh)
    .map(([col, r]) => `${col.replace('_', ' ')} ${r.toFixed(2)}×`).join(', ')}`);
}
