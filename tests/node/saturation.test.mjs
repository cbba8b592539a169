// The saturation binding (saturationPoint) in both wasm builds: results laid
// out as documented, the SIMD and scalar builds in agreement (their dot
// kernels round differently, so to a tolerance), and bad arguments returned
// as a message plus the argument's name, which the page uses to translate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWasm } from './paths.mjs';

const builds = { simd: await loadWasm('explain', 'simd'), scalar: await loadWasm('explain', 'scalar') };

function saturation(M, dk, m, rows, seed, divisors) {
  const dp = M._malloc(8 * Math.max(1, divisors.length));
  const op = M._malloc(48 * Math.max(1, divisors.length));
  try {
    M.HEAPF64.set(divisors, dp / 8);
    const r = M.saturationPoint(dk, m, rows, seed, dp, divisors.length, op);
    return { ...r, out: M.HEAPF64.slice(op / 8, op / 8 + 6 * divisors.length) };
  } finally {
    M._free(dp);
    M._free(op);
  }
}

test('saturationPoint: mean and standard error of three statistics per divisor', () => {
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

test('saturationPoint: bad arguments come back as a message and the argument name', () => {
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
  ];
  for (const [args, argument, message] of cases) {
    const r = saturation(M, ...args);
    assert.match(r.error, message, JSON.stringify(args));
    assert.equal(r.argument, argument, JSON.stringify(args));
  }
});
