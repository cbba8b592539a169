// The training lab in wasm (TrainSession): the same seed gives the same
// curves as the native CLI (the float training path sums in one order in
// every build, so the runs agree bit for bit; the CLI prints 7 digits), errors
// come back as strings, views have the documented shapes; and the speed of
// the default configuration, native and wasm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, loadWasm } from './paths.mjs';

// The training lab's module (lab.html), in both builds.
const simd = await loadWasm('lab', 'simd');
const scalar = await loadWasm('lab', 'scalar');
const OK = { error: '', argument: '', kind: '', params: '' };

function cli(args) {
  const r = spawnSync(CLI, args, { encoding: 'utf8', timeout: 300_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const OPTIONS = {
  task: 'recall', dk: 64, heads: 2, dModel: 32, dv: 16, divisor: 'sqrt', optimizer: 'adam',
  lr: 4e-3, init: 'lecun', batch: 32, seed: 3, logEvery: 1,
};
const CLI_ARGS = ['--dk', '64', '--heads', '2', '--dmodel', '32', '--dv', '16', '--optimizer',
  'adam', '--lr', '0.004', '--batch', '32', '--seed', '3', '--log-every', '1', '--eval', '512'];

// Runs a session; returns its rows as objects keyed by column name, and the session.
function train(M, options, steps) {
  const s = new M.TrainSession();
  assert.deepEqual(s.configure(options), OK);
  assert.deepEqual(s.step(steps), OK);
  const cols = JSON.parse(s.columnsJson());
  const flat = s.metrics(0).slice();
  assert.equal(flat.length, s.rowCount() * s.columns());
  const rows = [];
  for (let i = 0; i < s.rowCount(); i++)
    rows.push(Object.fromEntries(cols.map((c, j) => [c, flat[i * cols.length + j]])));
  return { s, rows };
}

function closeRows(a, b, rel, abs, what) {
  assert.equal(a.length, b.length, what);
  a.forEach((ra, i) => {
    for (const k of Object.keys(ra)) {
      const x = ra[k], y = b[i][k];
      assert.ok(Math.abs(x - y) <= rel * Math.abs(y) + abs,
        `${what}: step ${ra.step} ${k}: ${x} vs ${y}`);
    }
  });
}

for (const divisor of ['sqrt', '1', 'qknorm']) {
  test(`native and wasm give the same curves for a seed (divisor ${divisor})`, () => {
    const native = cli(['train', ...CLI_ARGS, '--divisor', divisor, '--steps', '30']);
    const runs = [];
    for (const [name, M] of [['simd', simd], ['scalar', scalar]]) {
      const { s, rows } = train(M, { ...OPTIONS, divisor }, 30);
      const rel = 1e-6;  // the CLI's 7 significant digits
      closeRows(rows, native.metrics, rel, 1e-12, `${name} vs native`);
      runs.push(rows);
      const { error, eval: e } = s.evaluate(512);
      assert.equal(error, '');
      assert.ok(Math.abs(e.loss - native.summary.final_loss) <= rel * native.summary.final_loss + 1e-12,
        `${name} eval loss ${e.loss} vs ${native.summary.final_loss}`);
      const { stats: init } = s.initStats();
      assert.ok(Math.abs(init.varQk - native.init.var_qk) <= 1e-6 * native.init.var_qk);
      assert.equal(s.stepsTo90(), native.summary.steps_to_90 ?? 0);
      s.delete();
    }
    assert.deepEqual(runs[0], runs[1], 'SIMD and scalar wasm builds: the same run, bit for bit');
  });
}

// Past convergence the float path flushes subnormals (flush_subnormals.h): the
// default configuration by step 400 holds thousands of values it flushes. The
// flush is the same code in every build, so the runs still agree bit for bit.
test('native and wasm agree through convergence, where the subnormal flush acts (d_k 256, 400 steps)', () => {
  const defaults = { ...OPTIONS, dk: 256, dModel: 64, dv: 32, batch: 64, lr: 8e-3, seed: 0, logEvery: 50 };
  const native = cli(['train', '--steps', '400', '--log-every', '50', '--eval', '64']);
  const runs = [];
  for (const [name, M] of [['simd', simd], ['scalar', scalar]]) {
    const { s, rows } = train(M, defaults, 400);
    closeRows(rows, native.metrics, 1e-6, 1e-12, `${name} vs native`);
    assert.equal(rows.at(-1).accuracy, 1, 'the run has learned');
    runs.push(rows);
    s.delete();
  }
  assert.deepEqual(runs[0], runs[1], 'SIMD and scalar wasm builds: the same run, bit for bit');
});

test('the same seed twice in wasm is the same run, bit for bit', () => {
  const a = train(simd, OPTIONS, 15), b = train(simd, OPTIONS, 15);
  assert.deepEqual(a.rows, b.rows);
  a.s.delete();
  b.s.delete();
});

// A diverging run (issue 14, class 5): the session reports the step the CLI
// reports, and the metrics after it are NaN in every build, as the CLI's null.
test('a diverging run: divergedAt() is the CLI\'s step; metrics and evaluation after it are NaN', () => {
  for (const [lr, divisor] of [[10, 'sqrt'], [3, '1'], [10, 'qknorm']]) {
    const native = cli(['train', '--dk', '16', '--heads', '1', '--dmodel', '64', '--dv', '64', '--batch', '8',
      '--optimizer', 'sgd', '--lr', `${lr}`, '--divisor', divisor, '--steps', '30', '--log-every', '1', '--eval', '64',
      '--seed', '3']);
    const d = native.summary.diverged;
    assert.ok(Number.isInteger(d), `lr ${lr}, ${divisor}: the CLI run diverged`);
    for (const M of [simd, scalar]) {
      const { s, rows } = train(M, { ...OPTIONS, dk: 16, heads: 1, dModel: 64, dv: 64, batch: 8, optimizer: 'sgd',
        lr, divisor, logEvery: 1 }, 30);
      assert.equal(s.divergedAt(), d, `lr ${lr}, ${divisor}`);
      for (const row of rows) {
        const values = Object.entries(row).filter(([k]) => k !== 'step').map(([, v]) => v);
        assert.equal(values.every(Number.isFinite), row.step < d, `step ${row.step}`);
        // Logits that are not all finite give no attention statistics; a loss that is not finite, no accuracy.
        if (!Number.isFinite(row.logit_max_abs))
          for (const k of ['attn_entropy', 'attn_max', 'attn_correct', 'logit_spread']) assert.ok(Number.isNaN(row[k]), `step ${row.step} ${k}`);
        if (!Number.isFinite(row.loss)) assert.ok(Number.isNaN(row.accuracy), `step ${row.step} accuracy`);
        // Where the CLI prints null the session holds NaN, and nowhere else.
        const nrow = native.metrics[row.step - 1];
        for (const [k, v] of Object.entries(row)) assert.equal(Number.isNaN(v), nrow[k] === null, `step ${row.step} ${k}`);
      }
      assert.ok(Object.values(rows.at(-1)).slice(1).every(Number.isNaN), 'by the last step every metric is NaN');
      const e = s.evaluate(64);
      assert.equal(e.error, '');
      assert.ok(Number.isNaN(e.eval.loss) && Number.isNaN(e.eval.accuracy) && Number.isNaN(e.eval.attnCorrect));
      s.delete();
    }
  }
  const { s } = train(simd, OPTIONS, 20);
  assert.equal(s.divergedAt(), 0, 'a run that trains has not diverged');
  s.delete();
  assert.equal(new simd.TrainSession().divergedAt(), 0, 'nor has a session with no run');
});

test('errors come back as strings naming the argument, never as exceptions', () => {
  const s = new simd.TrainSession();
  assert.deepEqual(s.step(1), { error: 'configure() must succeed before use', argument: 'session', kind: 'state', params: '' });
  const bad = [
    [{ dk: 0 }, 'dk', /dk must be an integer in \[1, 1024\], got 0/],
    [{ dk: 2.5 }, 'dk', /dk/],
    [{ heads: 0 }, 'heads', /heads/],
    [{ dModel: -1 }, 'dModel', /dModel/],
    [{ divisor: '0' }, 'divisor', /divisor must be/],
    [{ divisor: 'qk' }, 'divisor', /got 'qk'/],
    [{ optimizer: 'rmsprop' }, 'optimizer', /rmsprop/],
    [{ lr: -1 }, 'lr', /lr must be a number in \(0, 10\], got -1/],
    [{ lr: NaN }, 'lr', /lr/],
    [{ batch: 0 }, 'batch', /batch/],
    [{ task: 'nope' }, 'task', /task/],
    [{ init: 'he' }, 'init', /init/],
    [{ seed: -1 }, 'seed', /seed/],
    [{ logEvery: 0 }, 'logEvery', /logEvery/],
    [{ heads: 16, dk: 1024 }, 'heads*dk', /heads\*dk/],
  ];
  for (const [change, arg, re] of bad) {
    const status = s.configure({ ...OPTIONS, ...change });
    assert.match(status.error, re, JSON.stringify(change));
    assert.equal(status.argument, arg, JSON.stringify(change));
    assert.match(s.step(1).error, /configure\(\) must succeed/, 'a failed configure leaves no session');
  }
  assert.deepEqual(s.configure(OPTIONS), OK);
  assert.deepEqual(s.step(0), { error: 'count must be an integer in [1, 1000000], got 0', argument: 'count', kind: 'range', params: '{"lo":1,"hi":1000000,"value":0,"integer":true}' });
  assert.equal(s.evaluate(0).argument, 'samples');
  assert.match(s.evaluate(0).error, /samples/);
  assert.match(s.qkSnapshot(1000).error, /samples/);
  assert.equal(s.qkSnapshot(1000).argument, 'samples');
  assert.equal(s.metrics(5).length, 0, 'rows past the end: an empty view');
  s.delete();
  const lr = simd.trainReferenceLr('sgd', 256, 64);
  assert.equal(lr.error, '');
  assert.ok(Math.abs(lr.lr - 0.8) < 1e-12);
  assert.match(simd.trainReferenceLr('rmsprop', 256, 64).error, /optimizer/);
  assert.equal(simd.trainReferenceLr('rmsprop', 256, 64).argument, 'optimizer');
  // The lab's init-checkpoint band and limits come from the core, not from copies in JS.
  assert.deepEqual(simd.trainLimits(), { maxDk: 1024, maxHeads: 16, maxStepsPerCall: 1e6, maxSeed: 2 ** 53 - 1,
    initBandLow: 0.5, initBandHigh: 2 });
});

test('maps, snapshots and the latest row have the documented shapes', () => {
  const { s } = train(simd, { ...OPTIONS, logEvery: 10 }, 12);
  assert.equal(s.rowCount(), 2);
  assert.equal(s.metrics(1)[0], 10);
  assert.equal(s.latest()[0], 12);
  assert.equal(s.divisorValue(), 8);
  const m = s.attentionMaps();
  assert.equal(m.error, '');
  assert.deepEqual([m.samples, m.heads, m.seq], [8, 2, 17]);
  const w = s.mapWeights().slice();
  assert.equal(w.length, 8 * 2 * 17);
  for (let r = 0; r < 16; r++) {
    const sum = w.slice(r * 17, r * 17 + 17).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-5);
  }
  const labels = s.mapLabels().slice();
  assert.equal(labels.length, 2 * 8 * 17 + 3 * 8);
  const answers = labels.slice(2 * 8 * 17 + 8, 2 * 8 * 17 + 16);
  answers.forEach((a) => assert.ok(a >= 0 && a < 16));
  const q = s.qkSnapshot(4);
  assert.deepEqual([q.samples, q.heads, q.seq, q.dk], [4, 2, 17, 64]);
  assert.equal(s.snapshotQ().length, 4 * 2 * 64);
  assert.equal(s.snapshotK().length, 4 * 17 * 2 * 64);
  assert.equal(s.snapshotLogits().length, 4 * 2 * 17);
  s.delete();
});

test('many sessions do not grow wasm memory without bound', () => {
  const before = simd.HEAP8.length;
  for (let i = 0; i < 30; i++) {
    const s = new simd.TrainSession();
    s.configure(OPTIONS);
    s.step(2);
    s.attentionMaps();
    s.delete();
  }
  assert.equal(simd.HEAP8.length, before);
});

// The default configuration (recall, d_k 256, 2 heads, d_model 64, dv 32,
// batch 64, Adam): steps per second, reported, not asserted (shared machine).
test('speed of the default configuration, native and wasm', (t) => {
  const defaults = { ...OPTIONS, dk: 256, dModel: 64, dv: 32, batch: 64, lr: 8e-3, seed: 0, logEvery: 10 };
  const native = cli(['train', '--steps', '300', '--log-every', '100', '--eval', '64']);
  const out = [`native (${native.config.kernel}): ${native.summary.steps_per_second.toFixed(1)} steps/s`];
  for (const [name, M] of [['simd', simd], ['scalar', scalar]]) {
    const s = new M.TrainSession();
    assert.deepEqual(s.configure(defaults), OK);
    s.step(30);  // warm-up: V8 tiers the hot kernels up from its baseline compiler
    const t0 = performance.now();
    assert.deepEqual(s.step(300), OK);
    const sps = 300 / ((performance.now() - t0) / 1000);
    out.push(`wasm ${name}: ${sps.toFixed(1)} steps/s (${(sps / native.summary.steps_per_second).toFixed(2)}x native; ` +
      `3 runs x 1500 steps ≈ ${(4500 / sps).toFixed(0)} s in one worker)`);
    s.delete();
  }
  for (const line of out) t.diagnostic(line);
  console.log(out.join('\n'));
});

// The stabilisers (issue 15): configure()'s optional softcap and qkClip, and
// init 't5', give the native CLI's curves for the same options, per-head
// columns and the count of clipped steps included; SIMD and scalar agree bit
// for bit. Options from before them (no softcap, no qkClip) still configure.
const STAB_CASES = [
  ['soft-cap 2 (divisor 1)', { divisor: '1', softcap: 2 }, ['--divisor', '1', '--softcap', '2']],
  ['soft-cap 0.7 with QK-LayerNorm', { divisor: 'qknorm', softcap: 0.7 }, ['--divisor', 'qknorm', '--softcap', '0.7']],
  ['QK-clip τ 3 (divisor 1, lr 0.02)', { divisor: '1', qkClip: 3, lr: 0.02 }, ['--divisor', '1', '--qk-clip', '3', '--lr', '0.02']],
  ['QK-clip τ 2.5 with QK-LayerNorm', { divisor: 'qknorm', qkClip: 2.5, lr: 0.02 }, ['--divisor', 'qknorm', '--qk-clip', '2.5', '--lr', '0.02']],
  ['both, with T5 init', { divisor: '1', softcap: 5, qkClip: 2, init: 't5', lr: 0.02 },
    ['--divisor', '1', '--softcap', '5', '--qk-clip', '2', '--init', 't5', '--lr', '0.02']],
];
for (const [what, change, args] of STAB_CASES) {
  test(`native and wasm give the same curves with the stabilisers: ${what}`, () => {
    // CLI_ARGS' --lr comes first; a later --lr is refused, so replace it.
    const base = args.includes('--lr') ? CLI_ARGS.filter((x, i, a) => x !== '--lr' && a[i - 1] !== '--lr') : CLI_ARGS;
    const native = cli(['train', ...base, ...args, '--steps', '40']);
    if (change.qkClip) assert.ok(native.summary.qk_clips > 0, `${what}: the clip acts in this run`);
    if (change.softcap && !change.qkClip) assert.ok(Math.max(...native.metrics.map((m) => m.max_logit_h0)) > change.softcap, `${what}: logits pass the cap`);
    const runs = [];
    for (const [name, M] of [['simd', simd], ['scalar', scalar]]) {
      const { s, rows } = train(M, { ...OPTIONS, ...change }, 40);
      assert.ok('max_logit_h1' in rows[0] && 'entropy_h1' in rows[0], 'per-head columns');
      closeRows(rows, native.metrics, 1e-6, 1e-12, `${name} vs native`);
      assert.equal(s.qkClips(), native.summary.qk_clips, `${name}: clipped steps`);
      const { eval: e } = s.evaluate(512);
      assert.ok(Math.abs(e.loss - native.summary.final_loss) <= 1e-6 * native.summary.final_loss, `${name} eval loss`);
      if (change.softcap) for (const r of rows) assert.ok(r.logit_max_abs <= change.softcap, `${name}: softmax input within the cap`);
      if (change.qkClip) for (const r of rows) assert.ok(r.max_logit_h0 <= change.qkClip * (1 + 1e-5) && r.max_logit_h1 <= change.qkClip * (1 + 1e-5));
      runs.push(rows);
      s.delete();
    }
    assert.deepEqual(runs[0], runs[1], 'SIMD and scalar wasm builds: the same run, bit for bit');
  });
}

test('configure(): the stabilisers are optional (0 or absent: off), checked by the core, mistyped fields a Status', () => {
  const a = train(simd, OPTIONS, 12), b = train(simd, { ...OPTIONS, softcap: 0, qkClip: 0 }, 12);
  assert.deepEqual(b.rows, a.rows, 'softcap 0, qkClip 0: the run of options without them');
  assert.equal(a.s.qkClips(), 0);
  a.s.delete();
  b.s.delete();
  const s = new simd.TrainSession();
  for (const [change, arg] of [[{ softcap: 1e-4 }, 'softcap'], [{ softcap: -1 }, 'softcap'], [{ softcap: 2e4 }, 'softcap'],
    [{ softcap: NaN }, 'softcap'], [{ qkClip: 1e-4 }, 'qk_clip'], [{ qkClip: Infinity }, 'qk_clip']]) {
    const st = s.configure({ ...OPTIONS, ...change });
    assert.equal(st.argument, arg, JSON.stringify(change));
    assert.equal(st.kind, 'range', JSON.stringify(change));
    const p = JSON.parse(st.params);
    assert.deepEqual([p.lo, p.hi, p.off], [1e-3, 1e4, 0], JSON.stringify(change));
    assert.match(s.step(1).error, /configure\(\) must succeed/);
  }
  for (const [change, arg, expected] of [[{ softcap: '50' }, 'softcap', 'number'], [{ qkClip: null }, 'qkClip', 'number'],
    [{ dk: '64' }, 'dk', 'number'], [{ task: 3 }, 'task', 'string'], [{ divisor: undefined }, 'divisor', 'string']]) {
    const st = s.configure({ ...OPTIONS, ...change });
    assert.equal(st.argument, arg, JSON.stringify(change));
    assert.equal(st.kind, 'type', JSON.stringify(change));
    assert.equal(JSON.parse(st.params).expected, expected);
  }
  const { dk: _omit, ...noDk } = OPTIONS;
  assert.equal(s.configure(noDk).argument, 'dk', 'a missing field is named');
  assert.equal(s.configure('dk=64').argument, 'options');
  assert.deepEqual(s.configure({ ...OPTIONS, softcap: 1e-3, qkClip: 1e4 }), OK, 'the range\'s ends');
  s.delete();
  assert.deepEqual(simd.trainCapRange(), { lo: 1e-3, hi: 1e4 });
});

test('trainPresets() is the table `attnlab presets` prints', () => {
  const r = spawnSync(CLI, ['presets'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const { presets } = JSON.parse(r.stdout);
  for (const M of [simd, scalar]) assert.deepEqual(M.trainPresets(), presets);
  assert.equal(presets.find((p) => p.name === 'gemma2-27b').divisor, 12);
});
