// Issue 31: progress on stderr (never stdout) for long work, and sweep --jobs N
// with the same rows as --jobs 1. Not a timing test: what is checked is where
// the lines go and that the bytes agree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI } from './paths.mjs';

const run = (args) => spawnSync(CLI, args, { encoding: 'utf8', timeout: 120_000 });
const SWEEP = ['sweep', '--dks', '16,32', '--divisors', 'sqrt,1', '--optimizers', 'adam,sgd', '--steps', '40', '--eval', '64',
  '--heads', '1', '--dmodel', '16'];

test('sweep --jobs N: the rows of --jobs 1, in the grid\'s order, in JSON and CSV, for every N', () => {
  for (const format of ['json', 'csv']) {
    const one = run([...SWEEP, '--format', format, '--jobs', '1']);
    assert.equal(one.status, 0, one.stderr);
    const rows = one.stdout.trim().split('\n');
    assert.equal(rows.length, format === 'csv' ? 9 : 8);
    for (const jobs of ['2', '3', '8', '256']) {
      const many = run([...SWEEP, '--format', format, '--jobs', jobs]);
      assert.equal(many.status, 0, many.stderr);
      if (format === 'json') {
        const strip = (t) => t.trim().split('\n').map((l) => { const o = JSON.parse(l); delete o.seconds; return JSON.stringify(o); });
        assert.deepEqual(strip(many.stdout), strip(one.stdout), `--jobs ${jobs}`);
      } else {
        const cols = rows[0].split(',');
        const s = cols.indexOf('seconds');
        const strip = (t) => t.trim().split('\n').map((l) => l.split(',').filter((_, i) => i !== s).join(','));
        assert.deepEqual(strip(many.stdout), strip(one.stdout), `--jobs ${jobs} (csv)`);
      }
    }
  }
  // A diverging run's stderr line comes in its row's order too, with --jobs.
  const d = run(['sweep', '--dks', '16', '--divisors', '1,sqrt', '--optimizers', 'sgd', '--lr-sgd', '10', '--steps', '30', '--eval', '8',
    '--heads', '1', '--dmodel', '16', '--jobs', '2']);
  assert.equal(d.status, 0);
  assert.match(d.stderr, /^attnlab: run 1\/2 \(dk 16, divisor 1, sgd, lr 10, seed 0\) diverged at step \d+/);
});

test('--jobs out of range, --progress and --quiet given twice or together: one line, exit 2', () => {
  for (const bad of [['--jobs', '0'], ['--jobs', '257'], ['--jobs', 'x'], ['--jobs', '-1'], ['--progress', '--progress'], ['--quiet', '--progress']]) {
    const r = run([...SWEEP, ...bad]);
    assert.equal(r.status, 2, bad.join(' '));
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^attnlab: [^\n]+\n$/, bad.join(' '));
  }
});

test('--progress: lines on stderr, a second apart, stdout the same bytes; --quiet: nothing; by default, nothing off a terminal', () => {
  // A train run of about 2-4 s here.
  const args = ['train', '--steps', '400', '--eval', '64', '--format', 'csv', '--log-every', '100'];
  const quiet = run([...args, '--quiet']);
  const plain = run(args);
  const loud = run([...args, '--progress']);
  for (const r of [quiet, plain, loud]) assert.equal(r.status, 0, r.stderr);
  assert.equal(quiet.stderr, '');
  assert.equal(plain.stderr, '', 'no terminal, no --progress: no progress');
  const lines = loud.stderr.trim().split('\n').filter(Boolean);
  assert.ok(lines.length >= 1, 'a run of more than a second shows progress');
  for (const l of lines) assert.match(l, /^attnlab: \[[# ]{24}\] \d+\/400 steps, [\d.e+]+ steps\/s, [\dhmins ]+ left loss [\d.e+-]+ acc [\d.e+-]+$/, l);
  // The metrics table is the same (the summary's timing fields aside).
  const table = (t) => t.split('\n\n')[0];
  assert.equal(table(loud.stdout), table(plain.stdout));
  assert.equal(table(quiet.stdout), table(plain.stdout));
  // A sweep's progress counts runs.
  const s = run([...SWEEP.map((a) => (a === '40' ? '400' : a)), '--jobs', '2', '--progress']);
  assert.equal(s.status, 0);
  for (const l of s.stderr.trim().split('\n').filter(Boolean))
    assert.match(l, /^attnlab: \[[# ]{24}\] \d\/8 runs, [\d.e+]+ runs\/s, [\dhmins ]+ left \(dk \d+ \S+ (adam|sgd) done\)$/, l);
});

test('before a run of more than a minute, its estimate on stderr (not with --quiet)', async () => {
  const { spawn } = await import('node:child_process');
  const watch = (args, ms) => new Promise((resolve) => {
    const p = spawn(CLI, args);
    let err = '';
    p.stdout.resume();
    p.stderr.on('data', (d) => {
      err += d;
      if (/will take about[^\n]*\n/.test(err)) p.kill();  // the whole line: stderr may come in pieces
    });
    const timer = setTimeout(() => p.kill(), ms);
    p.on('close', () => { clearTimeout(timer); resolve(err); });
  });
  // 100 000 steps of the default model: minutes here, known after its first 10 steps.
  const err = await watch(['train', '--steps', '100000', '--format', 'csv'], 20_000);
  assert.match(err, /^attnlab: this run will take about (\d+ h \d+ min|\d+ min \d+ s) \(estimated from its first 10 steps; --quiet hides this\)\n/);
  assert.equal(await watch(['train', '--steps', '100000', '--format', 'csv', '--quiet'], 1500), '');
});
