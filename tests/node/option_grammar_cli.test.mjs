// One grammar for options across commands (issue 31): an option two commands
// share takes the same values in both, refused with the same one-line message
// and exit status 2 (--softcap in saturation, train and sweep; --qk-clip in
// train and sweep), the range the help states; and one rule for --preset in
// the four commands that take it: an option given beside it wins over the
// preset's value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI } from './paths.mjs';

const run = (args) => spawnSync(CLI, args, { encoding: 'utf8', timeout: 60_000 });
function json(args) {
  const r = run(args);
  assert.equal(r.status, 0, `attnlab ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l));
}

// Each command at its cheapest, and where it echoes the cap it ran with.
const BASE = {
  saturation: { args: ['saturation', '--dk', '4', '--n', '4', '--samples', '2'], cap: (o) => o[0].softcap },
  train: { args: ['train', '--steps', '1', '--eval', '1', '--dk', '4', '--dmodel', '4', '--heads', '1', '--batch', '1'],
    cap: (o, name) => o[0].config[name] },
  sweep: { args: ['sweep', '--steps', '1', '--eval', '1', '--dks', '4', '--dmodel', '4', '--heads', '1', '--batch', '1',
    '--divisors', '1', '--optimizers', 'sgd'], cap: (o, name) => o[0][name] },
};
const VALUES = ['0.5e-3', '1e-3', '0.001', '1e4', '10000', '1.1e4', '10000.5', '1e-30', '1e12', '0', '-0', '-50', 'abc', 'nan', 'inf', '', '0x10'];

test('--softcap and --qk-clip: every command that takes one gives the same answer for the same value', () => {
  for (const [option, commands] of [['--softcap', ['saturation', 'train', 'sweep']], ['--qk-clip', ['train', 'sweep']]]) {
    const field = option === '--softcap' ? 'softcap' : 'qk_clip';
    for (const v of VALUES) {
      const answers = commands.map((c) => {
        const r = run([...BASE[c].args, option, v]);
        if (r.status === 0) return { accepted: true, echoed: BASE[c].cap(r.stdout.trim().split('\n').map((l) => JSON.parse(l)), field) };
        assert.equal(r.stdout, '', `${c} ${option} '${v}'`);
        assert.match(r.stderr, /^attnlab: [^\n]+\n$/, `${c} ${option} '${v}': one line`);
        return { status: r.status, message: r.stderr };
      });
      for (let i = 1; i < commands.length; i++)
        assert.deepEqual(answers[i], answers[0], `${option} '${v}': ${commands[i]} answers as ${commands[0]} does`);
      const n = Number(v);
      const inRange = v !== '' && n >= 1e-3 && n <= 1e4;  // '0x10' is not the number grammar's
      if (inRange && v !== '0x10') assert.deepEqual(answers[0], { accepted: true, echoed: n }, `${option} ${v}`);
      else assert.equal(answers[0].status, 2, `${option} '${v}' refused`);
      if (!answers[0].accepted && Number.isFinite(n) && v !== '' && v !== '0x10')
        assert.equal(answers[0].message, `attnlab: ${option} must be a number in [0.001, 10000], got ${v}\n`);
    }
  }
});

/** The range `attnlab help COMMAND` states for --name. */
function statedRange(command, name) {
  const out = run(['help', command]).stdout;
  const m = out.match(new RegExp(`^ {2}--${name} \\S+\\n(?: {6}.+\\n)*? {6}\\w+, (.+?); default:`, 'm'));
  assert.ok(m, `help ${command} lists --${name} with a range`);
  return m[1];
}

test('the help states one range for --softcap and --qk-clip, the one the parser holds', () => {
  for (const c of ['saturation', 'train', 'sweep']) assert.equal(statedRange(c, 'softcap'), '[0.001, 10000]', c);
  for (const c of ['train', 'sweep']) assert.equal(statedRange(c, 'qk-clip'), '[0.001, 10000]', c);
  assert.equal(fs.readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8').match(/--softcap C` \| [^|]+ \| number, ([^|]+) \|/g).length, 3);
});

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-grammar-'));
const QK = path.join(TMP, 'qk.npz');  // 4 heads of 64 rows, d_k 64 (sample-qk's defaults)
assert.equal(run(['sample-qk', '--out', QK]).status, 0);

test('--preset: the same rule in saturation, train, sweep and check, stated in each one\'s help', () => {
  for (const c of ['saturation', 'train', 'sweep', 'check'])
    assert.match(run(['help', c]).stdout.replace(/\n {6}/g, ' '), /--preset NAME .*an option given beside it wins over the preset's value/, c);
  // gemma2-27b: d_k 128, divisor 12, soft-cap 50. Each option beside it wins; the preset's other values stay.
  const sat = json(['saturation', '--preset', 'gemma2-27b', '--n', '8', '--samples', '2', '--dk', '16', '--softcap', '7'])[0];
  assert.deepEqual([sat.dk, sat.divisor, sat.softcap, sat.preset], [16, 12, 7, 'gemma2-27b']);
  const tr = json(['train', '--steps', '1', '--eval', '1', '--dmodel', '4', '--heads', '1', '--batch', '1',
    '--preset', 'gemma2-27b', '--dk', '4', '--divisor', '2'])[0];
  assert.deepEqual([tr.config.dk, tr.config.divisor, tr.config.softcap, tr.config.preset], [4, '2', 50, 'gemma2-27b']);
  const sw = json(['sweep', '--steps', '1', '--eval', '1', '--dmodel', '4', '--heads', '1', '--batch', '1', '--optimizers', 'sgd',
    '--preset', 'gemma2-27b', '--dks', '4', '--softcap', '9'])[0];
  assert.deepEqual([sw.dk, sw.divisor, sw.softcap, sw.preset], [4, '12', 9, 'gemma2-27b']);
  const ch = json(['check', QK, '--preset', 'gpt2', '--divisor', '4'])[0];
  assert.deepEqual([ch.divisor.value, ch.divisor.source, ch.preset], [4, 'given', 'gpt2']);
  // A bad value beside a preset is refused as it is without one: the same line.
  for (const [withPreset, without] of [
    [['saturation', '--preset', 'gpt2', '--n', '8', '--softcap', '0'], ['saturation', '--dk', '64', '--n', '8', '--softcap', '0']],
    [['saturation', '--preset', 'gpt2', '--n', '8', '--dk', '0'], ['saturation', '--dk', '0', '--n', '8']],
    [[...BASE.train.args, '--preset', 'gpt2', '--softcap', '1e5'], [...BASE.train.args, '--softcap', '1e5']],
    [[...BASE.sweep.args, '--preset', 'gpt2', '--softcap', '1e5'], [...BASE.sweep.args, '--softcap', '1e5']],
    [['check', QK, '--preset', 'gpt2', '--divisor', '0'], ['check', QK, '--divisor', '0']],
  ]) {
    const a = run(withPreset), b = run(without);
    assert.equal(a.status, 2, withPreset.join(' '));
    assert.deepEqual([a.status, a.stdout, a.stderr], [b.status, b.stdout, b.stderr], withPreset.join(' '));
  }
});
