// Peak memory within docs/cli-guide.md's bounds (issue 14, class 3): the CLI streams
// what it prints (attention's rows, train's metrics rows, check's heads) and
// holds its input once, so its peak resident set stays within
//   attention   16 MB + 4 × input + 2 × output
//   check       16 MB + 2 × input + 2 × output
//   train       16 MB, whatever the number of rows it prints
// (input and output in bytes). Measured with tests/tools/peak_rss (wait4's
// ru_maxrss), not /usr/bin/time or python, which a fresh machine may lack.
// Before the streaming, attention at n = m = 4096 peaked at 840 MB for 228 MB
// of output and train --log-every 1 kept every row (1.45 GB for 306 MB).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI, ROOT } from './paths.mjs';

const PEAK = path.join(ROOT, 'build/native/bin/peak_rss');
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-memory-'));
const MB = 1e6;

/** Runs the CLI under peak_rss with stdout into a file; its peak RSS and output size in bytes. */
function measure(args) {
  const outFile = path.join(TMP, 'out');
  const fd = fs.openSync(outFile, 'w');
  const r = spawnSync(PEAK, [CLI, ...args], { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', timeout: 180_000 });
  fs.closeSync(fd);
  const m = /peak_rss_kib=(\d+) status=(\d+)\s*$/.exec(r.stderr);
  assert.ok(m, `peak_rss printed no figure: ${r.stderr}`);
  const output = fs.statSync(outFile).size;
  return { status: Number(m[2]), peak: Number(m[1]) * 1024, output, stderr: r.stderr, outFile };
}

const rowsText = (count, width, x = '0') => `[${new Array(count).fill(`[${new Array(width).fill(x).join(',')}]`).join(',')}]`;

function within(what, r, bound) {
  assert.equal(r.status, 0, `${what}: ${r.stderr}`);
  assert.ok(r.peak <= bound,
    `${what}: peak ${(r.peak / MB).toFixed(1)} MB above the bound ${(bound / MB).toFixed(1)} MB (output ${(r.output / MB).toFixed(1)} MB)`);
}

test('attention: peak memory within 16 MB + 4 x input + 2 x output, for large outputs and large inputs', () => {
  const cases = [
    // 2048 x 2048 weights: 57 MB of output from 25 kB of input.
    ['n = m = 2048, d = 1', JSON.stringify({ q: new Array(2048).fill([0]), k: new Array(2048).fill([0]), v: new Array(2048).fill([1]) })],
    // The 64 MiB limit: k and v of 255 rows of 65 536 zeros.
    ['a 64 MiB input', `{"q":${rowsText(1, 65536)},"k":${rowsText(255, 65536)},"v":${rowsText(255, 65536)}}`],
    // 16 Mi nested brackets in a member the command skips.
    ['16 Mi nested brackets skipped', `{"notes":${'['.repeat(1 << 24)}${']'.repeat(1 << 24)},"q":[[1]],"k":[[1],[2]],"v":[[3],[5]]}`],
  ];
  for (const [what, text] of cases) {
    const file = path.join(TMP, 'attention.json');
    fs.writeFileSync(file, text);
    const r = measure(['attention', '--input', file]);
    within(what, r, 16 * MB + 4 * text.length + 2 * r.output);
    assert.equal(JSON.parse(fs.readFileSync(r.outFile, 'utf8')).output.length, JSON.parse(text).q.length, what);
  }
});

test('train --log-every 1: every row printed, none kept: peak memory within 16 MB in JSON and CSV', () => {
  const args = ['train', '--dk', '1', '--heads', '1', '--dmodel', '1', '--batch', '1', '--eval', '1',
    '--log-every', '1', '--steps', '200000'];
  for (const format of ['json', 'csv']) {
    const r = measure([...args, '--format', format]);
    within(`train, ${format}`, r, 16 * MB);
    assert.ok(r.output > 16 * MB, `train, ${format}: only ${r.output} bytes of rows`);  // more rows than the bound could hold
    const text = fs.readFileSync(r.outFile, 'utf8');
    if (format === 'json') assert.equal(JSON.parse(text).metrics.length, 200000);
    else assert.ok(text.split('\n').length > 200000);
  }
});

test('check: peak memory within 16 MB + 2 x input + 2 x output at its limit of 2^22 values', () => {
  // 64 heads x 256 x 256: q and k of 2^22 values each, 32 MiB.
  const npz = path.join(TMP, 'qk.npz');
  const made = spawnSync(CLI, ['sample-qk', '--heads', '64', '--n', '256', '--dk', '256', '--out', npz], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  const r = measure(['check', npz]);
  within('check, 2^22 values', r, 16 * MB + 2 * fs.statSync(npz).size + 2 * r.output);
  assert.equal(JSON.parse(fs.readFileSync(r.outFile, 'utf8')).heads.length, 64);

  // A JSON file near 64 MiB, most of it a member the checker does not read.
  const json = path.join(TMP, 'qk.json');
  fs.writeFileSync(json, `{"notes":"${'a'.repeat(60 << 20)}","q":[[1,2],[3,4]],"k":[[1,2],[3,4]]}`);
  const j = measure(['check', json]);
  within('check, 60 MiB unread member', j, 16 * MB + 2 * fs.statSync(json).size + 2 * j.output);
});
