// The saturation binding (SaturationSession) in both wasm builds: results laid
// out as documented, batches giving the numbers of one draw, the SIMD and
// scalar builds in agreement (their dot kernels round differently, so to a
// tolerance), and bad arguments returned as a message plus the argument's
// name, which the page uses to translate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWasm } from './paths.mjs';

const builds = { simd: await loadWasm('explain', 'simd'), scalar: await loadWasm('explain', 'scalar') };
// The same session with the distribution over rows (cpp/wasm/saturation_js.h),
// in the presets' module: what the saturation explorer's distribution view runs.
const distBuilds = { simd: await loadWasm('presets', 'simd'), scalar: await loadWasm('presets', 'scalar') };

// Doubles per divisor: 3 × (mean, se); with the distribution also the median
// (estimate, lo, hi), key 0's p(1 - p) (mean, se), then for k = 1..8 the
// shares below 10⁻ᵏ of the norm and of p(1 - p).
const PER = 6;
const PER_DIST = 27;

// A session at one d_k, `batches` drawn one after another; the first error met, or the stats.
function saturation(M, dk, m, batches, seed, divisors) {
  const s = new M.SaturationSession();
  const per = s.perDivisor();
  const dp = M._malloc(8 * Math.max(1, divisors.length));
  const op = M._malloc(8 * per * Math.max(1, divisors.length));
  try {
    M.HEAPF64.set(divisors, dp / 8);
    const configured = s.configure(dk, m, seed, dp, divisors.length);
    if (configured.error) return configured;
    for (const rows of [batches].flat()) {
      const drawn = s.draw(rows);
      if (drawn.error) return drawn;
    }
    const r = s.stats(op);
    return { ...r, rows: s.rows(), per, out: M.HEAPF64.slice(op / 8, op / 8 + per * divisors.length) };
  } finally {
    s.delete();
    M._free(dp);
    M._free(op);
  }
}

test('SaturationSession: mean and standard error of three statistics per divisor', () => {
  for (const M of [...Object.values(builds), ...Object.values(distBuilds)]) {
    const r = saturation(M, 64, 16, 50, 7, [1, 8, 64]);
    assert.equal(r.error, '');
    const P = r.per;
    const [mp1, se1, h1, , j1] = r.out;
    assert.ok(mp1 > 1 / 16 && mp1 <= 1 && se1 > 0 && h1 >= 0 && h1 <= Math.log(16) && j1 > 0);
    // Dividing by more spreads the row: the largest probability falls with the divisor.
    assert.ok(r.out[0] > r.out[P] && r.out[P] > r.out[2 * P], `max probs ${r.out[0]}, ${r.out[P]}, ${r.out[2 * P]}`);
  }
  // The distribution view's means are the curves' to the last bit: the same rows.
  for (const b of ['simd', 'scalar']) {
    const curves = saturation(builds[b], 64, 16, [13, 37], 7, [1, 8, 64]);
    const dist = saturation(distBuilds[b], 64, 16, [50], 7, [1, 8, 64]);
    assert.equal(curves.per, PER);
    assert.equal(dist.per, PER_DIST);
    for (let c = 0; c < 3; c++)
      assert.deepEqual(Array.from(dist.out.slice(PER_DIST * c, PER_DIST * c + PER)), Array.from(curves.out.slice(PER * c, PER * (c + 1))), `${b}, divisor ${c}`);
  }
  for (const M of Object.values(distBuilds)) {
    const r = saturation(M, 64, 16, 50, 7, [1, 8, 64]);
    for (let c = 0; c < 3; c++) {
      const x = r.out.slice(PER_DIST * c, PER_DIST * (c + 1));
      const [est, lo, hi, target] = [x[6], x[7], x[8], x[9]];
      assert.ok(lo <= est && est <= hi && hi / lo < 1.024, `median ${lo} ${est} ${hi}`);
      assert.ok(target > 0 && target <= 0.25, `p(1 - p) ${target}`);
      // Shares: counts of 50 rows, never more below a smaller threshold.
      for (let k = 1; k <= 8; k++)
        for (const w of [0, 1]) {
          const share = x[11 + 2 * (k - 1) + w];
          assert.ok(Number.isInteger(Math.round(share * 50 * 1e6) / 1e6) && share >= 0 && share <= 1, `share ${share}`);
          if (k > 1) assert.ok(share <= x[11 + 2 * (k - 2) + w], `k ${k}: ${share} above 10^-${k - 1}'s`);
        }
    }
  }
  const a = saturation(builds.simd, 256, 32, 20, 11, [1, 16]).out;
  const b = saturation(builds.scalar, 256, 32, 20, 11, [1, 16]).out;
  a.forEach((x, i) => assert.ok(Math.abs(x - b[i]) <= 1e-3 * Math.abs(b[i]) + 1e-4, `entry ${i}: simd ${x}, scalar ${b[i]}`));
});

test('SaturationSession: batches of any sizes give the numbers of one draw of their total', () => {
  for (const M of [...Object.values(builds), ...Object.values(distBuilds)]) {
    const whole = saturation(M, 64, 16, 37, 5, [1, 8, 64]);
    const parts = saturation(M, 64, 16, [1, 5, 20, 11], 5, [1, 8, 64]);
    assert.equal(whole.error, '');
    assert.equal(parts.rows, 37);
    assert.deepEqual(parts.out, whole.out);
  }
});

test('SaturationSession: bad arguments come back as a message and the argument name', () => {
  const M = builds.simd;
  const cases = [
    [[0, 16, 10, 1, [1]], 'dk', /dk must be an integer in \[1, 65536\], got 0/],
    [[64, 0, 10, 1, [1]], 'm', /m must be an integer/],
    [[64, 16, 0, 1, [1]], 'rows', /rows must be an integer/],
    [[64, 16, 2.5, 1, [1]], 'rows', /got 2\.5/],
    [[64, 16, 10, -1, [1]], 'seed', /seed must be an integer/],
    [[64, 16, 10, 1, []], 'divisors', /divisors must be an integer in \[1, 16\]/],
    [[64, 16, 10, 1, [1, 0]], 'divisor', /divisor must be a number in .*got 0/],
    [[64, 16, 10, 1, [-1]], 'divisor', /got -1/],
    [[65536, 4096, 10, 1, [1]], 'rows*m*dk', /rows\*m\*dk must be at most 100000000/],
    [[1, 1, [1000000, 1], 1, [1]], 'rows', /rows must be an integer in \[1, 0\]/],
  ];
  for (const [args, argument, message] of cases) {
    const r = saturation(M, ...args);
    assert.match(r.error, message, JSON.stringify(args));
    assert.equal(r.argument, argument, JSON.stringify(args));
  }
});
