// The benchmarks cannot rot: one smoke run of every benchmark (each case once,
// small sizes) in all five columns, and each wasm build's ceiling. Speed itself
// is never asserted, only that no cell passes its own build's ceiling.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './paths.mjs';

test('scripts/bench.mjs --smoke measures every case in every column', () => {
  const out = execFileSync('node', ['--no-liftoff', '--experimental-wasm-relaxed-simd', path.join(ROOT, 'scripts/bench.mjs'), '--smoke', '--json'],
    { encoding: 'utf8', timeout: 120_000 });
  const { rows, peaks, converged_over_fresh: ratio } = JSON.parse(out);
  for (const [build, kernels] of [['scalar', ['peak', 'peak_8x6']], ['simd', ['peak', 'peak_8x6']], ['relaxed', ['fma_peak']]]) {
    const p = peaks[build];
    assert.ok(Number.isFinite(p.peak) && p.peak > 0 && p.peak >= p.median, `${build} peak: ${JSON.stringify(p)}`);
    assert.ok(kernels.includes(p.kernel), `${build} peak from ${p.kernel}`);
    // Sampled through the run: before the first case, in each of the 5 cases, after the last.
    assert.equal(p.samples, 7, `${build} ceiling samples`);
  }
  assert.deepEqual(rows.map((r) => r.kernel).sort(), ['attention', 'dot', 'qk', 'train', 'train_converged']);
  for (const r of rows)
    for (const col of ['native_scalar', 'native_eigen', 'wasm_scalar', 'wasm_simd', 'wasm_relaxed']) {
      if (r.kernel.startsWith('train') && col === 'native_eigen') continue;  // no Eigen training loop
      assert.equal(r[col].samples, 1, `${r.kernel} ${col}`);
      assert.ok(Number.isFinite(r[col].median) && r[col].median > 0, `${r.kernel} ${col}: ${r[col].median}`);
    }
  for (const col of ['native_scalar', 'wasm_scalar', 'wasm_simd', 'wasm_relaxed'])
    assert.ok(Number.isFinite(ratio[col]) && ratio[col] > 0, `converged / fresh, ${col}: ${ratio[col]}`);
  // A ceiling holds: no kernel passes its build's (no tolerance: a kernel's single call
  // here is timed with its call overhead, so it reads slow, never fast).
  for (const r of rows) {
    const cols = ['of_scalar_peak', 'of_peak', 'of_fma_peak'];
    if (r.kernel.startsWith('train')) {
      for (const col of cols) assert.equal(r[col], null, `${r.kernel} ${col}`);
      continue;
    }
    for (const col of cols) assert.ok(r[col] > 0 && r[col] <= 1, `${r.kernel} ${r.n}×${r.d} ${col}: ${r[col]}`);
  }
});

test('the benchmark table prints one row per case', () => {
  const out = execFileSync('node', ['--no-liftoff', '--experimental-wasm-relaxed-simd', path.join(ROOT, 'scripts/bench.mjs'), '--smoke'],
    { encoding: 'utf8', timeout: 120_000 });
  const lines = out.trim().split('\n');
  assert.match(lines[0], /GFLOP\/s/);
  assert.match(lines[1], /native scalar .* native Eigen .* wasm scalar .* wasm SIMD .* wasm relaxed .* relaxed\/SIMD .* scalar of peak .* SIMD of peak .* relaxed of FMA peak/);
  assert.equal(lines.length, 3 + 5 + 5);
  assert.match(lines.at(-5), /^scalar of peak: wasm scalar divided by [0-9.]+ GFLOP\/s \(peak(_8x6)?; median [0-9.]+ of 7 samples\)/);
  assert.match(lines.at(-4), /^SIMD of peak: wasm SIMD divided by [0-9.]+ GFLOP\/s \(peak(_8x6)?; median [0-9.]+ of 7 samples\)/);
  assert.match(lines.at(-3), /^relaxed of FMA peak: wasm relaxed divided by [0-9.]+ GFLOP\/s \(fma_peak; .*relaxed_madd/);
  assert.match(lines.at(-2), /^peak: the fastest sample of register-only loops/);
  assert.match(lines.at(-1), /^training step, converged \/ fresh: native scalar [0-9.]+×, wasm scalar [0-9.]+×, wasm simd [0-9.]+×, wasm relaxed [0-9.]+×$/);
});
