// web/src/train/comparison.js without a page or workers: a fake pool records
// what the comparison asks and plays the workers' events back, and a fake
// clock drives its timing: active time less pauses, each run's pace, when a
// pause is done, and that a stopped comparison hears nothing more.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ROOT } from './paths.mjs';

const { Comparison, PACE_MS } = await import(path.join(ROOT, 'web/src/train/comparison.js'));
const { divisorOptions } = await import(path.join(ROOT, 'web/src/train/config.js'));

class FakePool {
  constructor() {
    this.runs = new Map();  // runId -> {index, spec, handlers}
    this.sent = [];         // [op, runId]
    this.next = 1;
  }
  run(index, spec, handlers) {
    const runId = this.next++;
    this.runs.set(runId, { index, spec, handlers });
    return runId;
  }
  pause(runId) { this.sent.push(['pause', runId]); }
  resume(runId) { this.sent.push(['resume', runId]); }
  drop(runId) { this.sent.push(['drop', runId]); }
  event(run, name, data = {}) { this.runs.get(run.runId).handlers[name]?.({ runId: run.runId, ...data }); }
}

const COLUMNS = ['step', 'loss'];
function setup({ steps = 100, divisors = ['sqrt', '2', '1'], workers = 2 } = {}) {
  const clock = { now: 1000 };
  const pool = new FakePool();
  const plan = {
    values: { task: 'recall', dk: '64', heads: '2', div: divisors.join(','), opt: 'adam', lr: '0.001', steps: String(steps), seed: '0' },
    steps, lr: 1e-3, auto: false,
    divisors: divisorOptions(new Set(divisors), []),
    config: { dk: 64, steps },
  };
  const cmp = new Comparison(plan, pool, { workers, clickAt: 1000, now: () => clock.now });
  const heard = [];
  cmp.on((type, d) => heard.push([type, d.run?.option ?? null]));
  cmp.start();
  return { clock, pool, cmp, heard };
}
const rows = (pool, run, stepsDone) => pool.event(run, 'rows', {
  rows: new Float64Array([stepsDone, 1 / stepsDone]), latest: new Float64Array([stepsDone, 1 / stepsDone]), stepsDone, busyMs: stepsDone,
});

test('a run per divisor, spread round-robin over the workers, with the plan\'s options', () => {
  const { pool, cmp } = setup();
  assert.deepEqual(cmp.runs.map((r) => [r.option, r.worker]), [['sqrt', 0], ['2', 1], ['1', 0]]);
  const specs = [...pool.runs.values()].map((r) => r.spec);
  assert.deepEqual(specs.map((s) => s.options.divisor), ['sqrt', '2', '1']);
  assert.deepEqual(specs.map((s) => [s.steps, s.options.dk, s.options.lr]), Array(3).fill([100, 64, 1e-3]));
});

test('events fill the runs and are told to listeners; the last run\'s end finishes the comparison', () => {
  const { clock, pool, cmp, heard } = setup({ divisors: ['sqrt', '1'] });
  const [a, b] = cmp.runs;
  pool.event(a, 'configured', { columns: COLUMNS, init: { varQ: 1 }, divisorValue: 8, map: null });
  assert.equal(a.divisorValue, 8);
  rows(pool, a, 5);
  rows(pool, a, 10);
  assert.deepEqual(a.data, { step: [5, 10], loss: [0.2, 0.1] });
  assert.equal(a.stepsDone, 10);
  assert.deepEqual(cmp.progress(), { done: 10, total: 200 });
  pool.event(a, 'done', { eval: { accuracy: 1 }, stepsTo90: 10, busyMs: 12 });
  assert.equal(cmp.done, false);
  clock.now = 4000;
  pool.event(b, 'failed', { error: 'out of memory' });
  assert.equal(b.failed, 'out of memory');
  assert.equal(cmp.totalMs, 3000);
  assert.deepEqual(heard, [['configured', 'sqrt'], ['rows', 'sqrt'], ['rows', 'sqrt'], ['done', 'sqrt'], ['failed', '1'], ['finished', null]]);
});

test('active time leaves out pauses; a pause is done when every live run has answered', () => {
  const { clock, pool, cmp, heard } = setup({ divisors: ['sqrt', '2'] });
  const [a, b] = cmp.runs;
  clock.now = 3000;
  assert.equal(cmp.activeMs(), 2000);
  assert.equal(cmp.busy, true);
  cmp.togglePause();
  assert.deepEqual(pool.sent, [['pause', a.runId], ['pause', b.runId]]);
  assert.equal(cmp.busy, false);
  clock.now = 10_000;
  assert.equal(cmp.activeMs(), 2000, 'the clock stands still while paused');
  pool.event(a, 'paused');
  assert.ok(!heard.some(([type]) => type === 'paused'), 'one run has yet to answer');
  pool.event(b, 'paused');
  assert.deepEqual(heard.map(([type]) => type), ['pausing', 'paused']);
  pool.event(b, 'paused');
  assert.equal(heard.length, 2, 'a pause is acknowledged once');
  cmp.togglePause();
  assert.deepEqual(pool.sent.slice(2), [['resume', a.runId], ['resume', b.runId]]);
  clock.now = 11_000;
  assert.equal(cmp.activeMs(), 3000);
  assert.equal(cmp.pausedMs, 7000);
});

test('a run ending while the others pause counts as its answer', () => {
  const { pool, cmp, heard } = setup({ divisors: ['sqrt', '2'] });
  const [a, b] = cmp.runs;
  pool.event(a, 'configured', { columns: COLUMNS, init: {}, divisorValue: 8 });
  cmp.togglePause();
  pool.event(b, 'paused');
  pool.event(a, 'done', { eval: {}, stepsTo90: 0, busyMs: 1 });
  assert.ok(heard.some(([type]) => type === 'paused'));
});

test('pace: wall-clock steps per second over the last few seconds, none while paused or after a pause', () => {
  const { clock, pool, cmp } = setup({ steps: 1000, divisors: ['sqrt'] });
  const [a] = cmp.runs;
  pool.event(a, 'configured', { columns: COLUMNS, init: {}, divisorValue: 8 });
  rows(pool, a, 1);
  assert.equal(cmp.paceOf(a), null, 'one point: no rate yet');
  clock.now += 100;
  rows(pool, a, 11);
  assert.equal(cmp.paceOf(a), null, 'under 200 ms: too soon to tell');
  clock.now += 900;
  rows(pool, a, 101);
  assert.deepEqual(cmp.paceOf(a), { rate: 100, left: 8.99 });
  // Points older than PACE_MS go, but for the last one before the window (so a
  // rate spans at least PACE_MS once there is that much): 101 -> 211 over 5 s.
  clock.now += PACE_MS + 1000;
  rows(pool, a, 201);
  clock.now += 1000;
  rows(pool, a, 211);
  assert.equal(a.pace.length, 3);
  assert.equal(cmp.paceOf(a).rate, 22);
  cmp.togglePause();
  assert.equal(cmp.paceOf(a), null, 'paused');
  cmp.togglePause();
  assert.equal(a.pace.length, 0, 'a pause is no part of the pace');
  clock.now += 500;
  rows(pool, a, 221);
  assert.equal(cmp.paceOf(a), null);
});

test('stop drops every run, and later events change nothing', () => {
  const { pool, cmp, heard } = setup({ divisors: ['sqrt', '2'] });
  const [a] = cmp.runs;
  cmp.stop();
  assert.deepEqual(pool.sent.map(([op]) => op), ['drop', 'drop']);
  pool.event(a, 'configured', { columns: COLUMNS, init: {}, divisorValue: 8 });
  assert.equal(a.columns, null);
  assert.deepEqual(heard, []);
  cmp.togglePause();
  assert.equal(cmp.paused, false);
});
