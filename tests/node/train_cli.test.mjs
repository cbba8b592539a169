// attnlab train / sweep: the JSON and CSV they print, determinism for a seed,
// a short run that learns, and every bad option answered by exit status 2
// with one line on stderr.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI } from './paths.mjs';

function run(args) {
  const r = spawnSync(CLI, args, { encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, signal: r.signal, out: r.stdout, err: r.stderr };
}

function json(args) {
  const r = run(args);
  assert.equal(r.status, 0, `attnlab ${args.join(' ')} failed: ${r.err}`);
  assert.equal(r.err, '', 'no progress bar when stderr is not a terminal');
  const lines = r.out.trim().split('\n');
  assert.equal(lines.length, 1, 'one JSON object on one line');
  return JSON.parse(lines[0]);
}

const SMALL = ['--dk', '64', '--dmodel', '32', '--batch', '32'];
const COLUMNS = ['step', 'loss', 'accuracy', 'attn_entropy', 'attn_max', 'attn_correct',
  'logit_max_abs', 'logit_spread', 'grad_wq', 'grad_wk', 'grad_wv', 'grad_wo',
  'grad_wq_h0', 'grad_wq_h1', 'grad_wk_h0', 'grad_wk_h1'];
// The per-head traces (largest |logit|, attention entropy), a column per head,
// then the mechanism per head: weight on the correct key, largest weight,
// share of frozen rows, Q/K gradient relative to step 1.
const MECHANISM = ['correct_h0', 'correct_h1', 'attn_max_h0', 'attn_max_h1', 'frozen_h0', 'frozen_h1',
  'qk_grad_rel_h0', 'qk_grad_rel_h1'];
const ALL_COLUMNS = [...COLUMNS, 'max_logit_h0', 'max_logit_h1', 'entropy_h0', 'entropy_h1', ...MECHANISM];

test('train prints config, init checkpoint, metrics rows and a summary', () => {
  const r = json(['train', ...SMALL, '--steps', '25', '--log-every', '10', '--eval', '256']);
  assert.deepEqual(Object.keys(r), ['config', 'init', 'metrics', 'summary']);
  assert.equal(r.config.task, 'recall');
  assert.equal(r.config.dk, 64);
  assert.equal(r.config.d_model, 32);
  assert.equal(r.config.dv, 16, 'dv defaults to d_model / heads');
  assert.equal(r.config.divisor, 'sqrt');
  assert.equal(r.config.divisor_value, 8);
  // Default lr keeps lr * d_model at the reference's 1e-3 * 2 * d_k.
  assert.ok(Math.abs(r.config.lr - 1e-3 * 2 * 64 / 32) < 1e-15);
  assert.deepEqual(r.metrics.map((m) => m.step), [1, 10, 20]);
  assert.deepEqual(Object.keys(r.metrics[0]), ALL_COLUMNS);
  for (const m of r.metrics) {
    assert.ok(m.loss > 0 && m.accuracy >= 0 && m.accuracy <= 1);
    assert.ok(m.attn_entropy >= 0 && m.attn_entropy <= Math.log(17) + 1e-6);
    assert.ok(Math.abs(Math.hypot(m.grad_wq_h0, m.grad_wq_h1) - m.grad_wq) < 1e-5 * m.grad_wq);
  }
  const i = r.init;
  assert.equal(i.samples, 256);
  assert.ok(i.var_q > 0.5 && i.var_q < 1.6, `var_q ${i.var_q}`);
  assert.ok(i.var_qk > 64 * 0.6 && i.var_qk < 64 * 1.5, `var_qk ${i.var_qk}`);
  assert.ok(Math.abs(i.var_logit - i.var_qk / 64) < 0.01 * i.var_logit);
  assert.ok(Math.abs(i.loss - Math.log(32)) < 0.5);
  const s = r.summary;
  assert.equal(s.steps, 25);
  assert.equal(s.eval_samples, 256);
  for (const k of ['final_loss', 'final_accuracy', 'final_attn_correct', 'steps_per_second'])
    assert.ok(Number.isFinite(s[k]), k);
  assert.ok(s.steps_to_90 === null || Number.isInteger(s.steps_to_90));
});

test('train is deterministic for a seed, and the seed matters', () => {
  const args = ['train', ...SMALL, '--steps', '12', '--log-every', '3', '--eval', '64'];
  const strip = (r) => ({ ...r, summary: { ...r.summary, seconds: 0, steps_per_second: 0 } });
  const a = strip(json([...args, '--seed', '5']));
  const b = strip(json([...args, '--seed', '5']));
  const c = strip(json([...args, '--seed', '6']));
  assert.deepEqual(a, b);
  assert.notDeepEqual(a.metrics, c.metrics);
});

test('a short run at d_k = 64 learns recall with sqrt(d_k)', () => {
  const r = json(['train', '--dk', '64', '--steps', '300', '--log-every', '50', '--eval', '1024']);
  assert.ok(r.summary.final_accuracy > 0.9, `accuracy ${r.summary.final_accuracy}`);
  assert.ok(r.summary.steps_to_90 > 0 && r.summary.steps_to_90 <= 300);
});

test('every divisor option, QK-LayerNorm, SGD, the copy task and xavier init run', () => {
  for (const extra of [['--divisor', '1'], ['--divisor', '2'], ['--divisor', 'dk'],
    ['--divisor', '0.5'], ['--divisor', 'qknorm'], ['--optimizer', 'sgd'],
    ['--task', 'copy'], ['--init', 'xavier'], ['--heads', '3', '--dv', '5']]) {
    const r = json(['train', ...SMALL, '--steps', '3', '--eval', '32', ...extra]);
    assert.equal(r.metrics.length, 1, extra.join(' '));
    assert.ok(Number.isFinite(r.metrics[0].loss), extra.join(' '));
  }
  const q = json(['train', ...SMALL, '--steps', '1', '--eval', '8', '--divisor', 'qknorm']);
  assert.equal(q.config.qk_norm, true);
  assert.equal(q.config.divisor_value, 8);
  const sgd = json(['train', ...SMALL, '--steps', '1', '--eval', '8', '--optimizer', 'sgd']);
  assert.ok(Math.abs(sgd.config.lr - 0.1 * 2 * 64 / 32) < 1e-12);
  const lr = json(['train', ...SMALL, '--steps', '1', '--eval', '8', '--lr', '0.01']);
  assert.equal(lr.config.lr, 0.01);
});

test('train --format csv: the metrics table, then key,value pairs', () => {
  const r = run(['train', ...SMALL, '--steps', '20', '--log-every', '10', '--eval', '64',
    '--format', 'csv']);
  assert.equal(r.status, 0, r.err);
  const [table, summary] = r.out.trimEnd().split('\n\n');
  const rows = table.split('\n').map((l) => l.split(','));
  assert.deepEqual(rows[0], ALL_COLUMNS);
  assert.deepEqual(rows.slice(1).map((x) => Number(x[0])), [1, 10, 20]);
  for (const row of rows.slice(1)) assert.ok(row.every((x) => Number.isFinite(Number(x))));
  const kv = Object.fromEntries(summary.split('\n').slice(1).map((l) => l.split(',')));
  for (const k of ['final_loss', 'final_accuracy', 'steps_to_90', 'init_var_q', 'init_var_qk'])
    assert.ok(k in kv, k);
});

test('sweep prints one row per run of the grid, JSON lines or CSV', () => {
  const args = ['sweep', '--dks', '16,32', '--divisors', 'sqrt,1,qknorm', '--optimizers', 'adam',
    '--seeds', '0,1', '--steps', '5', '--eval', '64', '--dmodel', '16', '--batch', '16'];
  const r = run(args);
  assert.equal(r.status, 0, r.err);
  const rows = r.out.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(rows.length, 2 * 3 * 2);
  assert.deepEqual(rows.map((x) => `${x.dk}/${x.divisor}/${x.seed}`).slice(0, 4),
    ['16/sqrt/0', '16/sqrt/1', '16/1/0', '16/1/1']);
  for (const x of rows) {
    assert.equal(x.optimizer, 'adam');
    assert.equal(x.steps, 5);
    assert.ok(x.final_accuracy >= 0 && x.final_accuracy <= 1);
    assert.ok(x.grad_wq_step1 > 0);
    assert.ok(Math.abs(x.lr - 1e-3 * 2 * x.dk / 16) < 1e-9);
  }
  const c = run([...args, '--format', 'csv', '--lr-adam', '0.002']);
  assert.equal(c.status, 0, c.err);
  const lines = c.out.trim().split('\n');
  assert.equal(lines.length, 13);
  assert.match(lines[0], /^task,dk,divisor,optimizer,lr,seed,steps,final_loss,final_accuracy/);
  assert.equal(lines[1].split(',')[4], '0.002');
});

// A diverging run (issue 14, class 5): the issue's SGD at lr 10, a rate inside
// the documented range. The summary names the step, stderr says so on one
// line, the status stays 0 (the numbers are true), and no metric after the
// divergence is a number: before the fix attention max, entropy and largest
// logit read 0.0 there.
const DIVERGING = ['--dk', '16', '--heads', '1', '--eval', '64', '--optimizer', 'sgd', '--batch', '8'];
const DIVERGED_LINE = /^attnlab: the run diverged at step (\d+): the loss, a logit, a gradient norm or a number they come from is no longer finite, so the metrics from there on are null; a smaller learning rate may train\n$/;

// Issue 32, class 1: a metric computed from an intermediate that is not
// finite reads as null, in every divisor × stabiliser × optimiser. Before the
// fix, QK-LayerNorm with QK-clip (the issue's run) reported logits of 0.0 and
// entropies of ln 17 at the step its loss went null: a float LayerNorm whose
// variance overflowed had 1/√∞ = 0 and made q̂ = 0.
test('no metric is a number once the run has diverged, in every divisor × stabiliser × optimiser', () => {
  let diverged = 0;
  const seen = new Set();
  for (const divisor of ['sqrt', '1', 'dk', 'qknorm'])
    for (const stab of [[], ['--softcap', '5'], ['--qk-clip', '0.5'], ['--softcap', '5', '--qk-clip', '0.5']])
      for (const [optimizer, lr] of [['sgd', '10'], ['adam', '10']]) {
        const args = ['train', '--optimizer', optimizer, '--lr', lr, '--dk', '16', '--heads', '2', '--steps', '30', '--batch', '8',
          '--eval', '64', '--log-every', '1', '--divisor', divisor, ...stab];
        const r = run(args);
        const what = args.join(' ');
        assert.equal(r.status, 0, `${what}: ${r.err}`);
        const j = JSON.parse(r.out);
        const d = j.summary.diverged;
        if (d) {
          diverged++;
          seen.add(`${divisor} ${stab.join(' ')}`);
          assert.match(r.err, DIVERGED_LINE, what);
        }
        for (const row of j.metrics) {
          const at = `${what}: step ${row.step} (diverged at ${d || 'never'})`;
          if (!d || row.step < d) {
            assert.deepEqual(Object.entries(row).filter(([, v]) => !Number.isFinite(v)), [], at);
            continue;
          }
          // From the divergence on: no loss; a head's statistics come from the
          // same rows, so they are all numbers or all null; the totals over
          // heads are null when a head's are; and no head reads the signature
          // of 1/√∞: logits of exactly 0 (uniform attention from nothing).
          assert.equal(row.loss, null, at);
          assert.equal(row.accuracy, null, at);
          let anyNull = false;
          for (const h of [0, 1]) {
            const group = ['max_logit_h', 'entropy_h', 'correct_h', 'attn_max_h', 'frozen_h'].map((k) => row[`${k}${h}`]);
            const nulls = group.filter((v) => v === null).length;
            assert.ok(nulls === 0 || nulls === group.length, `${at}: head ${h} ${JSON.stringify(group)}`);
            anyNull ||= nulls > 0;
            if (nulls === 0) assert.notEqual(row[`max_logit_h${h}`], 0, `${at}: head ${h} has logits of 0`);
          }
          if (anyNull)
            for (const k of ['attn_entropy', 'attn_max', 'attn_correct', 'logit_max_abs', 'logit_spread']) assert.equal(row[k], null, `${at}: ${k}`);
        }
      }
  // Not vacuous: most of these runs diverge, QK-LayerNorm with QK-clip (the issue's) among them.
  assert.ok(diverged >= 16, `${diverged} of 32 runs diverged`);
  assert.ok(seen.has('qknorm --qk-clip 0.5'), [...seen].join('; '));
});

test('a diverging run: the step in the summary, one line on stderr, null metrics after it', () => {
  for (const extra of [['--lr', '10'], ['--lr', '3', '--divisor', '1'], ['--lr', '10', '--divisor', 'qknorm'],
    ['--lr', '10', '--task', 'copy']]) {
    const args = ['train', ...DIVERGING, ...extra, '--steps', '40', '--log-every', '1'];
    const r = run(args);
    const what = args.join(' ');
    assert.equal(r.status, 0, `${what}: ${r.err}`);
    const m = r.err.match(DIVERGED_LINE);
    assert.ok(m, `${what}: stderr ${JSON.stringify(r.err)}`);
    const j = JSON.parse(r.out);
    const d = j.summary.diverged;
    assert.equal(d, Number(m[1]), what);
    assert.ok(Number.isInteger(d) && d >= 2 && d <= 20, `${what}: diverged at ${d}`);
    for (const row of j.metrics) {
      const values = Object.entries(row).filter(([k]) => k !== 'step').map(([, v]) => v);
      assert.equal(values.every(Number.isFinite), row.step < d, `${what}: step ${row.step}, diverged at ${d}`);
      // No number made from a broken input: non-finite logits give null attention statistics
      // (they read 0.0 before), a null loss a null accuracy.
      if (row.logit_max_abs === null)
        for (const k of ['attn_entropy', 'attn_max', 'attn_correct', 'logit_spread']) assert.equal(row[k], null, `${what}: step ${row.step} ${k}`);
      if (row.loss === null) assert.equal(row.accuracy, null, `${what}: step ${row.step}`);
    }
    assert.ok(Object.values(j.metrics.at(-1)).slice(1).every((v) => v === null), `${what}: the last step`);
    for (const k of ['final_loss', 'final_accuracy', 'final_attn_correct']) assert.equal(j.summary[k], null, `${what} ${k}`);
    assert.equal(j.summary.steps_to_90, null);
  }
  // CSV: the same step as a key, empty cells for the nulls.
  const c = run(['train', ...DIVERGING, '--lr', '10', '--steps', '40', '--log-every', '10', '--format', 'csv']);
  assert.equal(c.status, 0);
  assert.match(c.err, DIVERGED_LINE);
  const [table, summary] = c.out.trimEnd().split('\n\n');
  const kv = Object.fromEntries(summary.split('\n').slice(1).map((l) => l.split(',')));
  assert.ok(Number(kv.diverged) >= 2, kv.diverged);
  assert.equal(kv.final_loss, 'nan');
  const last = table.split('\n').at(-1).split(',');
  assert.equal(last[0], '40');
  assert.ok(last.slice(1).every((x) => x === 'nan'), last.join(','));
});

test('a healthy run: diverged is null and stderr stays empty', () => {
  const r = json(['train', ...DIVERGING, '--lr', '0.05', '--steps', '40']);
  assert.equal(r.summary.diverged, null);
  assert.ok(r.metrics.every((row) => Object.values(row).every(Number.isFinite)));
});

test('sweep: a diverged run gets its step in its row and one line of its own on stderr', () => {
  const r = run(['sweep', '--dks', '16', '--divisors', 'sqrt,1', '--optimizers', 'adam,sgd', '--lr-sgd', '10',
    '--steps', '40', '--eval', '64', '--heads', '1', '--batch', '8']);
  assert.equal(r.status, 0, r.err);
  const rows = r.out.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(rows.map((x) => x.optimizer), ['adam', 'sgd', 'adam', 'sgd']);
  const lines = r.err.trimEnd().split('\n');
  assert.equal(lines.length, 2, r.err);
  rows.forEach((x) => {
    if (x.optimizer === 'adam') {
      assert.equal(x.diverged, null);
      assert.ok(Number.isFinite(x.final_loss));
    } else {
      assert.ok(Number.isInteger(x.diverged), JSON.stringify(x));
      assert.equal(x.final_loss, null);
      assert.equal(x.logit_spread_last, null);
      assert.ok(lines.some((l) => l.startsWith(`attnlab: run `) && l.includes(`divisor ${x.divisor}, sgd, lr 10, seed 0) diverged at step ${x.diverged}: `)), r.err);
    }
  });
});

// Each bad option: exit status 2, one line on stderr naming it, nothing on stdout.
const BAD = [
  [['train', '--dk', '0'], /--dk must be an integer in \[1, 1024\], got 0/],
  [['train', '--dk', '2000'], /--dk/],
  [['train', '--dk', '-3'], /--dk/],
  [['train', '--dk', '1.5'], /--dk/],
  [['train', '--divisor', '0'], /divisor must be 'sqrt', 'dk', 'qknorm' or a number/],
  [['train', '--divisor', '-1'], /divisor/],
  [['train', '--divisor', 'qk'], /divisor .*got 'qk'/],
  [['train', '--divisor', ''], /divisor/],
  [['train', '--optimizer', 'rmsprop'], /optimizer must be 'adam' or 'sgd', got 'rmsprop'/],
  [['train', '--lr', '-1'], /--lr must be a number in \(0, 10\], got -1/],
  [['train', '--lr', '0'], /--lr/],
  [['train', '--lr', 'nan'], /--lr must be a finite number/],
  [['train', '--lr', '11'], /--lr/],
  [['train', '--steps', '0'], /--steps must be an integer in \[1, 1000000\], got 0/],
  [['train', '--batch', '0'], /--batch must be an integer in \[1, 1024\], got 0/],
  [['train', '--heads', '0'], /--heads must be an integer in \[1, 16\], got 0/],
  [['train', '--dmodel', '0'], /--dmodel/],
  [['train', '--dv', '0'], /--dv/],
  [['train', '--task', 'nope'], /task must be 'recall' or 'copy', got 'nope'/],
  [['train', '--format', 'xml'], /--format must be 'json' or 'csv', got 'xml'/],
  [['train', '--init', 'he'], /init must be/],
  [['train', '--seed', '-1'], /--seed/],
  [['train', '--log-every', '0'], /--log-every/],
  [['train', '--eval', '0'], /--eval/],
  [['train', '--heads', '16', '--dk', '1024'], /heads\*dk must be at most 4096/],
  [['train', '--batch', '1024', '--heads', '4', '--dk', '1024'], /batch\*positions\*heads\*dk/],
  [['train', '--bogus', '1'], /unknown option '--bogus'/],
  [['train', '--dk'], /needs a value/],
  [['train', '--dk', '64', '--dk', '32'], /twice/],
  [['sweep', '--dks', '64,0'], /--dks must be an integer/],
  [['sweep', '--dks', '64,,128'], /empty item/],
  [['sweep', '--divisors', 'sqrt,qk'], /divisor/],
  [['sweep', '--optimizers', 'adam,rmsprop'], /optimizer/],
  [['sweep', '--seeds', 'x'], /--seeds/],
  [['sweep', '--lr-sgd', '-1'], /--lr-sgd/],
  [['sweep', '--format', 'xml'], /--format/],
  [['sweep', '--steps', '0'], /--steps/],
];

test('bad options exit with status 2 and one line on stderr', () => {
  for (const [args, re] of BAD) {
    const r = run(args);
    const what = args.join(' ');
    assert.equal(r.signal, null, `${what}: killed by a signal`);
    assert.equal(r.status, 2, `${what}: status ${r.status}, stderr ${r.err}`);
    assert.equal(r.out, '', `${what}: printed to stdout`);
    const lines = r.err.trimEnd().split('\n');
    assert.equal(lines.length, 1, `${what}: ${r.err}`);
    assert.match(lines[0], re, what);
  }
});

test('--help lists train and sweep', () => {
  const r = run(['--help']);
  assert.equal(r.status, 0);
  assert.match(r.out, /train +\[--task recall\|copy\]/);
  assert.match(r.out, /sweep +\[--dks/);
});

test('the mechanism per head: weight on the correct key, largest weight, frozen rows, Q/K gradient against step 1', () => {
  // d_k 256, Adam, the lab's task: divisor 1 against √d_k (issue 30's account).
  const runs = {};
  for (const div of ['1', 'sqrt'])
    runs[div] = json(['train', '--dk', '256', '--divisor', div, '--steps', '400', '--log-every', '40', '--eval', '256']);
  for (const [div, r] of Object.entries(runs)) {
    const first = r.metrics[0];
    for (const m of r.metrics) {
      const correct = [m.correct_h0, m.correct_h1], top = [m.attn_max_h0, m.attn_max_h1];
      // The per-head columns average to the totals, and are shares and weights.
      assert.ok(Math.abs((correct[0] + correct[1]) / 2 - m.attn_correct) <= 1e-5 * m.attn_correct + 1e-9, `${div} ${m.step}`);
      assert.ok(Math.abs((top[0] + top[1]) / 2 - m.attn_max) <= 1e-5 * m.attn_max, `${div} ${m.step}`);
      for (const h of [0, 1]) {
        assert.ok(m[`frozen_h${h}`] >= 0 && m[`frozen_h${h}`] <= 1);
        assert.ok(correct[h] <= top[h] + 1e-6, 'no key holds more than the largest weight');
        // ‖∂L/∂[W_Q, W_K]‖ of the head, over its value at step 1.
        const qk = (row) => Math.hypot(row[`grad_wq_h${h}`], row[`grad_wk_h${h}`]);
        const rel = m[`qk_grad_rel_h${h}`];
        assert.ok(Math.abs(rel - qk(m) / qk(first)) <= 1e-5 * rel, `${div} step ${m.step} head ${h}: ${rel}`);
      }
    }
    assert.equal(first.qk_grad_rel_h0, 1);
  }
  // Unscaled: almost one-hot from step 1 (largest weight 0.92, entropy 0.2 of ln 17), on a key
  // chosen by chance (weight on the correct one near 1/17); the logits grow tenfold and more, the
  // rows freeze, the Q/K gradient falls by orders of magnitude, and the run stays near chance.
  const one = runs['1'].metrics, last = one.slice(-5);
  for (const h of [0, 1]) {
    assert.ok(one[0][`attn_max_h${h}`] > 0.85 && one[0][`entropy_h${h}`] < 0.4, `÷1 step 1 head ${h}`);
    assert.ok(one[0][`correct_h${h}`] < 0.2, `÷1 step 1 head ${h}: by chance`);
    assert.ok(last.every((m) => m[`frozen_h${h}`] > 0.8), `÷1 head ${h} frozen: ${last.map((m) => m[`frozen_h${h}`])}`);
    assert.ok(Math.min(...one.map((m) => m[`qk_grad_rel_h${h}`])) < 1e-3, `÷1 head ${h}: the Q/K gradient falls`);
    assert.ok(last.reduce((s, m) => s + m[`correct_h${h}`], 0) / last.length < 0.2, `÷1 head ${h}: the correct key stays unread`);
  }
  assert.ok(one.at(-1).logit_max_abs > 20 * one[0].logit_max_abs, 'the largest logit grows');
  assert.ok(runs['1'].summary.final_accuracy < 0.2);
  // √d_k: spread attention at step 1, then the correct key, and the task learned.
  const s = runs.sqrt.metrics;
  assert.ok(s[0].attn_max_h0 < 0.4 && s[0].attn_max_h1 < 0.4, '÷√d_k step 1: not one-hot');
  assert.ok(s.at(-1).correct_h0 > 0.8 || s.at(-1).correct_h1 > 0.8, '÷√d_k: a head reads the answer');
  assert.ok(runs.sqrt.summary.final_accuracy > 0.9);
});
