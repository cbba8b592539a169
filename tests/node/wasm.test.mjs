// The wasm modules under Node: SIMD you can see (f32x4 in the dot kernel),
// the same numbers as the native CLI for a seed, SIMD and scalar builds in
// agreement, errors as messages, and no memory leak across repeated calls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { CLI, loadWasm, wasmFile } from './paths.mjs';
import { softmax, close } from './oracle.mjs';
import { OVERFLOW_CASES } from './attention_cases.mjs';

// The explainer's module (index.html), in both builds; attention forward
// lives in the benchmarks' module (cpp/wasm/attention_bindings.cpp).
const simd = await loadWasm('explain', 'simd');
const scalar = await loadWasm('explain', 'scalar');
const attnSimd = await loadWasm('bench', 'simd');
const attnScalar = await loadWasm('bench', 'scalar');
const OK = { error: '', argument: '', kind: '', params: '' };

// Disassembly grouped by function: by name where the module keeps names (the
// benchmarks' module, --profiling-funcs), else as func[index].
function functions(feature, variant) {
  const dis = execFileSync('wasm-objdump', ['-d', wasmFile(feature, variant)],
    { encoding: 'utf8', maxBuffer: 1 << 28 });
  const out = new Map();
  let name = null;
  for (const line of dis.split('\n')) {
    const m = line.match(/^[0-9a-f]+ func\[(\d+)\](?: <(.*)>)?:$/);
    if (m) { name = m[2] ?? `func[${m[1]}]`; out.set(name, []); } else if (name) out.get(name).push(line);
  }
  return out;
}

test('the SIMD build holds f32x4 multiply and add in the dot kernel', () => {
  const fns = functions('bench', 'simd');
  const name = [...fns.keys()].find((n) => n.startsWith('attn::dot_f32__wasmsimd_acc4('));
  assert.ok(name, 'dot_f32__wasmsimd_acc4 is in the module');
  const body = fns.get(name).join('\n');
  assert.match(body, /f32x4\.mul/);
  assert.match(body, /f32x4\.add/);
  assert.match(body, /v128\.load/);
  assert.deepEqual(simd.buildInfo(), { simd: true, build: 'simd', dotKernel: 'dot_f32__wasmsimd_acc4', madd: 'separate' });
});

test('every SIMD module holds f32x4 multiply-adds; the explainer\'s and the lab\'s kernels are there', () => {
  for (const feature of ['explain', 'lab', 'check', 'bench', 'presets']) {
    const lines = [...functions(feature, 'simd').values()].flat();
    assert.ok(lines.length > 1000, `${feature}: disassembled`);
    const count = (re) => lines.filter((l) => re.test(l)).length;
    assert.ok(count(/f32x4\.mul/) >= 8 && count(/f32x4\.add/) >= 8, `${feature}: f32x4 multiply-adds`);
  }
});

// The benchmarks' module keeps function names; a kernel called from one place
// only (the Q·Kᵀ kernel, from its timing loop) is inlined into that caller.
test('the SIMD build holds f32x4 code in the score tile, the key packing and the attention kernel', () => {
  const fns = functions('bench', 'simd');
  const body = (prefix) => {
    const name = [...fns.keys()].find((n) => n.startsWith(prefix));
    assert.ok(name, `${prefix} is in the module`);
    return fns.get(name).join('\n');
  };
  // 4x8 tile: broadcast q[r][p], load 8 keys' element p, multiply-add (the
  // rows of a 4-row block, unpacked, which the attention kernel shares).
  const tile = body('attn::simd::score_rows_from_panels(');
  for (const op of [/v128\.load32_splat/, /v128\.load\b/, /f32x4\.mul/, /f32x4\.add/]) assert.match(tile, op);
  // K transposed into panels with shuffles.
  assert.match(body('attn::simd::pack_key_panels('), /i8x16\.shuffle/);
  // Softmax (vector exp: 2^n built with i32x4.shl) and W·V inlined in the attention kernel.
  const attention = body('attn::attention_f32__wasmsimd(');
  for (const op of [/f32x4\.pmax/, /i32x4\.shl/, /f32x4\.mul/, /f32x4\.add/, /v128\.store/]) assert.match(attention, op);
  // The Q·Kᵀ kernel packs the keys, then calls the tile: under its own name, or
  // inlined into the one benchmark loop that calls it.
  const qk = [...fns].filter(([n, lines]) => !n.startsWith('attn::attention_f32__wasmsimd(')
    && ['pack_key_panels', 'score_rows_from_panels'].every((f) => lines.some((l) => l.includes(`call `) && l.includes(`<attn::simd::${f}(`))));
  assert.ok(qk.length >= 1, 'a function other than the attention kernel packs the keys and calls the score tile');
  assert.ok(qk.some(([n]) => /qk_scores_f32__wasmsimd_4x8|time_loop/.test(n)), qk.map(([n]) => n).join('; '));
});

test('the scalar builds have no SIMD instruction at all', () => {
  for (const feature of ['explain', 'lab', 'check', 'bench', 'presets'])
    for (const [name, lines] of functions(feature, 'scalar'))
      assert.ok(!lines.some((l) => /v128|f32x4|i32x4/.test(l)), `${feature}: ${name} uses SIMD`);
  assert.ok(functions('explain', 'scalar').size > 100, 'the scalar module was disassembled');
  assert.deepEqual(scalar.buildInfo(), { simd: false, build: 'scalar', dotKernel: 'dot_f32__scalar', madd: 'separate' });
});

// The relaxed build: fused multiply-adds in every module, none in the SIMD128
// and scalar builds (their sums are the CLI's default bits). Node 20 validates it
// only behind --experimental-wasm-relaxed-simd, so its buildInfo() is read in
// a child process with the flag.
test('the relaxed build holds f32x4.relaxed_madd in every module and names itself; SIMD128 has none', () => {
  for (const feature of ['explain', 'lab', 'check', 'bench', 'presets']) {
    const lines = [...functions(feature, 'relaxed').values()].flat();
    assert.ok(lines.filter((l) => /f32x4\.relaxed_madd/.test(l)).length >= 4, `${feature}: relaxed_madd`);
    const simdLines = [...functions(feature, 'simd').values()].flat();
    assert.ok(!simdLines.some((l) => /relaxed/.test(l)), `${feature}: the SIMD128 build has no relaxed instruction`);
  }
  const fns = functions('bench', 'relaxed');
  const name = [...fns.keys()].find((n) => n.startsWith('attn::dot_f32__wasmrelaxedsimd_acc4('));
  assert.ok(name, 'dot_f32__wasmrelaxedsimd_acc4 is in the module');
  assert.match(fns.get(name).join('\n'), /f32x4\.relaxed_madd/);
  // The packed 5-row score tile (64 keys or more): rows 0-3 of a step one
  // load, broadcast by shuffles; row 4 a broadcast load.
  const rows = [...fns.keys()].find((n) => n.startsWith('attn::simd::score_rows_from_panels('));
  assert.ok(rows, 'score_rows_from_panels is in the relaxed module');
  for (const op of [/i8x16\.shuffle( 0x03020100){4}/, /i8x16\.shuffle( 0x0f0e0d0c){4}/, /v128\.load32_splat/, /f32x4\.relaxed_madd/])
    assert.match(fns.get(rows).join('\n'), op);
  const script = `const { loadWasm } = await import(${JSON.stringify(new URL('./paths.mjs', import.meta.url).href)});
    const M = await loadWasm('explain', 'relaxed'); console.log(JSON.stringify(M.buildInfo()));`;
  const r = spawnSync(process.execPath, ['--experimental-wasm-relaxed-simd', '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const info = JSON.parse(r.stdout);
  assert.deepEqual({ ...info, madd: undefined }, { simd: true, build: 'relaxed', dotKernel: 'dot_f32__wasmrelaxedsimd_acc4', madd: undefined });
  assert.ok(info.madd === 'fused' || info.madd === 'separate', info.madd);  // this engine's relaxed_madd (relaxed_madd.test.mjs)
});

// "First-load size grows by nothing for a browser that loads only one build"
// (issue 16): the relaxed explainer, the module an embedded widget's host pays
// for first, is no larger gzipped than the SIMD128 one (its link names
// emcc's libc-optz, cpp/CMakeLists.txt).
test('the relaxed explainer module is no larger than the SIMD128 one, gzipped', () => {
  const gz = (variant) => zlib.gzipSync(fs.readFileSync(wasmFile('explain', variant)), { level: 9 }).length;
  const relaxed = gz('relaxed'), simd = gz('simd');
  console.log(`explain wasm gzip: relaxed ${relaxed} B, SIMD128 ${simd} B`);
  assert.ok(relaxed <= simd, `relaxed ${relaxed} B > SIMD128 ${simd} B`);
});

// Copies arrays into wasm memory, runs f(pointers...), frees them.
function withF32(M, arrays, f) {
  const ptrs = arrays.map((a) => {
    const p = M._malloc(Math.max(4, a.length * 4));
    M.HEAPF32.set(a, p / 4);
    return p;
  });
  try { return f(...ptrs); } finally { ptrs.forEach((p) => M._free(p)); }
}

test('SIMD and scalar dot kernels agree across lengths and alignments', () => {
  let seed = 1;
  const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
  for (const M of [attnSimd, attnScalar]) {  // the benchmarks' module holds the test hooks
    for (const n of [...Array(68).keys(), 1023, 4096]) {
      for (const off of [0, 1, 3]) {
        const a = Float32Array.from({ length: n + off }, rnd);
        const b = Float32Array.from({ length: n + off }, rnd);
        let exact = 0, mag = 0;
        for (let i = off; i < n + off; i++) { exact += a[i] * b[i]; mag += Math.abs(a[i] * b[i]); }
        withF32(M, [a, b], (pa, pb) => {
          const k = M.dotKernel(pa + 4 * off, pb + 4 * off, n);
          const s = M.dotScalar(pa + 4 * off, pb + 4 * off, n);
          close(k, exact, 1e-6 * mag + 1e-30, `kernel n=${n} off=${off}`);
          close(s, exact, 1e-6 * mag + 1e-30, `scalar n=${n} off=${off}`);
        });
      }
    }
  }
});

function qk(M, opts, samples) {
  const s = new M.QkSession();
  try {
    assert.deepEqual(s.configure(opts), OK);
    assert.deepEqual(s.draw(samples), OK);
    const r = s.summary();
    assert.equal(r.error, '');
    return { ...r.summary, hist: Array.from(s.histogram().slice()) };
  } finally { s.delete(); }
}

test('wasm Monte Carlo gives the native numbers for the same seed, bit for bit (native, wasm scalar, wasm SIMD)', () => {
  // The scalar dot kernel adds in the SIMD kernel's order, so every field is identical, not close.
  for (const [dk, rho, sq, sk] of [[64, 0, 1, 1], [7, 0.5, 1, 1], [1024, 0, 1, 1], [4096, -0.3, 2, 0.5], [33, 0.9, 1e3, 1e-6], [100, 1, 3, 3]]) {
    const samples = dk >= 1024 ? 3000 : 20000;
    const native = JSON.parse(execFileSync(CLI, ['variance', '--dk', `${dk}`, '--samples', `${samples}`,
      '--seed', '7', '--rho', `${rho}`, '--sigma-q', `${sq}`, '--sigma-k', `${sk}`, '--bins', '32'], { encoding: 'utf8' }));
    for (const M of [simd, scalar]) {
      const w = qk(M, { dk, divisor: Math.sqrt(dk), rho, sigmaQ: sq, sigmaK: sk, seed: 7, bins: 32 }, samples);
      const what = `dk=${dk} rho=${rho}`;
      assert.equal(w.samples, native.samples);
      assert.equal(w.mean, native.mean, `mean ${what}`);
      assert.equal(w.var, native.var, `var ${what}`);
      assert.equal(w.scaledMean, native.scaled_mean, `scaled_mean ${what}`);
      assert.equal(w.scaledVar, native.scaled_var, `scaled_var ${what}`);
      assert.equal(w.varStderr, native.var_stderr, `var_stderr ${what}`);
      assert.equal(w.theoryVar, native.theory_var);
      assert.deepEqual(w.hist, native.histogram.counts, `histogram ${what}`);
    }
  }
});

test('sampleScoreRow: the same scores bit for bit in the scalar and SIMD builds', () => {
  for (const [dk, m] of [[1, 5], [15, 9], [64, 16], [67, 33], [4096, 64]]) {
    const row = (M) => {
      const p = M._malloc(4 * m);
      try {
        assert.deepEqual(M.sampleScoreRow(dk, m, 3, p), OK);
        return Array.from(M.HEAPF32.subarray(p / 4, p / 4 + m));
      } finally { M._free(p); }
    };
    const a = row(simd), b = row(scalar);
    assert.equal(a.length, m, `dk=${dk}`);
    assert.deepEqual(a, b, `dk=${dk} m=${m}`);
  }
});

test('wasm Monte Carlo: no standard error below 100 samples (NaN), as the CLI\'s null', () => {
  for (const samples of [2, 3, 99, 100, 1000]) {
    const native = JSON.parse(execFileSync(CLI, ['variance', '--dk', '32', '--samples', `${samples}`, '--seed', '9'],
      { encoding: 'utf8' }));
    for (const M of [simd, scalar]) {
      const w = qk(M, { dk: 32, divisor: Math.sqrt(32), rho: 0, sigmaQ: 1, sigmaK: 1, seed: 9, bins: 64 }, samples);
      if (samples < 100) {
        assert.ok(Number.isNaN(w.varStderr), `${samples} samples: ${w.varStderr}`);
        assert.equal(native.var_stderr, null);
      } else {
        close(w.varStderr, native.var_stderr, 1e-4 * native.var_stderr, `${samples} samples`);
      }
    }
  }
});

// Limits before allocation (issue 14, class 2): the shape checks alone, so
// the JS wrapper can refuse a shape before it allocates wasm memory (which
// never shrinks). Same messages as the calls themselves, and as the CLI.
test('checkAttentionShape and checkScoreRow refuse what the calls refuse, allocating nothing', () => {
  const cliMessage = (input) => {
    const r = spawnSync(CLI, ['attention', '--input', '-'], { input: JSON.stringify(input), encoding: 'utf8' });
    return r.stderr.trim().replace(/^attnlab: /, '');
  };
  for (const [M, A] of [[simd, attnSimd], [scalar, attnScalar]]) {
    const grow = M.HEAP8.length, growA = A.HEAP8.length;
    // The case: n 4096 x d_v 16384 of output (256 MiB).
    const big = A.checkAttentionShape(4096, 1, 1, 16384);
    assert.deepEqual(big, { error: 'n*dv must be at most 16777216, got 4096 * 16384', argument: 'n*dv', kind: 'product', params: '{"hi":16777216,"a":4096,"b":16384}' });
    assert.equal(big.error, cliMessage({ q: Array(4096).fill([0]), k: [[0]], v: [Array(16384).fill(0)] }));
    assert.deepEqual(A.checkAttentionShape(4096, 4096, 1, 1), OK);
    assert.equal(A.checkAttentionShape(4097, 1, 1, 1).argument, 'n');
    assert.equal(A.checkAttentionShape(1, 4096, 4097, 1).argument, 'm*dk');
    assert.equal(A.checkAttentionShape(2.5, 1, 1, 1).argument, 'n');
    assert.equal(A.HEAP8.length, growA, 'no wasm memory grew');
    // sampleScoreRow(64, 1e8, 1): m past its limit, and d_k * m past the work limit.
    assert.deepEqual(M.checkScoreRow(64, 1e8), { error: 'm must be an integer in [1, 4096], got 100000000', argument: 'm', kind: 'range', params: '{"lo":1,"hi":4096,"value":100000000,"integer":true}' });
    assert.equal(M.checkScoreRow(65536, 4096).argument, 'dk*m');
    assert.deepEqual(M.checkScoreRow(256, 4096), OK);
    assert.equal(M.HEAP8.length, grow, 'no wasm memory grew');
  }
});

test('the proof terms stream: diagonal near 1, cross terms near 0', () => {
  const s = new simd.QkSession();
  try {
    assert.deepEqual(s.configure({ dk: 3, divisor: Math.sqrt(3), rho: 0, sigmaQ: 1, sigmaK: 1, seed: 1, bins: 8 }), OK);
    assert.deepEqual(s.draw(200000), OK);
    const m = Array.from(s.proofMeans().slice());
    assert.equal(m.length, 9);
    // Each term q_i k_i q_j k_j has variance 9 (i = j: E[q⁴]E[k⁴] - 1 = 8) or 1.
    m.forEach((x, idx) => {
      const i = Math.floor(idx / 3), j = idx % 3;
      close(x, i === j ? 1 : 0, 5 * Math.sqrt((i === j ? 8 : 1) / 200000), `term ${i},${j}`);
    });
  } finally { s.delete(); }
});

test('softmax in wasm agrees with the JS oracle, in both builds', () => {
  for (const M of [simd, scalar]) {
    const p = M._malloc(8 * 3), o = M._malloc(8 * 3);
    try {
      M.HEAPF64.set([14, 10, 12], p / 8);
      const r = M.softmaxStats(p, 3, 8, o, 0);
      assert.equal(r.error, '');
      assert.equal(r.stats.argmax, 0);
      const probs = Array.from(M.HEAPF64.subarray(o / 8, o / 8 + 3));
      softmax([14, 10, 12], 8).forEach((x, i) => close(probs[i], x, 1e-15, `p${i}`));
    } finally { M._free(p); M._free(o); }
  }
});

test('attention where float overflows: finite and the CLI\'s numbers, in both builds (issue 14, class 1)', () => {
  for (const [what, input] of OVERFLOW_CASES) {
    const n = input.q.length, m = input.k.length, dk = input.q[0].length, dv = input.v[0].length;
    const divisor = input.divisor === 'sqrt' ? Math.sqrt(dk) : input.divisor;
    const native = JSON.parse(execFileSync(CLI, ['attention', '--input', '-'], { input: JSON.stringify(input), encoding: 'utf8' }));
    for (const M of [attnSimd, attnScalar]) {
      const [w, o] = withF32(M, [Float32Array.from(input.q.flat()), Float32Array.from(input.k.flat()),
        Float32Array.from(input.v.flat()), new Float32Array(n * m), new Float32Array(n * dv)], (pq, pk, pv, pw, po) => {
        assert.deepEqual(M.attentionForward(pq, pk, pv, n, m, dk, dv, divisor, pw, po), OK, what);
        return [M.HEAPF32.slice(pw / 4, pw / 4 + n * m), M.HEAPF32.slice(po / 4, po / 4 + n * dv)];
      });
      native.weights.flat().forEach((x, i) => close(w[i], x, 1e-6, `${what}: w ${i}`));
      native.output.flat().forEach((x, i) => {
        assert.ok(Number.isFinite(o[i]), `${what}: output ${i} is ${o[i]}`);
        close(o[i], x, 1e-6 * Math.abs(x), `${what}: o ${i}`);
      });
    }
  }
});

test('SIMD and scalar builds compute the same attention', () => {
  const n = 5, m = 9, dk = 13, dv = 6;
  let seed = 11;
  const rnd = () => ((seed = (seed * 48271) % 2147483647) / 2147483647) * 4 - 2;
  const q = Float32Array.from({ length: n * dk }, rnd);
  const k = Float32Array.from({ length: m * dk }, rnd);
  const v = Float32Array.from({ length: m * dv }, rnd);
  const res = [attnSimd, attnScalar].map((M) => withF32(M, [q, k, v, new Float32Array(n * m), new Float32Array(n * dv)],
    (pq, pk, pv, pw, po) => {
      assert.deepEqual(M.attentionForward(pq, pk, pv, n, m, dk, dv, Math.sqrt(dk), pw, po), OK);
      return [M.HEAPF32.slice(pw / 4, pw / 4 + n * m), M.HEAPF32.slice(po / 4, po / 4 + n * dv)];
    }));
  for (let t = 0; t < 2; t++)
    res[0][t].forEach((x, i) => close(x, res[1][t][i], 1e-5, `tensor ${t} element ${i}`));
});

// One error convention across the boundary: every fallible call returns
// {error, argument} (or a result holding them), argument naming what was wrong.
test('bad arguments come back as {error, argument}, not exceptions or NaN', () => {
  const s = new simd.QkSession();
  const bad = (status, message, argument) => {
    assert.match(status.error, message);
    assert.equal(status.argument, argument, status.error);
  };
  try {
    const base = { dk: 64, divisor: 8, rho: 0, sigmaQ: 1, sigmaK: 1, seed: 0, bins: 64 };
    bad(s.draw(10), /configure\(\) must succeed/, 'session');
    bad(s.summary(), /configure\(\) must succeed/, 'session');
    bad(s.configure({ ...base, dk: 0 }), /^dk must be an integer in \[1, 65536\], got 0$/, 'dk');
    bad(s.configure({ ...base, dk: -1 }), /dk must be an integer/, 'dk');
    bad(s.configure({ ...base, dk: 2.5 }), /dk must be an integer/, 'dk');
    bad(s.configure({ ...base, dk: NaN }), /dk must be an integer/, 'dk');
    bad(s.configure({ ...base, rho: NaN }), /rho must be a number in \[-1, 1\]/, 'rho');
    bad(s.configure({ ...base, divisor: 0 }), /divisor/, 'divisor');
    bad(s.configure({ ...base, seed: -3 }), /seed/, 'seed');
    bad(s.configure({ ...base, bins: 0 }), /bins/, 'bins');
    assert.deepEqual(s.configure({ ...base, dk: 65536 }), OK);
    bad(s.draw(100000), /dk\*samples must be at most 100000000/, 'dk*samples');
    bad(s.draw(0), /samples/, 'samples');
  } finally { s.delete(); }
  bad(simd.sampleScoreRow(0, 16, 1, 0), /dk/, 'dk');
  bad(simd.sampleScoreRow(64, 0, 1, 0), /^m must/, 'm');
  bad(simd.resolveDivisor('abc', 64), /divisor must be/, 'divisor');
  bad(attnSimd.attentionForward(0, 0, 0, 0, 1, 1, 1, 1, 0, 0), /^n must/, 'n');
  assert.equal(simd.attentionForward, undefined, 'the explainer\'s module has no attention forward');
  const sat = new simd.SaturationSession();
  try {
    bad(sat.draw(10), /configure\(\) must succeed/, 'session');
    bad(sat.configure(0, 16, 1, 0, 1), /dk/, 'dk');
  } finally { sat.delete(); }
  assert.equal(simd.resolveDivisor('sqrt', 64).value, 8);
  assert.equal(simd.resolveDivisor('dk', 64).value, 64);
  const p = simd._malloc(16), o = simd._malloc(16);
  try {
    simd.HEAPF64.set([1, NaN], p / 8);
    bad(simd.softmaxStats(p, 2, 1, o, 0), /scores must hold finite numbers, but element 1 is nan/, 'scores');
    simd.HEAPF64.set([1, Infinity], p / 8);
    bad(simd.softmaxStats(p, 2, 1, o, 0), /element 1 is inf/, 'scores');
    bad(simd.softmaxStats(p, 0, 1, o, 0), /scores length/, 'scores length');
  } finally { simd._free(p); simd._free(o); }
});

test('no memory grows or leaks across 10 000 calls of each function', () => {
  const M = simd, A = attnSimd;
  const probe = () => { const p = M._malloc(256); M._free(p); return p; };
  const probeA = () => { const p = A._malloc(256); A._free(p); return p; };
  const before = { bytes: M.HEAP8.length, probe: probe(), bytesA: A.HEAP8.length, probeA: probeA() };
  const fa = A._malloc(4 * 64);
  A.HEAPF32.fill(0.5, fa / 4, fa / 4 + 64);
  const p = M._malloc(8 * 16), o = M._malloc(8 * 16), f = M._malloc(4 * 64);
  M.HEAPF64.set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16], p / 8);
  for (let i = 0; i < 10000; i++) {
    M.softmaxStats(p, 16, 1 + (i % 7), o, o);
    M.softmaxStats(p, 16, 0, o, 0);  // the error path too
    M.resolveDivisor(i % 2 ? 'sqrt' : 'bad', 64);
    M.sampleScoreRow(32, 16, i, f);
    A.attentionForward(fa, fa, fa, 2, 2, 8, 8, 1, fa + 128, fa + 192);
    A.attentionForward(fa, fa, fa, 0, 2, 8, 8, 1, fa + 128, fa + 192);  // the error path too
    M.buildInfo();
    const s = new M.QkSession();
    s.configure({ dk: 4, divisor: 2, rho: 0, sigmaQ: 1, sigmaK: 1, seed: i, bins: 16 });
    s.draw(2); s.summary(); s.histogram(); s.proofMeans();
    s.configure({ dk: 0, divisor: 2, rho: 0, sigmaQ: 1, sigmaK: 1, seed: i, bins: 16 });
    s.delete();
    const sat = new M.SaturationSession();
    sat.configure(4, 4, i, p, 2);  // divisors 1 and 2, from the scores above
    sat.draw(1); sat.stats(o); sat.draw(0);
    sat.configure(0, 4, i, p, 2);
    sat.delete();
  }
  M._free(p); M._free(o); M._free(f); A._free(fa);
  assert.equal(M.HEAP8.length, before.bytes, 'wasm memory grew');
  assert.equal(probe(), before.probe, 'the allocator hands out a different block: something leaked');
  assert.equal(A.HEAP8.length, before.bytesA, 'attention: wasm memory grew');
  assert.equal(probeA(), before.probeA, 'attention: something leaked');
});
