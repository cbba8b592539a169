// attnlab sweep --lrs: a learning-rate axis in the sweep's grid (issue 15,
// part 3). Each rate runs for every dk x divisor x optimiser x seed cell, in
// that order with the rate inside the optimiser; its rows add the last step's
// attention entropy. Without --lrs the sweep prints what it printed before.
// Bad lists exit 2 with one line on stderr.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI } from './paths.mjs';

function run(args) {
  const r = spawnSync(CLI, args, { encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

const SIZES = ['--heads', '1', '--dmodel', '8', '--batch', '8', '--steps', '6', '--eval', '32'];
const TINY = ['--dks', '4', ...SIZES];
const OLD_COLUMNS = ['task', 'dk', 'divisor', 'optimizer', 'lr', 'seed', 'steps', 'final_loss', 'final_accuracy',
  'final_attn_correct', 'steps_to_90', 'diverged', 'grad_wq_step1', 'grad_wk_step1', 'logit_spread_step1',
  'logit_spread_last', 'logit_max_abs_last', 'seconds', 'init', 'softcap', 'qk_clip', 'qk_clips', 'preset'];
// The rate axis adds the last step's entropy before 'seconds'; the stabilisers' echo stays last.
const at = OLD_COLUMNS.indexOf('seconds');
const LR_COLUMNS = [...OLD_COLUMNS.slice(0, at), 'attn_entropy_last', ...OLD_COLUMNS.slice(at)];

function rows(args) {
  const r = run(['sweep', ...args]);
  assert.equal(r.status, 0, r.err);
  return r.out.trim().split('\n').map((l) => JSON.parse(l));
}

test('--lrs: one row per rate of every cell, the rate inside the optimiser, each with its entropy', () => {
  const lrs = [1e-3, 0.03, 0.5];
  const out = rows(['--dks', '4,8', ...SIZES, '--divisors', 'sqrt,1,qknorm', '--optimizers', 'adam,sgd',
    '--lrs', '1e-3,3e-2,0.5']);
  assert.equal(out.length, 2 * 3 * 2 * 3);
  let i = 0;
  for (const dk of [4, 8])
    for (const div of ['sqrt', '1', 'qknorm'])
      for (const opt of ['adam', 'sgd'])
        for (const lr of lrs) {
          const x = out[i++];
          assert.deepEqual([x.dk, x.divisor, x.optimizer, x.lr], [dk, div, opt, lr]);
          assert.deepEqual(Object.keys(x), LR_COLUMNS);
          // Entropy of a 17-position attention row: in [0, ln 17].
          assert.ok(x.attn_entropy_last >= 0 && x.attn_entropy_last <= Math.log(17) + 1e-6, x.attn_entropy_last);
          assert.ok(x.logit_max_abs_last >= 0);
          assert.ok(x.final_accuracy >= 0 && x.final_accuracy <= 1);
        }
});

test('--lrs: a row equals the single-rate sweep of the same cell (the axis changes nothing else)', () => {
  const grid = rows([...TINY, '--divisors', 'sqrt', '--optimizers', 'adam', '--lrs', '0.01,0.2']);
  const one = rows([...TINY, '--divisors', 'sqrt', '--optimizers', 'adam', '--lr-adam', '0.2']);
  const strip = ({ seconds, attn_entropy_last, ...rest }) => rest;
  assert.deepEqual(strip(grid[1]), strip(one[0]));
  assert.notDeepEqual(strip(grid[0]), strip(one[0]));
});

test('--lrs: the entropy is the last step\'s, as train reports it', () => {
  const [x] = rows([...TINY, '--divisors', '1', '--optimizers', 'sgd', '--lrs', '0.3']);
  const t = run(['train', '--dk', '4', '--heads', '1', '--dmodel', '8', '--batch', '8', '--steps', '6', '--eval', '32',
    '--divisor', '1', '--optimizer', 'sgd', '--lr', '0.3', '--log-every', '6']);
  assert.equal(t.status, 0, t.err);
  const r = JSON.parse(t.out);
  const last = r.metrics.at(-1);
  assert.equal(last.step, 6);
  assert.equal(x.attn_entropy_last, last.attn_entropy);
  assert.equal(x.logit_max_abs_last, last.logit_max_abs);
  assert.equal(x.final_loss, r.summary.final_loss);
  assert.equal(x.final_accuracy, r.summary.final_accuracy);
});

test('--lrs: a diverging rate reports its step and null entropy, the others train', () => {
  const r = run(['sweep', '--dks', '16', ...SIZES.filter((x, i, a) => x !== '--steps' && a[i - 1] !== '--steps'), '--steps', '40', '--divisors', '1', '--optimizers', 'sgd',
    '--lrs', '0.01,10']);
  assert.equal(r.status, 0, r.err);
  const out = r.out.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(out[0].diverged, null);
  assert.ok(Number.isFinite(out[0].attn_entropy_last));
  assert.ok(Number.isInteger(out[1].diverged) && out[1].diverged >= 1, JSON.stringify(out[1]));
  assert.equal(out[1].attn_entropy_last, null);
  assert.equal(out[1].final_loss, null);
  assert.match(r.err, /^attnlab: run 2\/2 \(dk 16, divisor 1, sgd, lr 10, seed 0\) diverged at step \d+: /);
  assert.equal(r.err.split('\n').length, 2);
});

test('--lrs as CSV: the header gains attn_entropy_last before seconds', () => {
  const r = run(['sweep', ...TINY, '--divisors', 'sqrt', '--optimizers', 'adam', '--lrs', '1e-3,1e-2', '--format', 'csv']);
  assert.equal(r.status, 0, r.err);
  const lines = r.out.trim().split('\n');
  assert.equal(lines[0], LR_COLUMNS.join(','));
  assert.equal(lines.length, 3);
  assert.deepEqual(lines.slice(1).map((l) => l.split(',')[4]), ['0.001', '0.01']);
});

test('without --lrs the sweep prints exactly the columns and values it printed before', () => {
  for (const fmt of ['json', 'csv']) {
    const r = run(['sweep', ...TINY, '--divisors', 'sqrt,qknorm', '--optimizers', 'adam,sgd', '--format', fmt]);
    assert.equal(r.status, 0, r.err);
    const lines = r.out.trim().split('\n');
    if (fmt === 'csv') {
      assert.equal(lines[0], OLD_COLUMNS.join(','));
      assert.ok(!r.out.includes('entropy'));
    } else {
      for (const l of lines) assert.deepEqual(Object.keys(JSON.parse(l)), OLD_COLUMNS);
    }
  }
  // The sweep's own reference rates, as before: 1e-3 (adam) and 0.1 (sgd) times 2 dk / d_model.
  const out = rows([...TINY, '--divisors', 'sqrt', '--optimizers', 'adam,sgd']);
  assert.deepEqual(out.map((x) => x.lr), [1e-3, 0.1]);
});

const refused = [
  [['--lrs', ''], /^attnlab: --lrs has an empty item in ''\n$/],
  [['--lrs', '1e-3,,1e-2'], /^attnlab: --lrs has an empty item/],
  [['--lrs', '1e-3,'], /^attnlab: --lrs has an empty item/],
  [['--lrs', '0'], /^attnlab: --lrs items must be numbers in \(0, 10\], got 0\n$/],
  [['--lrs', '1e-3,-0.01'], /^attnlab: --lrs items must be numbers in \(0, 10\], got -0.01\n$/],
  [['--lrs', '10.5'], /^attnlab: --lrs items must be numbers in \(0, 10\], got 10.5\n$/],
  [['--lrs', '1e-400'], /^attnlab: --lrs items must be numbers in \(0, 10\], got 1e-400\n$/],
  [['--lrs', 'nan'], /^attnlab: --lrs must be a finite number, got 'nan'\n$/],
  [['--lrs', 'inf'], /^attnlab: --lrs must be a finite number, got 'inf'\n$/],
  [['--lrs', 'fast'], /^attnlab: --lrs must be a finite number, got 'fast'\n$/],
  [['--lrs', '1e-3, 1e-2'], /^attnlab: --lrs must be a finite number, got ' 1e-2'\n$/],
  [['--lrs', '0x10'], /^attnlab: --lrs must be a finite number/],
  [['--lrs', '0.01,1e-2'], /^attnlab: --lrs has 1e-2 twice \(the same rate would run the same cells again\)\n$/],
  [['--lrs', '0.1,0.2,0.1'], /^attnlab: --lrs has 0.1 twice/],
  [['--lrs', Array.from({ length: 4097 }, (_, i) => String(i + 1)).join(',')],
    /^attnlab: --lrs has 4097 items, more than the sweep's 4096 runs\n$/],
  [['--lrs', Array.from({ length: 1000 }, (_, i) => `${(i + 1) / 1000}`).join(','), '--divisors', 'sqrt,1,qknorm,2,dk'],
    /^attnlab: the sweep has 10000 runs \(dks x divisors x optimizers x lrs x seeds\), more than 4096\n$/],
  [['--lrs', '0.01', '--lr-adam', '0.01'], /^attnlab: --lr-adam is given with --lrs, which sets every run's rate\n$/],
  [['--lrs', '0.01', '--lr-sgd', '0.1'], /^attnlab: --lr-sgd is given with --lrs, which sets every run's rate\n$/],
];

test('bad --lrs lists exit 2 with one line on stderr, before any run', () => {
  for (const [args, msg] of refused) {
    const r = run(['sweep', '--dks', '64', ...args]);
    assert.equal(r.status, 2, `${args.join(' ').slice(0, 80)}: ${r.err}`);
    assert.equal(r.out, '');
    assert.match(r.err, msg, args.join(' ').slice(0, 80));
  }
});

test('the lr axis counts in the work limit: 2^48 over the whole grid', () => {
  // 30 runs of 100000 steps are 2.45e14, under 2^48 = 2.8e14; two rates double it past.
  const r = run(['sweep', '--lrs', '1e-3,1e-2', '--steps', '100000']);
  assert.equal(r.status, 2);
  assert.equal(r.err, 'attnlab: the sweep (60 runs of 100000 steps) is 490862839070720 multiply-adds, more than the limit of ' +
    '281474976710656; fewer runs, fewer steps or smaller sizes\n');
  assert.equal(r.out, '');
});
