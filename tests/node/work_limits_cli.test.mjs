// Work limits and refused options (issue 14, class 11 and "Also"): every
// command bounds its work before it starts, and an option the command would
// ignore is refused; each refusal is one line on stderr with exit status 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI } from './paths.mjs';

const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-work-'));
const npz = path.join(TMP, 'x.npz');

function run(args, input) {
  const r = spawnSync(CLI, args, { input, encoding: 'utf8', timeout: 120_000, maxBuffer: 1 << 28 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}
function refused(args, message, input) {
  const r = run(args, input);
  assert.equal(r.status, 2, `${args.join(' ')}: ${r.err}`);
  assert.equal(r.out, '');
  assert.equal(r.err, `attnlab: ${message}\n`);
}
const rows = (count, width) => Array.from({ length: count }, () => new Array(width).fill(0));

test('attention: n·m·(dk+dv) at most 2^30, refused while the input is read, in any member order', () => {
  // 1024 x 1024 x (1 + 1023) = 2^30: runs (every weight 1/1024).
  const ok = run(['attention', '--input', '-'], JSON.stringify({ q: rows(1024, 1), k: rows(1024, 1), v: rows(1024, 1023) }));
  assert.equal(ok.status, 0, ok.err);
  const j = JSON.parse(ok.out);
  assert.equal(j.weights.length, 1024);
  assert.equal(j.weights[0][0], 1 / 1024);
  const msg = 'input: n*m*(dk+dv) is at least 1024*1025*(1+1023) = 1074790400 multiply-adds, more than the limit of 1073741824';
  refused(['attention', '--input', '-'], msg, JSON.stringify({ q: rows(1024, 1), k: rows(1025, 1), v: rows(1025, 1023) }));
  refused(['attention', '--input', '-'], msg, JSON.stringify({ v: rows(1025, 1023), k: rows(1025, 1), q: rows(1024, 1) }));
  // 2048 x 2048 x (256 + 256) = 2^31 (every size within its limit): refused within k, once
  // n·m·(dk + 1) passes the limit (v's width not seen yet counts as 1).
  refused(['attention', '--input', '-'],
    'input: n*m*(dk+dv) is at least 2048*2041*(256+1) = 1074251776 multiply-adds, more than the limit of 1073741824',
    JSON.stringify({ q: rows(2048, 256), k: rows(2048, 256), v: rows(2048, 256) }));
});

test('train and sweep: the run\'s and the grid\'s work are checked before the first step', () => {
  // The command line's limit is what could not finish in a working day, 2^48
  // (issue 31: the lab's 2^38, which keeps a tab responsive, refused the
  // default 3000-step run); --eval within the core's 2^40 a call.
  refused(['train', '--dk', '1024', '--heads', '4', '--dmodel', '1024', '--dv', '1024', '--batch', '60', '--steps', '1000000'],
    'this run (--steps 1000000, --eval 4096) is 27210674859933696 multiply-adds, more than the limit of 281474976710656; fewer steps, a smaller --eval or smaller sizes');
  refused(['sweep', '--steps', '200000'],
    'the sweep (30 runs of 200000 steps) is 490810491535360 multiply-adds, more than the limit of 281474976710656; fewer runs, fewer steps or smaller sizes');
  refused(['train', '--eval', '1000000', '--steps', '1', '--dk', '512', '--dmodel', '1024', '--dv', '512', '--heads', '8', '--batch', '8'],
    '--eval 1000000 is 151166976000000 multiply-adds, more than the limit of 1099511627776; a smaller --eval or smaller sizes');
  const seeds = Array.from({ length: 2049 }, (_, i) => i).join(',');
  refused(['sweep', '--dks', '64', '--divisors', 'sqrt,1', '--optimizers', 'adam', '--seeds', seeds], 'the sweep has 4098 runs (dks x divisors x optimizers x seeds), more than 4096');
  // A grid whose 64-bit sum wrapped to 1.1·10¹¹ (under the limit) before the
  // total was kept in 128 bits: 4096 runs of 4.5·10¹⁵ each.
  refused(['sweep', '--dks', '1024', '--heads', '4', '--dmodel', '1024', '--dv', '1024', '--batch', '60', '--divisors', 'sqrt',
    '--optimizers', 'adam', '--seeds', Array.from({ length: 4096 }, (_, i) => i).join(','), '--steps', '165512', '--eval', '59'],
  'the sweep (4096 runs of 165512 steps) is 18446744185076711424 multiply-adds, more than the limit of 281474976710656; fewer runs, fewer steps or smaller sizes');
  // A small run well within: runs.
  const ok = run(['train', '--dk', '8', '--heads', '1', '--dmodel', '8', '--steps', '3', '--eval', '8']);
  assert.equal(ok.status, 0, ok.err);
});

test('sample-qk --source lab: at most 2000 steps', () => {
  refused(['sample-qk', '--source', 'lab', '--kind', 'learned', '--steps', '2001', '--out', npz], '--steps must be an integer in [1, 2000], got 2001');
  refused(['sample-qk', '--source', 'lab', '--kind', 'learned', '--steps', '5000', '--out', npz], '--steps must be an integer in [1, 2000], got 5000');
  assert.equal(fs.existsSync(npz), false);
});

test('options a command would ignore are refused', () => {
  const cases = [
    [['softmax', '--scores', '1,2', '--dk', '64'], '--dk is used only by --divisor sqrt or dk, not by a number divisor'],
    [['softmax', '--scores', '1,2', '--divisor', '8', '--dk', '64'], '--dk is used only by --divisor sqrt or dk, not by a number divisor'],
    ...['heads', 'n', 'dk'].map((o) => [['sample-qk', '--source', 'lab', `--${o}`, '4', '--out', npz],
      `--${o} is for --source synthetic: a lab sample has the lab's shape (2 heads, d_k 256, 16 sequences)`]),
    [['sample-qk', '--source', 'lab', '--steps', '10', '--out', npz], '--steps is for --kind saturated or learned: --kind init is the layer before any step'],
    [['sample-qk', '--source', 'lab', '--kind', 'init', '--steps', '10', '--out', npz], '--steps is for --kind saturated or learned: --kind init is the layer before any step'],
    [['sample-qk', '--steps', '10', '--out', npz], '--steps is for --source lab: a synthetic sample is not trained'],
    [['sample-qk', '--source', 'synthetic', '--kind', 'learned', '--steps', '10', '--out', npz], '--steps is for --source lab: a synthetic sample is not trained'],
    [['sweep', '--optimizers', 'sgd', '--lr-adam', '0.01'], '--lr-adam is given but --optimizers has no adam run to use it'],
    [['sweep', '--optimizers', 'adam', '--lr-sgd', '0.1'], '--lr-sgd is given but --optimizers has no sgd run to use it'],
  ];
  for (const [args, msg] of cases) refused(args, msg);
  // The same options where they are used still run.
  for (const args of [['softmax', '--scores', '1,2', '--divisor', 'sqrt', '--dk', '64'], ['softmax', '--scores', '1,2', '--divisor', 'dk', '--dk', '4'],
    ['sample-qk', '--heads', '2', '--n', '4', '--dk', '8', '--out', npz]]) {
    const r = run(args);
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.err}`);
  }
});
