// The native CLI: its JSON against independent JS oracles, and every bad
// input answered by one line on stderr and exit status 2 (never a signal).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI } from './paths.mjs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { softmax, entropy, attention, close } from './oracle.mjs';
import { OVERFLOW_CASES } from './attention_cases.mjs';

function run(args, input) {
  const r = spawnSync(CLI, args, { input, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, signal: r.signal, out: r.stdout, err: r.stderr };
}

function json(args, input) {
  const r = run(args, input);
  assert.equal(r.status, 0, `attnlab ${args.join(' ')} failed: ${r.err}`);
  assert.equal(r.err, '');
  const lines = r.out.trim().split('\n');
  assert.equal(lines.length, 1, 'one JSON object on one line');
  return JSON.parse(lines[0]);
}

test('softmax reproduces the seed numbers, unscaled and divided by sqrt(64)', () => {
  const a = json(['softmax', '--scores', '14,10,12']);
  assert.deepEqual(a.scores, [14, 10, 12]);
  assert.equal(a.divisor, 1);
  [0.866813, 0.015876, 0.11731].forEach((p, i) => close(a.probs[i], p, 1e-6, `p${i}`));
  const b = json(['softmax', '--scores', '14,10,12', '--divisor', '8']);
  [0.419229, 0.254275, 0.326496].forEach((p, i) => close(b.probs[i], p, 1e-6, `p${i}`));
  const c = json(['softmax', '--scores', '14,10,12', '--divisor', 'sqrt', '--dk', '64']);
  assert.equal(c.divisor, 8);
  assert.deepEqual(c.probs, b.probs);
});

test('softmax statistics agree with the JS oracle', () => {
  const scores = [3.5, -1, 0, 2.25, 7];
  const r = json(['softmax', '--scores', scores.join(','), '--divisor', '1.7']);
  const p = softmax(scores, 1.7);
  p.forEach((x, i) => close(r.probs[i], x, 1e-12, `p${i}`));
  close(r.entropy, entropy(p), 1e-12, 'entropy');
  close(r.max_prob, Math.max(...p), 1e-12, 'max_prob');
  // ||diag(p) - p p^T||_F written out element by element.
  let f = 0;
  p.forEach((pi, i) => p.forEach((pj, j) => { f += ((i === j ? pi : 0) - pi * pj) ** 2; }));
  close(r.jacobian_norm, Math.sqrt(f), 1e-12, 'jacobian_norm');
});

test('softmax stays finite for huge finite scores', () => {
  const r = json(['softmax', '--scores', '1e308,-1e308,0', '--divisor', '0.5']);
  assert.deepEqual(r.probs, [1, 0, 0]);
  for (const k of ['entropy', 'max_prob', 'jacobian_norm']) assert.ok(Number.isFinite(r[k]), k);
});

test('variance: sample variance of q·k is near d_k, scaled near 1', () => {
  const r = json(['variance', '--dk', '64', '--samples', '200000', '--seed', '3']);
  assert.equal(r.dk, 64);
  assert.equal(r.samples, 200000);
  assert.equal(r.theory_var, 64);
  assert.equal(r.theory_mean, 0);
  close(r.var, 64, 5 * r.var_stderr, 'var');
  close(r.scaled_var, r.var / 64, 1e-12, 'scaled_var');
  close(r.mean, 0, 5 * Math.sqrt(64 / 200000), 'mean');
  const h = r.histogram;
  assert.equal(h.counts.reduce((a, b) => a + b, 0) + h.below + h.above, 200000);
});

test('variance with correlated q and k follows the closed form', () => {
  const r = json(['variance', '--dk', '32', '--samples', '100000', '--rho', '0.6',
    '--sigma-q', '2', '--sigma-k', '0.5', '--divisor', 'dk']);
  close(r.theory_mean, 0.6 * 32, 1e-12, 'theory_mean');
  close(r.theory_var, 32 * (1 + 0.36), 1e-12, 'theory_var');
  close(r.var, r.theory_var, 5 * r.var_stderr, 'var');
  close(r.mean, r.theory_mean, 5 * Math.sqrt(r.theory_var / 100000), 'mean');
  assert.equal(r.divisor, 32);
});

test('variance: no standard error from fewer than 100 samples, and the reason', () => {
  // The case: 2 samples at d_k 65536 gave 4.6e-4 for a variance of 34 290.
  const cases = [[65536, 2], [64, 2], [64, 3], [1, 50], [16, 99]];
  for (const [dk, samples] of cases) {
    const r = json(['variance', '--dk', `${dk}`, '--samples', `${samples}`, '--seed', '5']);
    assert.equal(r.samples, samples);
    assert.equal(r.var_stderr, null, `dk ${dk}, ${samples} samples`);
    assert.match(r.var_stderr_note, /^fewer than 100 samples: too few to estimate the fourth moment/);
    assert.ok(Number.isFinite(r.var) && r.var > 0, 'the variance itself is still reported');
  }
  for (const samples of [100, 101, 5000]) {
    const r = json(['variance', '--dk', '16', '--samples', `${samples}`, '--seed', '5']);
    assert.ok(Number.isFinite(r.var_stderr) && r.var_stderr > 0, `${samples} samples`);
    assert.ok(!('var_stderr_note' in r));
  }
});

test('variance is deterministic for a seed, and the seed matters', () => {
  const a = json(['variance', '--dk', '16', '--samples', '1000', '--seed', '42']);
  const b = json(['variance', '--dk', '16', '--samples', '1000', '--seed', '42']);
  const c = json(['variance', '--dk', '16', '--samples', '1000', '--seed', '43']);
  assert.deepEqual(a, b);
  assert.notEqual(a.var, c.var);
});

test('attention from a file and from stdin agrees with the JS oracle', async () => {
  const q = [[1, 0.5, -2], [0, 1, 3]];
  const k = [[1, 0, 0], [0.5, -1, 2], [3, 3, 3], [0, 0, 1]];
  const v = [[1, 2], [3, 4], [5, 6], [-1, 0]];
  for (const divisor of ['sqrt', 1, 2, 'dk', 0.7]) {
    const r = json(['attention', '--input', '-'], JSON.stringify({ q, k, v, divisor }));
    const d = divisor === 'sqrt' ? Math.sqrt(3) : divisor === 'dk' ? 3 : divisor;
    const o = attention(q, k, v, d);
    close(r.divisor, d, 1e-15, 'divisor');
    o.weights.forEach((row, i) => row.forEach((w, j) => close(r.weights[i][j], w, 1e-6, `w${i}${j}`)));
    o.output.forEach((row, i) => row.forEach((x, c) => close(r.output[i][c], x, 1e-5, `o${i}${c}`)));
  }
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'attn-')), 'in.json');
  fs.writeFileSync(file, JSON.stringify({ q, k, v }));
  const r = json(['attention', '--input', file]);
  close(r.divisor, Math.sqrt(3), 1e-15, 'default divisor is sqrt(dk)');
});

// Attention where float overflows on the way (issue 14, class 1): attention_cases.mjs.
test('attention stays finite and right where float overflows (null or an error before)', () => {
  for (const [what, input] of OVERFLOW_CASES) {
    const r = json(['attention', '--input', '-'], JSON.stringify(input));
    const d = input.divisor === 'sqrt' ? Math.sqrt(input.q[0].length) : input.divisor;
    const o = attention(input.q, input.k, input.v, d);
    o.weights.forEach((row, i) => row.forEach((w, j) => close(r.weights[i][j], w, 1e-6, `${what}: w${i}${j}`)));
    o.output.forEach((row, i) => row.forEach((x, c) => {
      assert.ok(Number.isFinite(r.output[i][c]), `${what}: output ${i},${c} is ${r.output[i][c]}`);
      close(r.output[i][c], x, 1e-6 * Math.abs(x) + 1e-6, `${what}: o${i}${c}`);
    }));
  }
});

// Each bad input: exit status 2, a one-line message naming the problem, nothing on stdout.
const BAD = [
  [['softmax', '--scores'], /needs a value/],
  [['softmax', '--scores', ''], /finite number/],
  [['softmax', '--scores', '1,,2'], /finite number/],
  [['softmax', '--scores', '1,abc'], /finite number/],
  [['softmax', '--scores', 'nan'], /finite number/],
  [['softmax', '--scores', 'inf,1'], /finite number/],
  [['softmax', '--scores', '1e999'], /finite number/],
  [['softmax', '--scores', '1', '--divisor', '0'], /divisor/],
  [['softmax', '--scores', '1', '--divisor', '-1'], /divisor/],
  [['softmax', '--scores', '1', '--divisor', 'abc'], /divisor/],
  [['softmax', '--scores', '1', '--divisor', 'sqrt'], /needs --dk/],
  [['softmax', '--scores', '1', '--bogus', '1'], /unknown option/],
  [['softmax', '--scores', '1', '--scores', '2'], /twice/],
  [['variance'], /--dk is required/],
  [['variance', '--dk', '0'], /dk/],
  [['variance', '--dk', '-5'], /dk/],
  [['variance', '--dk', '2.5'], /dk/],
  [['variance', '--dk', '99999999999999999999999'], /dk/],
  [['variance', '--dk', '65537'], /dk/],
  [['variance', '--dk', '64', '--samples', '1'], /samples/],
  [['variance', '--dk', '64', '--samples', '10000001'], /samples/],
  [['variance', '--dk', '65536', '--samples', '10000'], /dk\*samples/],
  [['variance', '--dk', '64', '--rho', '1.5'], /rho/],
  [['variance', '--dk', '64', '--rho', 'nan'], /rho/],
  [['variance', '--dk', '64', '--sigma-q', '0'], /sigma_q/],
  [['variance', '--dk', '64', '--sigma-k', '-1'], /sigma_k/],
  [['variance', '--dk', '64', '--divisor', '0'], /divisor/],
  [['variance', '--dk', '64', '--seed', '-1'], /seed/],
  [['variance', '--dk', '64', '--bins', '0'], /bins/],
  [['attention'], /--input/],
  [['attention', '--input', '/nonexistent/file.json'], /cannot open/],
  [['nonsense'], /unknown command/],
  [[], /no command/],
];

test('bad arguments exit with status 2 and one line on stderr', () => {
  for (const [args, re] of BAD) {
    const r = run(args);
    assert.equal(r.signal, null, `${args.join(' ')}: killed by a signal`);
    assert.equal(r.status, 2, `${args.join(' ')}: status ${r.status}, stderr ${r.err}`);
    assert.equal(r.out, '', `${args.join(' ')}: printed to stdout`);
    const lines = r.err.trimEnd().split('\n');
    assert.equal(lines.length, 1, `${args.join(' ')}: ${r.err}`);
    assert.match(lines[0], re, args.join(' '));
  }
});

const BAD_FILES = [
  ['', /not valid JSON/],
  ['{"q":[[1', /not valid JSON/],
  ['[]', /JSON object/],
  ['{"k":[[1]],"v":[[1]]}', /missing "q"/],
  ['{"q":[],"k":[[1]],"v":[[1]]}', /non-empty/],
  ['{"q":[[]],"k":[[1]],"v":[[1]]}', /non-empty/],
  ['{"q":[1,2],"k":[[1]],"v":[[1]]}', /q\[0\]/],
  ['{"q":[[1,2],[3]],"k":[[1,2]],"v":[[1]]}', /q\[1\] has 1 numbers/],
  ['{"q":[[1,2]],"k":[[1]],"v":[[1]]}', /q rows have 2 numbers but k rows have 1/],
  ['{"q":[[1]],"k":[[1],[2]],"v":[[1]]}', /k has 2 rows but v has 1/],
  ['{"q":[["a"]],"k":[[1]],"v":[[1]]}', /q\[0\]\[0\] is not a number/],
  ['{"q":[[null]],"k":[[1]],"v":[[1]]}', /not a number/],
  ['{"q":[[1e39]],"k":[[1]],"v":[[1]]}', /float range/],
  ['{"q":[[1e400]],"k":[[1]],"v":[[1]]}', /float range|not valid JSON/],
  ['{"q":[[1]],"k":[[1]],"v":[[1]],"divisor":0}', /divisor/],
  ['{"q":[[1]],"k":[[1]],"v":[[1]],"divisor":-2}', /divisor/],
  ['{"q":[[1]],"k":[[1]],"v":[[1]],"divisor":"huge"}', /divisor/],
  ['{"q":[[1]],"k":[[1]],"v":[[1]],"divisor":[8]}', /divisor/],
];

test('malformed attention input exits with status 2 and says what is wrong', () => {
  for (const [text, re] of BAD_FILES) {
    const r = run(['attention', '--input', '-'], text);
    assert.equal(r.signal, null, text);
    assert.equal(r.status, 2, `${text}: status ${r.status} ${r.out} ${r.err}`);
    assert.equal(r.out, '');
    assert.equal(r.err.trimEnd().split('\n').length, 1, r.err);
    assert.match(r.err, re, text);
  }
});

test('an oversized input is refused: a file from its size, standard input at its 64 MiB + 1st byte', () => {
  // Valid JSON up to the limit (an unread member of numbers), so only the size can refuse it.
  const big = '{"notes":[' + '1,'.repeat(34 << 20) + '1],"q":[[1]],"k":[[1]],"v":[[1]]}';
  const r = run(['attention', '--input', '-'], big);
  assert.equal(r.status, 2);
  assert.equal(r.out, '');
  assert.equal(r.err, 'attnlab: input: larger than 64 MiB\n');
  const file = path.join(os.tmpdir(), `attn-big-${process.pid}.json`);
  fs.writeFileSync(file, big);
  try {
    const f = run(['attention', '--input', file]);
    assert.equal(f.status, 2);
    assert.equal(f.err, `attnlab: input: '${file}' is ${big.length} bytes, larger than 64 MiB\n`);
  } finally {
    fs.rmSync(file);
  }
});

test('--help prints usage and exits 0', () => {
  const r = run(['--help']);
  assert.equal(r.status, 0);
  assert.match(r.out, /usage: attnlab/);
});
