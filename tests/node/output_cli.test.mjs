// Lost output is a failure (issue 14, class 4): every command with stdout on
// /dev/full or closed, and sample-qk's --out on a device, a bad path or a
// file that cannot grow, exits 1 with one line on stderr and leaves no
// partial file behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI } from './paths.mjs';

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-output-'));
const INPUT = path.join(TMP, 'in.json');
fs.writeFileSync(INPUT, JSON.stringify({ q: [[1, 2]], k: [[1, 0], [0, 1]], v: [[1], [2]] }));
const QK = path.join(TMP, 'qk.npz');
assert.equal(spawnSync(CLI, ['sample-qk', '--out', QK]).status, 0);

// One command of each kind, with small sizes; train's JSON holds more than
// the 64 KiB stdout buffer, so its first failed write comes before the flush.
const COMMANDS = [
  ['softmax', '--scores', '14,10,12'],
  ['variance', '--dk', '8', '--samples', '100'],
  ['attention', '--input', INPUT],
  ['train', '--dk', '4', '--heads', '1', '--steps', '400', '--log-every', '1', '--eval', '8'],
  ['train', '--dk', '4', '--heads', '1', '--steps', '3', '--eval', '8', '--format', 'csv'],
  ['sweep', '--dks', '4', '--divisors', '1,2', '--optimizers', 'sgd', '--steps', '2', '--eval', '8'],
  ['sweep', '--dks', '4', '--divisors', '1', '--optimizers', 'sgd', '--steps', '2', '--eval', '8', '--format', 'csv'],
  ['check', QK],
  ['sample-qk', '--out', path.join(TMP, 'again.npz')],
  ['--help'],
];

function failsWithOneLine(r, re, what) {
  assert.equal(r.signal, null, `${what}: killed by ${r.signal}`);
  assert.equal(r.status, 1, `${what}: status ${r.status}, stderr ${r.stderr}`);
  const lines = r.stderr.toString().trimEnd().split('\n');
  assert.equal(lines.length, 1, `${what}: ${r.stderr}`);
  assert.match(lines[0], re, what);
}

test('every command with stdout on /dev/full exits 1 and says so', () => {
  const full = fs.openSync('/dev/full', 'w');
  try {
    for (const args of COMMANDS) {
      const r = spawnSync(CLI, args, { stdio: ['ignore', full, 'pipe'], timeout: 60_000 });
      failsWithOneLine(r, /^attnlab: cannot write standard output: No space left on device$/, args.join(' '));
    }
  } finally {
    fs.closeSync(full);
  }
});

test('every command with stdout closed exits 1 before it runs', () => {
  fs.rmSync(path.join(TMP, 'again.npz'), { force: true });
  for (const args of COMMANDS) {
    const r = spawnSync('sh', ['-c', '"$0" "$@" >&-', CLI, ...args], { timeout: 60_000 });
    failsWithOneLine(r, /^attnlab: cannot write standard output: it is closed$/, args.join(' '));
  }
  // sample-qk wrote nothing: the check comes before the work.
  assert.ok(!fs.existsSync(path.join(TMP, 'again.npz')));
});

test('the same commands on a working stdout exit 0 (the checks do not misfire)', () => {
  for (const args of COMMANDS) {
    const r = spawnSync(CLI, args, { timeout: 60_000 });
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stderr.toString(), '');
  }
  // A closed stdin or stderr is not an error: /dev/null stands in for it.
  const r = spawnSync('sh', ['-c', '"$0" "$@" <&- 2>&-', CLI, 'softmax', '--scores', '1,2'], { encoding: 'utf8' });
  assert.equal(r.status, 0);
  assert.equal(JSON.parse(r.stdout).probs.length, 2);
});

test('sample-qk --out that cannot be written: exit 1, no JSON, no file left behind', () => {
  const cases = [
    ['/dev/full', /^attnlab: cannot write '\/dev\/full': No space left on device$/],
    [path.join(TMP, 'missing', 'x.npz'), /cannot write '.*missing\/x\.npz': No such file or directory$/],
    [TMP, /cannot write '.*': it is a directory$/],
    [path.join(QK, 'x.npz'), /: Not a directory$/],
  ];
  for (const source of [[], ['--source', 'lab', '--kind', 'learned', '--steps', '1']]) {
    for (const [out, re] of cases) {
      const before = fs.readdirSync(TMP).sort();
      const r = spawnSync(CLI, ['sample-qk', ...source, '--out', out], { encoding: 'utf8' });
      failsWithOneLine(r, re, `${source.join(' ')} --out ${out}`);
      assert.equal(r.stdout, '', 'no report of bytes that were not written');
      assert.deepEqual(fs.readdirSync(TMP).sort(), before, 'no temporary file left');
    }
  }
  assert.ok(fs.statSync('/dev/full').isCharacterDevice(), '/dev/full is still the device');
});

test('a write that fails half-way leaves the old file whole and no temporary file', () => {
  // RLIMIT_FSIZE of 1 KiB: the 131 kB archive's write fails with EFBIG
  // (SIGXFSZ ignored), as a full disk would fail it.
  const out = path.join(TMP, 'keep.npz');
  fs.copyFileSync(QK, out);
  const old = fs.readFileSync(out);
  const before = fs.readdirSync(TMP).sort();
  for (const args of [['--kind', 'saturated'], ['--kind', 'learned', '--n', '512']]) {
    const r = spawnSync('sh', ['-c', 'trap "" XFSZ; ulimit -f 1; exec "$0" "$@"', CLI, 'sample-qk', ...args, '--out', out],
      { encoding: 'utf8' });
    failsWithOneLine(r, /^attnlab: cannot write '.*keep\.npz': File too large$/, args.join(' '));
    assert.deepEqual(fs.readFileSync(out), old, 'the old file is untouched');
    assert.deepEqual(fs.readdirSync(TMP).sort(), before, 'no temporary file left');
  }
  // Through a symlink, a successful run replaces the file the link names.
  const link = path.join(TMP, 'link.npz');
  fs.symlinkSync(out, link);
  assert.equal(spawnSync(CLI, ['sample-qk', '--kind', 'learned', '--out', link]).status, 0);
  assert.ok(fs.lstatSync(link).isSymbolicLink());
  assert.notDeepEqual(fs.readFileSync(out), old);
});
