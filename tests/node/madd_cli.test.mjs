// The CLI's --madd separate|fused, which every command takes: a bad value,
// a missing one or a second --madd is one line on stderr, exit status 2 and
// nothing on stdout, for any command; separate is the default (the same
// output as without it); fused runs the fused twins and names them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI } from './paths.mjs';

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-madd-'));
const QK = path.join(TMP, 'qk.npz');
assert.equal(spawnSync(CLI, ['sample-qk', '--out', QK]).status, 0);
const run = (args) => spawnSync(CLI, args, { encoding: 'utf8', timeout: 120_000 });

const COMMANDS = [
  ['softmax', '--scores', '14,10,12'],
  ['variance', '--dk', '64', '--samples', '500'],
  ['saturation', '--dk', '64', '--n', '16', '--samples', '20'],
  ['train', '--dk', '16', '--steps', '3'],
  ['check', QK],
  ['presets'],
];

test('a bad, missing or repeated --madd: one line, exit 2, nothing on stdout, for every command', () => {
  for (const cmd of COMMANDS) {
    for (const [extra, want] of [
      [['--madd', 'fast'], "attnlab: --madd must be 'separate' or 'fused', got 'fast'"],
      [['--madd', 'FUSED'], "got 'FUSED'"],
      [['--madd', ''], "got ''"],
      [['--madd', 'fused\n'], "got 'fused\\n'"],
      [['--madd'], "option '--madd' needs a value"],
      [['--madd', 'fused', '--madd', 'separate'], "option '--madd' given twice"],
    ]) {
      const r = run([...cmd, ...extra]);
      const what = [...cmd, ...extra].join(' ');
      assert.equal(r.status, 2, what);
      assert.equal(r.stdout, '', what);
      assert.equal(r.stderr.split('\n').length, 2, `${what}: one line\n${r.stderr}`);
      assert.ok(r.stderr.includes(want), `${what}: ${r.stderr}`);
    }
  }
});

test('--madd separate is the default; fused runs and names the fused twins; it may come anywhere', () => {
  for (const cmd of COMMANDS) {
    const plain = run(cmd), separate = run([...cmd, '--madd', 'separate']);
    assert.equal(plain.status, 0, plain.stderr);
    // train reports its own run time: compare the rest.
    const strip = (s) => s.replace(/"seconds":[0-9.e+-]+/g, '').replace(/"steps_per_second":[0-9.e+-]+/g, '');
    assert.equal(strip(separate.stdout), strip(plain.stdout), `${cmd[0]}: separate is the default`);
    const fused = run([cmd[0], '--madd', 'fused', ...cmd.slice(1)]);  // before the command's own options
    assert.equal(fused.status, 0, fused.stderr);
  }
  const v = JSON.parse(run(['variance', '--dk', '64', '--samples', '500', '--madd', 'fused']).stdout);
  assert.equal(v.kernel, 'dot_f32__scalar_fma');
  const t = JSON.parse(run(['train', '--madd', 'fused', '--dk', '16', '--steps', '3']).stdout);
  assert.equal(JSON.stringify(t).includes('matmul_f32__scalar_fma'), true);
  assert.equal(JSON.parse(run(['variance', '--dk', '64', '--samples', '500']).stdout).kernel, 'dot_f32__scalar');
  // Between check's two files, and as another option's value it is that value.
  assert.equal(run(['check', QK, '--madd', 'fused']).status, 0);
  const asValue = run(['check', QK, '--q', '--madd']);
  assert.equal(asValue.status, 2);
  assert.doesNotMatch(asValue.stderr, /--madd must|needs a value/, 'the --q value, not the option');
});
