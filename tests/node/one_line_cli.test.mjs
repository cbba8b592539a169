// One stderr line (issue 14, class 7): a value echoed in a message is
// escaped, so a newline, a carriage return or a terminal escape in any
// option, file name or file content never makes a second line or reaches
// the terminal raw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI } from './paths.mjs';

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-one-line-'));
const QK = path.join(TMP, 'qk.npz');
assert.equal(spawnSync(CLI, ['sample-qk', '--out', QK]).status, 0);
const NL_FILE = path.join(TMP, 'bad\nname.json');
fs.writeFileSync(NL_FILE, JSON.stringify({ q: [[1]], k: [[1]], v: [[1]], divisor: 'sq\nrt' }));

// [argv, stdin, exit status, the text the one line must hold]
const CASES = [
  [['softmax', '--scores', '1\n2'], null, 2, "--scores must be a finite number, got '1\\n2'"],
  [['softmax', '--scores', '1', '--divisor', '8\r\n'], null, 2, "got '8\\r\\n'"],
  [['variance', '--dk', '6\n4'], null, 2, "--dk must be an integer in [1, 65536], got '6\\n4'"],
  [['variance', '--dk', '4', '--rho', '0.5\n'], null, 2, "--rho must be a finite number, got '0.5\\n'"],
  [['variance', '--dk', '4', '--divisor', '\x1b[2Jdk'], null, 2, "got '\\x1b[2Jdk'"],
  [['train', '--optimizer', 'adam\nsgd'], null, 2, "optimizer must be 'adam' or 'sgd', got 'adam\\nsgd'"],
  [['train', '--task', 'copy\u2028'], null, 2, "task must be 'recall' or 'copy', got 'copy\\u2028'"],
  [['train', '--init', '\tlecun'], null, 2, "got '\\tlecun'"],
  [['train', '--divisor', 'qk\nnorm'], null, 2, "got 'qk\\nnorm'"],
  [['train', '--format', 'csv\n'], null, 2, "--format must be 'json' or 'csv', got 'csv\\n'"],
  [['train', '--lr', '\n1e9'], null, 2, "--lr must be a finite number, got '\\n1e9'"],
  [['sweep', '--dks', '64,\n'], null, 2, "--dks must be an integer in [1, 1024], got '\\n'"],
  [['sweep', '--divisors', 'sqrt,,1\n'], null, 2, "--divisors has an empty item in 'sqrt,,1\\n'"],
  [['check', QK, '--format', 'np\nz'], null, 2, "got 'np\\nz'"],
  [['check', QK, '--q', 'q\nx'], null, 2, "got 'q\\nx'"],
  [['check', path.join(TMP, 'no\nsuch.npz')], null, 2, "cannot open '" + TMP + "/no\\nsuch.npz'"],
  [['sample-qk', '--kind', 'init\n', '--out', path.join(TMP, 'x.npz')], null, 2, "got 'init\\n'"],
  [['sample-qk', '--source', 'lab\n', '--out', path.join(TMP, 'x.npz')], null, 2, "got 'lab\\n'"],
  [['sample-qk', '--out', path.join(TMP, 'no\ndir', 'x.npz')], null, 1, "cannot write '" + TMP + "/no\\ndir/x.npz'"],
  [['attention', '--input', NL_FILE], null, 2, "got 'sq\\nrt'"],
  [['attention', '--input', path.join(TMP, 'gone\n.json')], null, 2, "cannot open '" + TMP + "/gone\\n.json'"],
  [['attention', '--input', '-'], '{"q":[[1]],"k":[[1]],"v":[[1]],"divisor":"8\\u2029"}', 2, "got '8\\u2029'"],
  [['soft\nmax'], null, 2, "unknown command 'soft\\nmax'"],
  [['softmax', '--sc\rores', '1'], null, 2, "unknown option '--sc\\rores'"],
  [['softmax', 'stray\n'], null, 2, "unexpected argument 'stray\\n'"],
];

test('every echoed value is escaped: one line on stderr, the right status', () => {
  assert.ok(CASES.length >= 20);
  for (const [args, input, status, text] of CASES) {
    const what = JSON.stringify(args);
    const r = spawnSync(CLI, args, { input: input ?? undefined, encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.signal, null, what);
    assert.equal(r.status, status, `${what}: ${r.stderr}`);
    assert.equal(r.stdout, '', what);
    assert.ok(r.stderr.endsWith('\n'), what);
    const line = r.stderr.slice(0, -1);
    assert.ok(!/[\n\r\x00-\x1f\x7f\u0085\u2028\u2029]/.test(line), `${what}: a control character in ${JSON.stringify(line)}`);
    assert.ok(line.startsWith('attnlab: '), what);
    assert.ok(line.includes(text), `${what}: expected ${JSON.stringify(text)} in ${JSON.stringify(line)}`);
  }
});

test('a long value is cut in the message, not echoed whole', () => {
  const r = spawnSync(CLI, ['softmax', '--scores', 'x'.repeat(100_000)], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.ok(r.stderr.length < 300, `${r.stderr.length} bytes`);
  assert.match(r.stderr, /got 'x{100}\.\.\.'\n$/);
});
