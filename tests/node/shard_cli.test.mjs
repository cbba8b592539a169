// Issue 31: a sweep split over machines. `sweep --shard K/N` runs the K-th of
// N parts of the grid; `attnlab merge` joins the parts into what the
// unsharded sweep prints (timing fields aside), and refuses a missing,
// repeated, truncated or foreign part with one line naming it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI } from './paths.mjs';

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-shard-'));
const GRID = ['sweep', '--dks', '16,32', '--divisors', 'sqrt,1', '--optimizers', 'adam,sgd', '--seeds', '0,1', '--steps', '20',
  '--eval', '32', '--heads', '1', '--dmodel', '16', '--jobs', '1'];  // 16 runs
const run = (args) => spawnSync(CLI, args, { encoding: 'utf8', timeout: 120_000 });

/** Runs `args` in a process of its own; resolves with its stdout written to `file`. */
function part(args, file) {
  const p = spawn(CLI, args);
  const out = fs.createWriteStream(file);
  p.stdout.pipe(out);
  let err = '';
  p.stderr.on('data', (d) => (err += d));
  const written = new Promise((resolve) => out.on('finish', resolve));
  const closed = new Promise((resolve) => p.on('close', resolve));
  return Promise.all([closed, written]).then(([code]) => {
    if (code !== 0) throw new Error(`${args.join(' ')}: ${code} ${err}`);
    return file;
  });
}

// The rows without their timing field.
const untimed = (text, format) => {
  const lines = text.trim().split('\n');
  if (format === 'json') return lines.map((l) => { const o = JSON.parse(l); delete o.seconds; return JSON.stringify(o); });
  const s = lines[0].split(',').indexOf('seconds');
  return lines.map((l) => l.split(',').filter((_, i) => i !== s).join(','));
};

for (const format of ['json', 'csv'])
  test(`3 shards in 3 processes, merged in any order, are the unsharded sweep (${format})`, async () => {
    const whole = run([...GRID, '--format', format]);
    assert.equal(whole.status, 0, whole.stderr);
    const parts = await Promise.all([1, 2, 3].map((k) => part([...GRID, '--format', format, '--shard', `${k}/3`], path.join(TMP, `${format}-${k}.part`))));
    for (const order of [[0, 1, 2], [2, 0, 1]]) {
      const merged = run(['merge', ...order.map((i) => parts[i])]);
      assert.equal(merged.status, 0, merged.stderr);
      assert.equal(merged.stderr, '');
      assert.deepEqual(untimed(merged.stdout, format), untimed(whole.stdout, format));
    }
    // Each part holds its share: runs i with i mod 3 = k - 1 (16 runs: 6, 5, 5), after one header line.
    const rows = parts.map((f) => fs.readFileSync(f, 'utf8').trim().split('\n').length - (format === 'csv' ? 2 : 1));
    assert.deepEqual(rows, [6, 5, 5]);
    // More parts than runs: the empty parts merge too.
    const many = await Promise.all(Array.from({ length: 20 }, (_, k) => part([...GRID, '--format', format, '--shard', `${k + 1}/20`], path.join(TMP, `${format}-m${k}.part`))));
    assert.deepEqual(untimed(run(['merge', ...many]).stdout, format), untimed(whole.stdout, format));
  });

test('bad shards and merges: one line on stderr naming the part, exit 2, nothing on stdout', async () => {
  for (const s of ['4/3', '1/0', '0/3', '3', 'a/b', '1/4097', '', '2/2/2', '-1/3', '1.5/3'])
    refused([...GRID, '--shard', s], /--shard must be K\/N with 1 <= K <= N <= 4096/);
  const p = await Promise.all([1, 2, 3].map((k) => part([...GRID, '--shard', `${k}/3`], path.join(TMP, `bad-${k}.part`))));
  const other = await part([...GRID.map((a) => (a === '20' ? '21' : a)), '--shard', '3/3'], path.join(TMP, 'other.part'));
  const csv = await part([...GRID, '--format', 'csv', '--shard', '3/3'], path.join(TMP, 'csv3.part'));
  const text = fs.readFileSync(p[2], 'utf8');
  const cut = path.join(TMP, 'cut.part');
  fs.writeFileSync(cut, text.slice(0, text.lastIndexOf('\n', text.length - 2) + 1));  // its last row lost
  const mid = path.join(TMP, 'mid.part');
  fs.writeFileSync(mid, text.slice(0, -10));  // cut mid-line
  const plain = path.join(TMP, 'plain.txt');
  fs.writeFileSync(plain, run(GRID).stdout);
  const empty = path.join(TMP, 'empty.part');
  fs.writeFileSync(empty, '');
  refused(['merge', p[0], p[1]], /^attnlab: the merge is missing part 3\/3\n$/);
  refused(['merge', p[0], p[1], p[1], p[2]], /bad-2\.part' is part 2\/3 again \(also '.*bad-2\.part'\)/);
  refused(['merge', p[0], p[1], other], /other\.part' is a part of another sweep \(grid [0-9a-f]{16}, 3 parts of 16 runs, json\) than '.*bad-1\.part'/);
  refused(['merge', p[0], p[1], csv], /csv3\.part' is a part of another sweep/);
  refused(['merge', p[0], p[1], cut], /cut\.part' \(part 3\/3\) has 4 rows, not 5: a truncated or edited part\?/);
  refused(['merge', p[0], p[1], mid], /mid\.part' ends mid-line: a truncated part\?/);
  refused(['merge', plain], /plain\.txt' is not a part of a sweep/);
  refused(['merge', empty], /empty\.part' is empty: not a part of a sweep/);
  refused(['merge', path.join(TMP, 'nope.part')], /cannot open '.*nope\.part'/);
  refused(['merge'], /merge needs the parts of a sweep/);
  refused(['merge', p[0], '--bogus', '1'], /unknown option '--bogus'/);
});

function refused(args, re) {
  const r = run(args);
  const what = args.map((a) => path.basename(a)).join(' ');
  assert.equal(r.status, 2, `${what}: ${r.status} ${r.stderr}`);
  assert.equal(r.stdout, '', what);
  assert.match(r.stderr, /^attnlab: [^\n]+\n$/, what);
  assert.match(r.stderr, re, what);
}
