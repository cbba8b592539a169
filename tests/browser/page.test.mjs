// Browser test of the explorable page (web/dist) in Debian's Chromium, driven
// by playwright-core (see harness.mjs). Run after scripts/build.sh:
//   node --test --test-concurrency=1 tests/browser/
// Each section: its controls change the drawn numbers, which are read from the
// data-table alternatives and checked against plain-JS oracles and closed
// forms; the proof stepper by keyboard; the language switch; URL state round
// trips and bad URL values; no console error and no request off the origin.
// It also measures and prints the first-load size (gzip) and the main-thread
// work per frame while the d_k slider is dragged, and writes screenshots to
// tests/browser/artifacts/.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { ARTIFACTS, WEB, launch, startPreview } from './harness.mjs';
import { close } from '../node/check_cases.mjs';

const TIMEOUT = 60_000;

// ---- independent oracle: softmax in plain JS ----
function softmax(scores, divisor = 1) {
  const z = scores.map((s) => s / divisor);
  const m = Math.max(...z);
  const e = z.map((x) => Math.exp(x - m));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
}
const entropy = (p) => -p.reduce((a, x) => a + (x > 0 ? x * Math.log(x) : 0), 0);

let server;
let browser;
let context;
const requests = [];

async function openPage(query = '', { lang = 'en', viewport, wait = true } = {}) {
  const page = await context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  const params = new URLSearchParams(query);
  if (lang && !params.has('lang')) params.set('lang', lang);
  await page.goto(`${server.origin}/?${params}`);
  if (wait) await ready(page);
  return page;
}

async function ready(page) {
  await waitFor(page, () => document.getElementById('build-info')?.dataset.build, 'the core to load');
  await waitFor(page, () => /\d/.test(document.querySelector('[data-row="ex0-unscaled"] .c-probs')?.textContent ?? ''),
    'the seed table');
}

async function waitFor(page, fn, what, arg, timeout = 20_000) {
  try {
    await page.waitForFunction(fn, arg, { timeout });
  } catch (e) {
    throw new Error(`timed out waiting for ${what}: ${e.message.split('\n')[0]}`);
  }
}

/** Poll `read` until `ok(value)` holds (or time out), then return the last value. */
async function until(read, ok, timeout = 15_000) {
  const end = Date.now() + timeout;
  let v = await read();
  while (!ok(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    v = await read();
  }
  return v;
}

/** "86.68%" -> 86.68 (percentage points); "—" -> NaN. */
const pp = (text) => (/^[<]?[\d.]+\s*%$/.test(text.trim()) ? Number(text.replace(/[<%\s]/g, '')) : NaN);
/** "1,234.5" -> 1234.5 (English formatting). */
const numOf = (text) => Number(text.replace(/,/g, '').replace(/\s.*$/, ''));

const readProbs = (page, row) =>
  page.$$eval(`[data-row="${row}"] .prob`, (els) => els.map((e) => e.textContent));
const readCell = (page, row, col) => page.$eval(`[data-row="${row}"] .c-${col}`, (e) => e.textContent.trim());
const fieldState = (page, id) =>
  page.$eval(`#${id}`, (el) => ({
    invalid: el.getAttribute('aria-invalid'),
    msg: document.getElementById(el.getAttribute('aria-describedby'))?.textContent ?? '',
    live: document.getElementById(el.getAttribute('aria-describedby'))?.getAttribute('aria-live'),
  }));

function assertProbs(actualTexts, expected, what) {
  const got = actualTexts.map(pp);
  assert.equal(got.length, expected.length, `${what}: ${actualTexts.join(' | ')}`);
  expected.forEach((p, i) =>
    assert.ok(Math.abs(got[i] - 100 * p) <= 0.01 + 1e-9,
      `${what}: probability ${i + 1} is ${actualTexts[i]}, expected ${(100 * p).toFixed(4)}%`));
}

async function expectRow(page, row, expected, what = row) {
  const texts = await until(() => readProbs(page, row), (t) => {
    const got = t.map(pp);
    return got.length === expected.length && expected.every((p, i) => Math.abs(got[i] - 100 * p) <= 0.01 + 1e-9);
  });
  assertProbs(texts, expected, what);
}

/** Set a range input's value as a user would (input event). */
async function setRange(page, id, value) {
  await page.$eval(`#${id}`, (el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, value);
}

/**
 * In the page: the WCAG contrast ratio of an element's text colour (or, with
 * prop, another colour property) against the page background. Parses rgb()
 * and color(srgb …) (what color-mix() computes to).
 */
function contrastOf(page, selector, prop = 'color') {
  return page.$eval(selector, (el, prop) => {
    const rgb = (c) => {
      const m = c.match(/^rgba?\(([^)]+)\)/);
      if (m) return m[1].split(/[\s,/]+/).slice(0, 3).map((x) => Number(x) / 255);
      const n = c.match(/^color\(srgb ([^)]+)\)/);
      if (n) return n[1].split(/\s+/).slice(0, 3).map(Number);
      throw new Error(`colour ${c}`);
    };
    const lum = (c) => {
      const [r, g, b] = rgb(c).map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const fg = lum(getComputedStyle(el)[prop]);
    const bg = lum(getComputedStyle(document.body).backgroundColor);
    return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
  }, prop);
}

async function openDetails(page, tableId) {
  await page.$eval(`#${tableId}`, (t) => {
    const d = t.closest('details');
    if (!d.open) d.open = true;
  });
  // The saturation explorer's rows are filled by code loaded when a table first opens.
  await page.waitForFunction((id) => document.getElementById(id).tBodies[0]?.rows.length > 0, tableId, { timeout: 15_000 });
}

/** The saturation row table: [{score, scaled, pu, ps}] and its footer. */
async function satRow(page) {
  await openDetails(page, 'sat-row-table');
  return page.$eval('#sat-row-table', (t) => ({
    title: document.getElementById('sat-row-table-title').textContent,
    rows: [...t.tBodies[0].rows].map((r) => [...r.cells].map((c) => c.textContent)),
    foot: Object.fromEntries([...t.querySelectorAll('tfoot tr')].map((r) =>
      [r.dataset.stat, [r.querySelector('[data-col="unscaled"]').textContent, r.querySelector('[data-col="scaled"]').textContent]])),
  }));
}

before(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  server = await startPreview();
  browser = await launch(server.origin);
  context = browser.context;
  context.on('request', (req) => requests.push(req.url()));
});

after(async () => {
  await browser?.close();
  server?.stop();
});

describe('the explorable page', { timeout: TIMEOUT * 30 }, () => {
  test('is served with the Content-Security-Policy as header and meta', { timeout: TIMEOUT }, async () => {
    const res = await fetch(server.origin + '/');
    const header = res.headers.get('content-security-policy') ?? '';
    assert.match(header, /script-src 'self' 'wasm-unsafe-eval'/);
    const page = await openPage();
    const meta = await page.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.content);
    assert.equal(meta, header);
    assert.doesNotMatch(meta, /'unsafe-eval'|'unsafe-inline'/);
    // The six sections, in the order of the causal chain, each with its widget; then what real models divide by.
    const ids = await page.$$eval('main > section', (s) => s.map((x) => x.id));
    assert.deepEqual(ids, ['chain', 'variance', 'proof', 'softmax', 'saturation', 'training', 'presets']);
    for (const tag of ['attn-chain', 'attn-variance', 'attn-proof', 'attn-softmax-table', 'attn-saturation'])
      assert.equal(await page.$eval(tag, (e) => e.children.length > 0), true, `${tag} is built`);
    await page.close();
  });

  // ---- 1. the causal chain ----
  test('chain: a build-time SVG whose nodes link to the sections, a text version, the Mermaid source', { timeout: TIMEOUT }, async () => {
    const page = await openPage();
    const links = await page.$$eval('#chain .chain-svg svg a', (as) => as.map((a) => a.getAttribute('xlink:href') ?? a.getAttribute('href')));
    assert.equal(links.length, 10, `10 linked nodes, got ${links}`);
    for (const href of new Set(links)) assert.equal(await page.$$eval(href, (e) => e.length), 1, `${href} exists`);
    assert.equal(await page.$$eval('#chain .chain-svg svg style, #chain .chain-svg [style]', (e) => e.length), 0, 'no inline styles');
    assert.match(await page.textContent('#chain .chain-svg svg'), /Softmax\s*saturates/);
    const list = await page.$$eval('#chain .chain-list a', (as) => as.map((a) => a.getAttribute('href')));
    assert.equal(list.length, 10);
    // The source, offered for copying.
    const src = await page.textContent('#chain-source');
    assert.match(src, /^%%/);
    assert.match(src, /flowchart TD/);
    await page.click('#chain summary');
    await page.click('#chain-copy');
    const msg = await until(() => page.textContent('#chain .copy-msg'), (t) => t !== '');
    assert.match(msg, /Copied|Copy failed/);
    // Chinese: the other SVG.
    await page.selectOption('#lang-select', 'zh');
    await until(() => page.textContent('#chain .chain-svg svg'), (t) => /饱和/.test(t));
    assert.match(await page.textContent('#chain-source'), /flowchart TD/);
    assert.match(await page.textContent('#chain .chain-svg svg'), /softmax\s*饱和/);
    await page.selectOption('#lang-select', 'en');
    await page.close();
  });

  // ---- 2. why the dot product grows ----
  test('variance: measured Var(q·k) follows d_k and Var(q·k/√d_k) stays near 1', { timeout: TIMEOUT }, async () => {
    const page = await openPage('var.seed=3');
    await waitFor(page, () => document.querySelector('attn-variance').dataset.sweep === 'done', 'the variance sweep');
    await openDetails(page, 'var-sweep-table');
    const rows = await page.$$eval('#var-sweep-table tbody tr', (trs) => trs.map((tr) => ({
      dk: Number(tr.dataset.dk), v: Number(tr.dataset.var), sv: Number(tr.dataset.scaledVar), tv: Number(tr.dataset.theoryVar),
      cells: [...tr.cells].map((c) => c.textContent),
    })));
    assert.equal(rows.length, 13, 'd_k = 1 .. 4096');
    for (const r of rows) {
      const n = numOf(r.cells[1]);
      // Var of a sample variance of a sum of d_k products: (2 d_k² + 6 d_k) / n.
      const se = Math.sqrt((2 * r.dk * r.dk + 6 * r.dk) / n);
      assert.equal(r.tv, r.dk, `closed form at d_k = ${r.dk}`);
      assert.ok(Math.abs(r.v - r.dk) < 6 * se, `Var(q·k) at d_k = ${r.dk}: ${r.v} (se ${se})`);
      assert.ok(Math.abs(r.sv - 1) < 6 * se / r.dk, `Var(q·k/√d_k) at d_k = ${r.dk}: ${r.sv}`);
      // The table shows what the data attributes hold.
      assert.ok(Math.abs(numOf(r.cells[3]) - r.v) <= 1e-3 * r.v + 1e-3, `shown ${r.cells[3]} vs ${r.v}`);
    }
    // The histogram: its counts add up to the samples drawn (none outside at ρ = 0 is not guaranteed).
    await waitFor(page, () => document.querySelector('attn-variance').dataset.hist === 'done', 'the histogram');
    const rd = await page.$eval('#var-readout', (e) => ({ ...e.dataset, text: e.textContent }));
    assert.equal(Number(rd.theoryVar), 64);
    assert.ok(Math.abs(Number(rd.var) - 64) < 6 * Math.sqrt((2 * 64 * 64 + 6 * 64) / Number(rd.samples)), `var ${rd.var}`);
    await openDetails(page, 'var-hist-table');
    const counts = await page.$$eval('#var-hist-table tbody tr', (trs) => trs.map((tr) => Number(tr.cells[2].textContent.replace(/,/g, ''))));
    assert.equal(counts.length, 48);
    const inRange = counts.reduce((a, b) => a + b, 0);
    assert.ok(inRange <= Number(rd.samples) && inRange > 0.999 * Number(rd.samples), `histogram holds ${inRange} of ${rd.samples}`);
    await page.close();
  });

  test('variance: where the seed\'s assumption is off (ρ = 0.95), its curve is drawn whole and a note says why', { timeout: TIMEOUT }, async () => {
    for (const lang of ['en', 'zh']) {
      const page = await openPage('var.rho=0.95&var.seed=5', { lang });
      await page.locator('#var-hist-chart').scrollIntoViewIfNeeded();
      await waitFor(page, () => document.querySelector('attn-variance').dataset.hist === 'done', 'the histogram');
      // The dashed N(0, d_k) curve peaks inside the axis, not at its edge (it was its right tail, a spike at the left edge).
      const seedCurve = await page.$eval('#var-hist-chart path[stroke-dasharray="6 4"]', (p) =>
        (p.getAttribute('d').match(/-?[\d.]+,-?[\d.]+/g) ?? []).map((xy) => xy.split(',').map(Number)));
      assert.ok(seedCurve.length > 10, `${seedCurve.length} points`);
      const top = seedCurve.reduce((best, pt, i) => (pt[1] < seedCurve[best][1] ? i : best), 0);
      assert.ok(top > 2 && top < seedCurve.length - 3, `the seed's curve peaks at point ${top} of ${seedCurve.length}`);
      const note = await page.$eval('#var-hist-note', (e) => ({ hidden: e.hidden, text: e.textContent, h: e.getBoundingClientRect().height }));
      assert.equal(note.hidden, false);
      assert.ok(note.h > 0);
      assert.match(note.text, lang === 'en' ? /^The dashed curve is the seed’s assumption, N\(0, dₖ\), drawn whole: .* mean 60\.8 and variance 122, not 0 and 64/
        : /^虚线是原文的假设 N\(0, dₖ\)，完整画出：.*均值为 60\.8、方差为 122，而不是 0 与 64/);
      // Back at the seed's assumption: no note.
      await page.click('#var-reset');
      await waitFor(page, () => document.getElementById('var-hist-note').hidden, 'the note to go');
      await page.close();
    }
  });

  test('variance: σ and ρ move the mean and variance to their closed forms; d_k by keyboard', { timeout: TIMEOUT }, async () => {
    const page = await openPage('var.seed=5');
    const readout = () => page.$eval('#var-readout', (e) => ({ ...e.dataset }));
    // ρ = 0.5 by keyboard: 10 steps of 0.05 to the right.
    await page.focus('#var-rho');
    for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
    assert.equal(await page.$eval('#var-rho', (e) => e.value), '0.5');
    let r = await until(readout, (d) => Number(d.theoryMean) === 32);
    assert.equal(Number(r.theoryMean), 0.5 * 64, 'mean ρσσ d_k');
    assert.equal(Number(r.theoryVar), 64 * 1.25, 'variance σ²σ² d_k (1 + ρ²)');
    await waitFor(page, () => document.querySelector('attn-variance').dataset.hist === 'done', 'the histogram');
    r = await readout();
    const n = Number(r.samples);
    assert.ok(Math.abs(Number(r.mean) - 32) < 6 * Math.sqrt(80 / n), `mean ${r.mean}`);
    // σ_q = 2: variance 4 · 64 · 1.25.
    await setRange(page, 'var-sq', 2);
    r = await until(readout, (d) => Number(d.theoryVar) === 320);
    assert.equal(Number(r.theoryVar), 320);
    // With ρ ≠ 0, q·k/√d_k keeps growing: its root mean square at d_k = 4096 is far above that at d_k = 1.
    await waitFor(page, () => document.querySelector('attn-variance').dataset.sweep === 'done', 'the sweep');
    await openDetails(page, 'var-sweep-table');
    const rms = await page.$$eval('#var-sweep-table tbody tr', (trs) => trs.map((tr) => [Number(tr.dataset.dk), Number(tr.cells[6].textContent.replace(/,/g, '')), Number(tr.cells[7].textContent.replace(/,/g, ''))]));
    const at = (dk) => rms.find((x) => x[0] === dk);
    assert.ok(at(4096)[1] > 20 * at(1)[1], `√d_k divisor: rms ${at(1)[1]} -> ${at(4096)[1]}`);
    // A 1/d_k divisor holds them: ρσ_qσ_k = 1 at large d_k.
    assert.ok(Math.abs(at(4096)[2] - 1) < 0.05, `d_k divisor: rms at 4096 is ${at(4096)[2]}`);
    // Back to the seed's assumption, and d_k = 4096 by keyboard (End).
    await page.click('#var-reset');
    await page.focus('#var-dk-range');
    await page.keyboard.press('End');
    r = await until(readout, (d) => Number(d.theoryVar) === 4096);
    assert.equal(Number(r.theoryMean), 0);
    assert.equal(await page.$eval('#var-dk-number', (e) => e.value), '4096');
    // A bad d_k typed in: a message next to the field, the rest keeps its numbers.
    await page.fill('#var-dk-number', '5000');
    const st = await until(() => fieldState(page, 'var-dk-number'), (s) => s.msg !== '');
    assert.match(st.msg, /from 1 to 4096/);
    assert.equal(st.invalid, 'true');
    await page.fill('#var-dk-number', '16');
    r = await until(readout, (d) => Number(d.theoryVar) === 16);
    assert.equal((await fieldState(page, 'var-dk-number')).invalid, null);
    await page.close();
  });

  // ---- 3. the proof ----
  test('proof: KaTeX loads only when the section is reached; the stepper walks every step by keyboard', { timeout: TIMEOUT }, async () => {
    const before = requests.length;
    const page = await openPage('proof.seed=2');
    await page.waitForTimeout(300);
    const early = requests.slice(before).filter((u) => /katex/i.test(u));
    assert.deepEqual(early, [], 'no KaTeX file before the proof is near');
    assert.equal(await page.$eval('#proof-formula .math', (e) => e.dataset.typeset ?? ''), '');
    await page.$eval('#proof', (e) => e.scrollIntoView());
    await waitFor(page, () => document.querySelector('#proof-formula .math')?.dataset.typeset === 'true', 'the typeset formula');
    assert.ok(await page.$eval('#proof-formula .katex', (e) => e.getBoundingClientRect().height > 10));
    const late = requests.slice(before).filter((u) => /katex/i.test(u));
    assert.ok(late.some((u) => u.endsWith('.css')) && late.some((u) => /KaTeX_.*\.woff2$/.test(u)), late.join('\n'));
    assert.ok(!late.some((u) => /katex(\.min)?\.js/.test(u)), 'KaTeX’s JavaScript is never loaded');

    const step = () => page.$eval('attn-proof', (e) => ({
      n: Number(e.dataset.step), text: document.getElementById('proof-step-text').textContent,
      of: document.getElementById('proof-step-of').textContent, grid: document.getElementById('proof-grid').dataset.step,
      formula: document.querySelector('#proof-formula .math').dataset.formula,
    }));
    // Step 1: the cells are not faded (opacity 0.4 left them at 2.5:1), but muted text.
    assert.equal(await page.$eval('#proof-grid td.cell', (td) => getComputedStyle(td).opacity), '1');
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      const c = await contrastOf(page, '#proof-grid td.cell');
      assert.ok(c >= 4.5, `step 1 cell text ${c.toFixed(2)}:1 (${scheme})`);
    }
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
    await page.focus('#proof-panel');
    const seen = [await step()];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('ArrowRight');
      seen.push(await step());
    }
    assert.deepEqual(seen.map((s) => s.n), [1, 2, 3, 4, 5, 6, 7]);
    assert.deepEqual(seen.map((s) => s.formula), ['dot', 'square', 'diagonal', 'cross', 'sum', 'divide', 'choose']);
    assert.equal(new Set(seen.map((s) => s.text)).size, 7, 'each step has its own text');
    assert.equal(seen[6].of, 'Step 7 of 7');
    await page.keyboard.press('ArrowRight');
    assert.equal((await step()).n, 7, 'stays at the last step');
    assert.equal(await page.$eval('#proof-next', (b) => b.disabled), true);
    const back = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('ArrowLeft');
      back.push((await step()).n);
    }
    assert.deepEqual(back, [6, 5, 4, 3, 2, 1]);
    await page.keyboard.press('End');
    assert.equal((await step()).n, 7);
    await page.keyboard.press('Home');
    assert.equal((await step()).n, 1);
    // Buttons by keyboard too.
    await page.focus('#proof-next');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    assert.equal((await step()).grid, 'diagonal');
    await until(() => page.url(), (u) => u.includes('proof.step=3'));
    assert.match(page.url(), /proof\.step=3/);
    // After a click on Next or Back, the arrow keys step from that button.
    await page.click('#proof-next');
    assert.equal((await step()).n, 4);
    await page.keyboard.press('ArrowRight');
    assert.equal((await step()).n, 5, 'ArrowRight on Next');
    await page.click('#proof-back');
    await page.keyboard.press('ArrowLeft');
    assert.equal((await step()).n, 3, 'click Back, then ArrowLeft on Back');
    // A button about to be disabled hands focus to the step panel: the keys go on working.
    await page.keyboard.press('End');
    assert.equal((await step()).n, 7, 'End on Back');
    await page.keyboard.press('ArrowLeft');
    assert.equal((await step()).n, 6);
    await page.click('#proof-next');
    assert.equal((await step()).n, 7);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'proof-panel', 'focus on the panel, not lost');
    await page.keyboard.press('ArrowLeft');
    assert.equal((await step()).n, 6);
    // The d_k slider keeps its own arrow keys.
    await page.focus('#proof-dk');
    await page.keyboard.press('ArrowRight');
    assert.equal((await step()).n, 6);
    assert.equal(await page.$eval('#proof-dk', (e) => e.value), '4');
    await page.close();
  });

  test('proof: running means converge as samples stream in (play, pause, reset, d_k)', { timeout: TIMEOUT }, async () => {
    const page = await openPage('proof.seed=4');
    await page.$eval('#proof', (e) => e.scrollIntoView());
    const samples = () => page.$eval('#proof-samples', (e) => Number(e.dataset.samples));
    await until(samples, (n) => n === 100); // a first batch before Play (reduced motion: no autoplay)
    assert.equal(await samples(), 100);
    assert.equal(await page.$$eval('#proof-grid td.cell', (c) => c.length), 9);
    await page.click('#proof-play');
    assert.equal(await page.$eval('#proof-play', (b) => b.getAttribute('aria-pressed')), 'true');
    const n1 = await until(samples, (n) => n >= 50_000, 30_000);
    assert.ok(n1 >= 50_000, `${n1} samples`);
    await page.click('#proof-play'); // pause
    await page.waitForTimeout(300);
    const paused = await samples();
    await page.waitForTimeout(400);
    assert.equal(await samples(), paused, 'paused: no more samples');
    const cells = await page.$$eval('#proof-grid td.cell', (tds) => tds.map((td) => ({ i: Number(td.dataset.i), j: Number(td.dataset.j), m: Number(td.dataset.mean) })));
    // Each term's sd is 1 (cross) or √8 (diagonal, E[q⁴]E[k⁴] − 1 = 8): 6 standard errors.
    for (const c of cells) {
      const se = (c.i === c.j ? Math.sqrt(8) : 1) / Math.sqrt(paused);
      assert.ok(Math.abs(c.m - (c.i === c.j ? 1 : 0)) < 6 * se, `cell (${c.i}, ${c.j}) = ${c.m} after ${paused} samples`);
    }
    const total = await page.$eval('#proof-sums', (e) => Number(e.dataset.total));
    const m = await page.$eval('#proof-measured', (e) => ({ v: Number(e.dataset.var), sv: Number(e.dataset.scaledVar) }));
    assert.ok(Math.abs(total - 3) < 0.15, `sum of cells ${total}`);
    assert.ok(Math.abs(m.v - 3) < 0.15 && Math.abs(m.sv - 1) < 0.05, `Var ${m.v}, scaled ${m.sv}`);
    // The sum of the cells is E[(q·k)²]: equal to Var(q·k) up to the squared mean.
    assert.ok(Math.abs(total - m.v) < 0.05, `sum ${total} vs Var ${m.v}`);
    // Reset starts again from the first batch; d_k = 5 gives a 5 × 5 grid.
    await page.click('#proof-reset');
    await until(samples, (n) => n === 100);
    await setRange(page, 'proof-dk', 5);
    await until(() => page.$$eval('#proof-grid td.cell', (c) => c.length), (n) => n === 25);
    assert.equal(await page.$$eval('#proof-grid td.cell', (c) => c.length), 25);
    await until(samples, (n) => n === 100);
    assert.equal(await page.$$eval('#proof-grid td.cell', (tds) => tds.filter((t) => /\d/.test(t.textContent)).length), 25);
    // Playing (pressed: reduced motion), a new d_k and Reset keep streaming.
    await page.click('#proof-play');
    await until(samples, (n) => n > 1000);
    await setRange(page, 'proof-dk', 6);
    await until(() => page.$$eval('#proof-grid td.cell', (c) => c.length), (n) => n === 36);
    const after6 = await until(samples, (n) => n > 1000, 5000);
    assert.ok(after6 > 1000, `d_k = 6 while playing: ${after6} samples`);
    assert.equal(await page.$eval('#proof-play', (b) => b.getAttribute('aria-pressed')), 'true');
    await page.click('#proof-reset');
    const afterReset = await until(samples, (n) => n > 1000, 5000);
    assert.ok(afterReset > 1000, `Reset while playing: ${afterReset} samples`);
    await page.click('#proof-resample');
    const afterSeed = await until(samples, (n) => n > 1000, 5000);
    assert.ok(afterSeed > 1000, `New seed while playing: ${afterSeed} samples`);
    // Streaming stops by itself at 1 000 000 samples; a new d_k then streams again
    // (it used to draw 100 samples and wait for Play).
    const full = await until(samples, (n) => n === 1_000_000, 40_000);
    assert.equal(full, 1_000_000);
    const pressed = () => page.$eval('#proof-play', (b) => b.getAttribute('aria-pressed'));
    assert.equal(await until(pressed, (p) => p === 'false'), 'false', 'stopped at the end');
    await setRange(page, 'proof-dk', 2);
    const again = await until(samples, (n) => n > 1000 && n < 1_000_000, 5000);
    assert.ok(again > 1000 && again < 1_000_000, `d_k = 2 after the full run: ${again} samples`);
    assert.equal(await page.$eval('#proof-play', (b) => b.getAttribute('aria-pressed')), 'true');
    // Paused by the reader, a new d_k waits for Play.
    await page.click('#proof-play');
    await page.click('#proof-reset');
    await until(samples, (n) => n === 100);
    await page.waitForTimeout(500);
    assert.equal(await samples(), 100, 'paused by the reader: Reset draws the first batch only');
    await page.close();
  });

  // ---- 4. the worked table ----
  test('softmax table: the seed’s example computed by the core, with the not-quite-one-hot note', { timeout: TIMEOUT }, async () => {
    const page = await openPage();
    assertProbs(await readProbs(page, 'ex0-unscaled'), [0.8668, 0.0159, 0.1173], 'unscaled [14, 10, 12]');
    assertProbs(await readProbs(page, 'ex0-scaled'), [0.4192, 0.2543, 0.3265], 'scaled [14, 10, 12] / 8');
    assert.equal(await readCell(page, 'ex0-scaled', 'scores'), '1.75, 1.25, 1.5');
    assert.equal(await readCell(page, 'ex0-scaled', 'divisor'), '√64 = 8');
    assert.equal(pp(await readCell(page, 'ex0-unscaled', 'maxProb')), 86.68);
    const h = Number(await readCell(page, 'ex0-unscaled', 'entropy'));
    assert.ok(Math.abs(h - entropy(softmax([14, 10, 12]))) < 1e-4, `entropy ${h}`);
    const s = [1, 0.5, 0.8];
    assertProbs(await readProbs(page, 'ex1-unscaled'), softmax(s, 1), 'unscaled [1, 0.5, 0.8]');
    assertProbs(await readProbs(page, 'ex1-scaled'), softmax(s, 2), 'scaled [1, 0.5, 0.8] / 2');
    assert.match(await page.textContent('#seed-not-one-hot'), /largest probability is 86\.68%/);
    // Editing: both rows and the note follow; the URL keeps the edit.
    await page.fill('#seed-ex0-scores', '14,10,13');
    await expectRow(page, 'ex0-unscaled', softmax([14, 10, 13], 1));
    await expectRow(page, 'ex0-scaled', softmax([14, 10, 13], 8));
    const p = softmax([14, 10, 13])[0];
    assert.match(await page.textContent('#seed-not-one-hot'), new RegExp(`${(100 * p).toFixed(2)}%`));
    await until(() => page.url(), (u) => u.includes('sm.s0=14%2C10%2C13'));
    assert.match(page.url(), /sm\.s0=14%2C10%2C13/);
    await page.close();
  });

  test('softmax table: bad scores and d_k show a message next to the field; the rest keeps working', { timeout: TIMEOUT }, async () => {
    const page = await openPage();
    const cases = [
      ['seed-ex0-scores', '14,abc', /“abc” is not a number/],
      ['seed-ex0-scores', '', /at least one score/],
      ['seed-ex0-scores', '14,,12', /Score 2 is empty/],
      // The core's errors as sentences for readers (issue 13): never its English message.
      ['seed-ex0-scores', '1e999', /^The scores must be finite numbers: number 1 is not one\.$/],
      ['seed-ex0-dk', '0', /^dₖ must be a whole number from 1 to 65,536\.$/],
      ['seed-ex0-dk', '-1', /^dₖ must be a whole number from 1 to 65,536\.$/],
      ['seed-ex0-dk', '2.5', /^dₖ must be a whole number from 1 to 65,536\.$/],
      ['seed-ex0-dk', 'abc', /“abc” is not a number/],
    ];
    for (const [id, text, message] of cases) {
      await page.fill(`#${id}`, text);
      const st = await until(() => fieldState(page, id), (s) => message.test(s.msg));
      assert.match(st.msg, message, `message for ${JSON.stringify(text)}`);
      assert.equal(st.invalid, 'true');
      assert.equal(st.live, 'polite');
      assertProbs(await readProbs(page, 'ex1-unscaled'), softmax([1, 0.5, 0.8]), 'other example still works');
      await page.fill('#seed-ex0-scores', '14, 10, 12');
      await page.fill('#seed-ex0-dk', '64');
    }
    await expectRow(page, 'ex0-scaled', softmax([14, 10, 12], 8));
    assert.equal((await fieldState(page, 'seed-ex0-dk')).invalid, null);
    await page.close();
  });

  // ---- 5. saturation explorer ----
  test('saturation: at d_k = 4096 the unscaled row is one-hot, the √d_k row is not; numbers match a JS softmax', { timeout: TIMEOUT }, async () => {
    const page = await openPage('sat.seed=1');
    await page.focus('#sat-dk-range');
    await page.keyboard.press('End');
    await until(() => page.textContent('#sat-dk-output'), (t) => t.includes('4096'));
    assert.equal(await page.textContent('#sat-dk-output'), 'dₖ = 4096');
    const row = await until(() => satRow(page), (r) => r.title.includes('4096'));
    assert.equal(row.rows.length, 16);
    const scores = row.rows.map((r) => Number(r[1]));
    const pu = softmax(scores, 1);
    const ps = softmax(scores, 64);
    row.rows.forEach((r, j) => {
      // Scores are shown to 4 significant digits: compare with a tolerance that allows for it.
      assert.ok(Math.abs(pp(r[3]) - 100 * pu[j]) < 2, `unscaled p${j}: ${r[3]} vs ${100 * pu[j]}`);
      assert.ok(Math.abs(pp(r[4]) - 100 * ps[j]) < 0.1, `scaled p${j}: ${r[4]} vs ${100 * ps[j]}`);
      assert.ok(Math.abs(Number(r[2]) - scores[j] / 64) < 1e-3 * Math.abs(scores[j]) + 1e-3);
    });
    assert.ok(pp(row.foot.maxProb[0]) > 90, `unscaled largest ${row.foot.maxProb[0]}`);
    assert.ok(pp(row.foot.maxProb[1]) < 90, `scaled largest ${row.foot.maxProb[1]}`);
    const tallest = await page.$$eval('#saturation .chart-unscaled .fill', (els) => Math.max(...els.map((e) => parseFloat(e.style.height))));
    assert.ok(tallest > 90, `tallest unscaled bar ${tallest}%`);
    await until(() => page.url(), (u) => /sat\.dk=4096/.test(u));
    assert.match(page.url(), /sat\.dk=4096/);
    await page.close();
  });

  test('errors for readers in Chinese: divisor 0 in the saturation explorer, d_k and scores in the softmax table', { timeout: TIMEOUT }, async () => {
    const page = await openPage('sat.seed=1&sat.dk=256', { lang: 'zh' });
    await until(() => satRow(page), (r) => r.rows.length === 16);
    await page.check('#sat-div-custom');
    for (const [text, message] of [
      ['0', /^除数必须大于 0 且不超过 10¹²。$/],
      ['1e13', /^除数不能超过 10¹²。$/],
      ['abc', /^除数必须是一个数，如 8 或 0\.5/],
    ]) {
      await page.fill('#sat-custom', text);
      const st = await until(() => fieldState(page, 'sat-custom'), (s) => message.test(s.msg));
      assert.match(st.msg, message, `custom ${JSON.stringify(text)}`);
      assert.equal(st.invalid, 'true');
    }
    for (const [id, text, message] of [
      ['seed-ex0-dk', '0', /^dₖ 必须是 1 到 65,536 之间的整数。$/],
      ['seed-ex0-scores', '1e999', /^分数必须都是有限的数：第 1 个不是。$/],
    ]) {
      await page.fill(`#${id}`, text);
      const st = await until(() => fieldState(page, id), (s) => message.test(s.msg));
      assert.match(st.msg, message, `${id} ${JSON.stringify(text)}`);
      assert.doesNotMatch(st.msg, /[a-z]{3,} must|Rejected|拒绝了此输入/);
    }
    await page.close();
  });

  test('saturation: divisor choices, sequence length, resample; bad custom divisors give a sentence for readers', { timeout: TIMEOUT }, async () => {
    const page = await openPage('sat.seed=1&sat.dk=256');
    await until(() => satRow(page), (r) => r.title.includes('256'));
    // d_k divisor: scores / 256.
    await page.check('#sat-div-dk');
    let row = await until(() => satRow(page), (r) => r.title.includes('divisor 256'));
    assert.match(await page.textContent('#saturation .chart-scaled .chart-title'), /dₖ = 256/);
    const scores = row.rows.map((r) => Number(r[1]));
    row.rows.forEach((r, j) => assert.ok(Math.abs(pp(r[4]) - 100 * softmax(scores, 256)[j]) < 0.05));
    // Divisor 2 and 1.
    await page.check('#sat-div-2');
    row = await until(() => satRow(page), (r) => r.title.includes('divisor 2,'));
    await page.check('#sat-div-1');
    row = await until(() => satRow(page), (r) => r.title.includes('divisor 1,'));
    assert.deepEqual(row.foot.maxProb[0], row.foot.maxProb[1], 'divided by 1 = unscaled');
    // Custom: bad values, then a good one.
    await page.check('#sat-div-custom');
    for (const [text, message] of [
      ['0', /^The divisor must be greater than 0 and at most 10¹²\.$/],
      ['-1', /^The divisor must be greater than 0 and at most 10¹²\.$/],
      ['abc', /^The divisor must be a number such as 8 or 0\.5 \(greater than 0, at most 10¹²\), or “sqrt” for √dₖ, or “dk” for dₖ\.$/],
      ['', /^The divisor must be a number such as 8 or 0\.5/],
      ['1e13', /^The divisor must be at most 10¹²\.$/],
    ]) {
      await page.fill('#sat-custom', text);
      const st = await until(() => fieldState(page, 'sat-custom'), (s) => message.test(s.msg));
      assert.match(st.msg, message, `custom ${JSON.stringify(text)}`);
      assert.doesNotMatch(st.msg, /Rejected by the core|must be 'sqrt'|got '/);
      assert.equal(st.invalid, 'true');
      // The page keeps working: the unscaled row is still there.
      assert.ok((await satRow(page)).rows.length === 16);
    }
    await page.fill('#sat-custom', '12.5');
    row = await until(() => satRow(page), (r) => r.title.includes('divisor 12.5'));
    assert.equal((await fieldState(page, 'sat-custom')).invalid, null);
    // Sequence length: 64 bars, 64 rows.
    await page.fill('#sat-m-number', '64');
    row = await until(() => satRow(page), (r) => r.rows.length === 64);
    assert.equal(await page.$$eval('#saturation .chart-unscaled .bar', (b) => b.length), 64);
    assert.equal(await page.$eval('#sat-m-range', (e) => e.value), '6');
    await page.fill('#sat-m-number', '1');
    assert.match((await until(() => fieldState(page, 'sat-m-number'), (s) => s.msg !== '')).msg, /from 2 to 512/);
    await page.fill('#sat-m-number', '16');
    // Resample: a new seed, other scores.
    const before = (await satRow(page)).rows.map((r) => r[1]).join();
    await page.click('#sat-resample');
    row = await until(() => satRow(page), (r) => !r.title.endsWith('seed 1') && r.rows.length === 16);
    assert.notEqual(row.rows.map((r) => r[1]).join(), before);
    await page.close();
  });

  test('saturation: the scaled row is drawn in its divisor’s colour, the colour of its curve', { timeout: TIMEOUT }, async () => {
    const page = await openPage('sat.seed=1&sat.dk=64');
    await page.$eval('#saturation', (e) => e.scrollIntoView());
    // The curves' series: 1, 2, √d_k, d_k, custom (attn-saturation.js CURVES).
    const curveColour = (i) => page.$eval('#sat-chart-maxProb', (el, i) => el.querySelectorAll('svg path[stroke-linejoin]')[i].getAttribute('stroke'), i);
    const barColour = (key) => page.$eval(`#saturation .chart-${key} .fill`, (e) => getComputedStyle(e).backgroundColor);
    await until(() => curveColour(0), (c) => Boolean(c));
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      for (const [key, i] of [['1', 0], ['2', 1], ['sqrt', 2], ['dk', 3]]) {
        await page.check(`#sat-div-${key}`);
        await until(() => page.$eval('#saturation .chart-scaled', (f) => f.dataset.div), (d) => d === key);
        await until(async () => [await curveColour(i), await barColour('scaled')], ([c, b]) => c === b);
        assert.equal(await barColour('scaled'), await curveColour(i), `divided by ${key} (${scheme}): bar = curve`);
        assert.equal(await barColour('unscaled'), await curveColour(0), `unscaled row (${scheme})`);
        const title = await contrastOf(page, '#saturation .chart-scaled .chart-title');
        assert.ok(title >= 4.5, `title, divided by ${key} (${scheme}): ${title.toFixed(2)}:1`);
        const bar = await contrastOf(page, '#saturation .chart-scaled .fill', 'backgroundColor');
        assert.ok(bar >= 3, `bars, divided by ${key} (${scheme}): ${bar.toFixed(2)}:1`);
      }
    }
    await page.close();
  });

  test('saturation: expected statistics against d_k collapse unscaled and stay flat for √d_k', { timeout: TIMEOUT }, async () => {
    const page = await openPage('sat.seed=9');
    await waitFor(page, () => document.querySelector('attn-saturation').dataset.sweep === 'done', 'the saturation sweep', null, 40_000);
    await openDetails(page, 'sat-curve-table');
    const cells = await page.$$eval('#sat-curve-table tbody tr', (trs) => trs.map((tr) => ({
      dk: Number(tr.dataset.dk), div: tr.dataset.div, c: Number(tr.cells[1].textContent.replace(/,/g, '')),
      ...Object.fromEntries([...tr.querySelectorAll('td[data-stat]')].map((td) => [td.dataset.stat, Number(td.dataset.mean)])),
    })));
    const get = (dk, div) => cells.find((x) => x.dk === dk && x.div === div);
    assert.equal(cells.filter((x) => x.div === 'sqrt').length, 13);
    // The divisors the core resolved.
    assert.equal(get(256, 'sqrt').c, 16);
    assert.equal(get(256, 'dk').c, 256);
    assert.equal(get(256, '1').c, 1);
    // Unscaled: the largest probability climbs to near 1, entropy and Jacobian fall.
    assert.ok(get(4096, '1').maxProb > 0.9, `unscaled max prob at 4096: ${get(4096, '1').maxProb}`);
    assert.ok(get(4096, '1').entropy < 0.3 * get(1, '1').entropy);
    assert.ok(get(4096, '1').jacobianNorm < 0.3 * get(1, '1').jacobianNorm);
    // √d_k: flat from d_k = 16 on (within a few percent).
    for (const stat of ['maxProb', 'entropy', 'jacobianNorm']) {
      const a = get(16, 'sqrt')[stat];
      const b = get(4096, 'sqrt')[stat];
      assert.ok(Math.abs(a - b) < 0.1 * a, `${stat} with √d_k: ${a} at 16, ${b} at 4096`);
    }
    // d_k: towards uniform (entropy ln 16).
    assert.ok(Math.abs(get(4096, 'dk').entropy - Math.log(16)) < 0.01);
    // The chart marks the current d_k; the sweep has an accessible name and a title.
    assert.match(await page.getAttribute('#sat-chart-maxProb .uchart-plot', 'aria-label'), /Expected largest probability against dₖ/);
    assert.equal(await page.$$eval('#sat-chart-maxProb .uchart-plot svg path[stroke-dasharray="4 3"]:not([display])', (e) => e.length), 1, 'the d_k marker');
    await page.close();
  });

  test('saturation: the sentence about the gradient is the table’s numbers at the reader’s d_k and threshold; the norm against the scale is not monotone', { timeout: TIMEOUT }, async () => {
    const page = await openPage('sat.seed=9');
    await waitFor(page, () => document.querySelector('attn-saturation').dataset.sweep === 'done', 'the saturation sweep', null, 40_000);
    // The distribution view loads when it reaches the screen, and sweeps the same rows in the presets' module.
    assert.equal(await page.$('#sat-dist .sat-dist'), null, 'not loaded before it is reached');
    await page.locator('#sat-dist').scrollIntoViewIfNeeded();
    await waitFor(page, () => document.querySelector('#sat-dist .sat-dist')?.dataset.sweep === 'done', 'the distribution sweep', null, 40_000);
    await openDetails(page, 'sat-dist-table');
    const table = () => page.$$eval('#sat-dist-table tbody tr', (trs) => trs.map((tr) => ({
      dk: Number(tr.dataset.dk), div: tr.dataset.div, c: Number(tr.cells[1].textContent.replace(/,/g, '')),
      ...Object.fromEntries([...tr.querySelectorAll('td[data-stat]')].map((td) => [td.dataset.stat, Number(td.dataset.mean ?? td.dataset.value)])),
    })));
    // The page's numbers: 0.177, 2.4 × 10⁻⁵, 1,024.
    const SUP = { '⁻': '-', '⁰': 0, '¹': 1, '²': 2, '³': 3, '⁴': 4, '⁵': 5, '⁶': 6, '⁷': 7, '⁸': 8, '⁹': 9 };
    const num = (t) => {
      const e = t.trim().match(/^([\d.]+) × 10([⁻⁰-⁹¹²³]+)$/);
      return e ? Number(e[1]) * 10 ** Number([...e[2]].map((c) => SUP[c]).join('')) : Number(t.replace(/,/g, ''));
    };
    // A percentage, or "<0.01%": the share to 0.01%.
    const share = (got, want, what) => {
      if (got.startsWith('<')) assert.ok(want > 0 && want < 0.00005, `${what}: ${got} for ${want}`);
      else close(Number(got) / 100, want, 5e-5 + 1e-12, what);
    };
    // The same rows as the curves above: the same mean Jacobian norms, to the last bit.
    await openDetails(page, 'sat-curve-table');
    const curves = await page.$$eval('#sat-curve-table tbody tr', (trs) => trs.map((tr) => [`${tr.dataset.dk}|${tr.dataset.div}`, tr.querySelector('td[data-stat=jacobianNorm]').dataset.mean]));
    const dists = await page.$$eval('#sat-dist-table tbody tr', (trs) => trs.map((tr) => [`${tr.dataset.dk}|${tr.dataset.div}`, tr.querySelector('td[data-stat=jacobianNorm]').dataset.value]));
    assert.equal(dists.length, 13 * 5, "13 d_k points, 5 divisors (the custom c = 4 among them)");
    assert.deepEqual(dists, curves);
    const seen = new Set();
    for (const [dk, thr] of [[4, 3], [64, 3], [1024, 3], [1024, 6], [64, 1]]) {
      await page.fill('#sat-dk-number', String(dk));
      await page.selectOption('#sat-thr', String(thr));
      await until(() => page.getAttribute('#sat-grad-note', 'data-dk'), (d) => d === String(dk));
      const rows = await table();
      const at = (div) => rows.find((r) => r.dk === dk && r.div === div);
      const [a, b] = [at('1'), at('sqrt')];
      const text = await page.textContent('#sat-grad-note');
      const sup = '¹²³⁴⁵⁶⁷⁸'[thr - 1];
      const m = text.match(new RegExp(`^At dₖ = ([\\d,]+) with m = 16 keys, divided by 1: mean Jacobian norm ([\\d.]+), median ([^;]+); (<?[\\d.]+)% of rows pass back less than 10⁻${sup}, and in (<?[\\d.]+)% of rows a key taken as the answer gets p\\(1 − p\\) below 10⁻${sup}\\. Divided by √dₖ: mean ([\\d.]+), median ([\\d.]+), (<?[\\d.]+)% and (<?[\\d.]+)%\\. So here`));
      assert.ok(m, `dk ${dk}, 10^-${thr}: ${text}`);
      const [, dkText, mean1, med1, rows1, target1, mean2, med2, rows2, target2] = m;
      assert.equal(num(dkText), dk);
      // Three significant digits for means, two for medians, percentages to 0.01.
      close(Number(mean1), a.jacobianNorm, 5e-3 * a.jacobianNorm, `dk ${dk}: mean, unscaled`);
      close(Number(mean2), b.jacobianNorm, 5e-3 * b.jacobianNorm, `dk ${dk}: mean, √d_k`);
      if (a.jacobianMedian > 0) close(num(med1), a.jacobianMedian, 0.05 * a.jacobianMedian, `dk ${dk}: median, unscaled`);
      else assert.equal(med1, 'below 10⁻⁴⁰');
      close(num(med2), b.jacobianMedian, 0.05 * b.jacobianMedian, `dk ${dk}: median, √d_k`);
      for (const [got, want, what] of [[rows1, a.jacobianBelow, 'rows, unscaled'], [target1, a.targetBelow, 'target, unscaled'],
        [rows2, b.jacobianBelow, 'rows, √d_k'], [target2, b.targetBelow, 'target, √d_k']])
        share(got, want, `dk ${dk}, 10^-${thr}: ${what}`);
      // The conclusion is the one the unscaled numbers give, and says so.
      const state = a.jacobianBelow > 0.5 ? 'rows' : a.targetBelow > 0.5 ? 'target' : 'none';
      assert.equal(await page.getAttribute('#sat-grad-note', 'data-state'), state, `dk ${dk}, 10^-${thr}: ${text}`);
      assert.match(text, { rows: /most rows pass back almost nothing/, target: /most rows still pass back gradient, but/, none: /is not near 0/ }[state]);
      seen.add(state);
      // The scaled rows pass gradient in every row at these thresholds.
      assert.ok(b.jacobianBelow < 0.01, `√d_k at ${dk}: ${b.jacobianBelow} of rows below 10^-${thr}`);
    }
    // The three cases all occur: at d_k 4 nothing is near 0, at 64 the answer's key, at 1024 most rows (10⁻³).
    assert.deepEqual([...seen].sort(), ['none', 'rows', 'target']);
    // The norm against the scale √d_k / c: largest in the middle, lower at both ends.
    const pts = (await table()).map((r) => ({ s: Math.sqrt(r.dk) / r.c, j: r.jacobianNorm })).sort((x, y) => x.s - y.s);
    const top = pts.reduce((x, y) => (y.j > x.j ? y : x));
    assert.ok(top.s > 0.5 && top.s < 8, `the largest mean norm ${top.j} at scale ${top.s}`);
    assert.ok(pts[0].j < top.j - 0.03 && pts[pts.length - 1].j < top.j - 0.2, `ends ${pts[0].j}, ${pts[pts.length - 1].j}, top ${top.j}`);
    assert.equal(await page.$$eval('#sat-chart-scale .uchart-plot svg path[fill]:not([fill="none"]):not([display])', (ps) => ps.filter((p) => (p.getAttribute('d') ?? '').length > 0).length), 4,
      'four divisors’ points (the custom one hidden)');
    // In Chinese: the same sentence, computed, with no English left.
    await page.selectOption('#lang-select', 'zh');
    const zh = await until(() => page.textContent('#sat-grad-note'), (t) => /^在 dₖ = 64、m = 16 个键时/.test(t));
    assert.doesNotMatch(zh, /[A-Za-z]{3,}/, zh);
    await page.close();
  });

  test('saturation: the sequence-length view (lazy): against n, √d_k spreads like ln n and the log-n divisor stays sharp; a bad s is a sentence', { timeout: TIMEOUT }, async () => {
    const page = await openPage('sat.seed=9&sat.dk=64');
    await page.click('#sat-length');
    await page.check('#sat-x-n');
    await waitFor(page, () => { const e = document.querySelector('attn-saturation'); return e.dataset.sweep === 'done' && e.dataset.axis === 'n'; }, 'the n sweep', null, 60_000);
    await until(() => page.url(), (u) => /sat\.x=n/.test(u));
    await openDetails(page, 'sat-curve-table');
    const cells = await page.$$eval('#sat-curve-table tbody tr', (trs) => trs.map((tr) => ({
      n: Number(tr.dataset.n), div: tr.dataset.div, c: Number(tr.cells[1].textContent.replace(/,/g, '')),
      ...Object.fromEntries([...tr.querySelectorAll('td[data-stat]')].map((td) => [td.dataset.stat, Number(td.dataset.mean)])),
    })));
    const get = (n, div) => cells.find((x) => x.n === n && x.div === div);
    const ns = [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096];
    assert.deepEqual(cells.filter((x) => x.div === 'sqrt').map((x) => x.n), ns);
    for (let i = 0; i + 1 < ns.length; i++) {
      assert.ok(get(ns[i + 1], 'sqrt').maxProb < get(ns[i], 'sqrt').maxProb, `√d_k max p falls at n ${ns[i + 1]}`);
      assert.ok(get(ns[i + 1], 'sqrt').entropy > get(ns[i], 'sqrt').entropy, `√d_k entropy grows at n ${ns[i + 1]}`);
    }
    for (const n of [64, 512, 4096]) {
      assert.ok(Math.abs(get(n, 'sqrt').entropy - Math.log(n)) < 1, `H ≈ ln n at ${n}`);
      assert.ok(get(n, 'ssmax').maxProb > get(n, 'sqrt').maxProb + 0.04, `ssmax sharper at ${n}`);
    }
    assert.ok(get(4096, 'ssmax').maxProb > 0.2 && get(4096, 'sqrt').maxProb < 0.01);
    assert.equal(get(1024, 'sqrt').c, 8);
    assert.ok(Math.abs(get(1024, 'ssmax').c - 8 / (0.43 * Math.log(1024))) < 1e-5);
    assert.match(await page.getAttribute('#sat-chart-maxProb .uchart-plot', 'aria-label'), /against the number of keys m/);
    // A bad s: a sentence under its field; the other curves go on.
    await page.fill('#sat-ssmax-s', '0');
    assert.match((await until(() => fieldState(page, 'sat-ssmax-s'), (st) => st.msg !== '')).msg, /from 10⁻⁶ to 10⁶/);
    await page.fill('#sat-ssmax-s', '1');
    await until(() => fieldState(page, 'sat-ssmax-s'), (st) => st.msg === '');
    await page.close();
    // A shared link opens the view as it was left (sat.x, sat.s), in Chinese too.
    const shared = await openPage('sat.seed=9&sat.dk=16&sat.x=n&sat.s=0', { lang: 'zh' });
    await waitFor(shared, () => document.querySelector('attn-saturation').dataset.axis === 'n', 'the n view from the URL', null, 30_000);
    assert.equal(await shared.$eval('#sat-x-n', (e) => e.checked), true);
    assert.match((await until(() => fieldState(shared, 'sat-ssmax-s'), (st) => st.msg !== '')).msg, /10⁻⁶ 到 10⁶/);
    await shared.close();
  });

  test('a chart exports its numbers as CSV (the table\'s), and its picture as SVG and PNG', { timeout: TIMEOUT }, async () => {
    const page = await openPage('sat.seed=9');
    await waitFor(page, () => document.querySelector('attn-saturation').dataset.sweep === 'done', 'the saturation sweep', null, 40_000);
    const fig = '#sat-chart-maxProb';
    // Each file from the figure's menu (fig-menu.js): its button opens the list, the item saves.
    const save = async (kind) => {
      await page.click(`${fig} .fig-menu`);
      const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`${fig} [data-export="${kind}"]`)]);
      return { name: dl.suggestedFilename(), body: fs.readFileSync(await dl.path()) };
    };
    // The legend's visible keys: their labels head the CSV, their colours stroke the SVG's paths.
    const keys = await page.$$eval(`${fig} .uchart-legend li:not(.off)`, (lis) => lis.map((li) => ({
      label: li.textContent, color: getComputedStyle(li.querySelector('.swatch')).color })));
    assert.equal(keys.length, 4);

    const csv = await save('csv');
    assert.equal(csv.name, 'attnlab-sat-chart-maxProb.csv');
    const [head, ...lines] = csv.body.toString('utf8').trim().split(/\r\n/);
    assert.equal(head, ['d_k', ...keys.map((k) => k.label)].join(','));
    await openDetails(page, 'sat-curve-table');
    const table = await page.$$eval('#sat-curve-table td[data-stat="maxProb"]', (tds) => tds.map((td) => ({
      dk: Number(td.closest('tr').dataset.dk), div: td.closest('tr').dataset.div, mean: Number(td.dataset.mean) })));
    assert.equal(lines.length, 13);
    for (const line of lines) {
      const [dk, ...ys] = line.split(',').map(Number);
      ['1', '2', 'sqrt', 'dk'].forEach((div, j) =>
        assert.equal(ys[j], table.find((r) => r.dk === dk && r.div === div).mean, `d_k ${dk}, divisor ${div}`));
    }

    const svg = await save('svg');
    assert.equal(svg.name, 'attnlab-sat-chart-maxProb.svg');
    const text = svg.body.toString('utf8');
    assert.doesNotMatch(text, /var\(|light-dark|style=/);
    const parsed = await page.evaluate((t) => {
      const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null, root: doc.documentElement.localName,
        title: doc.querySelector('title')?.textContent,
        paths: [...doc.querySelectorAll('path')].map((p) => ({ stroke: p.getAttribute('stroke'), points: (p.getAttribute('d') ?? '').split(/[ML]/).length - 1 })),
      };
    }, text);
    assert.equal(parsed.error, null);
    assert.equal(parsed.root, 'svg');
    assert.equal(parsed.title, 'Expected largest probability');
    for (const k of keys)
      assert.ok(parsed.paths.some((p) => p.stroke === k.color && p.points === 13), `a 13-point path stroked ${k.color} (${k.label})`);

    const png = await save('png');
    assert.equal(png.name, 'attnlab-sat-chart-maxProb.png');
    assert.deepEqual([...png.body.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const width = png.body.readUInt32BE(16);
    assert.equal(width, 2 * await page.$eval(`${fig} .uchart-plot`, (e) => Math.floor(e.clientWidth)), 'drawn at 2×');
    assert.ok(png.body.length > 2000, `PNG of ${png.body.length} bytes`);
    assert.equal(await page.textContent(`${fig} .fig-menu-msg`), '');
    await page.close();
  });

  test('a figure\'s menu: one button, a list by keyboard, Escape closes it and gives the focus back; localized', { timeout: TIMEOUT }, async () => {
    for (const lang of ['en', 'zh']) {
      const page = await openPage('sat.seed=9', { lang });
      const fig = '#sat-chart-maxProb';
      await waitFor(page, (f) => document.querySelector(f)?.querySelector('.fig-menu'), 'the chart\'s menu', '#sat-chart-maxProb');
      // One button per chart, none between a figure and its text: no export row, no Embed button in the footer.
      assert.equal(await page.$$eval('#saturation .uchart', (fs) => fs.every((f) => f.querySelectorAll('.fig-menu').length === 1)), true);
      assert.equal(await page.$$eval('.uchart-export, .embed-toggle', (es) => es.length), 0);
      const button = await page.$eval(`${fig} .fig-menu`, (b) => [b.getAttribute('aria-haspopup'), b.getAttribute('aria-expanded'), b.getAttribute('aria-label')]);
      assert.deepEqual(button, ['true', 'false', lang === 'en' ? 'Export or embed' : '导出或嵌入']);
      await page.focus(`${fig} .fig-menu`);
      await page.keyboard.press('Enter');
      await waitFor(page, (f) => document.querySelector(`${f} .fig-menu-list:not([hidden])`), 'the list open', fig);
      const items = await page.$$eval(`${fig} .fig-menu-list button`, (bs) => bs.map((b) => b.textContent));
      assert.deepEqual(items, lang === 'en' ? ['PNG image', 'SVG image', 'CSV of the numbers', 'Embed…'] : ['PNG 图片', 'SVG 图片', '数据（CSV）', '嵌入…']);
      assert.equal(await page.$eval(`${fig} .fig-menu`, (b) => b.getAttribute('aria-expanded')), 'true');
      assert.equal(await page.evaluate(() => document.activeElement.dataset.export), 'png', 'the focus on the first item');
      await page.keyboard.press('ArrowUp');
      assert.equal(await page.evaluate(() => document.activeElement.dataset.menu), 'embed', 'ArrowUp wraps to the last');
      await page.keyboard.press('Escape');
      assert.deepEqual(await page.$eval(`${fig} .fig-menu`, (b) => [b.getAttribute('aria-expanded'), document.activeElement === b,
        b.parentNode.querySelector('.fig-menu-list').hidden]), ['false', true, true]);
      // Embed… opens the widget's snippets, the focus in them; Escape gives it back to the menu's button.
      await page.keyboard.press('Enter');
      await waitFor(page, (f) => document.querySelector(`${f} .fig-menu-list:not([hidden])`), 'the list open again', fig);
      await page.click(`${fig} [data-menu="embed"]`);
      await waitFor(page, () => document.querySelector('#saturation .embed-panel:not([hidden]) textarea')?.value, 'the Embed panel');
      assert.equal(await page.evaluate(() => document.activeElement.localName), 'textarea');
      await page.keyboard.press('Escape');
      assert.equal(await page.$eval(`${fig} .fig-menu`, (b) => document.activeElement === b), true);
      // A widget with no chart (the proof) has one menu, with Embed… only.
      await page.click('#proof .embed-footer .fig-menu');
      await waitFor(page, () => document.querySelector('#proof .fig-menu-list:not([hidden])'), 'the proof\'s menu');
      assert.deepEqual(await page.$$eval('#proof .fig-menu-list button', (bs) => bs.map((b) => b.dataset.menu)), ['embed']);
      await page.close();
    }
  });

  // ---- each figure's "look for" line, read against the numbers shown beside it ----
  test('each figure has one "look for" line, written from the numbers it shows, in both languages and after a control changes', { timeout: 4 * TIMEOUT }, async () => {
    // The numbers of a line, in order ("4,096", "−0.012", "93.1%" -> 4096, -0.012, 93.1).
    const nums = (text) => [...text.replace(/dₖ|q·k/g, '').matchAll(/[−-]?\d[\d,]*(?:\.\d+)?/g)].map((m) => Number(m[0].replace(/,/g, '').replace('−', '-')));
    const near = (a, b, what) => assert.ok(Math.abs(a - b) <= 0.006 * Math.max(Math.abs(b), 1e-3), `${what}: ${a} against ${b}`);
    for (const lang of ['en', 'zh']) {
      const page = await openPage('sat.seed=9&var.seed=3&proof.seed=4', { lang });
      const look = (id) => page.textContent(`#${id}`);
      const check = async () => {
        // The hero: its note names the unscaled row's largest probability as its stats show it.
        const hero = await page.evaluate(() => ({ note: document.getElementById('hero-note').textContent,
          stats: document.querySelector('[data-hero="unscaled.stats"]').textContent, dk: document.getElementById('hero-dk-out').textContent,
          p: [0, 1, 2].map((j) => document.querySelector(`[data-hero="unscaled.p${j}"]`).textContent) }));
        if (hero.dk.endsWith(' 64')) for (const p of hero.p) assert.ok(hero.note.includes(p), `hero: ${p} in ${hero.note}`);
        else assert.ok(hero.note.includes(hero.stats.match(/\d[\d.]*%/)[0]) && hero.note.includes(hero.dk), `hero: ${hero.stats}, ${hero.dk} in ${hero.note}`);

        // Section 2, the histogram: d_k, the bars' span, their standard deviation and √d_k, as its readout and table have them.
        await page.locator('#var-hist-chart').scrollIntoViewIfNeeded();
        await waitFor(page, () => document.getElementById('var-hist-look').textContent && document.getElementById('proof-look').textContent, 'the histogram and the proof');
        await openDetails(page, 'var-hist-table');
        const hist = await page.evaluate(() => {
          const cells = [...document.querySelectorAll('#var-hist-table tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent));
          return { look: document.getElementById('var-hist-look').textContent, dk: document.getElementById('var-dk-output')?.textContent ?? document.querySelector('attn-variance').v.dk,
            v: Number(document.getElementById('var-readout').dataset.var), from: cells[0][0], to: cells.at(-1)[1], dkv: document.querySelector('attn-variance').v.dk };
        });
        const [dk, lo, hi, sd, root] = nums(hist.look);
        assert.equal(dk, hist.dkv, hist.look);
        near(lo, Number(hist.from.replace(/,/g, '').replace('−', '-')), 'histogram: from');
        near(hi, Number(hist.to.replace(/,/g, '').replace('−', '-')), 'histogram: to');
        near(sd, Math.sqrt(hist.v), 'histogram: standard deviation');
        near(root, Math.sqrt(hist.dkv), 'histogram: √d_k');

        // Section 2, Var(q·k) against d_k: its first and last points and the scaled variance's range, as its table has them.
        await waitFor(page, () => document.querySelector('#var-progress')?.textContent === '', 'the variance sweep', null, 40_000);
        await openDetails(page, 'var-sweep-table');
        const sweep = await page.evaluate(() => ({ look: document.getElementById('var-sweep-look').textContent,
          rows: [...document.querySelectorAll('#var-sweep-table tbody tr')].map((tr) => ({ dk: Number(tr.dataset.dk), v: Number(tr.dataset.var), sv: Number(tr.dataset.scaledVar) })) }));
        const [a, b, va, vb, slo, shi] = nums(sweep.look);
        assert.deepEqual([a, b], [sweep.rows[0].dk, sweep.rows.at(-1).dk], sweep.look);
        near(va, sweep.rows[0].v, 'sweep: first variance');
        near(vb, sweep.rows.at(-1).v, 'sweep: last variance');
        near(slo, Math.min(...sweep.rows.map((r) => r.sv)), 'sweep: least scaled variance');
        near(shi, Math.max(...sweep.rows.map((r) => r.sv)), 'sweep: largest scaled variance');

        // Section 3, the proof's grid: the diagonal's range and the largest cross term, as its cells show them.
        await page.locator('#proof-grid').scrollIntoViewIfNeeded(); // a figure off screen draws when it comes near
        await waitFor(page, () => [...document.querySelectorAll('#proof-grid td.cell')].every((td) => /\d/.test(td.textContent)), 'the proof\'s means');
        const proof = await page.evaluate(() => {
          const d = document.querySelector('attn-proof').v.dk;
          const cells = [...document.querySelectorAll('#proof-grid td.cell')].map((td, k) => ({ diag: Math.floor(k / d) === k % d, text: td.textContent }));
          return { look: document.getElementById('proof-look').textContent, d, cells };
        });
        const [d, dlo, dhi, c, off] = nums(proof.look);
        const diag = proof.cells.filter((x) => x.diag).map((x) => nums(x.text)[0]);
        const cross = proof.cells.filter((x) => !x.diag).map((x) => nums(x.text)[0]);
        assert.deepEqual([d, dlo, dhi], [proof.d, Math.min(...diag), Math.max(...diag)], proof.look);
        if (proof.d > 1) assert.deepEqual([c, Math.abs(off)], [cross.length, Math.max(...cross.map(Math.abs))], proof.look);

        // Section 4, the seed's table: example 1's unscaled largest probability, as its row shows it.
        const seed = await page.evaluate(() => ({ look: document.getElementById('seed-not-one-hot').textContent,
          p: document.querySelector('[data-row="ex0-unscaled"] .c-maxProb').textContent }));
        assert.ok(/\d/.test(seed.p) && seed.look.includes(seed.p), `seed: ${seed.p} in ${seed.look}`);

        // Section 5, the sampled row: both largest probabilities as the bars' captions show them, and d_k.
        await page.locator('#sat-row-look').scrollIntoViewIfNeeded();
        await waitFor(page, () => document.getElementById('sat-row-look').textContent && !document.querySelector('attn-saturation .row-stale'), 'the sampled row');
        const row = await page.evaluate(() => ({ look: document.getElementById('sat-row-look').textContent, dk: document.querySelector('attn-saturation').v.dk,
          u: document.querySelector('.chart-stats[data-chart="unscaled"]').textContent, s: document.querySelector('.chart-stats[data-chart="scaled"]').textContent }));
        const pct = (t) => t.match(/\d[\d.]*%/)[0];
        assert.ok(row.look.includes(pct(row.u)) && row.look.includes(pct(row.s)) && row.look.includes(`dₖ = ${row.dk}`), `row: ${pct(row.u)}, ${pct(row.s)} in ${row.look}`);

        // Section 5, the curves: their means at the dashed line's d_k, as their table shows them.
        await page.locator('#sat-curves-look').scrollIntoViewIfNeeded();
        await waitFor(page, () => document.querySelector('attn-saturation').dataset.sweep === 'done', 'the saturation sweep', null, 40_000);
        await openDetails(page, 'sat-curve-table');
        const curves = await page.evaluate(() => {
          const look = document.getElementById('sat-curves-look').textContent;
          const at = Number(look.match(/dₖ = ([\d,]+)/)[1].replace(/,/g, ''));
          const cell = (div) => document.querySelector(`#sat-curve-table tr[data-dk="${at}"][data-div="${div}"] td[data-stat="maxProb"]`)?.textContent;
          return { look, at, dk: document.querySelector('attn-saturation').v.dk, u: cell('1'), s: cell('sqrt') };
        });
        assert.ok(curves.at <= curves.dk && curves.at * 2 > curves.dk, `the curves' line at the dashed line: ${curves.at}, d_k ${curves.dk}`);
        assert.ok(curves.look.includes(pct(curves.u)) && curves.look.includes(pct(curves.s)), `curves: ${curves.u}, ${curves.s} in ${curves.look}`);
        return { row: row.look, curves: curves.look, hist: hist.look, proof: proof.look };
      };
      const first = await check();
      assert.match(first.row, lang === 'en' ? /^Look for: the tallest bar/ : /^看点：最高的柱/);
      // Every control moved: the lines follow.
      await page.focus('#hero-dk');
      await page.keyboard.press('ArrowRight');
      await page.fill('#var-dk-number', '256');
      await setRange(page, 'proof-dk', 5);
      await page.fill('#seed-ex0-scores', '14, 10, 13');
      await page.fill('#sat-dk-number', '1024');
      await waitFor(page, () => document.getElementById('sat-row-look').textContent.includes('1,024') || document.getElementById('sat-row-look').textContent.includes('1024'), 'the row at d_k 1024');
      await page.locator('#var-hist-chart').scrollIntoViewIfNeeded();
      await waitFor(page, () => /dₖ = 256/.test(document.getElementById('var-hist-look').textContent), 'the histogram at d_k 256');
      const second = await check();
      assert.notEqual(second.row, first.row);
      assert.notEqual(second.curves, first.curves);
      assert.notEqual(second.hist, first.hist);
      assert.notEqual(second.proof, first.proof);
      await page.close();
    }
  });

  // ---- across the page ----
  test('URL state round-trips: opening a shared URL restores every control', { timeout: TIMEOUT }, async () => {
    const q = 'sat.dk=512&sat.div=custom&sat.c=3.5&sat.m=32&sat.seed=77&var.dk=256&var.sq=1.5&var.sk=0.5&var.rho=-0.3&var.seed=8&proof.dk=4&proof.step=5&proof.seed=6&sm.s0=3%2C2%2C1&sm.dk0=9';
    const page = await openPage(q);
    const state = (p) => p.evaluate(() => ({
      satDk: document.getElementById('sat-dk-number').value,
      satRange: document.getElementById('sat-dk-range').value,
      satDiv: document.querySelector('input[name="sat-div"]:checked').value,
      satC: document.getElementById('sat-custom').value,
      satM: document.getElementById('sat-m-number').value,
      varDk: document.getElementById('var-dk-number').value,
      sq: document.getElementById('var-sq').value,
      sk: document.getElementById('var-sk').value,
      rho: document.getElementById('var-rho').value,
      proofDk: document.getElementById('proof-dk').value,
      step: document.querySelector('attn-proof').dataset.step,
      s0: document.getElementById('seed-ex0-scores').value,
      dk0: document.getElementById('seed-ex0-dk').value,
      notices: [...document.querySelectorAll('.notice')].map((n) => n.textContent).join(''),
    }));
    const s = await state(page);
    assert.deepEqual(s, {
      satDk: '512', satRange: '9', satDiv: 'custom', satC: '3.5', satM: '32', varDk: '256', sq: '1.5', sk: '0.5',
      rho: '-0.3', proofDk: '4', step: '5', s0: '3,2,1', dk0: '9', notices: '',
    });
    const row = await until(() => satRow(page), (r) => r.title.includes('512') && r.title.includes('3.5'));
    assert.match(row.title, /seed 77/);
    // Change controls; the URL follows; a new page from that URL shows the same numbers.
    await page.focus('#sat-dk-range');
    await page.keyboard.press('ArrowLeft');
    await setRange(page, 'var-rho', 0.25);
    await page.fill('#seed-ex0-dk', '16');
    const url = await until(() => page.url(), (u) => u.includes('sat.dk=256') && u.includes('var.rho=0.25') && u.includes('sm.dk0=16'));
    assert.match(url, /sat\.dk=256/);
    const shown = (await until(() => satRow(page), (r) => r.title.includes('256'))).rows.map((r) => r.join('|')).join('\n');
    const again = await context.newPage();
    await again.goto(url);
    await ready(again);
    const s2 = await state(again);
    assert.equal(s2.satDk, '256');
    assert.equal(s2.rho, '0.25');
    assert.equal(s2.dk0, '16');
    const shown2 = (await until(() => satRow(again), (r) => r.title.includes('256'))).rows.map((r) => r.join('|')).join('\n');
    assert.equal(shown2, shown, 'the same seed gives the same sampled row');
    await again.close();
    await page.close();
  });

  test('bad URL values are clamped or replaced, with a notice; the page still works', { timeout: TIMEOUT }, async () => {
    const page = await openPage('sat.dk=99999&sat.m=abc&sat.div=foo&sat.c=-1&var.rho=2&var.dk=0&proof.dk=9&proof.step=-3&sat.seed=1e30&%E0%A4%A=1');
    const notices = await page.$$eval('.notice p', (ps) => ps.map((p) => p.textContent));
    const expect = [
      'sat.dk=99999 is out of range; using 4096',
      'sat.m=abc could not be read; using 16',
      'sat.div=foo could not be read; using sqrt',
      'sat.c=-1 is out of range; using 4',
      'sat.seed=1e30 is out of range; using 4294967295',
      'var.rho=2 is out of range; using 1',
      'var.dk=0 is out of range; using 1',
      'proof.dk=9 is out of range; using 6',
      'proof.step=-3 is out of range; using 1',
    ];
    for (const e of expect) assert.ok(notices.some((n) => n.includes(e)), `notice "${e}" in:\n${notices.join('\n')}`);
    assert.equal(await page.$eval('#sat-dk-number', (e) => e.value), '4096');
    assert.equal(await page.$eval('#proof-dk', (e) => e.value), '6');
    await until(() => satRow(page), (r) => r.title.includes('4096'));
    assert.equal((await satRow(page)).rows.length, 16);
    // Notices are translated too.
    await page.selectOption('#lang-select', 'zh');
    assert.match(await until(() => page.textContent('#saturation .notice'), (t) => /超出范围/.test(t)), /超出范围/);
    await page.selectOption('#lang-select', 'en');
    await page.close();
  });

  test('the language switch changes every section to Chinese and is remembered', { timeout: TIMEOUT }, async () => {
    const page = await openPage();
    const texts = () => page.evaluate(() => ({
      h1: document.querySelector('h1').textContent,
      h2: [...document.querySelectorAll('main h2')].map((h) => h.textContent),
      labels: ['sat-dk-range', 'var-rho', 'proof-dk', 'seed-ex0-scores'].map((id) => document.querySelector(`label[for="${id}"]`).textContent),
      step: document.getElementById('proof-step-text').textContent,
      chart: document.querySelector('#sat-chart-entropy .uchart-title').textContent,
      footer: document.getElementById('build-info').textContent,
    }));
    const en = await texts();
    await page.selectOption('#lang-select', 'zh');
    await until(() => page.textContent('h1'), (t) => t === '注意力为何除以 √dₖ');
    const zh = await texts();
    assert.equal(zh.h1, '注意力为何除以 √dₖ');
    assert.equal(await page.$eval('html', (e) => e.lang), 'zh-Hans');
    for (const k of Object.keys(en)) assert.notDeepEqual(zh[k], en[k], `${k} is translated`);
    for (const h of zh.h2) assert.match(h, /[\u4e00-\u9fff]/, `heading "${h}"`);
    assert.match(page.url(), /lang=zh/);
    assertProbs(await readProbs(page, 'ex0-unscaled'), [0.8668, 0.0159, 0.1173], 'numbers in zh');
    await page.goto(server.origin + '/');
    await until(() => page.textContent('h1'), (t) => t === '注意力为何除以 √dₖ');
    assert.equal(await page.textContent('h1'), '注意力为何除以 √dₖ');
    await page.selectOption('#lang-select', 'en');
    await until(() => page.textContent('h1'), (t) => t.startsWith('Why'));
    await page.close();
  });

  test('every control has a label and every chart an accessible name and a data table', { timeout: TIMEOUT }, async () => {
    const page = await openPage();
    const unlabeled = await page.$$eval('main input, main select, main button', (els) => els.filter((el) => {
      if (el.labels?.length || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')) return false;
      return !(el.tagName === 'BUTTON' && el.textContent.trim());
    }).map((el) => el.id || el.outerHTML.slice(0, 80)));
    assert.deepEqual(unlabeled, []);
    const charts = await page.$$eval('.uchart-plot', (els) => els.map((e) => ({
      name: e.getAttribute('aria-label'), role: e.getAttribute('role'),
      table: Boolean(e.closest('attn-variance, attn-saturation').querySelector('details table')),
    })));
    assert.equal(charts.length, 6);
    for (const c of charts) {
      assert.equal(c.role, 'img');
      assert.ok(c.name && c.name.length > 10, `chart name "${c.name}"`);
      assert.ok(c.table);
    }
    // Keyboard: Tab reaches the d_k slider, and the focus is visible.
    await page.focus('#sat-dk-range');
    const outline = await page.$eval('#sat-dk-range', (e) => getComputedStyle(e).outlineStyle);
    assert.notEqual(outline, 'none');
    await page.close();
  });

  test('dragging the d_k slider: main-thread work per frame (measured and reported)', { timeout: TIMEOUT }, async () => {
    const page = await openPage('sat.seed=1', { viewport: { width: 1280, height: 900 } });
    await waitFor(page, () => document.querySelector('attn-saturation').dataset.sweep === 'done', 'the sweep', null, 40_000);
    await page.$eval('#saturation', (e) => e.scrollIntoView());
    // The distribution view below loads when it is reached and sweeps rows of its
    // own: the drag is measured once it is done (its draws are its own figure's work).
    await page.waitForTimeout(500);
    await waitFor(page, () => !document.querySelector('.sat-dist') || document.querySelector('.sat-dist').dataset.sweep === 'done', 'the distribution view', null, 60_000);
    await page.evaluate(() => {
      performance.clearMeasures();
      window.__frames = [];
      window.__longtasks = [];
      new PerformanceObserver((l) => window.__longtasks.push(...l.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
      let last = performance.now();
      const tick = (now) => {
        window.__frames.push([last, now]);
        last = now;
        if (!window.__stop) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const box = await page.$eval('#sat-dk-range', (e) => {
      const r = e.getBoundingClientRect();
      return { x: r.left, y: r.top + r.height / 2, w: r.width };
    });
    await page.mouse.move(box.x + 4, box.y);
    await page.mouse.down();
    const steps = 120;
    for (let pass = 0; pass < 2; pass++)
      for (let i = 0; i <= steps; i++) {
        const f = pass === 0 ? i / steps : 1 - i / steps;
        await page.mouse.move(box.x + 4 + f * (box.w - 8), box.y);
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
      }
    await page.mouse.up();
    await page.waitForTimeout(300);
    const r = await page.evaluate(() => {
      window.__stop = true;
      const measures = performance.getEntriesByType('measure').filter((m) => m.name.startsWith('attn:'));
      // Our synchronous work (input handlers and renders) added up per animation frame.
      const perFrame = window.__frames.map(([a, b]) => measures.filter((m) => m.startTime >= a && m.startTime < b).reduce((s, m) => s + m.duration, 0));
      const gaps = window.__frames.map(([a, b]) => b - a);
      return {
        frames: window.__frames.length, inputs: measures.filter((m) => m.name === 'attn:sat.input').length,
        worstWork: Math.max(0, ...perFrame), worstGap: Math.max(...gaps), longtasks: window.__longtasks,
        worstInput: Math.max(0, ...measures.filter((m) => m.name === 'attn:sat.input').map((m) => m.duration)),
        worstRender: Math.max(0, ...measures.filter((m) => m.name === 'attn:sat.render').map((m) => m.duration)),
      };
    });
    console.log(`# d_k slider drag: ${r.inputs} input events over ${r.frames} frames; worst main-thread work in one frame ${r.worstWork.toFixed(2)} ms ` +
      `(input handler ${r.worstInput.toFixed(2)} ms, row render ${r.worstRender.toFixed(2)} ms); longest frame gap ${r.worstGap.toFixed(1)} ms; long tasks: ${r.longtasks.length ? r.longtasks.map((d) => d.toFixed(0)).join(', ') + ' ms' : 'none'}`);
    assert.ok(r.inputs >= 20, `the drag moved the slider (${r.inputs} inputs)`);
    assert.ok(r.worstWork < 16, `worst frame work ${r.worstWork} ms`);
    // Long tasks are reported, not asserted: they are wall-clock time, and on a
    // shared 2-core CI machine the renderer is preempted (155 ms of long task in a
    // run whose own work was at most 2.2 ms in any frame). What the drag costs is
    // the work above; the profile of the same drag at 4x CPU shows no long task.
    assert.match(page.url(), /sat\.dk=/);
    await page.close();
  });

  test('section 6 runs the training comparison on Start (d_k 256, ÷1 and ÷√d_k) and links the lab with its settings', { timeout: TIMEOUT * 2 }, async () => {
    const before = requests.length;
    const page = await openPage();
    const el = await page.$('#training attn-train-compare');
    assert.ok(el, 'section 6 holds <attn-train-compare>');
    const attrs = await el.evaluate((e) => ({ dk: e.getAttribute('dk'), divisors: e.getAttribute('divisors'), steps: e.getAttribute('steps'),
      seed: e.getAttribute('seed'), autostart: e.hasAttribute('autostart'), defined: !!customElements.get('attn-train-compare') }));
    assert.equal(attrs.dk, '256');
    assert.equal(attrs.divisors, '1,sqrt');
    assert.equal(attrs.autostart, false);
    // Nothing of the lab loads before Start: not its element, not its wasm.
    assert.equal(attrs.defined, false, 'the element is not defined before Start');
    assert.ok(!requests.slice(before).some((u) => /attnlab_lab_|attn-train-compare/.test(u)), 'the lab module is not loaded before Start');
    // The lab link carries the same settings (the lab's form names).
    const href = new URL(await page.$eval('#lab-link', (a) => a.href));
    assert.equal(href.pathname, '/lab.html');
    assert.equal(href.searchParams.get('dk'), '256');
    assert.deepEqual(href.searchParams.get('div').split(',').sort(), ['1', 'sqrt']);
    assert.equal(href.searchParams.get('steps'), attrs.steps);
    assert.equal(href.searchParams.get('seed'), attrs.seed);
    assert.equal(await page.$eval('#train-live-result', (p) => p.hidden), true, 'no result sentence before a run');

    const t0 = Date.now();
    await page.click('#train-live-start');
    await waitFor(page, () => document.querySelector('#training attn-train-compare').dataset.run === 'done', 'the comparison to end', null, 60_000);
    const rows = await page.$$eval('#training attn-train-compare table.data-table tbody tr', (trs) => trs.map((tr) => ({
      div: tr.dataset.div, state: tr.dataset.state,
      ...Object.fromEntries([...tr.querySelectorAll('td[data-col]')].map((td) => [td.dataset.col, td.dataset.value === undefined ? null : Number(td.dataset.value)])),
    })));
    const totalMs = Number(await el.evaluate((e) => e.dataset.totalMs));
    console.log(`# section 6 comparison: ${attrs.steps} steps × 2 runs at d_k 256 in ${(totalMs / 1000).toFixed(1)} s (click to done ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    for (const r of rows) console.log(`#   ÷ ${r.div}: final loss ${r.loss?.toFixed(4)}, accuracy ${(100 * r.accuracy).toFixed(2)}%, steps to 90% ${r.stepsTo90 || 'not reached'}`);
    assert.deepEqual(rows.map((r) => r.div).sort(), ['1', 'sqrt']);
    for (const r of rows) {
      assert.equal(r.state, 'done');
      assert.equal(r.steps, Number(attrs.steps));
      assert.ok(Number.isFinite(r.loss) && Number.isFinite(r.accuracy), `÷ ${r.div}: finite loss and accuracy`);
    }
    const one = rows.find((r) => r.div === '1');
    const sqrt = rows.find((r) => r.div === 'sqrt');
    // At these settings (seed 0; seeds 1 and 2 too when measured) ÷√d_k ends near 99% and ÷1 below 10%.
    assert.ok(sqrt.loss < one.loss, `÷√d_k loss ${sqrt.loss} below ÷1's ${one.loss}`);
    assert.ok(sqrt.accuracy > one.accuracy, `÷√d_k accuracy ${sqrt.accuracy} above ÷1's ${one.accuracy}`);
    // The sentence under the run cites the run's own numbers, in both languages.
    const sentence = await page.$eval('#train-live-result', (p) => (p.hidden ? '' : p.textContent));
    assert.match(sentence, /is behind/);
    assert.ok(sentence.includes(sqrt.loss.toPrecision(3)), `the sentence cites the √d_k loss: ${sentence}`);
    assert.ok(sentence.includes(`${(100 * one.accuracy).toFixed(2)}%`), `the sentence cites the unscaled accuracy: ${sentence}`);
    // The mechanism, from the unscaled run's own logged rows (trainer.h's columns): one-hot
    // from step 1, the logits grown, most rows frozen, the Q/K gradient fallen.
    const story = await el.evaluate((e) => {
      const d = e.cmp.runs.find((r) => r.option === '1').data;
      const n = d.step.length - 1;
      const per = (prefix) => Object.keys(d).filter((c) => new RegExp(`^${prefix}\\d+$`).test(c)).map((c) => d[c][n]);
      return { max1: d.attn_max[0], corr1: d.attn_correct[0], l1: d.logit_max_abs[0], l2: d.logit_max_abs[n], step: d.step[n],
        frozen: per('frozen_h'), rels: per('qk_grad_rel_h') };
    });
    console.log(`#   ÷ 1 mechanism: ${JSON.stringify(story)}`);
    const why = sentence.match(/Why, in the unscaled run’s own numbers: at step 1 its attention already put ([\d.]+)% of the weight on one key on average, ([\d.]+)% on the key holding the answer; by step (\d+) its largest logit had grown from ([\d.]+) to ([\d,.]+), ([\d.]+)% of its rows were frozen .*, and its heads’ Q\/K gradients were (.+) of their step-1 values\.$/);
    assert.ok(why, `the mechanism sentence: ${sentence}`);
    close(Number(why[1]), 100 * story.max1, 0.006, 'largest weight at step 1');
    close(Number(why[2]), 100 * story.corr1, 0.006, 'weight on the answer at step 1');
    assert.equal(Number(why[3]), story.step);
    close(Number(why[4]), story.l1, 0.006 * story.l1, 'first largest logit');
    close(Number(why[5].replace(/,/g, '')), story.l2, 0.006 * story.l2, 'last largest logit');
    close(Number(why[6]), 100 * story.frozen.reduce((a, b) => a + b, 0) / story.frozen.length, 0.006, 'frozen rows');
    assert.equal(why[7].split(', ').length, story.rels.length);
    // At these settings the story is the one the seed tells, over training.
    assert.ok(story.max1 > 0.8 && story.corr1 < 0.2, 'one-hot on a chance key at step 1');
    assert.ok(story.l2 > 10 * story.l1, 'the logits grow');
    assert.ok(story.frozen.every((f) => f > 0.5), 'most rows frozen');
    assert.ok(Math.min(...story.rels) < 0.1, 'the Q/K gradient has fallen');
    await page.selectOption('#lang-select', 'zh');
    const zh = await page.$eval('#train-live-result', (p) => p.textContent);
    assert.match(zh, /用不缩放运行自己的数字说明原因：第 1 步时/);
    assert.match(zh, /落后/);
    assert.ok(zh.includes(sqrt.loss.toPrecision(3)), `the Chinese sentence cites the √d_k loss: ${zh}`);
    assert.match(await page.$eval('#training attn-train-compare .train-status', (p) => p.textContent), /[\u4e00-\u9fff]/, 'the widget relabels');
    await page.close();
  });

  test('first load stays within 130 kB gzip and holds only the explainer\'s module (measured and reported)', { timeout: TIMEOUT }, async () => {
    const before = requests.length;
    const page = await openPage();
    await waitFor(page, () => document.querySelector('attn-saturation').dataset.sweep === 'done', 'the sweep', null, 40_000);
    const loaded = [...new Set(requests.slice(before))].filter((u) => u.startsWith(server.origin));
    const files = loaded.map((u) => {
      const rel = new URL(u).pathname.replace(/^\//, '') || 'index.html';
      const file = path.join(WEB, 'dist', rel);
      const body = fs.readFileSync(file);
      return { rel, raw: body.length, gz: zlib.gzipSync(body, { level: 9 }).length };
    }).filter((f) => !/\.(woff2?|ttf)$/.test(f.rel)); // fonts aside
    assert.ok(!files.some((f) => /katex/i.test(f.rel)), 'KaTeX is not part of the first load');
    const total = files.reduce((a, f) => a + f.gz, 0);
    console.log('# first load (gzip -9, fonts aside):');
    for (const f of files.sort((a, b) => b.gz - a.gz))
      console.log(`#   ${f.rel.padEnd(40)} ${(f.gz / 1000).toFixed(1).padStart(6)} kB  (raw ${(f.raw / 1000).toFixed(1)} kB)`);
    console.log(`#   total ${(total / 1000).toFixed(1)} kB gzip`);
    assert.ok(files.some((f) => f.rel.endsWith('.wasm')), 'the wasm is counted');
    // One module per feature: the page fetches the explainer's, never the lab's, checker's or benchmarks'.
    const wasm = files.filter((f) => f.rel.endsWith('.wasm')).map((f) => f.rel);
    assert.equal(wasm.length, 1, wasm.join(', '));
    assert.match(wasm[0], /attnlab_explain_relaxed-[\w-]+\.wasm$/, 'Chromium validates relaxed SIMD: detection picks it');
    assert.ok(total <= 130_000, `first load ${total} bytes`);
    await page.close();
  });

  test('footer names the build detection picks (relaxed SIMD in Chromium), its --madd, and SIMD128 or scalar when forced', { timeout: TIMEOUT }, async () => {
    const scalar = await openPage('build=scalar');
    assert.equal(await scalar.$eval('#build-info', (e) => e.dataset.build), 'scalar');
    assert.match(await scalar.textContent('#build-info'), /\(scalar build\)/);
    assert.doesNotMatch(await scalar.textContent('#build-info'), /kernel|dot_f32|--madd/, 'no debug kernel name in the text');
    assert.equal(await scalar.$eval('#build-info', (e) => e.dataset.kernel), 'dot_f32__scalar');
    assertProbs(await readProbs(scalar, 'ex0-unscaled'), [0.8668, 0.0159, 0.1173], 'scalar build');
    await scalar.close();
    const simd = await openPage('build=simd');
    assert.match(await simd.textContent('#build-info'), /\(SIMD128 build\)\. Nothing is sent to a server\.$/);
    assert.match(await simd.$eval('#build-info', (e) => e.dataset.kernel), /^dot_f32__wasmsimd/);
    await simd.close();
    // Chromium validates relaxed SIMD, so detection loads that build; this
    // machine's engine fuses relaxed_madd, and the footer names the CLI's
    // --madd fused. The seed's softmax is unchanged (3 scores: no vector lane, so no fused exp).
    const relaxed = await openPage();
    assert.equal(await relaxed.$eval('#build-info', (e) => e.dataset.build), 'relaxed');
    assert.equal(await relaxed.$eval('#build-info', (e) => e.dataset.madd), 'fused');
    assert.match(await relaxed.textContent('#build-info'), /\(relaxed SIMD \(FMA\) build\)\. Nothing is sent to a server\. Its multiply-adds are fused \(one rounding each\), so the command-line tool gives these numbers with --madd fused\.$/);
    assert.match(await relaxed.$eval('#build-info', (e) => e.dataset.kernel), /^dot_f32__wasmrelaxedsimd/);
    assertProbs(await readProbs(relaxed, 'ex0-unscaled'), [0.8668, 0.0159, 0.1173], 'relaxed build');
    await relaxed.close();
  });

  test('fits a 320 px screen; screenshots at 375 and 1280 px in light and dark', { timeout: TIMEOUT * 3 }, async () => {
    for (const width of [320, 375, 1280]) {
      for (const scheme of width === 320 ? ['light'] : ['light', 'dark']) {
        const page = await context.newPage();
        await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${server.origin}/?lang=${scheme === 'dark' ? 'zh' : 'en'}&sat.seed=1&sat.dk=4096&var.seed=1&proof.step=3`);
        await ready(page);
        await waitFor(page, () => document.querySelector('attn-saturation').dataset.sweep === 'done'
          && document.querySelector('attn-variance').dataset.sweep === 'done', 'the sweeps', null, 40_000);
        await page.$eval('#proof', (e) => e.scrollIntoView());
        await waitFor(page, () => document.querySelector('#proof-formula .math')?.dataset.typeset === 'true', 'the formula');
        await page.evaluate(() => scrollTo(0, 0));
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `page is ${overflow}px wider than a ${width}px screen (${scheme})`);
        if (width !== 320) await page.screenshot({ path: path.join(ARTIFACTS, `page-${width}-${scheme}.png`), fullPage: true });
        await page.close();
      }
    }
  });

  test('each widget works placed alone, configured by its attributes, with no URL state', { timeout: TIMEOUT }, async () => {
    const page = await openPage();
    await page.evaluate(() => {
      // A bare page: the custom elements are defined; nothing else of the page is left.
      document.querySelector('main').remove();
      const host = document.createElement('div');
      host.innerHTML = '<attn-saturation dk="16" m="8" divisor="dk" seed="3" id-prefix="s2"></attn-saturation>'
        + '<attn-proof dk="2" step="4" id-prefix="p2"></attn-proof>'
        + '<attn-variance dk="8" id-prefix="v2"></attn-variance>'
        + '<attn-softmax-table id-prefix="t2"></attn-softmax-table><attn-chain id-prefix="c2"></attn-chain>';
      document.body.prepend(host);
    });
    const row = await until(() => page.$eval('#s2-row-table-title', (e) => e.textContent), (t) => t.includes('dₖ = 16'));
    assert.match(row, /m = 8, divisor 16, random seed 3/);
    assert.equal(await page.$$eval('#p2-grid td.cell', (c) => c.length), 4);
    assert.equal(await page.$eval('attn-proof', (e) => e.dataset.step), '4');
    await until(() => page.$eval('#v2-readout', (e) => e.dataset.theoryVar ?? ''), (v) => v === '8');
    await expectRow(page, 'ex0-unscaled', softmax([14, 10, 12]));
    assert.equal(await page.$$eval('#c2-svg svg', (e) => e.length), 1);
    await page.fill('#s2-dk-number', '32');
    await until(() => page.$eval('#s2-row-table-title', (e) => e.textContent), (t) => t.includes('dₖ = 32'));
    await page.waitForTimeout(300);
    assert.doesNotMatch(page.url(), /dk=/, 'no url-state attribute: the URL is left alone');
    await page.close();
  });

  test('the built site ships neither eval, the KaTeX runtime nor Mermaid', { timeout: TIMEOUT }, () => {
    const dir = path.join(WEB, 'dist', 'assets');
    const js = fs.readdirSync(dir).filter((f) => f.endsWith('.js'));
    assert.ok(js.length >= 3, `found ${js.join(', ')}`);
    for (const f of js) {
      const text = fs.readFileSync(path.join(dir, f), 'utf8');
      assert.doesNotMatch(text, /new Function|\beval\(/, f);
      assert.doesNotMatch(text, /mermaid\.initialize|flowchart-v2-pointEnd"\)|__renderToDomTree/, f);
    }
  });

  test('no console error, page error or request to another origin', { timeout: TIMEOUT }, () => {
    assert.ok(requests.some((u) => u.endsWith('.wasm')), 'the wasm was fetched');
    assert.deepEqual(browser.problems, []);
  });
});
