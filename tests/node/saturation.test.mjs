// The saturation binding (SaturationSession) in both wasm builds: results laid
// out as documented, batches giving the numbers of one draw, the SIMD and
// scalar builds in agreement (their dot kernels round differently, so to a
// tolerance), and bad arguments returned as a message plus the argument's
// name, which the page uses to translate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWasm } from './paths.mjs';

const builds = { simd: await loadWasm('explain', 'simd'), scalar: await loadWasm('explain', 'scalar') };

// A session at one d_k, `batches` drawn one after another; the first error met, or the stats.
function saturation(M, dk, m, batches, seed, divisors) {
  const dp = M._malloc(8 * Math.max(1, divisors.length));
  const op = M._malloc(48 * Math.max(1, divisors.length));
  const s = new M.SaturationSession();
  try {
    M.HEAPF64.set(divisors, dp / 8);
    const configured = s.configure(dk, m, seed, dp, divisors.length);
    if (configured.error) return configured;
    for (const rows of [batches].flat()) {
      const drawn = s.draw(rows);
      if (drawn.error) return drawn;
    }
    const r = s.stats(op);
    return { ...r, rows: s.rows(), out: M.HEAPF64.slice(op / 8, op / 8 + 6 * divisors.length) };
  } finally {
    s.delete();
    M._free(dp);
    M._free(op);
  }
}

test('SaturationSession: mean and standard error of three statistics per divisor', () => {
  for (const M of Object.values(builds)) {
    const r = saturation(M, 64, 16, 50, 7, [1, 8, 64]);
    assert.equal(r.error, '');
    const [mp1, se1, h1, , j1] = r.out;
    assert.ok(mp1 > 1 / 16 && mp1 <= 1 && se1 > 0 && h1 >= 0 && h1 <= Math.log(16) && j1 > 0);
    // Dividing by more spreads the row: the largest probability falls with the divisor.
    assert.ok(r.out[0] > r.out[6] && r.out[6] > r.out[12], `max probs ${r.out[0]}, ${r.out[6]}, ${r.out[12]}`);
  }
  const a = saturation(builds.simd, 256, 32, 20, 11, [1, 16]).out;
  const b = saturation(builds.scalar, 256, 32, 20, 11, [1, 16]).out;
  a.forEach((x, i) => assert.ok(Math.abs(x - b[i]) <= 1e-3 * Math.abs(b[i]) + 1e-4, `entry ${i}: simd ${x}, scalar ${b[i]}`));
});

test('SaturationSession: batches of any sizes give the numbers of one draw of their total', () => {
  for (const M of Object.values(builds)) {
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
