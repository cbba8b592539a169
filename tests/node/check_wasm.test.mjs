// The checker in wasm under Node, through the page's own wrapper (attn-check.js):
// every bad input gives exactly the CLI's message, in the SIMD and the scalar
// build; good files give the CLI's numbers; nothing leaks across calls; the
// presets are `attnlab presets`, and a preset with a separate logits or probs
// file gives `check --preset NAME --logits FILE`'s report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI, ROOT, loadWasm } from './paths.mjs';
import { BAD, SAME_2D, SAME_3D, close, corpusPath, normals, npyBytes } from './check_cases.mjs';

const { createCheckAttn } = await import(path.join(ROOT, 'web/src/bridge/attn-check.js'));

// The checker's module (check.html), in both builds.
async function load(variant) {
  const M = await loadWasm('check', variant);
  return { M, attn: createCheckAttn(M) };
}
const builds = { simd: await load('simd'), scalar: await load('scalar') };

const files = (rels) => rels.map((rel) => ({ name: path.basename(rel), bytes: fs.readFileSync(corpusPath(rel)) }));

function cli(args) {
  return spawnSync(CLI, ['check', ...args], { encoding: 'utf8', timeout: 60_000 });
}

test('every bad input gives the CLI\'s exact message, in both builds', () => {
  for (const c of BAD) {
    const native = cli(c.files.map(corpusPath));
    assert.equal(native.status, 2, c.name);
    const expected = native.stderr.trim().replace(/^attnlab: /, '');
    for (const [variant, { attn }] of Object.entries(builds)) {
      assert.throws(() => attn.checkTensors(files(c.files)), (e) => {
        assert.equal(e.message, expected, `${c.name} (${variant})`);
        return true;
      });
    }
  }
});

test('good files give the native numbers', () => {
  for (const rels of [...SAME_3D, ...SAME_2D, ['npz/good_2d_extra_member.npz'], ['npz/good_sequences.npz']]) {
    const native = JSON.parse(cli(rels.map(corpusPath)).stdout);
    for (const [variant, { attn }] of Object.entries(builds)) {
      const w = attn.checkTensors(files(rels));
      const what = `${rels.join(' + ')} (${variant})`;
      assert.deepEqual(w.shape, native.shape, what);
      assert.equal(w.format, native.format, what);
      assert.equal(w.kernel, variant === 'simd' ? 'dot_f32__wasmsimd_acc4' : 'dot_f32__scalar');
      w.heads.forEach((h, i) => {
        const n = native.heads[i];
        assert.equal(h.verdict, n.verdict, what);
        assert.equal(h.reason_code, n.reason_code, what);
        for (const key of ['mean', 'var']) {
          assert.equal(h.q[key], n.q[key], `${what} q ${key}`);  // the same floats, summed in double
          assert.equal(h.k[key], n.k[key], `${what} k ${key}`);
        }
        // Logits are float dot products: the SIMD kernel sums in another order.
        close(h.logits.var, n.logits.var, 1e-5 * n.logits.var, `${what} logit var`);
        h.divisors.forEach((d, j) => {
          close(d.entropy_mean, n.divisors[j].entropy_mean, 1e-5, `${what} entropy`);
          close(d.max_prob_mean, n.divisors[j].max_prob_mean, 1e-5, `${what} max prob`);
          assert.equal(d.saturated_share, n.divisors[j].saturated_share, `${what} saturated`);
          assert.equal(d.sharp_share, n.divisors[j].sharp_share, `${what} sharp`);
          assert.equal(d.frozen_share, n.divisors[j].frozen_share, `${what} frozen`);
          close(d.grad_median, n.divisors[j].grad_median, 1e-4 * n.divisors[j].grad_median, `${what} gradient median`);
        });
      });
    }
  }
});

test('the page\'s samples: judged at the divisor each file stores, frozen and sharp as the CLI says', () => {
  // web/public/samples, written by scripts/build.sh with `attnlab sample-qk`.
  const want = { 'lab-saturated.npz': ['frozen', '1'], 'lab-learned.npz': ['sharp', 'sqrt'], 'lab-init.npz': ['fine', 'sqrt'] };
  for (const name of ['init', 'saturated', 'learned', 'lab-init', 'lab-saturated', 'lab-learned'].map((n) => `${n}.npz`)) {
    const file = path.join(ROOT, 'web/public/samples', name);
    const native = JSON.parse(cli([file]).stdout);
    for (const [variant, { attn }] of Object.entries(builds)) {
      const w = attn.checkTensors([{ name, bytes: fs.readFileSync(file) }]);
      assert.deepEqual(w.divisor, native.divisor, `${name} (${variant})`);
      assert.equal(w.divisor.source, 'file', name);
      assert.deepEqual(w.heads.map((h) => h.verdict), native.heads.map((h) => h.verdict), `${name} (${variant})`);
      if (want[name]) {
        assert.ok(w.heads.every((h) => h.verdict === want[name][0]), `${name}: ${w.heads.map((h) => h.verdict)}`);
        assert.equal(w.divisor.label, want[name][1], name);
      }
    }
  }
});

test('options cross the boundary: divisor, names, format', () => {
  const { attn } = builds.simd;
  const npz = files(['npz/good_2d_extra_member.npz']);
  assert.deepEqual(attn.checkTensors(npz, { divisor: 'dk' }).divisor, { label: 'dk', value: 4, index: 3, source: 'given' });
  assert.deepEqual(attn.checkTensors(npz, { divisor: '2.5' }).divisor, { label: '2.5', value: 2.5, index: 4, source: 'given' });
  assert.deepEqual(attn.checkTensors(npz).divisor, { label: 'sqrt', value: 2, index: 0, source: 'default' });
  close(attn.checkTensors(npz, { k: 'v' }).heads[0].correlation, 1, 1e-12, 'q against itself');
  const seqs = files(['npz/good_sequences.npz']);
  assert.equal(attn.checkTensors(seqs).shape.keys_per_query, 5);
  assert.equal(attn.checkTensors(seqs, { sequences: 1 }).shape.keys_per_query, 15);
  assert.throws(() => attn.checkTensors(seqs, { sequences: 2.5 }), /^Error: sequences must be an integer in \[0, 4096\], got 2.5/);
  assert.throws(() => attn.checkTensors(npz, { divisor: 'abc' }), /^Error: divisor must be 'sqrt', 'dk' or a number/);
  assert.throws(() => attn.checkTensors(npz, { format: 'csv' }), /^Error: csv: line 1, column 6 holds a NUL byte: not a text file$/);  // a binary file read as text
  assert.throws(() => attn.checkTensors(npz, { q: '' }), /array names must be 1 to 64 printable characters/);
  const json = files(['json/good.json']);
  json[0].name = 'qk.bin';  // no telling extension: the content decides
  assert.equal(attn.checkTensors(json).format, 'json');
  assert.throws(() => attn.checkTensors([]), /give one file/);
  assert.throws(() => attn.checkTensors([...npz, ...npz, ...npz]), /give one file/);
});

test('a file above the size limit is refused from its size alone', () => {
  const { M } = builds.simd;
  const p = M._malloc(16);
  try {
    const opts = {
      fileName: 'x.npz', fileName2: '', fileName3: '', format: 'auto', divisor: 'sqrt', preset: '', scores: '',
      q: 'q', k: 'k', sequences: 0,
    };
    // The pointer covers 16 bytes only: the core must not read past them.
    const r = M.checkTensors(p, 64 * 1024 * 1024 + 1, 0, 0, 0, 0, opts);
    assert.equal(r.error, 'file: the file is 67108865 bytes, more than the limit of 64 MiB');
    assert.equal(r.argument, 'file');
    assert.match(M.checkTensors(p, -1, 0, 0, 0, 0, opts).error, /^size must be an integer/);
    assert.match(M.checkTensors(p, 2.5, 0, 0, 0, 0, opts).error, /^size must be an integer/);
    // The scores file's size too, and above the limit from its size alone.
    assert.match(M.checkTensors(p, 16, 0, 0, p, -1, { ...opts, scores: 'logits' }).error, /^size3 must be an integer/);
  } finally {
    M._free(p);
  }
});

test('the checker\'s limits come from the core (the page states and checks them before reading)', () => {
  const { attn } = builds.simd;
  assert.deepEqual(attn.checkLimits(),
    { maxFileBytes: 64 * 1024 * 1024, maxValues: 1 << 22, maxHeads: 1024, maxSeqLen: 4096, maxDk: 65536 });
});

test('no memory grows or leaks across 1000 checks, good and bad', () => {
  const { M, attn } = builds.simd;
  const good = files(['npz/good.npz']);
  const bad = BAD.slice(0, 20).map((c) => files(c.files));
  attn.checkTensors(good);  // first use may set up lasting state (exceptions, locale)
  for (const f of bad) try { attn.checkTensors(f); } catch { /* expected */ }
  const probe = () => { const p = M._malloc(256); M._free(p); return p; };
  const before = { bytes: M.HEAP8.length, probe: probe() };
  for (let i = 0; i < 1000; i++) {
    attn.checkTensors(good);
    try { attn.checkTensors(bad[i % bad.length]); } catch { /* expected */ }
  }
  assert.equal(M.HEAP8.length, before.bytes, 'wasm memory grew');
  assert.equal(probe(), before.probe, 'the allocator hands out a different block: something leaked');
});

test('the scale fit: an .npz with logits or probs gives the native fit, in both builds', () => {
  const fixture = (f) => path.join(ROOT, 'tests/fixtures/scale_fit', f);
  for (const f of ['logits_dmodel.npz', 'probs_causal.npz']) {
    const native = JSON.parse(cli([fixture(f)]).stdout);
    for (const [variant, { attn }] of Object.entries(builds)) {
      const w = attn.checkTensors([{ name: f, bytes: fs.readFileSync(fixture(f)) }]);
      assert.deepEqual(w.scale_fit, native.scale_fit, `${f} (${variant})`);
      w.heads.forEach((h, i) => {
        const n = native.heads[i].scale_fit;
        assert.equal(h.scale_fit.verdict, n.verdict, `${f} (${variant})`);
        assert.equal(h.scale_fit.masked, n.masked);
        assert.equal(h.scale_fit.entries, n.entries);
        close(h.scale_fit.c, n.c, 1e-6 * n.c, `${f} c (${variant})`);  // the SIMD q·k sums in another order
      });
    }
  }
  const both = fs.readFileSync(fixture('bad_both.npz'));
  for (const { attn } of Object.values(builds))
    assert.throws(() => attn.checkTensors([{ name: 'bad_both.npz', bytes: both }]), /holds both 'logits' and 'probs'/);
});

// ---------------------------------------------------------------- presets and a separate scores file
// The page's path (checkTensors with a preset and the model's logits or probs
// as a file of their own) against the CLI's `check --preset NAME --logits FILE`.
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-check-wasm-'));

// q, k [H, n, dk] (float32, scaled by `scale`) written as .npy, and their q·k in double, [H, n, n].
function qkFiles(H, n, dk, seed, scale = 1) {
  const q = normals(H * n * dk, seed, scale).map(Math.fround), k = normals(H * n * dk, seed + 1).map(Math.fround);
  const s = new Array(H * n * n).fill(0);
  for (let h = 0; h < H; h++)
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        let d = 0;
        for (let p = 0; p < dk; p++) d += q[(h * n + i) * dk + p] * k[(h * n + j) * dk + p];
        s[(h * n + i) * n + j] = d;
      }
  const write = (name, values) => {
    const f = path.join(TMP, name);
    fs.writeFileSync(f, npyBytes(values, [H, n, dk]));
    return f;
  };
  return { q: write(`q${seed}.npy`, q), k: write(`k${seed}.npy`, k), s, H, n, dk };
}
function writeScores(name, values, shape) {
  const f = path.join(TMP, name);
  fs.writeFileSync(f, npyBytes(values, shape));
  return f;
}
function softmaxRows(l, n) {
  const out = [];
  for (let r = 0; r < l.length / n; r++) {
    const row = l.slice(r * n, (r + 1) * n), mx = Math.max(...row);
    const e = row.map((x) => Math.exp(x - mx)), z = e.reduce((a, b) => a + b, 0);
    out.push(...e.map((x) => x / z));
  }
  return out;
}
const asFile = (f) => ({ name: path.basename(f), bytes: fs.readFileSync(f) });
// The fit's sentence without its residual (the SIMD q·k sums in another order, so its last digits may differ).
const noResidual = (s) => s.replace(/fit residual [^;)]+/, 'fit residual …');

test('checkPresets() is `attnlab presets`, in both builds', () => {
  const r = spawnSync(CLI, ['presets'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const native = JSON.parse(r.stdout);
  assert.ok(native.presets.length >= 8);
  for (const [variant, { attn }] of Object.entries(builds)) assert.deepEqual(attn.checkPresets(), native, variant);
});

test('a preset with a separate logits or probs file: the page\'s path gives the CLI\'s report, in both builds', () => {
  const g = qkFiles(2, 12, 128, 41, 3);  // Gemma 2 27B's d_k 128; q × 3 so the soft-cap bends the logits
  const g1 = qkFiles(2, 12, 128, 45);  // unscaled: the probabilities keep the cap undone only on logits
  const p = qkFiles(2, 12, 64, 51);
  const cap = (x) => 50 * Math.tanh(x / 50);
  const shape = (t) => [t.H, t.n, t.n];
  const cases = [
    // [preset, q/k, kind, scores, the verdict]
    ['gemma2-27b', g, 'logits', g.s.map((x) => cap(x / 12)), 'expected'],
    ['gemma2-27b', g, 'logits', g.s.map((x) => cap(x / Math.sqrt(128))), 'sqrt_dk'],
    ['gemma2-27b', g1, 'probs', softmaxRows(g1.s.map((x) => cap(x / 12)), g1.n), 'expected'],
    ['llama', g1, 'logits', g1.s.map((x) => x / Math.sqrt(128)), 'expected'],
    ['gpt2', p, 'probs', softmaxRows(p.s.map((x) => x / 8), p.n), 'expected'],
    ['mup', p, 'logits', p.s.map((x) => x / 64), 'expected'],
    ['mup', p, 'logits', p.s.map((x) => x / 8), 'sqrt_dk'],
    ['t5', p, 'logits', p.s, 'expected'],
    ['t5', p, 'logits', p.s.map((x) => x / 8), 'sqrt_dk'],
  ];
  cases.forEach(([preset, t, kind, values, verdict], i) => {
    const scores = writeScores(`${preset}-${i}.npy`, values, shape(t));
    const r = spawnSync(CLI, ['check', t.q, t.k, '--preset', preset, `--${kind}`, scores], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const native = JSON.parse(r.stdout);
    for (const [variant, { attn }] of Object.entries(builds)) {
      const what = `${preset} ${kind} #${i} (${variant})`;
      const w = attn.checkTensors([asFile(t.q), asFile(t.k)], { preset, scores: { ...asFile(scores), kind } });
      assert.equal(w.preset, preset, what);
      assert.deepEqual(w.divisor, native.divisor, what);
      assert.deepEqual(w.scale_fit, native.scale_fit, what);
      w.heads.forEach((h, j) => {
        const n = native.heads[j];
        assert.equal(h.verdict, n.verdict, what);
        assert.equal(h.scale_fit.verdict, verdict, `${what}: ${n.scale_fit.sentence}`);
        assert.equal(h.scale_fit.verdict, n.scale_fit.verdict, what);
        assert.equal(noResidual(h.scale_fit.sentence), noResidual(n.scale_fit.sentence), what);
        assert.equal(h.scale_fit.entries, n.scale_fit.entries, what);
        assert.equal(h.scale_fit.capped, n.scale_fit.capped, what);
        close(h.scale_fit.c, n.scale_fit.c, 1e-6 * n.scale_fit.c, `${what} c`);
      });
    }
  });
  // A preset alone (no scores): the divisor and the verdicts, as the CLI's.
  for (const preset of ['gemma2-27b', 'llama']) {
    const native = JSON.parse(spawnSync(CLI, ['check', g.q, g.k, '--preset', preset], { encoding: 'utf8' }).stdout);
    const w = builds.scalar.attn.checkTensors([asFile(g.q), asFile(g.k)], { preset });
    assert.deepEqual(w.divisor, native.divisor, preset);
    assert.equal(w.preset, preset);
    assert.equal(w.scale_fit, null);
    assert.deepEqual(w.heads.map((h) => h.verdict), native.heads.map((h) => h.verdict), preset);
  }
});

test('a preset or a separate scores file that does not fit: the CLI\'s message, argument and kind, in both builds', () => {
  const t = qkFiles(2, 6, 64, 61);
  const shape = [t.H, t.n, t.n];
  const l = t.s.map((x) => x / 8);
  const p = softmaxRows(l, t.n);
  const edit = (xs, i, v) => { const y = xs.slice(); y[i] = typeof v === 'function' ? v(y[i]) : v; return y; };
  const npz = path.join(ROOT, 'tests/fixtures/scale_fit/logits_dmodel.npz');
  const cases = [
    // [name, files, options, CLI args after the files, argument, kind]
    ['the preset\'s d_k', [t.q, t.k], { preset: 'gemma2-27b' }, ['--preset', 'gemma2-27b'], 'preset', 'preset_dk'],
    ['an unknown preset', [t.q, t.k], { preset: 'gpt3' }, ['--preset', 'gpt3'], 'preset', 'choice'],
    ['a shape mismatch', [t.q, t.k], { kind: 'logits', values: l.slice(0, 60), shape: [2, 6, 5] }, null, 'logits', 'scores_shape'],
    ['NaN', [t.q, t.k], { kind: 'logits', values: edit(l, 7, NaN), shape }, null, 'logits', 'scores_finite'],
    ['a negative probability', [t.q, t.k], { kind: 'probs', values: edit(p, 0, (x) => -x), shape }, null, 'probs', 'probs_negative'],
    ['a row off 1', [t.q, t.k], { kind: 'probs', values: edit(p, 3, (x) => x + 0.3), shape }, null, 'probs', 'probs_rows'],
    ['both given', [npz], { kind: 'logits', values: new Array(2 * 12 * 12).fill(0), shape: [2, 12, 12] }, null, 'logits', 'scores_twice'],
  ];
  cases.forEach(([name, files, o, args, argument, kind], i) => {
    let options = o.preset ? { preset: o.preset } : {};
    let cliArgs = args;
    if (o.kind) {
      const f = writeScores(`bad${i}.npy`, o.values, o.shape);
      options = { scores: { ...asFile(f), kind: o.kind } };
      cliArgs = [`--${o.kind}`, f];
    }
    const native = spawnSync(CLI, ['check', ...files, ...cliArgs], { encoding: 'utf8' });
    assert.equal(native.status, 2, name);
    const expected = native.stderr.trim().replace(/^attnlab: /, '');
    for (const [variant, { attn }] of Object.entries(builds)) {
      assert.throws(() => attn.checkTensors(files.map(asFile), options), (e) => {
        assert.equal(e.message, expected, `${name} (${variant})`);
        assert.equal(e.argument, argument, name);
        assert.equal(e.kind, kind, name);
        return true;
      });
    }
  });
  // The page never sends both (its divisor field is off under a preset); the core refuses them anyway.
  assert.throws(() => builds.simd.attn.checkTensors([asFile(t.q), asFile(t.k)], { preset: 'gpt2', divisor: 'sqrt' }),
    (e) => e.argument === 'divisor' && e.kind === 'preset_divisor');
  assert.throws(() => builds.simd.attn.checkTensors([asFile(t.q), asFile(t.k)], { scores: { ...asFile(t.q), kind: 'scores' } }),
    (e) => e.argument === 'scores' && e.kind === 'choice');
});
