// The explainer's "What real models divide by" (index.html#presets,
// web/src/pages/explainer/presets-table.js) in Debian's Chromium. Its numbers are checked
// against the presets' wasm module run here in Node (which
// tests/node/presets_wasm.test.mjs holds to `attnlab presets` and
// `attnlab saturation --preset`), in English and Chinese; nothing of it
// loads before the section nears the screen; "Show in the explorer" sets
// <attn-saturation>; each row's lab link carries the preset's settings.
// Run after scripts/build.sh: node --test tests/browser/presets.test.mjs
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, startPreview } from './harness.mjs';
import { loadWasm } from '../node/paths.mjs';

const TIMEOUT = 90_000;
// The table's setting (presets-table.js), also read back from its caption.
const N_KEYS = 64;
const ROWS = 300;
const DRAWS = 4000;
const SEED = 1;

let server;
let browser;
let M;
const requests = [];

before(async () => {
  server = await startPreview();
  browser = await launch(server.origin);
  browser.context.on('request', (req) => requests.push(req.url()));
  M = await loadWasm('presets', 'simd');
});

after(async () => {
  await browser?.close();
  server?.stop();
});

async function openPage(lang) {
  const page = await browser.context.newPage();
  await page.goto(`${server.origin}/?lang=${lang}`);
  await page.waitForFunction(() => document.getElementById('build-info')?.dataset.build, null, { timeout: 30_000 });
  return page;
}

async function showTable(page) {
  // Every widget above defined first (the seed table's numbers come last): until then
  // the section moves down as they grow, and a scroll may land short of it.
  await page.waitForFunction(() => /\d/.test(document.querySelector('[data-row="ex0-unscaled"] .c-probs')?.textContent ?? ''),
    null, { timeout: 60_000 });
  await page.$eval('#presets', (s) => s.scrollIntoView());
  await page.waitForFunction(() => document.getElementById('presets').dataset.ready === 'true', null, { timeout: 60_000 });
}

/** The logits session's summary after `draws` draws (in one batch: batches give the same numbers). */
function logits(name, draws, seed, atInit) {
  const s = new M.PresetLogitsSession();
  s.configure(name, seed, atInit);
  s.draw(draws);
  const r = s.summary();
  s.delete();
  return r;
}

/** Each preset (a body of its own: its numbers' row, its source and links under it): {name, label, cells: {col: text}, show, lab}. */
const readRows = (page) => page.$$eval('#presets tbody[data-preset]', (bodies) => bodies.map((tb) => ({
  name: tb.dataset.preset,
  label: tb.querySelector('th[scope=row]').textContent,
  cells: Object.fromEntries([...tb.querySelectorAll('[data-col]')].map((td) => [td.dataset.col, td.textContent])),
  show: tb.querySelector('button.presets-show').textContent,
  lab: tb.querySelector('a').getAttribute('href'),
})));

/** "0.413 ± 0.012" -> [0.413, 0.012] (the page's English or Chinese digits are plain). */
const pm = (text) => text.split('±').map((s) => Number(s.trim().replace(/,/g, '')));

function checkNumbers(rows, lang) {
  const presets = M.presets();
  assert.deepEqual(rows.map((r) => r.name), presets.map((p) => p.name), `${lang}: one row per preset, in the core's order`);
  for (const [i, p] of presets.entries()) {
    const r = rows[i];
    const what = `${lang} ${p.name}`;
    assert.equal(r.label, p.label);
    assert.equal(r.cells.dk, String(p.dk), what);
    // The core's line in English (presets-strings.js keeps it and its translation).
    if (lang.startsWith('en')) assert.equal(r.cells.source, p.source, `${what}: the source line`);
    else assert.match(r.cells.source, /[\u4e00-\u9fff]/, `${what}: the source line in Chinese`);
    const sat = M.presetSaturation(p.name, N_KEYS, ROWS, SEED).stats;
    for (const k of ['maxProb', 'entropy']) {
      const [mean, se] = pm(r.cells[k]);
      assert.ok(Math.abs(mean - sat[k].mean) <= 0.0005 + 1e-12, `${what} ${k}: ${r.cells[k]} vs ${sat[k].mean}`);
      assert.ok(Math.abs(se - sat[k].se) <= 0.5 * 10 ** Math.floor(Math.log10(sat[k].se)) + 1e-15, `${what} ${k} se: ${r.cells[k]} vs ${sat[k].se}`);
    }
    const std = Math.sqrt(logits(p.name, DRAWS, SEED, false).summary.scaledVar);
    const shown = Number(r.cells.std.replace(/,/g, ''));
    assert.ok(Math.abs(shown - std) <= 0.005 * std, `${what} std: ${r.cells.std} vs ${std}`);
    assert.ok(Math.abs(std - Math.sqrt(p.dk) / p.divisor) <= 0.05 * std, `${what}: std near √d_k / c`);
    const href = new URL(r.lab, server.origin);
    assert.equal(href.pathname, '/lab.html');
    assert.equal(href.searchParams.get('dk'), String(p.dk));
    assert.equal(Number(href.searchParams.get('div')), p.divisor, `${what}: the lab gets the core's divisor exactly`);
    assert.equal(href.searchParams.get('cap'), p.softcap === null ? null : String(p.softcap));
    assert.equal(href.searchParams.get('init'), p.init);
  }
}

describe('What real models divide by', { timeout: TIMEOUT * 6 }, () => {
  test('loads nothing before it nears the screen; then the core\'s presets with the core\'s numbers (English)', { timeout: TIMEOUT }, async () => {
    const page = await openPage('en');
    await page.waitForFunction(() => document.querySelector('attn-saturation')?.dataset.sweep === 'done', null, { timeout: 60_000 });
    assert.ok(!requests.some((u) => /presets/.test(u)), `no presets code at first load: ${requests.filter((u) => /presets/.test(u))}`);
    await showTable(page);
    assert.ok(requests.some((u) => /attnlab_presets_relaxed.*\.wasm/.test(u)), 'the presets\' own wasm module loads');
    assert.ok(!requests.some((u) => /attnlab_presets_scalar/.test(u)), 'one build only');
    assert.ok(await page.$eval('#presets caption', (c) => c.textContent.length > 0), 'the table has a caption');
    const how = await page.$eval('#presets .presets-how', (c) => c.textContent);
    for (const s of [`--n ${N_KEYS}`, `--samples ${ROWS}`, `--seed ${SEED}`, `${DRAWS} draws`])
      assert.ok(how.includes(s), `the note under the table states ${s}: ${how}`);
    const rows = await readRows(page);
    checkNumbers(rows, 'en');
    const by = Object.fromEntries(rows.map((r) => [r.name, r]));
    assert.equal(by['gemma2-27b'].cells.divisor, '√144 = 12');
    assert.equal(by['gemma2-2b'].cells.divisor, '√256 = 16');
    assert.equal(by.gpt2.cells.divisor, '√64 = 8');
    assert.equal(by.llama.cells.divisor, '√128 ≈ 11.31');
    assert.equal(by.t5.cells.divisor, '1 (no division)');
    assert.equal(by.mup.cells.divisor, 'dₖ = 64');
    assert.equal(by['gemma2-9b'].cells.cap, '50');
    assert.equal(by.llama.cells.cap, 'none');
    assert.equal(by.gpt2.show, 'Show in the explorer');
    // The table reads as one: a caption, column headers, a row header per preset.
    const shape = await page.$eval('#presets table', (t) => ({
      cols: t.querySelectorAll('thead th[scope=col]').length, rows: t.querySelectorAll('tbody th[scope=row]').length,
    }));
    assert.deepEqual(shape, { cols: 7, rows: rows.length });
    assert.equal(await page.$eval('#presets [role=region]', (r) => document.getElementById(r.getAttribute('aria-labelledby'))?.tagName), 'CAPTION',
      'the scroll box is named by the caption, not the section\'s heading (landmarks need distinct names)');
    // T5: divides by 1, yet its initialisation gives Var(q·k) ≈ 1, computed.
    const t5 = logits('t5', DRAWS, SEED, true);
    const note = await page.$eval('#presets .presets-t5', (p) => p.textContent);
    assert.ok(note.includes(`is ${t5.summary.scaledVar.toFixed(3)} over`), `the T5 note cites the variance at init: ${note}`);
    assert.ok(Math.abs(t5.summary.scaledVar - 1) < 0.1, `T5 at init: Var ${t5.summary.scaledVar}`);
    assert.ok(note.includes('0.125 = 1/√64'), note);
    await page.close();
  });

  test('in Chinese: the same numbers, the words translated', { timeout: TIMEOUT }, async () => {
    const page = await openPage('zh');
    await showTable(page);
    const rows = await readRows(page);
    checkNumbers(rows, 'zh');
    const by = Object.fromEntries(rows.map((r) => [r.name, r]));
    assert.equal(by.t5.cells.divisor, '1（不除）');
    assert.equal(by.llama.cells.cap, '无');
    assert.equal(by.gpt2.show, '在探索器中查看');
    assert.equal(await page.$eval('#presets-heading', (h) => h.textContent), '真实模型除以什么');
    assert.match(await page.$eval('#presets .presets-how', (c) => c.textContent), /随机种子/);
    assert.match(await page.$eval('#presets caption', (c) => c.textContent), /真实模型/);
    assert.match(await page.$eval('#presets .presets-t5', (p) => p.textContent), /初始化/);
    // Switching back relabels in place, numbers unchanged.
    await page.selectOption('#lang-select', 'en');
    assert.equal(await page.$eval('#presets-heading', (h) => h.textContent), 'What real models divide by');
    checkNumbers(await readRows(page), 'en after zh');
    await page.close();
  });

  test('"Show in the explorer" sets <attn-saturation> to the row\'s d_k, divisor and keys, and scrolls to it', { timeout: TIMEOUT }, async () => {
    const page = await openPage('en');
    await showTable(page);
    const state = () => page.$eval('attn-saturation', (el) => ({
      dk: el.getAttribute('dk'), divisor: el.getAttribute('divisor'), m: el.getAttribute('m'),
      v: { dk: el.v.dk, div: el.v.div, c: el.v.c, m: el.v.m },
      top: el.getBoundingClientRect().top,
    }));
    for (const [name, dk, divisor, div, c] of [
      ['gemma2-27b', 128, '12', 'custom', 12], ['llama', 128, 'sqrt', 'sqrt', null], ['t5', 64, '1', '1', null],
      ['mup', 64, 'dk', 'dk', null], ['gemma2-27b', 128, '12', 'custom', 12],
    ]) {
      await page.$eval('#presets', (s) => s.scrollIntoView());
      await page.click(`#presets button.presets-show[data-preset="${name}"]`);
      const s = await state();
      assert.equal(s.dk, String(dk), name);
      assert.equal(s.divisor, divisor, name);
      assert.equal(s.m, String(N_KEYS), name);
      assert.equal(s.v.dk, dk, `${name}: the widget took d_k`);
      assert.equal(s.v.div, div, `${name}: the widget took the divisor`);
      if (c !== null) assert.equal(s.v.c, c);
      assert.equal(s.v.m, N_KEYS);
      assert.ok(Math.abs(s.top) < 50, `${name}: scrolled to the explorer (top ${s.top})`);
    }
    // The reader moved the explorer's d_k since: the same row sets it again.
    await page.$eval('#sat-dk-range', (el) => { el.value = '3'; el.dispatchEvent(new Event('input', { bubbles: true })); });
    assert.notEqual((await state()).v.dk, 128);
    await page.click('#presets button.presets-show[data-preset="gemma2-27b"]');
    assert.equal((await state()).v.dk, 128);
    await page.close();
  });

  test('no console error, page error or request to another origin', () => {
    assert.deepEqual(browser.problems, []);
  });
});
