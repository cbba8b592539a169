// --out FILE on every command that prints a result (issue 31): the bytes
// stdout would get, written under a temporary name and renamed into place only
// when the command succeeds; a failed or refused run leaves the old file (or
// none) and no temporary file; a device is written in place, its errors exit 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI } from './paths.mjs';

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-out-'));
const run = (args) => spawnSync(CLI, args, { encoding: 'utf8', timeout: 60_000 });
const INPUT = path.join(TMP, 'in.json');
fs.writeFileSync(INPUT, JSON.stringify({ q: [[1, 2]], k: [[1, 0], [0, 1]], v: [[1], [2]] }));
const QK = path.join(TMP, 'qk.npz');
assert.equal(run(['sample-qk', '--out', QK]).status, 0);
const TIMING = /"seconds":[^,}]+|"steps_per_second":[^,}]+|^(seconds|steps_per_second),.*$/gm;

const COMMANDS = [
  ['softmax', '--scores', '14,10,12'],
  ['variance', '--dk', '8', '--samples', '100'],
  ['attention', '--input', INPUT],
  ['check', QK],
  ['saturation', '--dk', '16', '--n', '8', '--samples', '20'],
  ['presets'],
  ['train', '--dk', '4', '--heads', '1', '--steps', '3', '--eval', '8'],
  ['train', '--dk', '4', '--heads', '1', '--steps', '3', '--eval', '8', '--format', 'csv'],
  ['sweep', '--dks', '4', '--divisors', '1,2', '--optimizers', 'sgd', '--steps', '2', '--eval', '8'],
];

test('every command writes to --out FILE what it prints on stdout, and nothing on stdout', () => {
  for (const [i, args] of COMMANDS.entries()) {
    const file = path.join(TMP, `out-${i}.txt`);
    const plain = run(args);
    const to = run([...args, '--out', file]);
    assert.equal(to.status, 0, `${args.join(' ')}: ${to.stderr}`);
    assert.equal(to.stdout, '', args.join(' '));
    assert.equal(fs.readFileSync(file, 'utf8').replace(TIMING, ''), plain.stdout.replace(TIMING, ''), args.join(' '));
  }
  assert.deepEqual(fs.readdirSync(TMP).filter((f) => f.startsWith('.')), [], 'no temporary file left');
});

test('a refused or failed run leaves the old file whole and no temporary file; a device\'s error exits 1', () => {
  const file = path.join(TMP, 'keep.json');
  fs.writeFileSync(file, 'the old contents\n');
  for (const bad of [['softmax', '--scores', '1,x'], ['variance', '--dk', '0'], ['check', path.join(TMP, 'missing.npz')],
    ['train', '--dk', '0'], ['sweep', '--jobs', '0']]) {
    const r = run([...bad, '--out', file]);
    assert.equal(r.status, 2, bad.join(' '));
    assert.equal(fs.readFileSync(file, 'utf8'), 'the old contents\n', bad.join(' '));
  }
  assert.deepEqual(fs.readdirSync(TMP).filter((f) => f.startsWith('.')), []);
  const full = run(['softmax', '--scores', '1,2', '--out', '/dev/full']);
  assert.equal(full.status, 1);
  assert.equal(full.stderr, "attnlab: cannot write '/dev/full': No space left on device\n");
  for (const [args, msg] of [[['--out'], "option '--out' needs a file name"], [['--out', ''], "option '--out' needs a file name"],
    [['--out', 'a', '--out', 'b'], "option '--out' given twice"]]) {
    const r = run(['softmax', '--scores', '1,2', ...args]);
    assert.equal(r.status, 2);
    assert.equal(r.stderr, `attnlab: ${msg}\n`);
  }
  const nodir = run(['softmax', '--scores', '1,2', '--out', path.join(TMP, 'no-such-dir', 'x.json')]);
  assert.equal(nodir.status, 1);
  assert.match(nodir.stderr, /^attnlab: cannot write '.*no-such-dir\/x\.json': No such file or directory\n$/);
});

test('the flags --progress and --quiet, before or after --out and --madd, take no value and are no value', () => {
  // Each command with long work, its flag in every place among --out FILE and --madd fused.
  const LONG = [
    ['variance', '--dk', '8', '--samples', '100'],
    ['check', QK],
    ['saturation', '--dk', '16', '--n', '8', '--samples', '20'],
    ['train', '--dk', '4', '--heads', '1', '--steps', '3', '--eval', '8', '--format', 'csv'],
    ['sweep', '--dks', '4', '--divisors', '1', '--optimizers', 'sgd', '--steps', '2', '--eval', '8'],
  ];
  for (const args of LONG) {
    const plain = run([...args, '--madd', 'fused']);
    assert.equal(plain.status, 0, `${args.join(' ')}: ${plain.stderr}`);
    for (const flag of ['--quiet', '--progress']) {
      for (const order of [[flag, '--out', 'F', '--madd', 'fused'], ['--out', 'F', flag, '--madd', 'fused'], ['--madd', 'fused', flag, '--out', 'F'],
        [flag, '--madd', 'fused', '--out', 'F']]) {
        const file = path.join(TMP, 'flag.txt');
        fs.rmSync(file, { force: true });
        const r = run([...args, ...order.map((a) => (a === 'F' ? file : a))]);
        const what = `${args[0]} ${order.join(' ')}`;
        assert.equal(r.status, 0, `${what}: ${r.stderr}`);
        assert.equal(r.stdout, '', what);
        assert.equal(fs.readFileSync(file, 'utf8').replace(TIMING, ''), plain.stdout.replace(TIMING, ''), what);
      }
    }
  }
  // A flag is never an option's value: one line, exit 2, and no file named after the flag.
  for (const [args, msg] of [[['--out', '--quiet'], "option '--out' needs a file name"], [['--madd', '--progress'], "option '--madd' needs a value"],
    [['--seed', '--quiet'], "option '--seed' needs a value"]]) {
    const r = spawnSync(CLI, ['train', '--steps', '2', '--eval', '8', ...args], { encoding: 'utf8', cwd: TMP });
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stderr, `attnlab: ${msg}\n`, args.join(' '));
    assert.ok(!fs.existsSync(path.join(TMP, args[1])), `no file ${args[1]}`);
  }
});
