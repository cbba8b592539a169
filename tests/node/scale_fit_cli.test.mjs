// `attnlab check ... --logits/--probs FILE` and the .npz arrays logits/probs:
// the fitted divisor's sentence and JSON fields on NumPy-written fixtures
// (tests/fixtures/scale_fit/make_fixtures.py) and on .npy files written here
// from float64 q·k; --preset; every bad input, one line on stderr and exit 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI, ROOT } from './paths.mjs';
import { close, normals, npyBytes } from './check_cases.mjs';

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-fit-'));
const FIX = (f) => path.join(ROOT, 'tests/fixtures/scale_fit', f);

function run(args) {
  const r = spawnSync(CLI, args, { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}
function report(args) {
  const r = run(['check', ...args]);
  assert.equal(r.status, 0, `check ${args.join(' ')}: ${r.err}`);
  assert.equal(r.err, '');
  return JSON.parse(r.out);
}
function rejects(args, expect) {
  const r = run(['check', ...args]);
  assert.equal(r.status, 2, `check ${args.join(' ')}: status ${r.status}, ${r.err}`);
  assert.equal(r.out, '');
  const lines = r.err.trimEnd().split('\n');
  assert.equal(lines.length, 1, r.err);
  assert.ok(lines[0].includes(expect), `expected "${expect}" in: ${lines[0]}`);
}

// q, k [H, n, dk] (float32 values) and their q·k in double, [H, n, n].
function qk(H, n, dk, seed) {
  const q = normals(H * n * dk, seed).map(Math.fround), k = normals(H * n * dk, seed + 1).map(Math.fround);
  const s = new Array(H * n * n).fill(0);
  for (let h = 0; h < H; h++)
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        let d = 0;
        for (let p = 0; p < dk; p++) d += q[(h * n + i) * dk + p] * k[(h * n + j) * dk + p];
        s[(h * n + i) * n + j] = d;
      }
  const qf = path.join(TMP, `q${seed}.npy`), kf = path.join(TMP, `k${seed}.npy`);
  fs.writeFileSync(qf, npyBytes(q, [H, n, dk]));
  fs.writeFileSync(kf, npyBytes(k, [H, n, dk]));
  return { q: qf, k: kf, s, H, n, dk };
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
function write(name, values, shape) {
  const f = path.join(TMP, name);
  fs.writeFileSync(f, npyBytes(values, shape));
  return f;
}

test('NumPy-written .npz: √d_model instead of √d_k, and a causal mask seen as a mask', () => {
  const a = report([FIX('logits_dmodel.npz')]);
  assert.equal(a.scale_fit.input, 'logits');
  assert.equal(a.scale_fit.expected, 4);
  assert.deepEqual(a.scale_fit.tolerances, { residual: 0.02, match: 0.01, row_sum: 0.01, mask_below: -1e30, cap_edge: 0.999 });
  assert.equal(a.preset, null);
  for (const h of a.heads) {
    assert.equal(h.scale_fit.verdict, 'width');
    close(h.scale_fit.c, Math.sqrt(32), 1e-5 * Math.sqrt(32), 'c');
    assert.ok(h.scale_fit.residual < 1e-5);
    assert.match(h.scale_fit.sentence, /^divides by 5\.7 ≈ √32 = √d_model \(2 heads × d_k 16\): the head width should be used/);
  }
  const b = report([FIX('probs_causal.npz')]);
  assert.equal(b.scale_fit.input, 'probs');
  for (const h of b.heads) {
    assert.equal(h.scale_fit.verdict, 'expected');
    close(h.scale_fit.c, 4, 4e-5, 'c');
    assert.equal(h.scale_fit.masked, 67);
    assert.equal(h.scale_fit.entries, 77);
    assert.ok(Math.abs(h.scale_fit.row_sum_min - 1) < 1e-6 && Math.abs(h.scale_fit.row_sum_max - 1) < 1e-6);
    assert.match(h.scale_fit.sentence, /^divides by 4\.0 = √16, as expected \(fit residual [0-9.e-]+; 67 masked entries left out\)$/);
  }
  rejects([FIX('bad_both.npz')], "holds both 'logits' and 'probs'");
  rejects([FIX('logits_dmodel.npz'), '--logits', FIX('logits_dmodel.npz')], "already holds its 'logits' array");
});

// The issue's own cases: 8 heads of d_k 64 divided by √d_model = √512 = 22.6,
// and logits soft-capped after the divisor (not q·k / c for any c).
test('--logits: 8 heads × d_k 64 divided by √512 = 22.6 is the head-width bug; soft-capped logits are not q·k / c', () => {
  const t = qk(8, 16, 64, 21);
  const w = report([t.q, t.k, '--logits', write('w512.npy', t.s.map((x) => x / Math.sqrt(512)), [t.H, t.n, t.n])]);
  assert.equal(w.heads.length, 8);
  for (const h of w.heads) {
    assert.equal(h.scale_fit.verdict, 'width');
    close(h.scale_fit.c, Math.sqrt(512), 1e-5 * Math.sqrt(512), 'c');
    assert.match(h.scale_fit.sentence, /^divides by 22\.6 ≈ √512 = √d_model \(8 heads × d_k 64\): the head width should be used/);
  }
  const capped = report([t.q, t.k, '--logits', write('cap2.npy', t.s.map((x) => 2 * Math.tanh(x / 8 / 2)), [t.H, t.n, t.n])]);
  for (const h of capped.heads) {
    assert.equal(h.scale_fit.verdict, 'not_qk', h.scale_fit.sentence);
    assert.ok(h.scale_fit.residual > 0.02);
  }
});

test('--logits and --probs files: c = 8, 1, 64 and the sentences; no scores: scale_fit is null', () => {
  const t = qk(2, 16, 64, 11);
  const cases = [
    [8, 'expected', /^divides by 8\.0 = √64, as expected \(fit residual/],
    [1, 'none', /^does not divide: c = 1, where 8\.0 = √64 was expected/],
    [64, 'dk', /^divides by 64 = d_k \(μP-style; or √d_k applied twice: 8\.0 × 8\.0\)/],
    [Math.sqrt(128), 'width', /^divides by 11\.3 ≈ √128 = √d_model \(2 heads × d_k 64\)/],
  ];
  for (const [c, verdict, sentence] of cases) {
    const l = t.s.map((x) => x / c);
    for (const [flag, values] of [['--logits', l], ['--probs', softmaxRows(l, t.n)]]) {
      const r = report([t.q, t.k, flag, write(`s${c}.npy`, values, [t.H, t.n, t.n])]);
      assert.equal(r.scale_fit.input, flag.slice(2));
      for (const h of r.heads) {
        assert.equal(h.scale_fit.verdict, verdict, `${flag} c = ${c}: ${h.scale_fit.sentence}`);
        close(h.scale_fit.c, c, 1e-5 * c, `${flag} c`);
        assert.match(h.scale_fit.sentence, sentence);
      }
    }
  }
  assert.equal(report([t.q, t.k]).scale_fit, null);
  assert.equal(report([t.q, t.k]).heads[0].scale_fit, null);
  // A bias: not q·k / c for any c.
  const biased = t.s.map((x, i) => x / 8 + Math.sin(i));
  const r = report([t.q, t.k, '--logits', write('bias.npy', biased, [t.H, t.n, t.n])]);
  for (const h of r.heads) {
    assert.equal(h.scale_fit.verdict, 'not_qk');
    assert.ok(h.scale_fit.residual > 0.02);
    assert.match(h.scale_fit.sentence, /^the logits are not q·k \/ c for any c: a mask, bias or softcap is applied \(best c = /);
  }
  // A scale applied after the softmax: every row sums to 1/8.
  const after = softmaxRows(t.s, t.n).map((p) => p / 8);
  const a = report([t.q, t.k, '--probs', write('after.npy', after, [t.H, t.n, t.n])]);
  for (const h of a.heads) {
    assert.equal(h.scale_fit.verdict, 'after_softmax');
    close(h.scale_fit.after_softmax, 0.125, 1e-6, 'row sum');
    assert.match(h.scale_fit.sentence, /^the scale is applied after the softmax: every row sums to 0\.125 = 1\/8\.0 instead of 1/);
  }
});

test('--preset: the divisor it expects, its d_k, its refusals, and a --divisor beside it winning', () => {
  const t = qk(1, 12, 64, 21);
  const mup = report([t.q, t.k, '--preset', 'mup', '--logits', write('mup.npy', t.s.map((x) => x / 64), [t.n, t.n])]);
  assert.equal(mup.preset, 'mup');
  assert.equal(mup.divisor.label, 'dk');
  assert.equal(mup.scale_fit.expected, 64);
  assert.equal(mup.heads[0].scale_fit.verdict, 'expected');
  assert.match(mup.heads[0].scale_fit.sentence, /^divides by 64 = d_k, as expected for muP/);
  const gpt = report([t.q, t.k, '--preset', 'gpt2']);
  assert.equal(gpt.divisor.label, 'sqrt');
  assert.equal(gpt.preset, 'gpt2');
  rejects([t.q, t.k, '--preset', 'gemma2-27b'], 'q and k have d_k = 64, but preset gemma2-27b has d_k = 128');
  rejects([t.q, t.k, '--preset', 'gpt3'], 'preset must be one of');
  // --divisor beside --preset wins over the preset's divisor (the rule of every command); the
  // preset's d_k still holds, and so does its soft-cap, which the fit undoes.
  const over = report([t.q, t.k, '--preset', 'mup', '--divisor', 'sqrt', '--logits', write('over.npy', t.s.map((x) => x / 8), [t.n, t.n])]);
  assert.deepEqual([over.preset, over.divisor.label, over.divisor.value, over.divisor.source], ['mup', 'sqrt', 8, 'given']);
  assert.equal(over.scale_fit.expected, 8);
  assert.equal(over.heads[0].scale_fit.verdict, 'expected');
  assert.match(over.heads[0].scale_fit.sentence, /^divides by 8\.0 = √64, as expected \(/, 'not "as expected for muP": 8 is not its divisor');
  const plain = report([t.q, t.k, '--divisor', 'sqrt']);
  const { preset: _p, divisor: _d, ...restOver } = report([t.q, t.k, '--preset', 'gpt2', '--divisor', 'sqrt']);
  const { preset: _q, divisor: _e, ...restPlain } = plain;
  assert.deepEqual(restOver, restPlain, 'judged as --divisor sqrt alone');
  rejects([t.q, t.k, '--preset', 'gemma2-27b', '--divisor', '8'], 'q and k have d_k = 64, but preset gemma2-27b has d_k = 128');
  const g = qk(1, 12, 128, 41);
  const capped = report([g.q, g.k, '--preset', 'gemma2-27b', '--divisor', '8',
    '--logits', write('capped.npy', g.s.map((x) => 50 * Math.tanh(x / 8 / 50)), [g.n, g.n])]);
  assert.deepEqual([capped.preset, capped.divisor.value, capped.scale_fit.expected, capped.scale_fit.softcap], ['gemma2-27b', 8, 8, 50]);
  assert.equal(capped.heads[0].scale_fit.verdict, 'expected', capped.heads[0].scale_fit.sentence);
  assert.match(capped.heads[0].scale_fit.sentence, /after undoing the soft-cap 50/);
});

test('bad scores: shape, NaN, inf, negative or unnormalised probabilities, both flags', () => {
  const t = qk(2, 6, 8, 31);
  const shape = [t.H, t.n, t.n];
  const l = t.s.map((x) => x / Math.sqrt(8));
  const p = softmaxRows(l, t.n);
  rejects([t.q, t.k, '--logits', write('wrong.npy', l.slice(0, 60), [2, 6, 5])], 'logits has shape (2, 6, 5), but q and k need (2, 6, 6)');
  rejects([t.q, t.k, '--logits', write('flat.npy', l, [12, 6])], 'need (2, 6, 6)');
  for (const [bad, name] of [[NaN, 'nan'], [Infinity, 'inf']]) {
    const x = l.slice();
    x[7] = bad;
    rejects([t.q, t.k, '--logits', write(`l${name}.npy`, x, shape)], 'logits: the value at (0, 1, 1) is');
  }
  const minf = p.slice();
  minf[7] = -Infinity;
  rejects([t.q, t.k, '--probs', write('pminf.npy', minf, shape)], 'probs: the value at (0, 1, 1) is -inf');
  const neg = p.slice();
  neg[0] = -neg[0];
  rejects([t.q, t.k, '--probs', write('neg.npy', neg, shape)], 'probabilities cannot be negative');
  const off = p.slice();
  off[3] += 0.3;
  rejects([t.q, t.k, '--probs', write('off.npy', off, shape)], 'must sum to 1 within 0.01');
  const lf = write('ok.npy', l, shape);
  rejects([t.q, t.k, '--logits', lf, '--probs', lf], '--logits and --probs are two ways');
  rejects([t.q, t.k, '--logits', path.join(TMP, 'missing.npy')], 'cannot open');
  rejects([t.q, t.k, '--logits', FIX('logits_dmodel.npz')], 'an .npz holds its own array');
  // A −inf logit is a mask, not an error.
  const masked = l.slice();
  masked[7] = -Infinity;
  const r = report([t.q, t.k, '--logits', write('masked.npy', masked, shape)]);
  assert.equal(r.heads[0].scale_fit.masked, 1);
  assert.equal(r.heads[0].scale_fit.verdict, 'expected');
});

// Issue 32, class 4: scores whose spread within rows is float rounding carry no
// scale. Before the noise floor, probabilities all float32 1/6 gave
// "c": 5.88e+33, "residual": 1, and other lengths c ≈ 8·10³² or null.
test('uniform and near-uniform rows of every length, float32 and float64, logits and probs: "uniform", no c', () => {
  let cases = 0;
  for (const n of [2, 3, 6, 7, 16, 17, 64]) {
    const t = qk(1, n, 16, 100 + n);
    const wobble = (i) => 1 + ((i * 7919) % 5 - 2) * 2 ** -24;  // a last-bit difference, different per entry
    const rows = {
      'probs 1/n': ['probs', Array(n * n).fill(1 / n)],
      'probs 1/n, last bits differ': ['probs', Array.from({ length: n * n }, (_, i) => wobble(i) / n)],
      'logits 0': ['logits', Array(n * n).fill(0)],
      'logits 3.25 in every entry': ['logits', Array(n * n).fill(3.25)],
      'logits a constant a row': ['logits', Array.from({ length: n * n }, (_, i) => Math.floor(i / n) - 2.5)],
      'logits 1000, last bits differ': ['logits', Array.from({ length: n * n }, (_, i) => 1000 * wobble(i))],
    };
    for (const [what, [kind, values]] of Object.entries(rows))
      for (const bits of [32, 64]) {
        const f = path.join(TMP, `uniform-${n}-${cases}.npy`);
        fs.writeFileSync(f, bits === 32 ? npyBytes(values, [n, n]) : npyBytes(values, [n, n], 64));
        const fit = report([t.q, t.k, `--${kind}`, f]).heads[0].scale_fit;
        const at = `n ${n}, ${what}, float${bits}: ${JSON.stringify(fit)}`;
        assert.equal(fit.verdict, 'uniform', at);
        assert.equal(fit.c, null, at);
        assert.equal(fit.residual, null, at);
        assert.match(fit.sentence, /are uniform within every row \(their spread, [^)]+, is at the level of float32 rounding\) over the \d+ entries used: no divisor can be fitted$/, at);
        cases++;
      }
  }
  assert.equal(cases, 7 * 6 * 2);
  // Just above the floor, the fit is a fit: q·k / 10⁴ still gives c = 10⁴ (logits).
  const t = qk(1, 16, 16, 7);
  const f = path.join(TMP, 'far.npy');
  fs.writeFileSync(f, npyBytes(t.s.map((x) => x / 1e4), [16, 16], 64));
  const fit = report([t.q, t.k, '--logits', f]).heads[0].scale_fit;
  assert.notEqual(fit.verdict, 'uniform');
  close(fit.c, 1e4, 1e-3 * 1e4, 'c');
});
