// Every shape refusal names the input and the shape expected for it (issue
// 32, class 3): q and k, logits and probs, each as .npy, a JSON array and a
// CSV file, of too few, too many and empty dimensions and of the wrong size.
// Before the fix a 1-D logits file was told the layout of q ("[n, d_k]"), and
// a JSON one "json: shape (5,)" without naming logits at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI } from './paths.mjs';
import { normals, npyBytes } from './check_cases.mjs';

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-shapes-'));
const file = (name, bytes) => {
  const p = path.join(TMP, name);
  fs.writeFileSync(p, bytes);
  return p;
};
const Q = file('q.npy', npyBytes(normals(3 * 64, 1), [3, 64]));
const K = file('k.npy', npyBytes(normals(5 * 64, 2), [5, 64]));

/** The file of `shape` in each text and binary format (null where the format cannot hold it). */
function files(stem, shape) {
  const n = shape.reduce((a, b) => a * b, 1);
  const values = normals(Math.max(n, 1), 3).slice(0, n).map((x) => Math.abs(x) / 10);
  const nest = (dims, off) => (dims.length === 0 ? values[off]
    : Array.from({ length: dims[0] }, (_, i) => nest(dims.slice(1), off + i * dims.slice(1).reduce((a, b) => a * b, 1))));
  const out = [[`${stem}.npy`, npyBytes(values, shape)]];
  if (n > 0) out.push([`${stem}.json`, JSON.stringify(nest(shape, 0))]);
  // CSV holds rows of values: two dimensions (a single line is one row, (1, n)).
  if (shape.length === 2 && n > 0)
    out.push([`${stem}.csv`, Array.from({ length: shape[0] }, (_, i) => values.slice(i * shape[1], (i + 1) * shape[1]).join(',')).join('\n') + '\n']);
  return out.map(([name, bytes]) => file(name, bytes));
}

function refusal(args) {
  const r = spawnSync(CLI, ['check', ...args], { encoding: 'utf8' });
  const what = args.map((a) => path.basename(a)).join(' ');
  assert.equal(r.status, 2, `${what}: status ${r.status} ${r.stdout.slice(0, 200)}`);
  assert.equal(r.stdout, '', what);
  assert.match(r.stderr, /^attnlab: [^\n]+\n$/, what);
  return r.stderr;
}

test('logits and probs of the wrong shape are told the shape q and k need, in every format', () => {
  let cases = 0;
  for (const kind of ['logits', 'probs'])
    for (const shape of [[15], [5], [3, 4], [5, 3], [2, 3, 5], [1, 1, 3, 5], [1, 3, 5, 1], [3, 5, 1, 1, 1]])
      for (const f of files(`${kind}-${shape.join('x')}`, shape)) {
        const msg = refusal([Q, K, `--${kind}`, f]);
        const what = `${kind} ${path.basename(f)}: ${msg}`;
        // Names the input, its shape, and what q [3, 64] and k [5, 64] need.
        assert.match(msg, new RegExp(`^attnlab: ${kind} has shape \\(${shape.join(', ')}${shape.length === 1 ? ',' : ''}\\), but q and k need \\(3, 5\\) or \\(1, 3, 5\\)`), what);
        assert.doesNotMatch(msg, /d_k\]/, what);
        cases++;
      }
  assert.ok(cases >= 30, `${cases} cases`);
  // With two heads the 3-D shape is the only one.
  const q2 = file('q2.npy', npyBytes(normals(2 * 3 * 8, 4), [2, 3, 8]));
  const k2 = file('k2.npy', npyBytes(normals(2 * 5 * 8, 5), [2, 5, 8]));
  for (const shape of [[15], [3, 5], [1, 3, 5]])
    for (const f of files(`two-${shape.join('x')}`, shape))
      assert.match(refusal([q2, k2, '--logits', f]), /^attnlab: logits has shape \([\d, ]+\), but q and k need \(2, 3, 5\)/, path.basename(f));
});

test('empty and nested-too-deep scores files name the input and its layout', () => {
  for (const kind of ['logits', 'probs']) {
    assert.match(refusal([Q, K, `--${kind}`, files(`${kind}-empty`, [0, 5])[0]]), new RegExp(`^attnlab: npy \\(${kind}\\): shape \\(0, 5\\) is empty`));
    const deep = file(`${kind}-deep.json`, `${'['.repeat(9)}0.5${']'.repeat(9)}`);
    assert.match(refusal([Q, K, `--${kind}`, deep]), new RegExp(`${kind}(\\[0\\]){8} is an array nested more than 8 deep: expected 2-D \\[n_q, n_k\\] or 3-D \\[heads, n_q, n_k\\]`));
  }
});

test('q and k of the wrong number of dimensions are named, with their own layout, in every format', () => {
  for (const [which, shape] of [['q', [64]], ['q', [1, 1, 3, 64]], ['k', [64]], ['k', [1, 1, 5, 64]]])
    for (const f of files(`${which}-${shape.join('x')}`, shape)) {
      const args = which === 'q' ? [f, K] : [Q, f];
      const msg = refusal(args);
      const fmt = path.extname(f).slice(1);
      assert.match(msg, new RegExp(`^attnlab: ${fmt} \\(${which}\\): shape \\(${shape.join(', ')}${shape.length === 1 ? ',' : ''}\\) has ${shape.length} dimensions?: expected 2-D \\[n, d_k\\] or 3-D \\[heads, n, d_k\\]`), `${path.basename(f)}: ${msg}`);
    }
});
