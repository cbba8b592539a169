// The training lab (lab.html) in headless Chromium under the site's CSP.
// The default comparison (d_k 256; √d_k, 2 and 1; 1500 steps; Adam) is
// started, its curves grow and it runs to the end: the time to the first
// curve point and to the end are printed (not asserted: the machine is
// shared). Its CSV and JSON are the same numbers as the core gives in Node for
// the same seed, its q/k snapshot is an .npz the core's checker reads. A
// smaller comparison pauses, holds still, exports mid-run, resumes, resets. Bad options, typed or in the URL, get the core's
// message next to their control; the sweep, the language switch and a
// 320 px screen are checked too.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import v8 from 'node:v8';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ARTIFACTS, launch, startPreview } from './harness.mjs';
import { CLI, ROOT, loadWasm } from '../node/paths.mjs';
import { close } from '../node/check_cases.mjs';

// The pages load the relaxed-SIMD build by detection (Chromium validates it),
// so runs are replayed in the same build here: Node 20 validates relaxed SIMD
// only behind this flag, and V8 fuses relaxed_madd here as it does in Chromium
// on the same machine (the build test below checks a run against the CLI's
// --madd fused).
v8.setFlagsFromString('--experimental-wasm-relaxed-simd');

// The page's sentences for the core's errors (web/src/bridge/error-strings.js), run here in Node.
globalThis.location ??= { search: '', href: 'http://localhost/' };
globalThis.navigator ??= { languages: ['en'], language: 'en' };
const { inLang } = await import(path.join(ROOT, 'web/src/base/i18n.js'));
const { sentence } = await import(path.join(ROOT, 'web/src/bridge/error-strings.js'));
const { createCheckAttn } = await import(path.join(ROOT, 'web/src/bridge/attn-check.js'));
const { lossSpike } = await import(path.join(ROOT, 'web/src/train/mechanism.js'));
const { powerOfTen } = await import(path.join(ROOT, 'web/src/base/format.js'));

const TIMEOUT = 600_000;
let server;
let browser;
let core;     // the lab's module in Node, to replay runs
let checker;  // the checker's module in Node, to read exports

before(async () => {
  server = await startPreview();
  browser = await launch(server.origin);
  core = await loadWasm('lab', 'relaxed');
  checker = createCheckAttn(await loadWasm('check', 'simd'));
});

after(async () => {
  await browser?.close();
  server?.stop();
});

async function open(query = 'lang=en', options = {}) {
  const page = await browser.context.newPage();
  if (options.viewport) await page.setViewportSize(options.viewport);
  await page.goto(`${server.origin}/lab.html?${query}`);
  await page.waitForFunction(() => /Every number|每个数字/.test(document.getElementById('lab-footer').textContent),
    null, { timeout: 60_000 });
  return page;
}

const state = (page) => page.getAttribute('#lab-status', 'data-state');
const waitState = (page, s, timeout = TIMEOUT) =>
  page.waitForFunction((x) => document.getElementById('lab-status').dataset.state === x, s, { timeout });
const stepsDone = (page) => page.$$eval('.lab-run progress', (ps) => ps.map((p) => Number(p.value)));

// The first live chart on screen, whole (top and bottom inside the viewport).
const chartInView = (page, timeout = 5000) => page.waitForFunction(() => {
  const r = document.getElementById('lab-chart-loss')?.getBoundingClientRect();
  return r !== undefined && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight;
}, null, { timeout });

async function downloadOf(page, selector) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return { name: dl.suggestedFilename(), bytes: fs.readFileSync(await dl.path()) };
}

// The same run in Node's copy of the core: rows of the first `steps` steps.
function replay(options, steps) {
  const s = new core.TrainSession();
  assert.equal(s.configure(options).error, '');
  assert.equal(s.step(steps).error, '');
  const cols = JSON.parse(s.columnsJson());
  const flat = s.metrics(0).slice();
  s.delete();
  const rows = [];
  for (let i = 0; i < flat.length / cols.length; i++) rows.push(Array.from(flat.subarray(i * cols.length, (i + 1) * cols.length)));
  return { cols, rows };
}

function parseCsv(text) {
  const [head, ...lines] = text.trimEnd().split('\n');
  return { cols: head.split(','), rows: lines.map((l) => l.split(',').map(Number)) };
}

// A stored zip's member names, from its local headers.
function zipNames(bytes) {
  const names = [];
  let p = 0;
  while (bytes.readUInt32LE(p) === 0x04034b50) {
    assert.equal(bytes.readUInt16LE(p + 8), 0, 'stored, not deflated');
    const size = bytes.readUInt32LE(p + 18), nameLen = bytes.readUInt16LE(p + 26), extra = bytes.readUInt16LE(p + 28);
    names.push(bytes.subarray(p + 30, p + 30 + nameLen).toString());
    p += 30 + nameLen + extra + size;
  }
  return names;
}

function checkNpz(bytes) {
  // sequences 0: the count the .npz stores (each query against its own sequence's keys); no
  // divisor: the one it stores.
  return checker.checkTensors([{ name: 'qk.npz', bytes }], { sequences: 0 });
}

test('lab.html: strict CSP, every control labelled, both languages with the same keys', async () => {
  const page = await open();
  const csp = await page.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.content);
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
  assert.match(csp, /style-src 'self'/);
  const unlabeled = await page.$$eval('main input, main select, main button', (els) => els.filter((el) =>
    !(el.labels?.length || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby') || el.textContent.trim()))
    .map((el) => el.id || el.outerHTML.slice(0, 80)));
  assert.deepEqual(unlabeled, []);
  assert.equal(await page.$$eval('[style]', (els) => els.filter((e) => e.getAttribute('style')).length), 0,
    'no style attributes in the markup');
  // The dictionary, loaded in Node with the two browser globals it reads at import.
  globalThis.location ??= new URL(server.origin + '/lab.html');
  globalThis.navigator ??= { language: 'en', languages: ['en'] };
  await import('../../web/src/pages/lab/strings.js');
  const { _strings } = await import('../../web/src/base/i18n.js');
  const labKeys = (l) => Object.keys(_strings[l]).filter((k) => k.startsWith('lab.')).sort();
  assert.ok(labKeys('en').length > 100, 'the lab\'s strings are registered under lab.');
  assert.deepEqual(labKeys('zh'), labKeys('en'));
  await page.close();
});

const DEFAULT_OPTIONS = { task: 'recall', dk: 256, heads: 2, dModel: 64, dv: 32, divisor: 'sqrt', optimizer: 'adam',
  lr: 0, init: 'lecun', batch: 64, seed: 0, logEvery: 5 };

test('the default comparison: first points at once, growing curves, the end, exports equal to the core',
  { timeout: TIMEOUT }, async (t) => {
    const page = await open();
    await page.waitForTimeout(1500);  // a reader reads the page first; the workers warm up meanwhile
    assert.equal(await page.inputValue('#lab-dk'), '256');
    assert.equal(await page.inputValue('#lab-steps'), '1500');
    assert.deepEqual(await page.$$eval('#lab-div input:checked', (els) => els.map((e) => e.value)), ['sqrt', '2', '1']);
    await page.click('#lab-start');
    await page.waitForFunction(() => document.getElementById('lab-status').dataset.firstPointMs, null, { timeout: 60_000 });
    const firstMs = Number(await page.getAttribute('#lab-status', 'data-first-point-ms'));
    const timeline = await page.getAttribute('#lab-status', 'data-timeline');
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);

    // Start is not pressed twice: it waits, disabled, while the runs go.
    assert.equal(await page.isDisabled('#lab-start'), true);
    // Each run shows its pace and the time left.
    await page.waitForFunction(() => Array.from(document.querySelectorAll('.lab-run-step'))
      .some((e) => /\d+ steps\/s, about \d+ s left/.test(e.textContent)), null, { timeout: 60_000 });

    // Curves grow.
    const points = () => page.$eval('#lab-chart-loss', (f) => Number(f.dataset.points));
    const p0 = await points();
    await page.waitForFunction((n) => Number(document.getElementById('lab-chart-loss').dataset.points) > n + 3, p0, { timeout: 60_000 });
    assert.equal(await page.$$eval('.lab-chart', (f) => f.length), 6);
    assert.match(await page.getAttribute('#lab-chart-loss .lab-chart-plot', 'aria-label'),
      /one line per divisor: √dₖ = 16 \(blue, solid\); 2 \(reddish purple, dashed\); 1 \(no scaling\) \(vermillion, dotted\)/);

    // The init checkpoint: one row per run, marked.
    await page.waitForFunction(() => document.querySelectorAll('#lab-init-table tbody tr').length === 3);
    await page.waitForFunction(() => document.querySelectorAll('#lab-init-table .badge').length === 15);
    const verdicts = await page.$$eval('#lab-init-table tbody tr', (trs) => trs.map((tr) =>
      [tr.dataset.option, Array.from(tr.querySelectorAll('.badge'), (b) => b.dataset.verdict).join(' ')]));
    t.diagnostic(`init checkpoint verdicts (Var q, Var k, Var q·k, Var logit, spread): ${JSON.stringify(verdicts)}`);
    assert.equal(verdicts[0][1].split(' ')[3], 'pass', 'divisor √d_k: Var(logit) near 1');
    assert.equal(verdicts[2][1].split(' ')[3], 'warn', 'divisor 1: Var(logit) near d_k');

    await waitState(page, 'done');
    const totalMs = Number(await page.getAttribute('#lab-status', 'data-total-ms'));
    assert.deepEqual(await stepsDone(page), [1500, 1500, 1500]);
    assert.deepEqual(await page.$$eval('.lab-run', (els) => els.map((e) => e.dataset.state)), ['done', 'done', 'done']);
    assert.equal(await page.$$eval('#lab-summary ul:not(.lab-sum-mech) li', (li) => li.length), 3);
    assert.match(await page.textContent('#lab-summary .lab-sum-time'),
      /^The comparison took \d+\.\d s: 3 runs in \d workers, pauses not counted\.$/);
    assert.equal(await page.isDisabled('#lab-start'), false, 'Start again, once done');
    assert.equal(await page.textContent('#lab-start'), 'Start again');
    assert.deepEqual(await page.$$eval('.lab-run-step', (els) => els.map((e) => e.textContent)),
      Array(3).fill('step 1500 of 1500'), 'no pace once a run is done');
    const summary = await page.$$eval('#lab-summary li', (li) => li.map((x) => x.textContent));
    const results = await page.$$eval('.lab-run-result', (ps) => ps.map((p) => p.textContent));
    const draws = await page.evaluate(() => performance.getEntriesByName('lab:redraw').map((e) => e.duration));
    const sorted = [...draws].sort((a, b) => a - b);
    const line = `default comparison (d_k 256; √d_k, 2, 1; 1500 steps; Adam) in headless Chromium, ${cores} cores reported, ` +
      `${Math.min(cores + 1, 3)} workers: first curve point ${firstMs} ms after the click (${timeline}); ` +
      `all three runs done in ${(totalMs / 1000).toFixed(1)} s; main thread: ${draws.length} redraws, ` +
      `median ${sorted[sorted.length >> 1].toFixed(1)} ms, worst ${sorted.at(-1).toFixed(1)} ms`;
    t.diagnostic(line);
    console.log(line);
    for (const x of [...summary, ...results]) t.diagnostic(x);

    // CSV of the √d_k run: the core's columns, every logged step, and the same numbers as
    // the core gives in Node for the same options (checked on the first 100 steps).
    const csv = await downloadOf(page, '#lab-run-0 [data-export="csv"]');
    assert.equal(csv.name, 'attnlab-recall-dk256-h2-adam-seed0-div-sqrt.csv');
    const { cols, rows } = parseCsv(csv.bytes.toString());
    const ref = replay({ ...DEFAULT_OPTIONS, lr: core.trainReferenceLr('adam', 256, 64).lr }, 100);
    assert.deepEqual(cols, ref.cols, 'CSV header: the core\'s columns');
    assert.equal(rows.length, 1 + 1500 / 5, 'a row at step 1 and every 5 steps');
    assert.deepEqual(rows.map((r) => r[0]), [1, ...Array.from({ length: 300 }, (_, i) => 5 * (i + 1))]);
    assert.deepEqual(rows.slice(0, ref.rows.length), ref.rows, 'the CSV\'s numbers are the core\'s, bit for bit');
    assert.ok(rows.every((r) => r.length === cols.length && r.every(Number.isFinite)));

    // JSON of the run without scaling: the same rows as its CSV, with its configuration.
    const json = JSON.parse((await downloadOf(page, '#lab-run-2 [data-export="json"]')).bytes.toString());
    const csv1 = parseCsv((await downloadOf(page, '#lab-run-2 [data-export="csv"]')).bytes.toString());
    assert.equal(json.config.divisor, '1');
    assert.equal(json.config.dk, 256);
    assert.equal(json.divisorValue, 1);
    assert.deepEqual(json.columns, csv1.cols);
    assert.deepEqual(json.rows, csv1.rows);
    assert.equal(json.eval.samples, 512);
    assert.ok(Math.abs(json.init.varLogit - json.init.varQk) < 1e-6 * json.init.varQk, 'divisor 1: the logits are q·k');

    // The call-outs under the summary: each run's mechanism in its own numbers, the unscaled
    // one read against its JSON rows; then why it starts with the larger gradient and still fails.
    const mech = await page.$$eval('#lab-summary .lab-sum-mech li', (li) => li.map((x) => ({ div: x.dataset.div, text: x.textContent })));
    assert.deepEqual(mech.map((m) => m.div), ['sqrt', '2', '1']);
    for (const m of mech) t.diagnostic(m.text);
    const col = (name) => json.rows.map((r) => r[json.columns.indexOf(name)]);
    const heads = (prefix) => [0, 1].map((h) => col(`${prefix}${h}`).at(-1));
    const one = mech.find((m) => m.div === '1').text;
    const mm = one.match(/at step 1 the largest attention weight averaged ([\d.]+)%, and the weight on the answer’s key ([\d.]+)%; by step (\d+) the largest logit went from ([\d.,]+) to ([\d.,]+), ([\d.]+)% of the rows were frozen \(.*\), the weight on the answer was ([\d.]+)%, and each head’s Q\/K gradient was (.+) of its step-1 value\.$/);
    assert.ok(mm, one);
    const n = (x) => Number(x.replace(/,/g, ''));
    close(n(mm[1]), 100 * col('attn_max')[0], 0.006, 'largest weight at step 1');
    close(n(mm[2]), 100 * col('attn_correct')[0], 0.006, 'weight on the answer at step 1');
    assert.equal(n(mm[3]), 1500);
    close(n(mm[4]), col('logit_max_abs')[0], 0.006 * col('logit_max_abs')[0], 'first largest logit');
    close(n(mm[5]), col('logit_max_abs').at(-1), 0.006 * col('logit_max_abs').at(-1), 'last largest logit');
    close(n(mm[6]), 50 * (heads('frozen_h')[0] + heads('frozen_h')[1]), 0.006, 'frozen rows');
    close(n(mm[7]), 100 * col('attn_correct').at(-1), 0.006, 'weight on the answer at the end');
    assert.equal(mm[8].split(', ').length, 2, 'a Q/K gradient per head');
    // The story, at the default settings: one-hot on a chance key from step 1, frozen by the end.
    assert.ok(col('attn_max')[0] > 0.8 && col('attn_correct')[0] < 0.2, 'one-hot on a chance key at step 1');
    assert.ok(heads('frozen_h').every((f) => f > 0.5), `most rows frozen: ${heads('frozen_h')}`);
    const why = await page.$eval('#lab-summary .lab-sum-why', (p) => ({ text: p.textContent, larger: p.dataset.larger }));
    t.diagnostic(why.text);
    const g = why.text.match(/at step 1 its ‖∂L\/∂W_Q‖ was ([\d.]+) against ([\d.]+) with √dₖ, ([\d.]+)×, because the chain rule multiplies the gradient into q and k by 1\/divisor, 16 times more for 1 than for √dₖ = 16/);
    assert.ok(g && why.larger === 'true', why.text);
    close(n(g[1]), col('grad_wq')[0], 0.006 * col('grad_wq')[0], '‖∂L/∂W_Q‖ at step 1, unscaled');
    assert.ok(n(g[1]) > n(g[2]), 'the unscaled run starts with the larger gradient');

    // Under every chart what to look for; each run's short name at the end of its line
    // (told apart without colour); the log charts' floor, where it cuts, said under them.
    const figs = await page.$$eval('.lab-chart, .lab-head-chart', (fs) => fs.map((f) => ({
      id: f.id, look: f.querySelector('.lab-chart-look').textContent, labels: f.dataset.labels, floor: f.dataset.floor,
      floorNote: f.querySelector('.lab-chart-floor').hidden ? '' : f.querySelector('.lab-chart-floor').textContent,
    })));
    assert.equal(figs.length, 11);
    for (const f of figs) {
      assert.match(f.look, /^Look for: .{40,}/, f.id);
      assert.equal(f.labels, '÷√dₖ,÷2,÷1', `${f.id}: the runs named at their lines' ends`);
      if (f.floor) assert.equal(f.floorNote, `Values below ${powerOfTen(Number(f.floor))} are drawn at ${powerOfTen(Number(f.floor))}; the CSV export has every value.`, f.id);
      else assert.equal(f.floorNote, '', f.id);
    }
    // The gradient charts' floor is at most ten decades under their top: the fall shows, not 10⁻²⁰ noise.
    for (const id of ['lab-chart-gradWq', 'lab-chart-gradWk', 'lab-chart-qkGradHeads']) {
      const f = figs.find((x) => x.id === id);
      if (f.floor) assert.ok(Number(f.floor) >= -12, `${id}: floor 10^${f.floor}`);
    }

    // A run that learned and then lost it while its logits grew: said from its own rows (read
    // here from its CSV with the same rule), with links to the same runs beside QK-LayerNorm and
    // with a soft-cap; no such sentence for a run that did not.
    const spikeOf = (c) => lossSpike(Object.fromEntries(c.cols.map((name, j) => [name, c.rows.map((r) => r[j])])));
    const spikes = await page.$$eval('#lab-summary .lab-sum-spike', (ps) => ps.map((p) => ({
      div: p.dataset.div, step: p.dataset.step, text: p.textContent, links: [...p.querySelectorAll('a')].map((a) => a.getAttribute('href')) })));
    for (const [div, c] of [['sqrt', { cols, rows }], ['1', csv1]]) {
      const want = spikeOf(c);
      const got = spikes.find((x) => x.div === div);
      t.diagnostic(`loss spike of ${div}: ${JSON.stringify(want)}`);
      if (!want) {
        assert.equal(got, undefined, `${div}: no spike, no sentence`);
        continue;
      }
      assert.ok(got, `${div}: the spike at step ${want.step} is said`);
      t.diagnostic(got.text);
      assert.equal(got.step, String(want.step));
      const sm = got.text.match(/its loss was (.+) at step ([\d,]+), and at step ([\d,]+) it jumped back above 1 \(to ([\d.]+) at step ([\d,]+)\), while its largest \|logit\| grew from ([\d.,]+) \(the median of the 40 logged rows before\) to ([\d.,]+) by step ([\d,]+), ([\d.]+)×/);
      assert.ok(sm, got.text);
      assert.deepEqual([sm[2], sm[3], sm[5], sm[8]].map(n), [want.lowStep, want.step, want.peakStep, want.g1Step]);
      close(n(sm[4]), want.peak, 0.006 * want.peak, 'the spike\'s top');
      close(n(sm[6]), want.g0, 0.006 * want.g0, 'the logit before');
      close(n(sm[7]), want.g1, 0.006 * want.g1, 'the logit after');
      close(Number(sm[9]), want.ratio, 0.051, 'the ratio');
      assert.ok(want.ratio >= 2);
      assert.equal(got.links.length, 2);
      assert.match(got.links[0], /[?&]div=sqrt,2,1,qknorm(&|$)/);
      assert.match(got.links[1], /[?&]cap=50(&|$)/);
    }

    // q and k as .npz: stored members q.npy, k.npy, logits.npy and divisor.npy that the core's checker reads.
    const npz = await downloadOf(page, '#lab-run-0 [data-export="npz"]');
    assert.equal(npz.name, 'attnlab-recall-dk256-h2-adam-seed0-div-sqrt-step1500-qk.npz');
    assert.deepEqual(zipNames(npz.bytes), ['q.npy', 'k.npy', 'sequences.npy', 'logits.npy', 'divisor.npy']);
    const report = checkNpz(npz.bytes);
    // Judged at the divisor the run trained with, which the export stores.
    assert.deepEqual(report.divisor, { label: 'sqrt', value: 16, index: 0, source: 'file' });
    t.diagnostic(`checker's shape of the export: ${JSON.stringify(report.shape)}`);
    assert.equal(report.shape.heads, 2);
    assert.equal(report.shape.n_q, 64);
    assert.equal(report.shape.n_k, 64 * 17);
    assert.equal(report.shape.dk, 256);
    assert.equal(report.shape.sequences, 64, 'each query against the 17 keys of its own sequence');
    t.diagnostic(`checker on the exported q/k of the √d_k run: ${report.heads.map((h) => h.verdict).join(', ')}`);
    // Its logits, in the checker's layout, name the divisor the run used: √256 = 16.
    for (const h of report.heads) {
      assert.equal(h.scale_fit.verdict, 'expected', JSON.stringify(h.scale_fit));
      assert.ok(Math.abs(h.scale_fit.c - 16) < 0.16, `the fit's c ${h.scale_fit.c}`);
    }
    assert.match(await page.textContent('#lab-run-0 .lab-run-export [role="status"]'), /Saved q and k at step 1500 \(64 sequences\)/);

    // The heatmap scrubber, by keyboard: Home shows step 0, End the last capture.
    await page.focus('#lab-scrub');
    await page.keyboard.press('Home');
    assert.equal(await page.textContent('#lab-run-0 .lab-heat figcaption'), 'Step 0');
    await page.keyboard.press('End');
    assert.equal(await page.textContent('#lab-run-0 .lab-heat figcaption'), 'Step 1500');
    await page.click('#lab-run-0 .data-details summary');
    await page.waitForFunction(() => document.querySelectorAll('#lab-run-0 .lab-heat-table tbody tr').length === 8);

    // The charts' data table: the last rows of each run.
    await page.click('#lab-data-summary');
    await page.waitForFunction(() => document.querySelectorAll('#lab-data-tables table').length === 3);
    assert.equal(await page.$eval('#lab-data-tables table tbody tr:last-child th', (th) => th.textContent), '1500');

    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'lab-1280-light.png'), fullPage: true });
    assert.deepEqual(browser.problems, []);
    await page.close();
  });

test('pause holds every run still, exports work mid-run, resume goes on, reset clears', { timeout: TIMEOUT }, async () => {
  const page = await open('lang=en&dk=64&steps=3000&div=sqrt,1&seed=7');
  // A double click starts one comparison: the second click meets a disabled button.
  await page.dblclick('#lab-start');
  await page.waitForFunction(() => Number(document.getElementById('lab-chart-loss')?.dataset.points) > 10, null, { timeout: 60_000 });
  assert.equal(await page.$$eval('.lab-run', (r) => r.length), 2);
  assert.equal(await page.isDisabled('#lab-start'), true);
  // Enter in a field submits the form, which a running comparison refuses too.
  await page.press('#lab-seed', 'Enter');
  assert.equal(await page.$$eval('.lab-run', (r) => r.length), 2);
  const before = await stepsDone(page);
  await page.waitForTimeout(300);
  assert.ok((await stepsDone(page)).every((n, i) => n >= before[i]), 'the runs went on, not restarted');
  await page.click('#lab-pause');
  await waitState(page, 'paused');
  assert.equal(await page.isDisabled('#lab-start'), false, 'paused: Start again is offered');
  assert.equal(await page.textContent('#lab-pause'), 'Resume');
  const held = await stepsDone(page);  // 'paused': every worker has answered after its last batch
  await page.waitForTimeout(1500);
  assert.deepEqual(await stepsDone(page), held, 'no step while paused');
  assert.ok(held.every((n) => n > 0 && n < 3000), `steps at pause: ${held}`);

  // Mid-run CSV of the run without scaling: the core's numbers for the same options.
  const { cols, rows } = parseCsv((await downloadOf(page, '#lab-run-1 [data-export="csv"]')).bytes.toString());
  const lastStep = rows.at(-1)[0];
  assert.ok(lastStep <= held[1]);
  const ref = replay({ ...DEFAULT_OPTIONS, dk: 64, divisor: '1', seed: 7, lr: core.trainReferenceLr('adam', 64, 64).lr }, lastStep);
  assert.deepEqual(cols, ref.cols);
  assert.deepEqual(rows, ref.rows, 'mid-run CSV: the core\'s numbers, bit for bit');
  const npz = await downloadOf(page, '#lab-run-1 [data-export="npz"]');
  assert.equal(checkNpz(npz.bytes).shape.dk, 64);
  assert.deepEqual(await stepsDone(page), held, 'exports do not step the runs');

  await page.click('#lab-pause');
  await waitState(page, 'running');
  await page.waitForFunction((h) => Array.from(document.querySelectorAll('.lab-run progress'))
    .every((p, i) => Number(p.value) > h[i]), held, { timeout: 60_000 });
  await page.click('#lab-reset');
  await waitState(page, 'idle');
  assert.equal(await page.$$eval('.lab-run', (r) => r.length), 0);
  assert.equal(await page.$$eval('.lab-chart', (r) => r.length), 0);
  assert.match(await page.textContent('#lab-status'), /Reset/);
  assert.deepEqual(browser.problems, []);
  await page.close();
});

// Each bad option: the message shown next to its control, aria-invalid set, Start
// refused. {core: change}: the page must show exactly the sentence for readers
// that the core's error (in Node) gives for that value, never the core's English
// message; a RegExp: the page's own check (empty fields, steps, how many divisors).
const PROBE = { task: 'recall', dk: 16, heads: 1, dModel: 64, dv: 32, divisor: 'sqrt', optimizer: 'adam', lr: 1e-3,
  init: 'lecun', batch: 64, seed: 0, logEvery: 5 };
const BAD = [
  ['#lab-dk', '0', { core: { dk: 0 } }],
  ['#lab-dk', '100000', { core: { dk: 100000 } }],
  ['#lab-dk', 'abc', { core: { dk: NaN } }],
  ['#lab-dk', '', /^Enter a value\.$/],
  ['#lab-heads', '0', { core: { heads: 0 } }],
  ['#lab-lr', '-1', { core: { lr: -1 } }],
  ['#lab-lr', 'fast', { core: { lr: NaN } }],
  ['#lab-steps', '0', /^Steps must be a whole number from 1 to 100,000\.$/],
  ['#lab-steps', 'many', /^Steps must be a whole number from 1 to 100,000\.$/],
  ['#lab-seed', '-1', { core: { seed: -1 } }],
  ['#lab-div-custom', '0', { core: { divisor: '0' } }],
  ['#lab-div-custom', '-1', { core: { divisor: '-1' } }],
  ['#lab-div-custom', 'big', { core: { divisor: 'big' } }],
  ['#lab-div-custom', '3, 4, 5, 6', /^At most 3 other divisors\.$/],
];

/** The core's error for an options change: {error, argument, kind, params}. */
function coreError(change) {
  const s = new core.TrainSession();
  const r = s.configure({ ...PROBE, ...change });
  s.delete();
  assert.notEqual(r.error, '', JSON.stringify(change));
  assert.notEqual(r.kind, '', `${JSON.stringify(change)}: the error has a kind`);
  return r;
}

/** The sentence a reader sees for it, in `lang` (asserted not to be the core's English). */
function readerSentence(change, lang = 'en') {
  const e = coreError(change);
  const text = inLang(lang, () => sentence(e));
  assert.ok(!text.includes(e.error), text);
  return text;
}

test('bad options: the core\'s message next to the control, no run, and the page keeps working', { timeout: TIMEOUT }, async (t) => {
  const page = await open('lang=en&dk=16&steps=30');
  const msgId = (sel) => (sel === '#lab-div-custom' ? 'lab-div-msg' : `${sel.slice(1)}-msg`);
  for (const [sel, value, want] of BAD) {
    const good = await page.inputValue(sel);
    await page.fill(sel, value);
    await page.waitForFunction((id) => document.getElementById(id).textContent, msgId(sel), { timeout: 20_000 });
    const msg = await page.textContent(`#${msgId(sel)}`);
    t.diagnostic(`${sel} = ${JSON.stringify(value)}: ${msg}`);
    if (want instanceof RegExp) assert.match(msg, want, sel);
    else assert.equal(msg, readerSentence(want.core), `${sel} = ${value}`);
    assert.doesNotMatch(msg, /Rejected by the core|must be an integer in|got /, sel);
    assert.equal(await page.getAttribute(sel, 'aria-invalid'), 'true', sel);
    await page.click('#lab-start');
    await waitState(page, 'invalid');
    assert.equal(await page.$$eval('.lab-run', (r) => r.length), 0, 'no run started');
    await page.fill(sel, good);
    await page.waitForFunction((id) => !document.getElementById(id).textContent, msgId(sel));
  }
  // A product limit: the core's message lands on d_k.
  await page.fill('#lab-heads', '16');
  await page.fill('#lab-dk', '1024');
  await page.waitForFunction(() => /^These sizes ask for too much work at once: heads × dₖ may be at most/.test(document.getElementById('lab-dk-msg').textContent));
  t.diagnostic(`heads 16, dk 1024: ${await page.textContent('#lab-dk-msg')}`);
  await page.fill('#lab-heads', '2');
  await page.fill('#lab-dk', '16');
  // No divisor at all.
  for (const v of ['sqrt', '2', '1']) await page.uncheck(`#lab-div-${v}`);
  await page.waitForFunction(() => /Pick at least one divisor/.test(document.getElementById('lab-div-msg').textContent));
  await page.check('#lab-div-sqrt');
  await page.fill('#lab-div-custom', '4');
  // Still working: a small comparison (√d_k and 4) runs to the end.
  await page.waitForFunction(() => !document.getElementById('lab-div-msg').textContent);
  await page.click('#lab-start');
  await waitState(page, 'done', 120_000);
  assert.deepEqual(await page.$$eval('.lab-run', (els) => els.map((e) => e.dataset.option)), ['sqrt', '4']);
  assert.match(await page.textContent('#lab-run-1 h3'), /^\s*4$/);
  // The URL holds the configuration.
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('dk'), '16');
  assert.equal(url.searchParams.get('div'), 'sqrt,4');
  assert.deepEqual(browser.problems, []);
  await page.close();
});

test('a malformed URL: each bad value gets its message next to its control, and nothing runs', { timeout: TIMEOUT }, async () => {
  const page = await open('lang=en&task=sorting&dk=abc&heads=-2&opt=rmsprop&lr=0&steps=1.5&seed=x&div=sqrt,zero');
  const wanted = {
    'lab-task-msg': { task: 'sorting' }, 'lab-dk-msg': { dk: NaN }, 'lab-heads-msg': { heads: -2 },
    'lab-opt-msg': { optimizer: 'rmsprop' }, 'lab-lr-msg': { lr: 0 }, 'lab-seed-msg': { seed: NaN },
    'lab-div-msg': { divisor: 'zero' }, 'lab-steps-msg': /^Steps must be a whole number from 1 to 100,000\.$/,
  };
  await page.waitForFunction((ids) => ids.every((id) => document.getElementById(id).textContent), Object.keys(wanted), { timeout: 20_000 });
  for (const [id, want] of Object.entries(wanted)) {
    const msg = await page.textContent(`#${id}`);
    if (want instanceof RegExp) assert.match(msg, want, id);
    else assert.equal(msg, readerSentence(want), id);
  }
  assert.equal(await page.inputValue('#lab-opt'), 'rmsprop', 'the select shows the value the message names');
  await page.click('#lab-start');
  await waitState(page, 'invalid');
  assert.equal(await page.$$eval('.lab-run', (r) => r.length), 0);
  // Choosing a real optimiser clears its message and drops the bad option.
  await page.selectOption('#lab-opt', 'sgd');
  await page.waitForFunction(() => !document.getElementById('lab-opt-msg').textContent);
  assert.equal(await page.$$eval('#lab-opt option', (o) => o.length), 2);
  assert.deepEqual(browser.problems, []);
  await page.close();
});

test('the sweep fills its table and reads it in prose', { timeout: TIMEOUT }, async (t) => {
  const page = await open('lang=en&sw.dk=16,32&sw.div=sqrt,1&sw.opt=adam&sw.steps=60');
  await page.click('#lab-sw-start');
  await page.waitForFunction(() => document.getElementById('lab-sw-status').dataset.state === 'done', null, { timeout: 300_000 });
  const cells = await page.$$eval('#lab-sw-table td[data-div]', (tds) => tds.map((td) => ({ ...td.dataset, text: td.textContent })));
  assert.equal(cells.length, 4);
  for (const c of cells) {
    assert.equal(c.state, 'done');
    assert.ok(Number(c.acc) >= 0 && Number(c.acc) <= 1);
    assert.match(c.text, /^\d+(\.\d)?% · (90% at \d+|never 90%)$/);
  }
  const prose = await page.textContent('#lab-sw-prose');
  t.diagnostic(prose);
  assert.match(prose, /What the table shows/);
  assert.match(prose, /Divisor 1 \(no scaling\)/);
  assert.deepEqual(browser.problems, []);
  await page.close();
});

test('the sweep over learning rates: a rate column, loss, largest logit and entropy per cell, a chart per d_k', { timeout: TIMEOUT }, async (t) => {
  const page = await open('lang=en&sw.dk=16&sw.div=sqrt,1&sw.opt=adam&sw.steps=30&sw.lr=1e-3,0.03');
  assert.equal(await page.inputValue('#lab-sw-lr'), '1e-3,0.03', 'the list from the link');
  await page.click('#lab-sw-start');
  await page.waitForFunction(() => document.getElementById('lab-sw-status').dataset.state === 'done', null, { timeout: 300_000 });
  const cells = await page.$$eval('#lab-sw-table td[data-div]', (tds) => tds.map((td) => ({ ...td.dataset, text: td.textContent })));
  assert.equal(cells.length, 4);
  assert.deepEqual(cells.map((c) => `${c.lr}/${c.div}`), ['0.001/sqrt', '0.001/1', '0.03/sqrt', '0.03/1']);
  for (const c of cells) {
    assert.equal(c.state, 'done');
    assert.match(c.text, /^\d+(\.\d)?% · loss [\d.]+ · max \|logit\| [\d.]+ · entropy [\d.]+$/);
    // The page's entropy and largest |logit| are the core's last row of the same run, replayed in Node.
    const { cols, rows } = replay({ task: 'recall', dk: 16, heads: 2, dModel: 64, dv: 32, divisor: c.div, optimizer: 'adam',
      lr: Number(c.lr), init: 'lecun', batch: 64, seed: 0, logEvery: 5 }, 30);
    const last = rows.at(-1);
    assert.equal(Number(c.entropy), last[cols.indexOf('attn_entropy')], `${c.lr}/${c.div} entropy`);
    assert.equal(Number(c.logit), last[cols.indexOf('logit_max_abs')], `${c.lr}/${c.div} logit`);
    assert.ok(Number(c.loss) > 0);
  }
  assert.deepEqual(await page.$$eval('#lab-sw-table thead th', (th) => th.map((x) => x.textContent.trim())),
    ['Optimiser', 'dₖ', 'Learning rate', '√dₖ', '1 (no scaling)']);
  const chart = await page.$$eval('#lab-sw-charts .lab-lr-plot', (ps) => ps.map((p) => ({
    role: p.getAttribute('role'), name: p.getAttribute('aria-label'), points: p.querySelectorAll('circle').length,
    text: p.textContent, lines: p.querySelectorAll('.lab-lr-line path').length, table: p.getAttribute('aria-describedby'),
  })));
  t.diagnostic(JSON.stringify(chart));
  assert.equal(chart.length, 1);
  assert.equal(chart[0].role, 'img');
  assert.equal(chart[0].table, 'lab-sw-table');
  assert.equal(chart[0].points, 4);
  assert.equal(chart[0].lines, 2);
  assert.match(chart[0].name, /^Final held-out loss against learning rate, Adam, dₖ = 16 /);
  assert.match(chart[0].text, /learning rate \(log scale\)/);
  assert.match(chart[0].text, /final held-out loss \(nats\)/);
  const prose = await page.textContent('#lab-sw-prose');
  t.diagnostic(prose);
  assert.match(prose, /had its lowest loss, [\d.]+, at rate (0\.001|0\.03)/);
  // Bad lists: a message next to the list, in the reader's language, and nothing runs.
  for (const [value, want] of [['0.01,1e-2', '1e-2 is in the list twice; give each rate once.'], ['1e-3,,1', 'The list of learning rates has an empty item.'],
    ['fast', '“fast” is not a number.'], ['0', readerSentence({ lr: 0 })], ['11', readerSentence({ lr: 11 })]]) {
    await page.fill('#lab-sw-lr', value);
    await page.click('#lab-sw-start');
    await page.waitForFunction((w) => document.getElementById('lab-sw-lr-msg').textContent === w, want);
    assert.equal(await page.getAttribute('#lab-sw-lr', 'aria-invalid'), 'true');
  }
  await page.selectOption('#lang-select', 'zh');
  await page.fill('#lab-sw-lr', 'fast');
  await page.click('#lab-sw-start');
  await page.waitForFunction(() => document.getElementById('lab-sw-lr-msg').textContent === '“fast”不是数字。');
  await page.fill('#lab-sw-lr', '0');
  await page.click('#lab-sw-start');
  await page.waitForFunction((w) => document.getElementById('lab-sw-lr-msg').textContent === w, readerSentence({ lr: 0 }, 'zh'));
  assert.deepEqual(browser.problems, []);
  await page.close();
});

// A sweep cell's run in Node's core: its last logged row, its held-out evaluation and QK-clip's count.
function replayCell(options, steps) {
  const s = new core.TrainSession();
  assert.equal(s.configure(options).error, '');
  assert.equal(s.step(steps).error, '');
  const cols = JSON.parse(s.columnsJson());
  const flat = s.metrics(0).slice();
  const last = Array.from(flat.subarray(flat.length - cols.length));
  const ev = s.evaluate(512);
  assert.equal(ev.error, '');
  const out = { entropy: last[cols.indexOf('attn_entropy')], logit: last[cols.indexOf('logit_max_abs')],
    loss: ev.eval.loss, acc: ev.eval.accuracy, qkClips: s.qkClips() };
  s.delete();
  return out;
}

test('the sweep with stabilisers: the setup\'s soft-cap in every cell, stabiliser series beside the divisors, each cell the core\'s numbers, CSV and JSON with the settings', { timeout: TIMEOUT }, async (t) => {
  // The setup soft-caps at 5; the series: √dₖ and 1, √dₖ + soft-cap 2 (its own cap), √dₖ + QK-clip 3 (and the setup's cap), T5's 1 + T5 init.
  const page = await open('lang=en&cap=5&sw.dk=16&sw.div=sqrt,1&sw.opt=adam&sw.steps=20&sw.lr=1e-3,0.03&sw.stab=cap,clip,t5&sw.cap=2&sw.clip=3');
  assert.equal(await page.inputValue('#lab-sw-cap'), '2');
  assert.equal(await page.inputValue('#lab-sw-clip'), '3');
  assert.ok(await page.isChecked('#lab-sw-stab-t5'));
  await page.click('#lab-sw-start');
  await page.waitForFunction(() => document.getElementById('lab-sw-status').dataset.state === 'done', null, { timeout: 300_000 });
  const cells = await page.$$eval('#lab-sw-table td[data-series]', (tds) => tds.map((td) => ({ ...td.dataset, text: td.textContent })));
  assert.equal(cells.length, 10);
  const want = {
    sqrt: { divisor: 'sqrt', softcap: 5 }, 1: { divisor: '1', softcap: 5 }, 'stab-cap': { divisor: 'sqrt', softcap: 2 },
    'stab-clip': { divisor: 'sqrt', softcap: 5, qkClip: 3 }, 'stab-t5': { divisor: '1', softcap: 5, init: 't5' },
  };
  assert.deepEqual(cells.map((c) => `${c.lr}/${c.series}`),
    ['0.001/sqrt', '0.001/1', '0.001/stab-cap', '0.001/stab-clip', '0.001/stab-t5', '0.03/sqrt', '0.03/1', '0.03/stab-cap', '0.03/stab-clip', '0.03/stab-t5']);
  const base = { task: 'recall', dk: 16, heads: 2, dModel: 64, dv: 32, optimizer: 'adam', init: 'lecun', batch: 64, seed: 0, logEvery: 5, softcap: 0, qkClip: 0 };
  for (const c of cells) {
    assert.equal(c.state, 'done', `${c.lr}/${c.series}`);
    assert.equal(c.div, want[c.series].divisor);
    // Every number of the cell is the core's for the cell's options, replayed in Node.
    const ref = replayCell({ ...base, ...want[c.series], lr: Number(c.lr) }, 20);
    for (const k of ['entropy', 'logit', 'loss']) assert.equal(Number(c[k]), ref[k], `${c.lr}/${c.series} ${k}`);
    assert.equal(Number(c.acc), ref.acc, `${c.lr}/${c.series} acc`);
    if (c.series === 'stab-clip') assert.equal(Number(c.qkClips), ref.qkClips);
  }
  // The setup's cap reached the cells: an uncapped √dₖ run gives other numbers (what the sweep showed before).
  const sqrtCell = cells.find((c) => c.series === 'sqrt' && c.lr === '0.03');
  assert.notEqual(Number(sqrtCell.entropy), replayCell({ ...base, divisor: 'sqrt', lr: 0.03 }, 20).entropy);
  assert.deepEqual(await page.$$eval('#lab-sw-table thead th', (th) => th.map((x) => x.textContent.trim())),
    ['Optimiser', 'dₖ', 'Learning rate', '√dₖ', '1 (no scaling)', '√dₖ + soft-cap 2', '√dₖ + QK-clip τ = 3', '1 + T5 init']);
  const caption = await page.textContent('#lab-sw-table caption');
  t.diagnostic(caption);
  assert.match(caption, /Stabilisers from the setup, in every cell unless its series sets its own: soft-cap 5, no QK-clip, LeCun initialisation\.$/);
  assert.equal(await page.$$eval('#lab-sw-charts .lab-lr-key', (k) => k.length), 5, 'one line per series');
  assert.equal(await page.$$eval('#lab-sw-charts .lab-lr-line', (k) => k.length), 5);
  const prose = await page.textContent('#lab-sw-prose');
  t.diagnostic(prose);
  assert.match(prose, /√dₖ \+ soft-cap 2 had its lowest loss/);
  assert.match(prose, /own: soft-cap 5, no QK-clip, LeCun initialisation\./);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('sw.stab'), 'cap,clip,t5');
  // The exports: a row per cell in the CLI's order, each with its own settings.
  const csv = await downloadOf(page, '#lab-sw-csv');
  assert.match(csv.name, /^attnlab-sweep-recall-h2-seed0-steps20-cap5\.csv$/);
  const [head, ...lines] = csv.bytes.toString().trimEnd().split('\n');
  const cols = head.split(',');
  assert.deepEqual(cols.slice(0, 6), ['task', 'dk', 'heads', 'divisor', 'series', 'optimizer']);
  assert.equal(lines.length, 10);
  const rows = lines.map((l) => Object.fromEntries(l.split(',').map((x, i) => [cols[i], x])));
  assert.deepEqual(rows.map((r) => `${r.series}/${r.lr}`),
    ['sqrt/0.001', 'sqrt/0.03', '1/0.001', '1/0.03', 'stab-cap/0.001', 'stab-cap/0.03', 'stab-clip/0.001', 'stab-clip/0.03', 'stab-t5/0.001', 'stab-t5/0.03']);
  for (const r of rows) {
    const w = want[r.series];
    assert.equal(r.softcap, String(w.softcap));
    assert.equal(r.qk_clip, w.qkClip ? String(w.qkClip) : '');
    assert.equal(r.init, w.init ?? 'lecun');
    const c = cells.find((x) => x.series === r.series && x.lr === r.lr);
    assert.equal(r.final_loss, c.loss);
    assert.equal(r.attn_entropy_last, c.entropy);
  }
  const json = JSON.parse((await downloadOf(page, '#lab-sw-json')).bytes.toString());
  assert.deepEqual(json.settings, { steps: 20, eval_samples: 512, rates: [0.001, 0.03], init: 'lecun', softcap: 5, qk_clip: null });
  assert.deepEqual(json.series.map((s) => [s.key, s.divisor, s.stabiliser, s.value]),
    [['sqrt', 'sqrt', null, null], ['1', '1', null, null], ['stab-cap', 'sqrt', 'cap', 2], ['stab-clip', 'sqrt', 'clip', 3], ['stab-t5', '1', 't5', null]]);
  assert.equal(json.rows.length, 10);
  assert.equal(json.rows[0].final_loss, Number(cells[0].loss));

  // Bad stabiliser values: a message next to the field, in the reader's language, and nothing runs.
  const bad = [['#lab-sw-cap', '0', /^Give the series a soft-cap: a number from 0\.001 to /], ['#lab-sw-cap', '', /^Give the series a soft-cap/],
    ['#lab-sw-cap', '-1', readerSentence({ softcap: -1 })], ['#lab-sw-cap', 'big', readerSentence({ softcap: NaN })],
    ['#lab-sw-cap', '20000', readerSentence({ softcap: 20000 })], ['#lab-sw-clip', '0', /^Give the series a QK-clip τ: a number from 0\.001 to /],
    ['#lab-sw-clip', '-1', readerSentence({ qkClip: -1 })], ['#lab-sw-clip', '1e-9', readerSentence({ qkClip: 1e-9 })]];
  for (const [sel, value, w] of bad) {
    const good = await page.inputValue(sel);
    await page.fill(sel, value);
    await page.click('#lab-sw-start');
    await page.waitForFunction((id) => document.getElementById(id).textContent, `${sel.slice(1)}-msg`);
    const text = await page.textContent(`${sel}-msg`);
    t.diagnostic(`${sel} = ${JSON.stringify(value)}: ${text}`);
    if (w instanceof RegExp) assert.match(text, w);
    else assert.equal(text, w);
    assert.equal(await page.getAttribute(sel, 'aria-invalid'), 'true');
    // The other series' values are checked too before the sweep says it is invalid.
    await page.waitForFunction(() => document.getElementById('lab-sw-status').dataset.state === 'invalid');
    assert.ok(await page.$$eval('#lab-sw-table td[data-series]', (tds) => tds.every((td) => td.dataset.state === 'done')), 'nothing ran');
    await page.fill(sel, good);
  }
  // The setup's own bad soft-cap: the core's sentence, and no sweep.
  await page.fill('#lab-cap', '-3');
  await page.click('#lab-sw-start');
  await page.waitForFunction(() => document.getElementById('lab-sw-msg').textContent);
  assert.equal(await page.textContent('#lab-sw-msg'), `The setup above is not valid: ${readerSentence({ softcap: -3 })}`);
  await page.fill('#lab-cap', '5');
  await page.selectOption('#lang-select', 'zh');
  await page.fill('#lab-sw-cap', '0');
  await page.click('#lab-sw-start');
  await page.waitForFunction(() => /^请为该系列填写软上限：0\.001 到 /.test(document.getElementById('lab-sw-cap-msg').textContent));
  await page.fill('#lab-sw-cap', '2');
  await page.fill('#lab-sw-clip', '-1');
  await page.click('#lab-sw-start');
  await page.waitForFunction((w) => document.getElementById('lab-sw-clip-msg').textContent === w, readerSentence({ qkClip: -1 }, 'zh'));
  assert.deepEqual(browser.problems, []);
  await page.close();
});

test('the sweep takes the setup\'s QK-clip and T5 init too, with and without a rate list; the core\'s numbers per cell', { timeout: TIMEOUT }, async (t) => {
  const base = { task: 'recall', dk: 16, heads: 2, dModel: 64, dv: 32, optimizer: 'adam', batch: 64, seed: 0, logEvery: 5, softcap: 0 };
  for (const [query, lr] of [['&sw.lr=0.05', 0.05], ['', core.trainReferenceLr('adam', 16, 64).lr]]) {
    const page = await open(`lang=en&clip=2&init=t5&sw.dk=16&sw.div=1,qknorm&sw.opt=adam&sw.steps=20${query}`);
    await page.click('#lab-sw-start');
    await page.waitForFunction(() => document.getElementById('lab-sw-status').dataset.state === 'done', null, { timeout: 300_000 });
    const cells = await page.$$eval('#lab-sw-table td[data-series]', (tds) => tds.map((td) => ({ ...td.dataset })));
    assert.deepEqual(cells.map((c) => c.series), ['1', 'qknorm']);
    for (const c of cells) {
      const ref = replayCell({ ...base, divisor: c.div, lr, init: 't5', qkClip: 2 }, 20);
      assert.equal(Number(c.acc), ref.acc, `${c.series} acc`);
      assert.equal(Number(c.qkClips), ref.qkClips, `${c.series} clips`);
      if (query) for (const k of ['entropy', 'logit', 'loss']) assert.equal(Number(c[k]), ref[k], `${c.series} ${k}`);
    }
    assert.match(await page.textContent('#lab-sw-table caption'), /own: no soft-cap, QK-clip τ = 2, T5 initialisation\.$/);
    const json = JSON.parse((await downloadOf(page, '#lab-sw-json')).bytes.toString());
    assert.deepEqual([json.settings.init, json.settings.softcap, json.settings.qk_clip], ['t5', null, 2]);
    assert.deepEqual(json.rows.map((r) => [r.init, r.qk_clip, r.lr]), [['t5', 2, lr], ['t5', 2, lr]]);
    assert.deepEqual(browser.problems, []);
    await page.close();
  }
});

test('both languages; a 320 px screen has no sideways scroll; dark scheme', { timeout: TIMEOUT }, async () => {
  const page = await open('lang=en&dk=16&steps=20&div=sqrt,1', { viewport: { width: 320, height: 800 } });
  await page.selectOption('#lang-select', 'zh');
  assert.equal(await page.textContent('#lab-start'), '开始');
  assert.match(await page.textContent('#lab-title'), /训练实验室/);
  // The core's errors in Chinese, next to their fields: d_k, the learning rate, a custom divisor.
  for (const [sel, id, value, change] of [['#lab-dk', 'lab-dk-msg', '0', { dk: 0 }], ['#lab-lr', 'lab-lr-msg', '0', { lr: 0 }],
    ['#lab-div-custom', 'lab-div-msg', '0', { divisor: '0' }]]) {
    const good = await page.inputValue(sel);
    const want = readerSentence(change, 'zh');
    await page.fill(sel, value);
    await page.waitForFunction(([i, w]) => document.getElementById(i).textContent === w, [id, want]);
    assert.match(want, /[\u4e00-\u9fff]/);
    await page.fill(sel, good);
    await page.waitForFunction((i) => !document.getElementById(i).textContent, id);
  }
  assert.equal(readerSentence({ lr: 0 }, 'zh'), '学习率必须大于 0 且不超过 10。');
  assert.equal(readerSentence({ divisor: '0' }, 'zh'), '除数必须大于 0 且不超过 10¹²。');
  await page.fill('#lab-dk', '0');
  await page.waitForFunction(() => /^dₖ 必须是 1 到 .* 之间的整数。$/.test(document.getElementById('lab-dk-msg').textContent));
  await page.fill('#lab-dk', '16');
  await page.waitForFunction(() => !document.getElementById('lab-dk-msg').textContent);
  await page.click('#lab-start');
  await waitState(page, 'done', 120_000);
  assert.match(await page.textContent('#lab-status'), /完成/);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `sideways scroll of ${overflow} px at 320 px`);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, 'lab-320-zh.png'), fullPage: true });
  await page.selectOption('#lang-select', 'en');
  assert.equal(await page.textContent('#lab-start'), 'Start again');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: path.join(ARTIFACTS, 'lab-320-dark.png'), fullPage: true });
  assert.deepEqual(browser.problems, []);
  await page.close();
});

test('the form lines up: every label, input and hint of a row aligned, at 1280 and 375 px, in both languages', async () => {
  for (const width of [1280, 375]) for (const lang of ['en', 'zh']) {
    const page = await open(`lang=${lang}`, { viewport: { width, height: 900 } });
    const fields = await page.$$eval('.lab-controls > .field', (fs) => fs.map((f) => {
      const box = (el) => { const r = el.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
      return { id: f.className, field: box(f), label: box(f.querySelector('label')), input: box(f.querySelector('input, select')) };
    }));
    assert.equal(fields.length, 7, 'task, d_k, heads, optimiser, learning rate, steps, seed');
    // Fields that share a row (their boxes overlap vertically): inputs' tops and labels' bottoms within 2 px.
    const rows = [];
    for (const f of [...fields].sort((a, b) => a.input.top - b.input.top)) {
      const row = rows.find((r) => r.some((g) => f.field.top < g.field.bottom && g.field.top < f.field.bottom));
      if (row) row.push(f);
      else rows.push([f]);
    }
    for (const row of rows) {
      const tops = row.map((f) => f.input.top);
      const labels = row.map((f) => f.label.bottom);
      assert.ok(Math.max(...tops) - Math.min(...tops) <= 2, `${width} px ${lang}: inputs of ${row.map((f) => f.id)} at ${tops}`);
      assert.ok(Math.max(...labels) - Math.min(...labels) <= 2, `${width} px ${lang}: labels of ${row.map((f) => f.id)} end at ${labels}`);
    }
    // Every label sits just above its own input, and nothing leaves the screen.
    for (const f of fields) {
      assert.ok(f.label.bottom <= f.input.top + 1 && f.input.top - f.label.bottom < 12, `${width} px ${lang}: ${f.id}'s label`);
      assert.ok(f.input.right <= width, `${width} px ${lang}: ${f.id}'s input reaches ${f.input.right}`);
    }
    if (width === 1280) assert.ok(rows[0].length >= 4, `${width} px ${lang}: ${rows[0].length} fields in the first row`);
    await page.screenshot({ path: path.join(ARTIFACTS, `lab-form-${lang}-${width}.png`), clip: await page.$eval('.lab-controls', (e) => {
      const r = e.getBoundingClientRect();
      return { x: r.left, y: r.top + scrollY, width: r.width, height: r.height };
    }) }).catch(() => {});
    await page.close();
  }
});

// A diverging run (issue 14, class 5): SGD at lr 1 with d_k 16 and one head,
// rates inside the documented range: the run without scaling diverges (at the
// step the core reports in Node), √d_k trains. The diverged run is marked on
// every curve at its step (a rule and an ✕, and a sentence under the chart),
// its card, the summary and the status say it diverged and why, in English
// and in Chinese; its NaN metrics are gaps (each line draws only its finite
// points), it stops stepping there, and its exports keep NaN as the CLI does
// (nan in CSV, null in JSON) with the diverged step. The healthy run has no mark.
test('a diverging run: marked on the curves at its step, said in its card and the summary, gaps not zeros, exports with nan',
  { timeout: TIMEOUT }, async () => {
    const options = { ...DEFAULT_OPTIONS, dk: 16, heads: 1, optimizer: 'sgd', lr: 1 };
    const s = new core.TrainSession();
    s.configure({ ...options, divisor: '1' });
    s.step(200);
    const d = s.divergedAt();
    s.delete();
    const healthy = new core.TrainSession();
    healthy.configure({ ...options, divisor: 'sqrt' });
    healthy.step(200);
    assert.equal(healthy.divergedAt(), 0, '√d_k trains');
    healthy.delete();
    assert.ok(d > 5 && d < 200, `the run without scaling diverges, at step ${d}`);

    const page = await open('lang=en&dk=16&heads=1&opt=sgd&lr=1&steps=200&div=sqrt,1&seed=0');
    await page.click('#lab-start');
    await waitState(page, 'done', 120_000);
    assert.deepEqual(await page.$$eval('.lab-run', (els) => els.map((e) => [e.dataset.state, e.dataset.diverged ?? null])),
      [['done', null], ['diverged', String(d)]]);
    const [healthySteps, divergedSteps] = await stepsDone(page);
    assert.equal(healthySteps, 200);
    assert.ok(divergedSteps >= d && divergedSteps < d + 50 && divergedSteps < 200, `stopped at ${divergedSteps}, diverged at ${d}`);
    const result = await page.textContent('#lab-run-1 .lab-run-result');
    assert.match(result, new RegExp(`^Diverged at step ${d}: the loss, a logit, a gradient norm or a number they come from is no longer finite, so the run stopped there .* A smaller learning rate may train\\.`));
    assert.doesNotMatch(result, /Never reached|Held-out/);
    assert.doesNotMatch(await page.textContent('#lab-run-0 .lab-run-result'), /[Dd]iverged/);
    const summary = await page.$$eval('#lab-summary li', (li) => li.map((x) => x.textContent));
    assert.match(summary[1], new RegExp(`^1 \\(no scaling\\): diverged at step ${d}: .*a smaller learning rate may train\\.$`));
    assert.doesNotMatch(summary.join(' '), /1 \(no scaling\): never reached/);
    assert.match(await page.textContent('#lab-status'), /1 diverged \(see the run\)\./);

    // Every chart: the mark at step d, said under it and in its accessible name; the lines draw their finite points only.
    await page.waitForFunction(() => Array.from(document.querySelectorAll('.lab-chart')).every((f) => f.dataset.points === '41'));
    const charts = await page.$$eval('.lab-chart', (fs) => fs.map((f) => ({
      id: f.id, diverged: f.dataset.diverged, drawn: f.dataset.drawn, note: f.querySelector('.lab-chart-marks').textContent,
      hidden: f.querySelector('.lab-chart-marks').hidden, name: f.querySelector('.lab-chart-plot').getAttribute('aria-label'),
    })));
    assert.equal(charts.length, 6);
    const json = JSON.parse((await downloadOf(page, '#lab-run-1 [data-export="json"]')).bytes.toString());
    const col = (name) => json.columns.indexOf(name);
    for (const c of charts) {
      assert.equal(c.diverged, String(d), c.id);
      assert.equal(c.hidden, false, c.id);
      assert.equal(c.note, `✕ 1 (no scaling) diverged at step ${d}`, c.id);
      assert.match(c.name, new RegExp(`1 \\(no scaling\\) diverged at step ${d}: its line ends there\\.$`), c.id);
    }
    // Points drawn by the diverged run's loss and accuracy lines: its logged
    // steps with a finite value, none after d. Step d itself is logged when it
    // falls on a logged step (the relaxed build's run diverges at 15): its
    // loss is inf there (drawn as nothing) and its accuracy still a number.
    for (const [id, name] of [['lab-chart-loss', 'loss'], ['lab-chart-accuracy', 'accuracy']]) {
      const drawn = charts.find((c) => c.id === id).drawn.split(',').map(Number);
      const upToD = json.rows.filter((r) => r[0] < d || (r[0] === d && r[col(name)] !== null)).length;
      assert.equal(drawn[0], 1 + 200 / 5, `${id}: √d_k draws every logged step`);
      assert.equal(drawn[1], json.rows.filter((r) => r[col(name)] !== null).length, `${id}: only finite points`);
      assert.equal(drawn[1], upToD, `${id}: nothing after step ${d}`);
    }
    // JSON: null where the metric is NaN (from step d on, as the CLI), the diverged step, no evaluation.
    assert.equal(json.diverged, d);
    assert.equal(json.eval, null);
    for (const r of json.rows) assert.equal(r.slice(1).every((v) => v !== null), r[0] < d, `step ${r[0]}`);
    // The last row: all null, unless the run stopped at d and d is a logged step (its row is d's, above).
    const lastIsD = json.rows.at(-1)[0] === d;
    assert.ok(lastIsD ? json.rows.at(-1)[col('loss')] === null : json.rows.at(-1).slice(1).every((v) => v === null));
    // CSV: nan, and the CLI's key,value block with the diverged step.
    const csv = (await downloadOf(page, '#lab-run-1 [data-export="csv"]')).bytes.toString();
    const [table, tail] = csv.trimEnd().split('\n\n');
    assert.equal(tail, `key,value\ndiverged,${d}`);
    const lines = table.split('\n').slice(1).map((l) => l.split(','));
    assert.equal(lines.length, json.rows.length);
    for (const l of lines.filter((x) => Number(x[0]) > d)) assert.ok(l.includes('nan') && !l.includes('NaN'), l.join(','));
    // Step d, where logged: a non-finite metric (the loss), as the CLI writes it.
    for (const l of lines.filter((x) => Number(x[0]) === d)) assert.ok((l.includes('inf') || l.includes('nan')) && !l.includes('Infinity'), l.join(','));
    assert.ok(lastIsD || lines.at(-1).slice(1).every((x) => x === 'nan'), lines.at(-1).join(','));
    // The healthy run's CSV has no such block.
    assert.doesNotMatch((await downloadOf(page, '#lab-run-0 [data-export="csv"]')).bytes.toString(), /diverged|nan/);
    // The charts' data table: a dash, never 0, for the NaN metrics.
    // The tables are built on the details' toggle event, which fires after the click returns.
    await page.click('#lab-data-summary');
    await page.waitForFunction(() => document.querySelectorAll('#lab-data-tables table[data-option="1"] tbody tr td').length > 0);
    const lastRow = await page.$$eval('#lab-data-tables table[data-option="1"] tbody tr:last-child td', (tds) => tds.map((td) => td.textContent));
    // (At d itself, where it is the last logged step, only the non-finite loss is a dash.)
    assert.ok(lastIsD ? lastRow.includes('—') : lastRow.every((x) => x === '—'), lastRow.join(' '));

    fs.mkdirSync(path.join(ROOT, 'build/screenshots'), { recursive: true });
    await page.screenshot({ path: path.join(ROOT, 'build/screenshots/lab-diverged-1280-en.png'), fullPage: true });
    await page.locator('.lab-charts').screenshot({ path: path.join(ROOT, 'build/screenshots/lab-diverged-charts-1280-en.png') });
    // No heatmap capture after the divergence (its weights are NaN): the last one is before step d.
    assert.ok(Number((await page.textContent('#lab-run-1 .lab-heat figcaption')).match(/\d+/)[0]) < d);

    // 简体中文: the same marks and sentences.
    await page.selectOption('#lang-select', 'zh');
    assert.match(await page.textContent('#lab-run-1 .lab-run-result'),
      new RegExp(`^在第 ${d} 步发散：损失、某个 logit、某个梯度范数或它们所依赖的中间量不再是有限数，运行在此停止.*较小的学习率也许能训练。`));
    assert.match((await page.$$eval('#lab-summary li', (li) => li.map((x) => x.textContent)))[1], new RegExp(`在第 ${d} 步发散`));
    assert.match(await page.textContent('#lab-status'), /1 个发散/);
    for (const note of await page.$$eval('.lab-chart-marks', (ps) => ps.map((p) => p.textContent)))
      assert.match(note, new RegExp(`^✕ \\S.*：第 ${d} 步发散$`));
    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(ROOT, 'build/screenshots/lab-diverged-375-zh.png'), fullPage: true });
    await page.locator('#lab-chart-loss').screenshot({ path: path.join(ROOT, 'build/screenshots/lab-diverged-chart-375-zh.png') });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `sideways scroll of ${overflow} px at 375 px`);
    assert.deepEqual(browser.problems, []);
    await page.close();
  });

// Start pressed before the core has loaded: the page's own first check (once
// the core is ready) used to supersede Start's, which then read as "invalid"
// with no message anywhere and nothing ran. The core is held back here so the
// click lands first, for the header's Start and the form's.
// On a phone's screen (375×700) too, each Start brings the live charts into view: the
// header's with motion on (its smooth scroll once ended on the init table), the form's
// (which once left the charts three screens down) with reduced motion.
test('Start pressed before the core has loaded runs the comparison', { timeout: TIMEOUT }, async () => {
  for (const button of ['#lab-quick-start', '#lab-start']) {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 375, height: 700 });
    if (button === '#lab-quick-start') await page.emulateMedia({ reducedMotion: 'no-preference' });
    let release;
    const held = new Promise((r) => { release = r; });
    await page.route(/\.wasm$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${server.origin}/lab.html?lang=en&dk=16&heads=1&opt=sgd&lr=0.05&steps=20&div=sqrt,1&seed=0`);
    await page.locator(button).waitFor();
    assert.doesNotMatch(await page.textContent('#lab-footer'), /Every number/, 'the core has not loaded yet');
    await page.click(button);
    assert.equal(await state(page), 'checking');
    release();
    await chartInView(page, 30_000).catch(() => assert.fail(`${button}: the loss chart is not in view at 375×700 after Start`));
    await waitState(page, 'done', 120_000);
    await chartInView(page, 1000).catch(() => assert.fail(`${button}: the loss chart left the view while the run went on`));
    assert.deepEqual(await page.$$eval('.lab-run', (els) => els.map((e) => e.dataset.state)), ['done', 'done'], button);
    assert.equal(await page.locator('[aria-invalid="true"]').count(), 0, `${button}: no field marked wrong`);
    await page.close();
  }
  assert.deepEqual(browser.problems, []);
});

test('a healthy comparison has no divergence mark', { timeout: TIMEOUT }, async () => {
  // At 1280×800, motion on: the form's Start brings the live charts into view.
  const page = await open('lang=en&dk=16&heads=1&opt=sgd&lr=0.05&steps=60&div=sqrt,1&seed=0', { viewport: { width: 1280, height: 800 } });
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await page.click('#lab-start');
  await chartInView(page).catch(() => assert.fail('the loss chart is not in view at 1280×800 after Start'));
  await waitState(page, 'done', 120_000);
  assert.deepEqual(await page.$$eval('.lab-run', (els) => els.map((e) => e.dataset.state)), ['done', 'done']);
  assert.deepEqual(await page.$$eval('.lab-chart', (fs) => fs.map((f) => f.dataset.diverged ?? '')), Array(6).fill(''));
  assert.deepEqual(await page.$$eval('.lab-chart-marks', (ps) => ps.map((p) => p.hidden)), Array(6).fill(true));
  assert.doesNotMatch(await page.textContent('main'), /[Dd]iverged/);
  assert.deepEqual(browser.problems, []);
  await page.close();
});

// The stabilisers (issue 15) on the page: bad soft-caps and τ, typed or linked,
// get the core's message next to their field in English and Chinese and
// nothing runs; the Preset select fills the form from the core's table and
// names its source; a soft-capped, QK-clipped comparison runs, its cards and
// summary say so, its exports carry the settings and the curves the core gives
// in Node, and the per-head charts draw a line per run and head.
test('stabilisers: soft-cap and QK-clip fields, the Preset select, a capped and clipped run, per-head charts', { timeout: TIMEOUT }, async (t) => {
  const page = await open('lang=en&cap=0.0001&clip=abc&steps=40');
  await page.waitForFunction(() => document.getElementById('lab-cap-msg').textContent && document.getElementById('lab-clip-msg').textContent,
    null, { timeout: 20_000 });
  const msgs = async () => [await page.textContent('#lab-cap-msg'), await page.textContent('#lab-clip-msg')];
  const [capEn, clipEn] = await msgs();
  t.diagnostic(`cap 0.0001: ${capEn} | clip abc: ${clipEn}`);
  assert.equal(capEn, readerSentence({ softcap: 1e-4 }));
  assert.equal(clipEn, readerSentence({ qkClip: NaN }));
  assert.equal(await page.getAttribute('#lab-cap', 'aria-invalid'), 'true');
  await page.click('#lab-start');
  await waitState(page, 'invalid');
  assert.equal(await page.$$eval('.lab-run', (r) => r.length), 0, 'no run started');
  await page.selectOption('#lang-select', 'zh');
  await page.waitForFunction((en) => document.getElementById('lab-cap-msg').textContent !== en, capEn);
  const [capZh, clipZh] = await msgs();
  assert.equal(capZh, readerSentence({ softcap: 1e-4 }, 'zh'));
  assert.equal(clipZh, readerSentence({ qkClip: NaN }, 'zh'));
  assert.match(capZh, /[\u4e00-\u9fff]/);
  // Typed: a cap above the range, in Chinese.
  await page.fill('#lab-cap', '20000');
  await page.waitForFunction((s) => document.getElementById('lab-cap-msg').textContent === s, readerSentence({ softcap: 2e4 }, 'zh'), { timeout: 20_000 });
  await page.selectOption('#lang-select', 'en');
  // The range in the hints is the core's.
  await page.waitForFunction(() => /0\.001 to 10,000/.test(document.getElementById('lab-cap-hint').textContent), null, { timeout: 20_000 });

  // The Preset select: the core's table, Gemma 2 27B fills d_k 128, ÷12, cap 50 and names its source.
  await page.waitForFunction(() => document.querySelectorAll('#lab-preset option').length > 1, null, { timeout: 20_000 });
  const names = await page.$$eval('#lab-preset option', (os) => os.map((o) => o.value));
  assert.deepEqual(names, ['', ...core.trainPresets().map((p) => p.name)]);
  await page.fill('#lab-clip', '');
  await page.selectOption('#lab-preset', 'gemma2-27b');
  assert.equal(await page.inputValue('#lab-dk'), '128');
  assert.equal(await page.inputValue('#lab-div-custom'), '12');
  assert.equal(await page.inputValue('#lab-cap'), '50');
  assert.equal(await page.inputValue('#lab-init'), 'lecun');
  const hint = await page.textContent('#lab-preset-hint');
  assert.match(hint, /^Gemma 2 27B: dₖ = 128, divided by sqrt\(query_pre_attn_scalar\) = sqrt\(144\) = 12, logits soft-capped at 50\. Source: google\/gemma-2-27b config\.json/);
  // T5: divisor 1 (its checkbox), no cap, T5 init.
  await page.selectOption('#lab-preset', 't5');
  assert.deepEqual([await page.inputValue('#lab-dk'), await page.inputValue('#lab-cap'), await page.inputValue('#lab-init')], ['64', '', 't5']);
  assert.equal(await page.isChecked('#lab-div-1'), true);
  assert.match(await page.textContent('#lab-preset-hint'), /T5 initialisation\. Source: Raffel et al\. 2020/);
  // Changing what the preset set: the select says none.
  await page.fill('#lab-dk', '32');
  assert.equal(await page.inputValue('#lab-preset'), '');

  // A soft-capped, QK-clipped comparison, small: √d_k and 1, cap 5, τ 4.
  await page.goto(`${server.origin}/lab.html?lang=en&dk=16&heads=2&opt=adam&lr=0.01&steps=60&div=sqrt,1&seed=0&cap=5&clip=4`);
  await page.waitForFunction(() => /Every number/.test(document.getElementById('lab-footer').textContent), null, { timeout: 60_000 });
  await page.click('#lab-start');
  await waitState(page, 'done', 120_000);
  const url = new URL(page.url());
  assert.deepEqual([url.searchParams.get('cap'), url.searchParams.get('clip'), url.searchParams.get('init')], ['5', '4', null]);
  const json = JSON.parse((await downloadOf(page, '#lab-run-1 [data-export="json"]')).bytes.toString());
  assert.deepEqual([json.config.softcap, json.config.qkClip, json.config.init], [5, 4, 'lecun']);
  const options = { ...DEFAULT_OPTIONS, dk: 16, heads: 2, lr: 0.01, seed: 0, divisor: '1', softcap: 5, qkClip: 4 };
  const s = new core.TrainSession();
  assert.equal(s.configure(options).error, '');
  s.step(60);
  const cols = JSON.parse(s.columnsJson());
  const flat = [...s.metrics(0)];
  const clips = s.qkClips();
  s.delete();
  assert.deepEqual(json.columns, cols);
  assert.deepEqual(json.rows.flat(), flat, 'the page\'s run is the core\'s in Node, bit for bit');
  assert.ok(clips > 0, 'the clip acted');
  for (const r of json.rows) assert.ok(r[cols.indexOf('logit_max_abs')] <= 5);
  const card = await page.textContent('#lab-run-1 .lab-run-stab');
  assert.equal(card, `With logits soft-capped at 5; QK-clip at τ = 4. QK-clip rescaled a head at ${clips} of 60 steps.`);
  assert.equal(await page.getAttribute('#lab-run-1', 'data-qk-clips'), String(clips));
  assert.equal(await page.textContent('#lab-summary .lab-sum-stab'), 'Every run: logits soft-capped at 5; QK-clip at τ = 4.');
  // Per-head charts: 2 runs × 2 heads, each line drawing every logged step; the six charts as before.
  assert.equal(await page.$$eval('.lab-chart', (f) => f.length), 6);
  for (const id of ['lab-chart-logitHeads', 'lab-chart-entropyHeads', 'lab-chart-correctHeads', 'lab-chart-frozenHeads', 'lab-chart-qkGradHeads']) {
    const drawn = (await page.getAttribute(`#${id}`, 'data-drawn')).split(',').map(Number);
    assert.deepEqual(drawn, Array(4).fill(json.rows.length), id);
    assert.match(await page.getAttribute(`#${id} .lab-chart-plot`, 'aria-label'), /one line per divisor and head \(2 heads per divisor/);
  }
  await page.selectOption('#lang-select', 'zh');
  assert.equal(await page.textContent('#lab-summary .lab-sum-stab'), '所有运行：logit 软上限 5；QK 裁剪 τ = 4。');
  assert.match(await page.textContent('#lab-run-1 .lab-run-stab'), /^使用logit 软上限 5；QK 裁剪 τ = 4。/);
  // A run without them says nothing of them.
  await page.goto(`${server.origin}/lab.html?lang=en&dk=16&heads=1&steps=10&div=sqrt`);
  await page.waitForFunction(() => /Every number/.test(document.getElementById('lab-footer').textContent), null, { timeout: 60_000 });
  await page.click('#lab-start');
  await waitState(page, 'done', 120_000);
  assert.equal(await page.isHidden('#lab-run-0 .lab-run-stab'), true);
  assert.equal(await page.$$eval('#lab-summary .lab-sum-stab', (e) => e.length), 0);
  assert.deepEqual(browser.problems, []);
  await page.close();
});

// Detection picks the relaxed-SIMD build (Chromium validates it); this
// machine fuses its multiply-adds, so the footer says a run is `attnlab train
// --madd fused`'s for its seed, which the CSV shows; a link keeps the form's
// state (even an edit made just before it is followed) and runs SIMD128, the
// CLI's default rounding, and a link goes back.
test('the relaxed-SIMD build by detection: its runs are the CLI\'s with --madd fused; a link to SIMD128 with the form\'s state, and back', { timeout: TIMEOUT }, async () => {
  const page = await open('lang=en&dk=16&heads=1&steps=20&div=sqrt&seed=3');
  assert.match(await page.textContent('#lab-footer'), /\(relaxed SIMD \(FMA\) build, kernel dot_f32__wasmrelaxedsimd_acc4\)/);
  assert.equal(await page.isVisible('#lab-build'), true);
  assert.match(await page.textContent('#lab-build'), /^Relaxed SIMD fuses each multiply-add on this machine \(one rounding\), so these runs are those of attnlab train --madd fused for the same seed/);
  await page.click('#lab-start');
  await waitState(page, 'done', 120_000);
  // The run's JSON export (its configuration and rows) against the CLI run with the same options.
  const run = JSON.parse((await downloadOf(page, '#lab-run-0 [data-export="json"]')).bytes.toString());
  const c = run.config;
  const cli = (madd) => {
    const r = spawnSync(CLI, ['train', '--task', c.task, '--dk', `${c.dk}`, '--heads', `${c.heads}`, '--dmodel', `${c.dModel}`,
      '--dv', `${c.dv}`, '--divisor', run.config.divisor, '--optimizer', c.optimizer, '--lr', `${c.lr}`, '--init', c.init,
      '--batch', `${c.batch}`, '--seed', `${c.seed}`, '--log-every', `${c.logEvery}`, '--steps', `${run.stepsDone}`,
      '--eval', '64', '--madd', madd], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout).metrics;
  };
  const close = (x, y) => Math.abs(x - y) <= 1e-6 * Math.abs(y) + 1e-12;  // the CLI's 7 digits
  const agree = (metrics) => metrics.length === run.rows.length &&
    run.rows.every((r, i) => run.columns.every((col, j) => !(col in metrics[i]) || close(r[j], metrics[i][col])));
  assert.ok(run.columns.filter((col) => col in cli('fused')[0]).length >= 3, `the CLI's columns: ${run.columns}`);
  assert.ok(agree(cli('fused')), 'the run is attnlab train --madd fused\'s, to its 7 digits');
  // (20 small steps stay within 7 digits of the default's too; tests/node/relaxed_madd.test.mjs
  // shows a run through convergence that parts from it.)

  await page.fill('#lab-dk', '32');  // followed at once: the link flushes the form's queued URL state
  await Promise.all([page.waitForURL(/build=simd/), page.click('#lab-build-link')]);
  await page.waitForFunction(() => /Every number/.test(document.getElementById('lab-footer').textContent), null, { timeout: 60_000 });
  const url = new URL(page.url());
  assert.deepEqual([url.searchParams.get('build'), url.searchParams.get('dk'), url.searchParams.get('seed')], ['simd', '32', '3']);
  assert.match(await page.textContent('#lab-footer'), /\(SIMD128 build, kernel dot_f32__wasmsimd_acc4\)/);
  assert.equal(await page.inputValue('#lab-dk'), '32');
  assert.match(await page.textContent('#lab-build'), /^SIMD128 rounds each multiply-add twice, so these runs are those of attnlab train for the same seed\./);
  assert.match(await page.textContent('#lab-build-link'), /^Back to the relaxed-SIMD build/);
  await page.selectOption('#lang-select', 'zh');
  assert.match(await page.textContent('#lab-build'), /^SIMD128 的每次乘加舍入两次/);
  assert.equal(await page.textContent('#lab-build-link'), '回到 relaxed SIMD 版本（融合乘加）');
  await Promise.all([page.waitForURL((u) => !u.searchParams.has('build')), page.click('#lab-build-link')]);
  await page.waitForFunction(() => /relaxed SIMD/.test(document.getElementById('lab-footer').textContent), null, { timeout: 60_000 });
  assert.equal(new URL(page.url()).searchParams.get('dk'), '32');
  assert.equal(await page.textContent('#lab-build-link'), '改用 SIMD128 运行');
  // The scalar build (forced) says nothing: it rounds as the CLI does by default.
  await page.goto(`${server.origin}/lab.html?lang=en&build=scalar`);
  await page.waitForFunction(() => /Every number/.test(document.getElementById('lab-footer').textContent), null, { timeout: 60_000 });
  assert.equal(await page.isHidden('#lab-build'), true);
  assert.deepEqual(browser.problems, []);
  await page.close();
});
