// Help that matches the code (issue 31): `attnlab help`, `help COMMAND`,
// `COMMAND --help` and `-h`, `--version`; on stdout, exit 0. The help is
// written from the table the parser takes its option names from
// (cpp/cli/help.cpp), so here: every option help names is taken, every
// integer range it states is the parser's (the value past each end refused,
// naming the option), and docs/cli.md is `attnlab help --markdown`. Also the
// command line's work limit: the default configuration and our PyTorch
// reference's start, where the lab's limit refused them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI, ROOT } from './paths.mjs';

const run = (args) => spawnSync(CLI, args, { encoding: 'utf8', timeout: 60_000 });
const COMMANDS = ['softmax', 'variance', 'attention', 'check', 'sample-qk', 'saturation', 'presets', 'train', 'sweep', 'merge'];

/** The options `attnlab help COMMAND` lists: [{name, meta, type, range, def}]. */
function options(command) {
  const out = run(['help', command]).stdout;
  const list = [];
  const re = /^ {2}--(\S+) (.+)\n {6}.+\n {6}(\w+)(?:, (.+?))?; default: (.+)$/gm;
  for (let m; (m = re.exec(out));) list.push({ name: m[1], meta: m[2], type: m[3], range: m[4] ?? '', def: m[5] });
  return list;
}

test('help, help COMMAND, COMMAND --help and -h, --version: stdout, exit 0', () => {
  const general = run(['help']);
  assert.equal(general.status, 0);
  assert.equal(general.stderr, '');
  for (const c of COMMANDS) assert.match(general.stdout, new RegExp(`^  ${c}\\b`, 'm'), c);
  for (const alias of [['--help'], ['-h']]) assert.equal(run(alias).stdout, general.stdout);
  for (const c of COMMANDS) {
    const h = run(['help', c]);
    assert.equal(h.status, 0, c);
    assert.match(h.stdout, new RegExp(`^usage: attnlab ${c}`), c);
    for (const form of [[c, '--help'], [c, '-h'], [c, '--dk', '4', '--help']]) {
      const r = run(form);
      assert.equal(r.status, 0, form.join(' '));
      assert.equal(r.stdout, h.stdout, form.join(' '));
    }
  }
  const v = run(['--version']);
  assert.equal(v.status, 0);
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'web/package.json'), 'utf8'));
  assert.match(v.stdout, new RegExp(`^attnlab ${pkg.version.replace(/\./g, '\\.')}\\nbuild: .+\\nkernels: dot_f32__\\w+, matmul_f32__\\w+\\nmultiply-add: separate`));
  // Mistakes: one line on stderr, exit 2.
  for (const bad of [['help', 'nope'], ['help', 'train', 'sweep'], ['--version', 'x'], ['nope']]) {
    const r = run(bad);
    assert.equal(r.status, 2, bad.join(' '));
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^attnlab: [^\n]+\(try attnlab help\)\n$|^attnlab: --version takes no arguments\n$/, bad.join(' '));
  }
});

// The arguments each command needs besides the option under test.
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-help-'));
const INPUT = path.join(TMP, 'in.json');
fs.writeFileSync(INPUT, JSON.stringify({ q: [[1, 2]], k: [[1, 0], [0, 1]], v: [[1], [2]] }));
const QK = path.join(TMP, 'qk.npz');
assert.equal(run(['sample-qk', '--out', QK]).status, 0);
const BASE = {
  softmax: ['--scores', '1,2', '--divisor', 'sqrt', '--dk', '4'], variance: ['--dk', '4', '--samples', '2'], attention: ['--input', INPUT],
  check: [QK], 'sample-qk': ['--out', '/nonexistent-dir/x.npz'], saturation: ['--dk', '4', '--n', '4', '--samples', '2'],
  presets: [], train: ['--steps', '1', '--eval', '1', '--dk', '4', '--dmodel', '4', '--heads', '1'],
  sweep: ['--steps', '1', '--eval', '1', '--dks', '4', '--dmodel', '4', '--heads', '1', '--divisors', '1', '--optimizers', 'sgd'],
  merge: [],
};

// An option that needs another one beside it.
const WITH = { 'sample-qk --steps': ['--source', 'lab', '--kind', 'learned'] };

test('every option help lists is taken, and every integer range it states is the parser\'s', () => {
  let checked = 0;
  for (const c of COMMANDS) {
    const opts = options(c);
    const names = opts.map((o) => o.name);
    // An option help does not list is refused as unknown; every listed one is known.
    const unknown = run([c, ...BASE[c], '--no-such-option', '1']);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /unknown option '--no-such-option'/, c);
    for (const n of names) {
      const r = run([c, ...BASE[c].filter((_, i, a) => a[i] !== `--${n}` && a[i - 1] !== `--${n}`), `--${n}`]);
      assert.doesNotMatch(r.stderr, /unknown option/, `${c} --${n}`);
    }
    for (const o of opts) {
      const m = o.type === 'integer' && o.range.match(/^(\d+) \.\. (\d+)$/);
      if (!m) continue;
      const [lo, hi] = [BigInt(m[1]), BigInt(m[2])];
      const base = [...BASE[c].filter((_, i, a) => a[i] !== `--${o.name}` && a[i - 1] !== `--${o.name}`), ...(WITH[`${c} --${o.name}`] ?? [])];
      for (const v of [hi + 1n, ...(lo > 0n ? [lo - 1n] : [])]) {
        const r = run([c, ...base, `--${o.name}`, String(v)]);
        assert.equal(r.status, 2, `${c} --${o.name} ${v}`);
        assert.match(r.stderr, new RegExp(`--${o.name} must be an integer in \\[${lo}, ${hi}\\], got ${v}`), `${c} --${o.name} ${v}: ${r.stderr}`);
        checked++;
      }
    }
  }
  assert.ok(checked >= 40, `${checked} range edges checked`);
});

test('docs/cli.md is `attnlab help --markdown`', () => {
  const r = run(['help', '--markdown']);
  assert.equal(r.status, 0);
  assert.equal(fs.readFileSync(path.join(ROOT, 'docs/cli.md'), 'utf8'), r.stdout,
    'docs/cli.md differs from the option table: build/native/bin/attnlab help --markdown > docs/cli.md');
});

/** Starts `args` with --progress and resolves once its first progress line shows it running (a second in); then stops it. */
function starts(args) {
  return new Promise((resolve) => {
    const p = spawn(CLI, [...args, '--progress']);
    let err = '';
    p.stdout.resume();
    p.stderr.on('data', (d) => {
      err += d;
      if (/^attnlab: \[[^\n]*\n/m.test(err)) p.kill();  // the whole line: stderr may come in pieces
    });
    p.on('close', (code, signal) => resolve({ code, signal, err }));
  });
}

test('the command line runs what can finish: the default 3000-step run and the PyTorch reference start', async () => {
  // Running past its first second (a progress line), not refused at the start as the lab's limit did.
  for (const args of [['train', '--steps', '3000'], ['train', '--dk', '256', '--dmodel', '512', '--dv', '256', '--init', 'xavier', '--lr', '1e-3', '--steps', '400']]) {
    const r = await starts(args);
    // On a busy machine the run's estimate (more than a minute) may come first: the bar is any line.
    assert.match(r.err, /^attnlab: \[[# ]+\] \d+\/\d+ steps/m, args.join(' '));
    assert.equal(r.signal, 'SIGTERM', `${args.join(' ')}: ${r.code} ${r.err}`);
  }
});
