// The lab's training ops (web/src/train/train-ops.js) outside any worker, as
// the main-thread fallback runs them: a run streams its rows in batches of
// about targetMs, yields between them (a pause sent mid-run holds it within a
// batch), ends with the core's evaluation, and gives the same numbers as a
// TrainSession driven directly; a bad option comes back as 'failed' with the
// core's message and argument.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ROOT, loadWasm } from './paths.mjs';

const { createTrainOps, MAIN_THREAD_TARGET_MS } = await import(path.join(ROOT, 'web/src/train/train-ops.js'));

const OPTIONS = {
  task: 'recall', dk: 16, heads: 2, dModel: 64, dv: 32, batch: 64, init: 'lecun', logEvery: 5,
  divisor: 'sqrt', optimizer: 'adam', lr: 5e-4, seed: 0,
};

// The loop's yield, as in the browser (a MessageChannel message), on a channel closed at the end so Node can exit.
const channel = new MessageChannel();
const wakers = [];
channel.port1.onmessage = () => wakers.shift()?.();
const nextTask = () => new Promise((resolve) => {
  wakers.push(resolve);
  channel.port2.postMessage(0);
});
after(() => channel.port1.close());

function makeOps(targetMs = MAIN_THREAD_TARGET_MS) {
  const events = [];
  const waiters = [];
  const emit = (event, payload) => {
    events.push({ event, ...payload });
    for (const w of [...waiters]) if (w.test({ event, ...payload })) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  const ops = createTrainOps(emit, { targetMs, warmSteps: 2, load: () => loadWasm('lab', 'simd'), nextTask });
  const until = (test) => new Promise((resolve) => {
    if (events.some(test)) return resolve();
    waiters.push({ test, resolve });
  });
  return { ops, events, until };
}

test('a run streams its rows in timed batches and ends with the core\'s evaluation', async () => {
  const { ops, events, until } = makeOps();
  const info = await ops.init('simd');
  assert.equal(info.simd, true);
  assert.deepEqual(await ops.validate([OPTIONS, { ...OPTIONS, dk: 0 }]).then((v) => v.map((r) => r.argument)), ['', 'dk']);
  const steps = 120;
  await ops.start({ runId: 7, options: OPTIONS, steps, mapEvery: steps + 1, evalSamples: 256, keep: false });
  await until((e) => e.runId === 7 && (e.event === 'done' || e.event === 'failed'));
  const mine = events.filter((e) => e.runId === 7);
  assert.equal(mine[0].event, 'configured');
  const rows = mine.filter((e) => e.event === 'rows');
  assert.equal(mine.at(-1).event, 'done');
  assert.equal(rows.at(-1).stepsDone, steps);
  assert.equal(rows[0].stepsDone, 1, 'the first batch is one step: the first point comes at once');
  assert.ok(rows.length > 2, `${rows.length} batches`);
  // Every step is logged every 5 steps (and the first): the rows add up.
  const cols = mine[0].columns.length;
  const flat = rows.flatMap((r) => [...r.rows]);
  assert.equal(flat.length % cols, 0);
  const stepCol = mine[0].columns.indexOf('step');
  const loggedSteps = [];
  for (let i = 0; i < flat.length; i += cols) loggedSteps.push(flat[i + stepCol]);
  assert.deepEqual(loggedSteps, [...loggedSteps].sort((a, b) => a - b));
  assert.equal(loggedSteps.at(-1), steps);

  // The same run, stepped directly: the same final evaluation, bit for bit.
  const M = await loadWasm('lab', 'simd');
  const s = new M.TrainSession();
  assert.equal(s.configure(OPTIONS).error, '');
  assert.equal(s.step(steps).error, '');
  const ev = s.evaluate(256);
  assert.deepEqual(mine.at(-1).eval, ev.eval);
  assert.equal(mine.at(-1).stepsTo90, s.stepsTo90());
  s.delete();
});

test('batches aim at targetMs, and a pause sent mid-run holds the run within a batch', async () => {
  const { ops, events, until } = makeOps(5);
  await ops.init('simd');
  await ops.start({ runId: 1, options: { ...OPTIONS, dk: 64 }, steps: 100_000, mapEvery: 100_001, evalSamples: 64, keep: true });
  await until((e) => e.runId === 1 && e.event === 'rows' && e.stepsDone > 20);
  ops.pause(1);
  const paused = events.find((e) => e.event === 'paused');
  assert.ok(paused, 'paused at once');
  await new Promise((r) => setTimeout(r, 50));
  const last = events.filter((e) => e.event === 'rows').at(-1).stepsDone;
  assert.ok(last - paused.stepsDone <= 50, `at most one batch after the pause (${paused.stepsDone} -> ${last})`);
  const held = events.length;
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(events.length, held, 'nothing more while paused');
  // The batches after the first few: each one core call of roughly targetMs.
  const rows = events.filter((e) => e.event === 'rows').slice(3);
  const perBatch = rows.map((r, i) => (i ? r.busyMs - rows[i - 1].busyMs : null)).filter((x) => x !== null);
  const median = perBatch.sort((a, b) => a - b)[Math.floor(perBatch.length / 2)];
  assert.ok(median < 5 * 4, `median batch ${median.toFixed(1)} ms for a 5 ms target`);
  ops.drop(1);
});

test('a bad option fails the run with the core\'s message and argument', async () => {
  const { ops, events, until } = makeOps();
  await ops.init('simd');
  await ops.start({ runId: 3, options: { ...OPTIONS, optimizer: 'lion' }, steps: 10, mapEvery: 11, evalSamples: 64, keep: false });
  await until((e) => e.runId === 3);
  const f = events.find((e) => e.runId === 3);
  assert.equal(f.event, 'failed');
  assert.equal(f.argument, 'optimizer');
  assert.match(f.error, /optimi[sz]er/i);
});

// A diverging run (issue 14, class 5): the ops stop it at the batch where it
// diverged (no step after it is wasted), say so in 'done' (diverged: the
// session's step, eval null: its weights are no longer finite), and its rows
// from that step on hold NaN where the CLI prints null; a healthy run says diverged 0.
test('a diverging run stops at its batch and reports the step; its metrics after it are NaN', async () => {
  const DIVERGING = { ...OPTIONS, dk: 16, heads: 1, batch: 8, optimizer: 'sgd', logEvery: 1 };
  for (const [lr, divisor] of [[10, 'sqrt'], [3, '1'], [10, 'qknorm']]) {
    const options = { ...DIVERGING, lr, divisor };
    const { ops, events, until } = makeOps();
    await ops.init('simd');
    const steps = 5000;
    await ops.start({ runId: 9, options, steps, mapEvery: steps + 1, evalSamples: 64, keep: false });
    await until((e) => e.runId === 9 && (e.event === 'done' || e.event === 'failed'));
    const done = events.find((e) => e.event === 'done');
    assert.ok(done, `lr ${lr}, ${divisor}: done`);
    // The step a TrainSession stepped directly reports.
    const M = await loadWasm('lab', 'simd');
    const s = new M.TrainSession();
    s.configure(options);
    s.step(60);
    const d = s.divergedAt();
    s.delete();
    assert.ok(d >= 2 && d <= 60, `lr ${lr}, ${divisor}: diverged at ${d}`);
    assert.equal(done.diverged, d, `lr ${lr}, ${divisor}`);
    assert.equal(done.eval, null);
    const rows = events.filter((e) => e.event === 'rows');
    const last = rows.at(-1).stepsDone;
    assert.ok(last >= d && last < d + 50, `stopped within the batch of step ${d}, at ${last} of ${steps}`);
    const cols = events[0].columns;
    const flat = rows.flatMap((r) => [...r.rows]);
    for (let i = 0; i < flat.length; i += cols.length) {
      const step = flat[i];
      const values = flat.slice(i + 1, i + cols.length);
      // From the diverged step on some metric is NaN (what the CLI prints as null); before it, none.
      assert.equal(values.every(Number.isFinite), step < d, `step ${step}: ${values}`);
    }
    assert.ok(flat.slice(-cols.length + 1).every(Number.isNaN), 'the last row: every metric NaN');
  }
  const { ops, events, until } = makeOps();
  await ops.init('simd');
  await ops.start({ runId: 4, options: OPTIONS, steps: 30, mapEvery: 31, evalSamples: 64, keep: false });
  await until((e) => e.runId === 4 && e.event === 'done');
  const done = events.find((e) => e.event === 'done');
  assert.equal(done.diverged, 0);
  assert.ok(Number.isFinite(done.eval.accuracy));
});

// The stabilisers through the ops (issue 15): softcap and qkClip are optional
// fields of the options (absent: 0, off), checked for their type here and for
// their range by the core; a capped and clipped run streams the rows and the
// evaluation a TrainSession driven directly gives, and 'done' counts the
// clipped steps; the cap's range comes from the core.
test('stabilisers: a soft-capped, QK-clipped run as the session gives it; their refusals; the cap\'s range', async () => {
  const { ops, events, until } = makeOps();
  await ops.init('simd');
  const stab = { ...OPTIONS, divisor: '1', softcap: 4, qkClip: 3, lr: 0.01 };
  const verdicts = await ops.validate([OPTIONS, stab, { ...OPTIONS, softcap: 1e-4 }, { ...OPTIONS, qkClip: 1e5 },
    { ...OPTIONS, softcap: '4' }, { ...OPTIONS, softcap: 0, qkClip: 0 }, { ...OPTIONS, init: 't5' }]);
  assert.deepEqual(verdicts.map((r) => [r.argument, r.kind]),
    [['', ''], ['', ''], ['softcap', 'range'], ['qk_clip', 'range'], ['softcap', 'type'], ['', ''], ['', '']]);
  const steps = 60;
  await ops.start({ runId: 11, options: stab, steps, mapEvery: steps + 1, evalSamples: 128, keep: false });
  await until((e) => e.runId === 11 && (e.event === 'done' || e.event === 'failed'));
  const mine = events.filter((e) => e.runId === 11);
  const done = mine.at(-1);
  assert.equal(done.event, 'done', JSON.stringify(done));
  const cols = mine[0].columns;
  const flat = mine.filter((e) => e.event === 'rows').flatMap((r) => [...r.rows]);

  const M = await loadWasm('lab', 'simd');
  const s = new M.TrainSession();
  assert.equal(s.configure(stab).error, '');
  assert.equal(s.step(steps).error, '');
  assert.deepEqual(flat, [...s.metrics(0)], 'the rows, bit for bit');
  assert.deepEqual(done.eval, s.evaluate(128).eval);
  assert.equal(done.qkClips, s.qkClips());
  assert.ok(done.qkClips > 0, 'the clip acted');
  s.delete();
  const at = (name) => cols.indexOf(name);
  for (let i = 0; i < flat.length; i += cols.length) {
    assert.ok(flat[i + at('logit_max_abs')] <= 4, 'the softmax sees no logit beyond the cap');
    assert.ok(flat[i + at('max_logit_h0')] <= 3 * (1 + 1e-5) && flat[i + at('max_logit_h1')] <= 3 * (1 + 1e-5), 'no head past τ');
  }
  // A run without them: 0 clips.
  await ops.start({ runId: 12, options: OPTIONS, steps: 10, mapEvery: 11, evalSamples: 64, keep: false });
  await until((e) => e.runId === 12 && e.event === 'done');
  assert.equal(events.find((e) => e.runId === 12 && e.event === 'done').qkClips, 0);

  const L = await ops.limits();
  assert.deepEqual([L.minCap, L.maxCap], [1e-3, 1e4]);
});
