// Limits before allocation (issue 14, class 2): `attnlab attention` checks
// every shape as it reads the input and the outputs' sizes before they exist,
// so inputs that break a limit are refused with the limit's message inside a
// 256 MiB address space (ulimit -v). Before, the 147 kB input took
// 1.03 GB and ran out of memory here; nested brackets in an unread member
// crashed the DOM parser; sample-qk wrote files check refuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI } from './paths.mjs';

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-limits-'));
const LIMIT_KB = 256 * 1024;

function runLimited(args, file, text) {
  fs.writeFileSync(file, text);
  const r = spawnSync('sh', ['-c', `ulimit -v ${LIMIT_KB}; exec "$0" "$@"`, CLI, ...args],
    { encoding: 'utf8', timeout: 120_000, maxBuffer: 1 << 26 });
  return { status: r.status, signal: r.signal, out: r.stdout, err: r.stderr };
}

const rows = (count, width, x = 0) => Array.from({ length: count }, () => new Array(width).fill(x));
const nested = (depth) => '['.repeat(depth) + ']'.repeat(depth);

// [what, input text, the message]
const REFUSED = [
  ['the issue\'s case: n x dv = 4096 x 65536 of output from 147 kB',
    JSON.stringify({ q: rows(4096, 1), k: [[0]], v: [new Array(65536).fill(0)] }), 'n*dv must be at most 16777216, got 4096 * 65536'],
  ['n x m above 2^24 needs n, m <= 4096: 4097 query rows',
    JSON.stringify({ q: rows(4097, 16), k: [[0]], v: [[0]] }), 'input: "q" has more than 4096 rows, the limit of n'],
  ['one row longer than d_k allows',
    JSON.stringify({ q: [[0]], k: [new Array(65537).fill(0)], v: [[0]] }), 'input: k[0] has more than 65536 numbers, the limit of dk'],
  ['v of 257 rows of 65536 (m*dv above 2^24), 34 MB',
    JSON.stringify({ q: [[0]], k: rows(257, 1), v: rows(257, 65536) }), 'input: "v" holds more than 16777216 numbers, the limit of m*dv (257 rows of 65536)'],
  ['q x dk above 2^24 with every size legal',
    JSON.stringify({ q: rows(4096, 4097), k: [[0]], v: [[0]] }), 'input: "q" holds more than 16777216 numbers, the limit of n*dk (4096 rows of 4097)'],
  ['16 MiB of nested brackets in q', `{"q":${nested(16 << 20)}}`, 'input: q[0][0] is not a number (it is an array)'],
];

test('attention: each shape past a limit is refused with its message, in 256 MiB', () => {
  for (const [what, text, message] of REFUSED) {
    const r = runLimited(['attention', '--input', path.join(TMP, 'in.json')], path.join(TMP, 'in.json'), text);
    assert.equal(r.signal, null, `${what}: ${r.signal}`);
    assert.equal(r.status, 2, `${what}: ${r.err}`);
    assert.equal(r.out, '');
    assert.equal(r.err, `attnlab: ${message}\n`, what);
  }
});

test('attention: big legal inputs still run in 256 MiB; unread members are skipped, however deep', () => {
  const deep = runLimited(['attention', '--input', path.join(TMP, 'deep.json')], path.join(TMP, 'deep.json'),
    `{"notes":${nested(16 << 20)},"q":[[1]],"k":[[1],[2]],"v":[[3],[5]],"divisor":1}`);
  assert.equal(deep.status, 0, deep.err);
  assert.equal(JSON.parse(deep.out).output.length, 1);
  const wide = runLimited(['attention', '--input', path.join(TMP, 'wide.json')], path.join(TMP, 'wide.json'),
    JSON.stringify({ q: rows(2, 65536), k: rows(256, 65536), v: rows(256, 2, 1) }));  // 34 MB
  assert.equal(wide.status, 0, wide.err);
  const w = JSON.parse(wide.out);
  assert.equal(w.weights[0].length, 256);
  assert.equal(w.weights[1][255], 1 / 256);
  assert.equal(w.output[1][1], 1);
});

test('sample-qk: a tensor larger than check reads is refused before it is made, no file left', () => {
  const out = path.join(TMP, 'huge.npz');
  for (const [heads, n, dk] of [[64, 1024, 1024], [5, 1024, 1024], [8, 1024, 513]]) {
    const r = runLimited(['sample-qk', '--heads', `${heads}`, '--n', `${n}`, '--dk', `${dk}`, '--out', out], path.join(TMP, 'x'), '');
    assert.equal(r.status, 2, r.err);
    assert.equal(r.err, `attnlab: heads*n*dk must be at most 4194304 (the values check reads), got ${heads}*${n}*${dk}\n`);
    assert.ok(!fs.existsSync(out));
  }
  const ok = runLimited(['sample-qk', '--heads', '4', '--n', '1024', '--dk', '1024', '--out', out], path.join(TMP, 'x'), '');
  assert.equal(ok.status, 0, ok.err);
  assert.equal(JSON.parse(ok.out).shape.join('x'), '4x1024x1024');
});
