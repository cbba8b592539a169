// The benchmarks cannot rot: one smoke run of every benchmark (each case once,
// small sizes) in all five columns, and both ceilings (mul+add, fused). Speed itself is never asserted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './paths.mjs';

test('scripts/bench.mjs --smoke measures every case in every column', () => {
  const out = execFileSync('node', ['--no-liftoff', '--experimental-wasm-relaxed-simd', path.join(ROOT, 'scripts/bench.mjs'), '--smoke', '--json'],
    { encoding: 'utf8', timeout: 120_000 });
  const { rows, peak, fma_peak: fmaPeak, converged_over_fresh: ratio } = JSON.parse(out);
  assert.ok(Number.isFinite(peak.median) && peak.median > 0, `peak: ${peak.median}`);
  assert.ok(Number.isFinite(fmaPeak.median) && fmaPeak.median > 0, `FMA peak: ${fmaPeak.median}`);
  assert.deepEqual(rows.map((r) => r.kernel).sort(), ['attention', 'dot', 'qk', 'train', 'train_converged']);
  for (const r of rows)
    for (const col of ['native_scalar', 'native_eigen', 'wasm_scalar', 'wasm_simd', 'wasm_relaxed']) {
      if (r.kernel.startsWith('train') && col === 'native_eigen') continue;  // no Eigen training loop
      assert.equal(r[col].samples, 1, `${r.kernel} ${col}`);
      assert.ok(Number.isFinite(r[col].median) && r[col].median > 0, `${r.kernel} ${col}: ${r[col].median}`);
    }
  for (const col of ['native_scalar', 'wasm_scalar', 'wasm_simd', 'wasm_relaxed'])
    assert.ok(Number.isFinite(ratio[col]) && ratio[col] > 0, `converged / fresh, ${col}: ${ratio[col]}`);
});

test('the benchmark table prints one row per case', () => {
  const out = execFileSync('node', ['--no-liftoff', '--experimental-wasm-relaxed-simd', path.join(ROOT, 'scripts/bench.mjs'), '--smoke'],
    { encoding: 'utf8', timeout: 120_000 });
  const lines = out.trim().split('\n');
  assert.match(lines[0], /GFLOP\/s/);
  assert.match(lines[1], /native scalar .* native Eigen .* wasm scalar .* wasm SIMD .* wasm relaxed .* relaxed\/SIMD .* of peak .* of FMA peak/);
  assert.equal(lines.length, 3 + 5 + 4);
  assert.match(lines.at(-4), /^of peak: wasm SIMD divided by [0-9.]+ GFLOP\/s/);
  assert.match(lines.at(-3), /^of FMA peak: wasm relaxed divided by [0-9.]+ GFLOP\/s .*relaxed_madd/);
  assert.match(lines.at(-1), /^training step, converged \/ fresh: native scalar [0-9.]+×, wasm scalar [0-9.]+×, wasm simd [0-9.]+×, wasm relaxed [0-9.]+×$/);
});
