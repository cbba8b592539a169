// Issue 31: progress on stderr for saturation, variance and check, as train
// and sweep show it (progress_jobs_cli.test.mjs): with --progress and stderr a
// pipe, one line a second once the work has run a second; stdout the same
// bytes as without it; --quiet and the default off a terminal: nothing. Each
// run here is made to last 1.5-4 s on this machine; not a timing test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI } from './paths.mjs';

function run(args) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(CLI, args, { encoding: 'utf8', timeout: 120_000 });
  return { ...r, seconds: Number(process.hrtime.bigint() - t0) / 1e9 };
}
const LINE = (unit, total, text) =>
  new RegExp(`^attnlab: \\[[# ]{24}\\] \\d+\\/${total} ${unit}, [\\d.e+]+ ${unit}\\/s, [\\dhmins ]+ left ${text}$`);

/** The three runs of `args`: plain, --progress, --quiet; stdout the same bytes, stderr as the modes say. */
function modes(args) {
  const plain = run(args), loud = run([...args, '--progress']), quiet = run([...args, '--quiet']);
  for (const r of [plain, loud, quiet]) assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
  assert.equal(loud.stdout, plain.stdout, 'stdout is the same bytes with --progress');
  assert.equal(quiet.stdout, plain.stdout, 'and with --quiet');
  assert.equal(plain.stderr, '', 'no terminal, no --progress: nothing on stderr');
  assert.equal(quiet.stderr, '', '--quiet: nothing on stderr');
  assert.ok(loud.stderr === '' || loud.stderr.endsWith('\n'), 'whole lines');
  return { lines: loud.stderr.split('\n').filter(Boolean), seconds: loud.seconds };
}

test('saturation --progress: rows drawn, with the running max p and entropy', () => {
  // 12 000 rows of 4096 keys (the softmaxes' work): about 2 s here.
  const { lines } = modes(['saturation', '--dk', '1', '--n', '4096', '--samples', '12000', '--softcap', '50']);
  assert.ok(lines.length >= 1, 'a run of more than a second shows progress');
  for (const l of lines) assert.match(l, LINE('rows', 12000, 'max p [\\d.e+-]+, entropy [\\d.e+-]+'), l);
  assert.match(lines.at(-1), /\] 12000\/12000 rows/, 'the last line is the whole');
});

test('variance --progress: samples drawn, with the running variance', () => {
  // A million samples at d_k 64: about 2 s here.
  const { lines } = modes(['variance', '--dk', '64', '--samples', '1000000', '--bins', '8']);
  assert.ok(lines.length >= 1, 'a run of more than a second shows progress');
  for (const l of lines) assert.match(l, LINE('samples', 1000000, 'var\\(q\\.k\\) [\\d.e+-]+'), l);
});

test('check --progress: its stages (reading, judging), the time so far', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-progress-'));
  const file = path.join(dir, 'qk.npz');
  // 16 heads of 1024 x 1024 logits at d_k 64, the checker's limits: about 1.5 s here.
  assert.equal(run(['sample-qk', '--out', file, '--heads', '16', '--n', '1024', '--dk', '64']).status, 0);
  const { lines, seconds } = modes(['check', file]);
  // The bar waits a second; this run may end before, on a fast machine.
  if (seconds > 1.3) assert.ok(lines.length >= 1, `a check of ${seconds.toFixed(1)} s shows progress`);
  for (const l of lines)
    assert.match(l, /^attnlab: \[[# ]{24}\] [0-2]\/2 stages, \d+ s so far: (reading '[^']+'|judging 16 heads)$/, l);
  fs.rmSync(dir, { recursive: true });
});

test('--progress and --quiet: flags of every command with long work, refused twice or together, and where none is long', () => {
  for (const c of ['saturation', 'variance', 'check', 'train', 'sweep']) {
    const help = spawnSync(CLI, ['help', c], { encoding: 'utf8' }).stdout;
    assert.match(help, /^ {2}--progress\n {6}progress on stderr even when it is not a terminal/m, c);
    assert.match(help, /^ {2}--quiet\n {6}no progress/m, c);
    assert.match(help, /\[--progress\] \[--quiet\]/, `${c} synopsis`);
  }
  for (const bad of [['--progress', '--progress'], ['--quiet', '--progress'], ['--quiet', '--quiet']]) {
    for (const args of [['saturation', '--dk', '4', '--n', '4'], ['variance', '--dk', '4'], ['check', 'x.npz']]) {
      const r = run([...args, ...bad]);
      assert.equal(r.status, 2, [...args, ...bad].join(' '));
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, 'attnlab: give --progress or --quiet once, not both or twice\n');
    }
  }
  // A flag takes no value: what follows it is the next option, not its value.
  const r = run(['saturation', '--quiet', '--dk', '4', '--n', '4', '--samples', '2']);
  assert.equal(r.status, 0, r.stderr);
  for (const c of ['softmax', 'attention', 'presets', 'merge'])
    assert.doesNotMatch(spawnSync(CLI, ['help', c], { encoding: 'utf8' }).stdout, /--progress/, `${c}: nothing long to show`);
});
