// The lab sweep's series and exports (web/src/pages/lab/sweep-series.js,
// sweep-export.js): which options each cell trains with (the setup's
// stabilisers, a series overriding only its own), the URL's sw.stab / sw.cap /
// sw.clip, and the rows of the CSV and JSON in the CLI's order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ROOT } from './paths.mjs';

globalThis.location ??= { search: '', href: 'http://localhost/' };
globalThis.navigator ??= { languages: ['en'], language: 'en' };
const { sweepSeries, cellOptions, SWEEP_STAB_STATE } = await import(path.join(ROOT, 'web/src/pages/lab/sweep-series.js'));
const { sweepRows, sweepCsv, sweepJson, SWEEP_COLUMNS } = await import(path.join(ROOT, 'web/src/pages/lab/sweep-export.js'));
const { trainOptions } = await import(path.join(ROOT, 'web/src/train/config.js'));
const { readState } = await import(path.join(ROOT, 'web/src/base/state.js'));

const setup = (extra = {}) => ({ task: 'recall', dk: '64', heads: '2', opt: 'adam', lr: 'auto', seed: '3', cap: '', clip: '', init: 'lecun', ...extra });

test('series: the divisors, then the stabiliser series checked, in a fixed order with distinct colours', () => {
  const s = sweepSeries(['sqrt', '1', 'qknorm'], ['t5', 'cap'], { cap: 30 });
  assert.deepEqual(s.map((x) => [x.key, x.div, x.stab]),
    [['sqrt', 'sqrt', null], ['1', '1', null], ['qknorm', 'qknorm', null], ['stab-cap', 'sqrt', 'cap'], ['stab-t5', '1', 't5']]);
  assert.equal(new Set(s.map((x) => x.slot)).size, s.length);
  // Every series of the widest sweep has its own dash, so lines differ without colour too.
  const all = sweepSeries(['sqrt', '2', '1', 'dk', 'qknorm'], ['cap', 'clip', 't5'], { cap: 50, clip: 100 });
  assert.equal(new Set(all.map((x) => JSON.stringify(x.dash))).size, 8);
  assert.deepEqual(sweepSeries([], ['clip'], { clip: 7 }).map((x) => [x.key, x.value, x.over]), [['stab-clip', 7, { qkClip: 7 }]]);
  assert.deepEqual(sweepSeries(['2'], [], {}).map((x) => x.key), ['2']);
});

test('cell options: the setup\'s soft-cap, QK-clip and init in every cell; a series replaces only its own', () => {
  const base = trainOptions(setup({ cap: '50', clip: '100', init: 't5' }), 'sqrt', 1e-3);
  const [sqrt, one, cap, clip, t5] = sweepSeries(['sqrt', '1'], ['cap', 'clip', 't5'], { cap: 20, clip: 5 });
  const pick = (o) => [o.divisor, o.softcap, o.qkClip, o.init, o.dk, o.optimizer, o.lr, o.seed, o.heads];
  assert.deepEqual(pick(cellOptions(base, sqrt, 16, 'sgd', 0.1)), ['sqrt', 50, 100, 't5', 16, 'sgd', 0.1, 3, 2]);
  assert.deepEqual(pick(cellOptions(base, one, 256, 'adam', 0.01)), ['1', 50, 100, 't5', 256, 'adam', 0.01, 3, 2]);
  assert.deepEqual(pick(cellOptions(base, cap, 16, 'adam', 0.01)), ['sqrt', 20, 100, 't5', 16, 'adam', 0.01, 3, 2]);
  assert.deepEqual(pick(cellOptions(base, clip, 16, 'adam', 0.01)), ['sqrt', 50, 5, 't5', 16, 'adam', 0.01, 3, 2]);
  const off = trainOptions(setup(), 'sqrt', 1e-3);
  assert.deepEqual(pick(cellOptions(off, t5, 16, 'adam', 0.01)), ['1', 0, 0, 't5', 16, 'adam', 0.01, 3, 2]);
  assert.deepEqual(pick(cellOptions(off, sqrt, 16, 'adam', 0.01)), ['sqrt', 0, 0, 'lecun', 16, 'adam', 0.01, 3, 2]);
});

test('URL: sw.stab keeps known series only; sw.cap and sw.clip default to 50 and 100', () => {
  globalThis.location = { search: '?sw.stab=cap,bogus,t5&sw.clip=-2', href: 'http://localhost/lab.html?sw.stab=cap,bogus,t5&sw.clip=-2' };
  const { values } = readState('sw', SWEEP_STAB_STATE);
  assert.deepEqual(values, { stab: ['cap', 't5'], cap: '50', clip: '-2' });
  globalThis.location = { search: '', href: 'http://localhost/' };
  assert.deepEqual(readState('sw', SWEEP_STAB_STATE).values, { stab: [], cap: '50', clip: '100' });
});

test('exports: a row per cell in the CLI\'s order (d_k, series, optimiser, rate), each with its own settings; nan, empty and null', () => {
  const base = trainOptions(setup({ cap: '50' }), 'sqrt', 1e-3);
  const series = sweepSeries(['sqrt'], ['clip'], { clip: 4 });
  const cells = [];
  const dks = [16, 64], opts = ['adam', 'sgd'], rates = [0.01, 0.1];
  // Made in the table's order (optimiser, d_k, rate, series), not the CLI's.
  for (const o of opts) for (const dk of dks) for (const lr of rates) for (const s of series)
    cells.push({ opt: o, dk, series: s.key, div: s.div, lr, options: cellOptions(base, s, dk, o, lr),
      done: true, state: 'done', eval: { loss: lr * dk, accuracy: 0.5 }, stepsTo90: 0, diverged: 0, logitMax: 3, entropy: 1, qkClips: 2 });
  cells[0].entropy = NaN;
  Object.assign(cells[1], { state: 'diverged', diverged: 7, eval: null });
  Object.assign(cells[2], { done: false, state: 'running', eval: undefined });
  const sw = { cells, steps: 20, evalSamples: 512, base, dks, series, opts, rates };
  const rows = sweepRows(sw);
  assert.equal(rows.length, 16);
  assert.deepEqual(rows.slice(0, 5).map((r) => [r.dk, r.series, r.optimizer, r.lr]),
    [[16, 'sqrt', 'adam', 0.01], [16, 'sqrt', 'adam', 0.1], [16, 'sqrt', 'sgd', 0.01], [16, 'sqrt', 'sgd', 0.1], [16, 'stab-clip', 'adam', 0.01]]);
  const r0 = rows[0];
  assert.deepEqual([r0.softcap, r0.qk_clip, r0.init, r0.final_loss, r0.steps_to_90, r0.diverged], [50, null, 'lecun', 0.16, null, null]);
  assert.ok(Number.isNaN(r0.attn_entropy_last));
  const clipRow = rows.find((r) => r.series === 'stab-clip' && r.dk === 16 && r.optimizer === 'adam' && r.lr === 0.01);
  assert.deepEqual([clipRow.softcap, clipRow.qk_clip, clipRow.divisor, clipRow.state, clipRow.final_loss, clipRow.diverged],
    [50, 4, 'sqrt', 'diverged', null, 7]);
  const running = rows.find((r) => r.state === 'running');
  assert.deepEqual([running.final_loss, running.logit_max_abs_last, running.qk_clips], [null, null, null]);
  const csv = sweepCsv(sw).trimEnd().split('\n');
  assert.equal(csv[0], SWEEP_COLUMNS.join(','));
  assert.equal(csv.length, 17);
  const head = csv[0].split(',');
  const line = Object.fromEntries(csv[1].split(',').map((x, i) => [head[i], x]));
  assert.deepEqual([line.attn_entropy_last, line.qk_clip, line.softcap, line.steps_to_90], ['nan', '', '50', '']);
  const json = JSON.parse(sweepJson(sw));
  assert.deepEqual(json.settings, { steps: 20, eval_samples: 512, rates, init: 'lecun', softcap: 50, qk_clip: null });
  assert.equal(json.rows[0].attn_entropy_last, null, 'NaN is null in JSON');
  assert.deepEqual(json.series.map((s) => [s.key, s.stabiliser, s.value]), [['sqrt', null, null], ['stab-clip', 'clip', 4]]);
});
