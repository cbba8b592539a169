// How one benchmark cell is measured, shared by scripts/bench.mjs (Node) and
// the site's benchmark page (a worker): calibrate the number of calls so one
// sample takes at least minSeconds, run warm-up samples (V8 compiles a hot
// wasm function again in its optimising tier), then take the samples, the
// builds' samples of one case interleaved (measureInterleaved), and the
// ceilings' samples taken through the same run (ceilingSampler).
// M is a loaded core module; it times the kernel itself (benchRun). The rate is
// GFLOP/s, except for the training steps ("train" from a fresh start,
// "train_converged" once the run has learned), whose rate is steps/s.

import { coreErrorOf } from '../../bridge/rpc.js';
import { requireNumber, requireObject, requireString } from '../../bridge/arg-types.js';

export function measureCase(M, c, options = {}) {
  return measureInterleaved([[M, c]], options)[0];
}

/**
 * Several cells (module, case) measured together, their samples interleaved:
 * each round takes one sample of every cell in turn, so a drift in the host's
 * speed during the run (a shared VM's neighbours, a CPU's clock) falls on
 * every cell alike, and their same-run ratios (relaxed/SIMD, of peak) hold.
 * Measured one build after another, two runs on one VM gave Q·Kᵀ's
 * relaxed/SIMD as 0.88× and 1.22×.
 * @param {Array<[object, {kernel: string, n: number, d: number}]>} cells
 * @returns {number[][]} each cell's samples, in the order given
 */
export function measureInterleaved(cells, { samples = 15, warmup = 3, minSeconds = 0.02, midway = null } = {}) {
  for (const [name, x] of [['samples', samples], ['warmup', warmup], ['minSeconds', minSeconds]]) requireNumber(name, x);
  const samplers = cells.map(([M, c]) => sampler(M, c, warmup, minSeconds));
  const out = cells.map(() => []);
  for (let s = 0; s < samples; s++) {
    samplers.forEach((take, i) => out[i].push(take()));
    // The ceilings' sample of this case, among its own samples (ceilingSampler).
    if (s === Math.floor((samples - 1) / 2)) midway?.();
  }
  return out;
}

/**
 * The loops each build's ceiling is measured with, all from registers, no
 * loads (cpp/bench/mul_add_peak.h): multiplies and adds in two shapes (7
 * chains of each; 8 of multiplies and 6 of adds), whose faster depends on the
 * CPU (the second on a Zen 5, whose add is quicker than its multiply; the
 * first where both take 3 cycles or more), or fused multiply-adds in the
 * relaxed-SIMD build, where every multiply-add the kernels count is one.
 */
export const CEILINGS = {
  scalar: ['peak', 'peak_8x6'],
  simd: ['peak', 'peak_8x6'],
  relaxed: ['fma_peak'],
};

// Rounds a call: about 0.2 ms of SIMD128 multiply-adds, so even a smoke run's
// single call is timed well above the clock's resolution.
export const PEAK_ROUNDS = 100000;

/**
 * The ceilings of `modules` ({scalar, simd, relaxed}, those loaded), sampled
 * through a run: each loop is calibrated once, then take() adds one sample of
 * every loop, once before the first case, in the middle of each case's
 * samples (measureInterleaved's midway) and once after the last. A build's
 * peak is the fastest of all its loops' samples: on a shared machine a
 * ceiling measured once, or at the end, read 22 GFLOP/s where the kernels had
 * reached 49 minutes before (their "of peak" up to 220%), and a loop that
 * fills the pipes loses more to a neighbour's work than a kernel that waits
 * on its loads (an FMA loop's median 44.7 against Q·Kᵀ's 46.6 in one run,
 * its fastest sample 57.0).
 * @returns {{take(): void, peaks(): Object<string, {peak: number, kernel: string, median: number, samples: number}>}}
 */
export function ceilingSampler(modules, { warmup = 3, minSeconds = 0.02 } = {}) {
  const cells = Object.entries(CEILINGS).filter(([build]) => modules[build])
    .flatMap(([build, kernels]) => kernels.map((kernel) => ({ build, kernel })));
  const samplers = cells.map(({ build, kernel }) =>
    sampler(modules[build], { kernel, n: PEAK_ROUNDS, d: 0 }, warmup, minSeconds));
  const out = cells.map(() => []);
  return {
    take() {
      samplers.forEach((sample, i) => out[i].push(sample()));
    },
    peaks() {
      const best = {};
      cells.forEach(({ build, kernel }, i) => {
        if (out[i].length === 0) return;
        const peak = Math.max(...out[i]);
        if (!best[build] || peak > best[build].peak)
          best[build] = { peak, kernel, median: summarize(out[i]).median, samples: out[i].length };
      });
      return best;
    },
  };
}

// Calibrates and warms one cell; returns a function that takes one sample.
function sampler(M, c, warmup, minSeconds) {
  // Types checked before Embind sees them (bridge/arg-types.js); the core checks the ranges.
  requireObject('case', c);
  requireString('kernel', c.kernel);
  requireNumber('n', c.n);
  requireNumber('d', c.d);
  const run = (iters) => {
    const r = M.benchRun(c.kernel, c.n, c.d, iters);
    if (r.error) throw coreErrorOf(r);  // its argument, kind and params reach the page (bridge/errors.js)
    return r;
  };
  // The first call can compile the kernel: without Liftoff (scripts/bench.sh)
  // V8 compiles a wasm function when it is first called, inside the timed
  // loop, 19-32 ms for the attention kernel; calibrated from that call, a
  // case kept 1 call a sample and measured its timer (attention 16x64 0.8x
  // SIMD128 where it runs 1.25x).
  run(1);
  let iters = 1;
  for (;;) {
    const r = run(iters);
    if (r.seconds >= minSeconds || iters >= 2 ** 28) break;
    iters *= r.seconds > 0 ? Math.max(2, Math.ceil((1.2 * minSeconds) / r.seconds)) : 16;
  }
  for (let i = 0; i < warmup; i++) run(iters);
  return () => {
    const r = run(iters);
    return isTraining(c) ? iters / r.seconds : r.flops / r.seconds / 1e9;
  };
}

// Median and half the inter-quartile range relative to it.
export function summarize(gflops) {
  const s = [...gflops].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))];
  const median = q(0.5);
  return { median, spread: median > 0 ? (q(0.75) - q(0.25)) / 2 / median : 0, samples: s.length };
}

/** The training steps are rated in steps per second and have no "of peak" or Eigen cell. */
export const isTraining = (c) => c.kernel === 'train' || c.kernel === 'train_converged';

export function caseName(c) {
  if (c.kernel === 'dot') return `dot, n = ${c.n}`;
  if (c.kernel === 'train') return 'training step (steps/s)';
  if (c.kernel === 'train_converged') return `training step after ${c.n} steps, converged (steps/s)`;
  return `${c.kernel === 'qk' ? 'Q·Kᵀ' : 'attention'}, ${c.n}×${c.d}`;
}
