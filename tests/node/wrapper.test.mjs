// The pages' JS wrappers over the core (web/src/bridge/attn.js, attn-check.js): callers' types
// are checked before anything reaches the core, and every limit the core
// checks from shapes is checked before a buffer is allocated, so a refused
// call leaves the wasm memory as it was (it never shrinks once grown).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ROOT, loadWasm } from './paths.mjs';

const { createAttn } = await import(path.join(ROOT, 'web/src/bridge/attn.js'));
const { createCheckAttn } = await import(path.join(ROOT, 'web/src/bridge/attn-check.js'));
const explainM = await loadWasm('explain', 'simd');
const explain = createAttn(explainM);
const checkM = await loadWasm('check', 'simd');
const checker = createCheckAttn(checkM);
// Attention forward is in the benchmarks' module (cpp/wasm/attention_bindings.cpp).
const attentionM = await loadWasm('bench', 'simd');
const attention = createAttn(attentionM);

test('a module without attention forward says so', () => {
  assert.throws(() => explain.attentionForward({ q: [0], k: [0], v: [0], n: 1, m: 1, dk: 1, dv: 1, divisor: 1 }),
    /no attention forward/);
});

test('wrong types are refused before the core sees them', () => {
  assert.throws(() => explain.softmaxStats('1012', 1), /scores must be an array of numbers/);
  assert.throws(() => explain.softmaxStats([1, 2], '8'), /divisor must be a number/);
  assert.throws(() => explain.sampleScoreRow('64', 16, 1), /dk must be a number/);
  assert.throws(() => attention.attentionForward({ q: 'abc', k: [0], v: [0], n: 1, m: 1, dk: 1, dv: 1, divisor: 1 }),
    /q must be an array of numbers/);
  assert.throws(() => explain.resolveDivisor('sqrt', '64'), /dk must be a number/);
  const file = { name: 'q.npy', bytes: new Uint8Array(8) };
  assert.throws(() => checker.checkTensors([{ ...file, name: 5 }]), /name must be a string/);
  assert.throws(() => checker.checkTensors([{ ...file, bytes: 'abc' }]), /bytes must be an ArrayBuffer/);
  assert.throws(() => checker.checkTensors([file], { divisor: 8 }), /divisor must be a string/);
  // Right types still work.
  assert.equal(explain.softmaxStats([14, 10, 12], 8).argmax, 0);
});

test('shapes past the limits are refused before any allocation: wasm memory stays as it was', () => {
  const before = [explainM.HEAP8.length, attentionM.HEAP8.length];
  const cases = [
    [() => attention.attentionForward({ q: [], k: [], v: [], n: 4096, m: 1, dk: 1, dv: 16384, divisor: 1 }), /n\*dv must be at most/],
    [() => attention.attentionForward({ q: [], k: [], v: [], n: 4096, m: 4096, dk: 8192, dv: 1, divisor: 1 }), /must be at most/],
    [() => explain.sampleScoreRow(64, 1e8, 1), /m must be an integer in \[1, 4096\], got 100000000/],
    [() => explain.sampleScoreRow(65536, 4096, 1), /must be at most/],
  ];
  for (const [call, message] of cases) assert.throws(call, message);
  assert.deepEqual([explainM.HEAP8.length, attentionM.HEAP8.length], before, 'wasm memory grew');
});

test('bad calls of every kind leave the heap flat (10 000 each)', () => {
  const probe = (M) => { const p = M._malloc(256); M._free(p); return p; };
  const bad = [
    () => explain.softmaxStats([1, NaN], 1),
    () => explain.resolveDivisor('bad', 64),
    () => attention.attentionForward({ q: [0], k: [0], v: [0], n: 1, m: 1, dk: 1, dv: 1, divisor: 0 }),
    () => checker.checkTensors([{ name: 'x.npy', bytes: new Uint8Array(16) }]),
    () => checker.checkTensors([{ name: 'x.npy', bytes: new Uint8Array(16) }], { format: 'nope' }),
  ];
  for (const f of bad) assert.throws(f);  // first use may set up lasting state
  const mods = [explainM, checkM, attentionM];
  const state = () => [...mods.map(probe), ...mods.map((M) => M.HEAP8.length)];
  const before = state();
  for (let i = 0; i < 10000; i++) for (const f of bad) try { f(); } catch { /* expected */ }
  assert.deepEqual(state(), before);
});
