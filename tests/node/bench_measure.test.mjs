// web/src/pages/bench/measure.js against a stand-in module whose timings are known:
// what it calibrates to and what it reports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../web/src/', import.meta.url));
const { measureCase, measureInterleaved, ceilingSampler, CEILINGS } = await import(path.join(SRC, 'pages/bench/measure.js'));

// A kernel of 1 µs and 1000 flops a call whose first call also pays
// `firstCall` seconds (a lazy compile), as a wasm function does under --no-liftoff.
function standIn(firstCall, perCall = 1e-6) {
  const calls = [];
  return {
    calls,
    benchRun(kernel, n, d, iters) {
      const seconds = (calls.length === 0 ? firstCall : 0) + iters * perCall;
      calls.push(iters);
      return { seconds, flops: 1000 * iters };
    },
  };
}

test('a slow first call (a lazy compile) does not set the calibration', () => {
  for (const firstCall of [0, 0.019, 0.032, 0.5]) {
    const M = standIn(firstCall);
    const samples = measureCase(M, { kernel: 'attention', n: 16, d: 64 }, { samples: 5, warmup: 2, minSeconds: 0.02 });
    // every sample is a timed loop of at least minSeconds' worth of calls, at the kernel's true rate
    const sampled = M.calls.slice(-5);
    for (const iters of sampled) assert.ok(iters >= 0.02 / 1e-6, `firstCall ${firstCall}: ${iters} calls a sample`);
    for (const g of samples) assert.ok(Math.abs(g - 1) < 1e-9, `firstCall ${firstCall}: ${g} GFLOP/s, not 1`);
  }
});

test('interleaved cells are calibrated each on its own', () => {
  const fast = standIn(0.05, 1e-7), slow = standIn(0.05, 1e-5);
  const [a, b] = measureInterleaved([[fast, { kernel: 'qk', n: 8, d: 8 }], [slow, { kernel: 'qk', n: 8, d: 8 }]],
    { samples: 3, warmup: 1, minSeconds: 0.01 });
  assert.deepEqual(a.map((g) => Math.round(g)), [10, 10, 10]);
  assert.deepEqual(b.map((g) => Math.round(g * 10) / 10), [0.1, 0.1, 0.1]);
  assert.ok(fast.calls.at(-1) >= 0.01 / 1e-7 && slow.calls.at(-1) >= 0.01 / 1e-5);
});

test('the ceilings: sampled once a take(), midway through a case; a build\'s peak is its fastest sample of any loop', () => {
  // A module whose ceiling loops run at a known rate (GFLOP/s) that changes from sample to sample.
  const module = (rates) => {
    const calls = {};
    return {
      calls,
      benchRun(kernel, n, d, iters) {
        const k = (calls[kernel] = (calls[kernel] ?? 0) + 1);
        const seq = rates[kernel];
        const rate = seq[Math.min(k - 1, seq.length - 1)];
        return { seconds: iters * 1e-3, flops: rate * 1e9 * iters * 1e-3 };
      },
    };
  };
  // Calls: first (compile), calibration (1 call: 1 ms < 2 ms, then 2 calls), no warm-up, then the samples.
  const simd = module({ peak: [1, 1, 1, 40, 44, 41], peak_8x6: [1, 1, 1, 50, 30, 52] });
  const relaxed = module({ fma_peak: [1, 1, 1, 60, 58, 55] });
  const c = ceilingSampler({ simd, relaxed }, { warmup: 0, minSeconds: 0.002 });
  assert.deepEqual(CEILINGS.simd, ['peak', 'peak_8x6']);
  c.take();
  const cells = measureInterleaved([[standIn(0), { kernel: 'qk', n: 8, d: 8 }]],
    { samples: 3, warmup: 0, minSeconds: 0.002, midway: c.take });
  assert.equal(cells[0].length, 3);
  c.take();
  const peaks = c.peaks();
  assert.deepEqual(Object.keys(peaks).sort(), ['relaxed', 'simd'], 'only the builds given');
  assert.deepEqual(peaks.simd, { peak: 52, kernel: 'peak_8x6', median: 50, samples: 3 });
  assert.deepEqual(peaks.relaxed, { peak: 60, kernel: 'fma_peak', median: 58, samples: 3 });
});
