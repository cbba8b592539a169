// Browser test of the built page (web/dist) in the machine's Chromium, driven
// by playwright-core. Run after `npx vite build` in web/:
//   node --test tests/browser/
// It serves web/dist with `vite preview` on 127.0.0.1 (a free port), under the
// same Content-Security-Policy the page ships with, and checks the numbers the
// wasm core puts on the page against a plain-JS softmax.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(new URL('../../web/package.json', import.meta.url));
const { chromium } = require('playwright-core');

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--font-render-hinting=none', '--force-color-profile=srgb',
];
const TIMEOUT = 30_000;

// ---- independent oracle: softmax in plain JS ----
function softmax(scores, divisor = 1) {
  const z = scores.map((s) => s / divisor);
  const m = Math.max(...z);
  const e = z.map((x) => Math.exp(x - m));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
}
const entropy = (p) => -p.reduce((a, x) => a + (x > 0 ? x * Math.log(x) : 0), 0);

// ---- server, browser, page helpers ----
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function startPreview() {
  if (!fs.existsSync(path.join(WEB, 'dist', 'index.html')))
    throw new Error('web/dist is missing: run `npx vite build` in web/ first');
  const port = await freePort();
  const child = spawn(process.execPath,
    ['node_modules/vite/bin/vite.js', 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    { cwd: WEB, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`vite preview exited early:\n${log}`);
    try {
      if ((await fetch(origin + '/')).ok) return { child, origin };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`vite preview did not answer on ${origin}:\n${log}`);
}

let server;
let context;
let userDataDir;
const problems = []; // console errors, page errors, foreign requests: checked last
const requests = [];

async function openPage(query = '', { lang = 'en', viewport } = {}) {
  const page = await context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning')
      problems.push(`console ${msg.type()} on ${page.url()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error on ${page.url()}: ${err.message}`));
  page.on('worker', (w) => w.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`worker console error: ${msg.text()}`);
  }));
  const params = new URLSearchParams(query);
  if (lang && !params.has('lang')) params.set('lang', lang);
  await page.goto(`${server.origin}/?${params}`);
  await waitFor(page, () => document.getElementById('build-info')?.dataset.build, 'the core to load');
  await waitFor(page, () => /\d/.test(document.querySelector('[data-row="ex0-unscaled"] .c-probs')?.textContent ?? ''),
    'the seed table');
  return page;
}

async function waitFor(page, fn, what, arg) {
  try {
    await page.waitForFunction(fn, arg, { timeout: 10_000 });
  } catch (e) {
    throw new Error(`timed out waiting for ${what}: ${e.message.split('\n')[0]}`);
  }
}

/** Poll `read` until `ok(value)` holds (or time out), then return the last value. */
async function until(read, ok, timeout = 10_000) {
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

const readProbs = (page, row) =>
  page.$$eval(`[data-row="${row}"] .prob`, (els) => els.map((e) => e.textContent));
const readCell = (page, row, col) => page.$eval(`[data-row="${row}"] .c-${col}`, (e) => e.textContent.trim());
const fieldState = (page, id) =>
  page.$eval(`#${id}`, (el) => ({
    invalid: el.getAttribute('aria-invalid'),
    describedBy: el.getAttribute('aria-describedby'),
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

/** Wait until a row shows the expected probabilities; assert with a clear message. */
async function expectRow(page, row, expected, what = row) {
  const texts = await until(() => readProbs(page, row), (t) => {
    const got = t.map(pp);
    return got.length === expected.length && expected.every((p, i) => Math.abs(got[i] - 100 * p) <= 0.01 + 1e-9);
  });
  assertProbs(texts, expected, what);
}

before(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  server = await startPreview();
  userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
    deviceScaleFactor: 1,
    colorScheme: 'light',
    reducedMotion: 'reduce', // no bar transitions: screenshots show final heights
  });
  context.on('request', (req) => {
    requests.push(req.url());
    const u = new URL(req.url());
    if (!['data:', 'blob:'].includes(u.protocol) && u.origin !== server.origin)
      problems.push(`request to another origin: ${req.url()}`);
  });
});

after(async () => {
  await context?.close();
  server?.child.kill();
  if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
});

describe('live page', { timeout: TIMEOUT * 12 }, () => {
  test('is served with the Content-Security-Policy as header and meta', { timeout: TIMEOUT }, async () => {
    const res = await fetch(server.origin + '/');
    const header = res.headers.get('content-security-policy') ?? '';
    assert.match(header, /script-src 'self' 'wasm-unsafe-eval'/);
    const page = await openPage();
    const meta = await page.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.content);
    assert.equal(meta, header);
    assert.doesNotMatch(meta, /'unsafe-eval'|'unsafe-inline'/);
    await page.close();
  });

  test('seed table shows the worked example computed by the core', { timeout: TIMEOUT }, async () => {
    const page = await openPage();
    assertProbs(await readProbs(page, 'ex0-unscaled'), [0.8668, 0.0159, 0.1173], 'unscaled [14, 10, 12]');
    assertProbs(await readProbs(page, 'ex0-scaled'), [0.4192, 0.2543, 0.3265], 'scaled [14, 10, 12] / 8');
    assert.equal(await readCell(page, 'ex0-scaled', 'scores'), '1.75, 1.25, 1.5');
    assert.equal(await readCell(page, 'ex0-scaled', 'divisor'), '√64 = 8');
    assert.equal(await readCell(page, 'ex0-unscaled', 'divisor'), '1');
    assert.equal(pp(await readCell(page, 'ex0-unscaled', 'maxProb')), 86.68);
    const h = Number(await readCell(page, 'ex0-unscaled', 'entropy'));
    assert.ok(Math.abs(h - entropy(softmax([14, 10, 12]))) < 1e-4, `entropy ${h}`);
    await page.close();
  });

  test('second example (d_k = 4) matches a plain-JS softmax', { timeout: TIMEOUT }, async () => {
    const page = await openPage();
    const s = [1, 0.5, 0.8];
    assertProbs(await readProbs(page, 'ex1-unscaled'), softmax(s, 1), 'unscaled [1, 0.5, 0.8]');
    assertProbs(await readProbs(page, 'ex1-scaled'), softmax(s, 2), 'scaled [1, 0.5, 0.8] / 2');
    assert.equal(await readCell(page, 'ex1-scaled', 'divisor'), '√4 = 2');
    assert.equal(await readCell(page, 'ex1-scaled', 'scores'), '0.5, 0.25, 0.4');
    const h = Number(await readCell(page, 'ex1-scaled', 'entropy'));
    assert.ok(Math.abs(h - entropy(softmax(s, 2))) < 1e-4, `entropy ${h}`);
    await page.close();
  });

  test('editing the scores recomputes both rows', { timeout: TIMEOUT }, async () => {
    const page = await openPage();
    await page.fill('#seed-ex0-scores', '14,10,13');
    await expectRow(page, 'ex0-unscaled', softmax([14, 10, 13], 1));
    await expectRow(page, 'ex0-scaled', softmax([14, 10, 13], 8));
    await page.fill('#seed-ex0-scores', '-3, 0, 2.5, 7');
    await expectRow(page, 'ex0-scaled', softmax([-3, 0, 2.5, 7], 8), 'four scores');
    await page.close();
  });

  test('an invalid score shows a message next to the field; the rest keeps working', { timeout: TIMEOUT }, async () => {
    const page = await openPage();
    const cases = [
      ['14,abc', /“abc” is not a number/],
      ['12abc', /“12abc” is not a number/],
      ['', /at least one score/],
      ['14,,12', /Score 2 is empty/],
      ['1e999', /Rejected by the core: .*finite/], // the core's own message
    ];
    for (const [text, message] of cases) {
      await page.fill('#seed-ex0-scores', text);
      const st = await until(() => fieldState(page, 'seed-ex0-scores'), (s) => message.test(s.msg));
      assert.match(st.msg, message, `message for ${JSON.stringify(text)}`);
      assert.equal(st.invalid, 'true');
      assert.equal(st.live, 'polite');
      assert.equal(await readCell(page, 'ex0-unscaled', 'probs'), '—');
      assertProbs(await readProbs(page, 'ex1-unscaled'), softmax([1, 0.5, 0.8]), 'other example still works');
    }
    await page.fill('#seed-ex0-scores', '14, 10, 12');
    await expectRow(page, 'ex0-unscaled', softmax([14, 10, 12]));
    const st = await fieldState(page, 'seed-ex0-scores');
    assert.equal(st.msg, '');
    assert.equal(st.invalid, null);
    await page.close();
  });

  test('an invalid d_k shows the core\'s message; the unscaled row is unaffected', { timeout: TIMEOUT }, async () => {
    const page = await openPage();
    const cases = [
      ['0', 'dk must be an integer in [1, 65536], got 0'],
      ['-1', 'dk must be an integer in [1, 65536], got -1'],
      ['2.5', 'dk must be an integer in [1, 65536], got 2.5'],
      ['99999999', 'dk must be an integer in [1, 65536], got 99999999'],
      ['abc', '“abc” is not a number'],
    ];
    for (const [text, message] of cases) {
      await page.fill('#seed-ex0-dk', text);
      const st = await until(() => fieldState(page, 'seed-ex0-dk'), (s) => s.msg.includes(message));
      assert.ok(st.msg.includes(message), `d_k ${text}: message was "${st.msg}"`);
      assert.equal(st.invalid, 'true');
      assert.equal(await readCell(page, 'ex0-scaled', 'probs'), '—');
      assertProbs(await readProbs(page, 'ex0-unscaled'), softmax([14, 10, 12]), 'unscaled row');
    }
    await page.fill('#seed-ex0-dk', '16');
    await expectRow(page, 'ex0-scaled', softmax([14, 10, 12], 4), 'd_k = 16');
    assert.equal(await readCell(page, 'ex0-scaled', 'divisor'), '√16 = 4');
    assert.equal((await fieldState(page, 'seed-ex0-dk')).invalid, null);
    await page.close();
  });

  test('d_k slider at 4096: unscaled softmax is one-hot, scaled is not', { timeout: TIMEOUT }, async () => {
    const page = await openPage('seed=1');
    const maxProb = (col) => page.$eval(`#dk-table tr[data-stat="maxProb"] td[data-col="${col}"]`, (e) => e.textContent);
    // Keyboard: the slider's End key is the largest d_k.
    await page.focus('#dk-range');
    await page.keyboard.press('End');
    const out = await until(() => page.$eval('#dk-output', (e) => e.textContent), (t) => t.includes('4096'));
    assert.equal(out, 'dₖ = 4096, √dₖ = 64');
    await waitFor(page, () => document.querySelector('#dk-table-title')?.textContent.includes('4096'), 'the table');
    const u = pp(await maxProb('unscaled')) / 100;
    const s = pp(await maxProb('scaled')) / 100;
    assert.ok(u > 0.9, `unscaled largest probability ${u}`);
    assert.ok(s < 0.9, `scaled largest probability ${s}`);
    assert.equal(await page.$eval('#dk-number', (e) => e.value), '4096');
    assert.match(page.url(), /dk=4096/);
    // The bars follow: one unscaled bar is (almost) full height.
    const tallest = await page.$$eval('.chart-unscaled .fill', (els) => Math.max(...els.map((e) => parseFloat(e.style.height))));
    assert.ok(tallest > 90, `tallest unscaled bar ${tallest}%`);
    // 16 rows in the data table, and the smallest d_k (Home) is not one-hot either way.
    assert.equal(await page.$$eval('#dk-table tbody tr', (r) => r.length), 16);
    await page.keyboard.press('Home');
    await until(() => page.$eval('#dk-output', (e) => e.textContent), (t) => t.startsWith('dₖ = 1,'));
    await page.close();
  });

  test('d_k number input and resample', { timeout: TIMEOUT }, async () => {
    const page = await openPage('seed=1');
    const caption = () => page.$eval('#dk-table-title', (e) => e.textContent);
    await page.fill('#dk-number', '256');
    await until(caption, (t) => t.includes('256'));
    assert.equal(await page.$eval('#dk-range', (e) => e.value), '8');
    const before = await page.$eval('#dk-table tbody', (e) => e.textContent);
    await page.click('#dk-resample');
    const c = await until(caption, (t) => !t.includes('seed 1'));
    assert.doesNotMatch(c, /seed 1$/);
    const afterText = await page.$eval('#dk-table tbody', (e) => e.textContent);
    assert.notEqual(afterText, before);
    await page.fill('#dk-number', '0');
    const st = await until(() => fieldState(page, 'dk-number'), (s) => s.msg.includes('got 0'));
    assert.match(st.msg, /dk must be an integer in \[1, 65536\], got 0/);
    assert.equal(st.invalid, 'true');
    await page.fill('#dk-number', '1024');
    await until(caption, (t) => t.includes('1024'));
    assert.equal((await fieldState(page, 'dk-number')).invalid, null);
    await page.close();
  });

  test('footer names the SIMD128 build by default and scalar with ?build=scalar', { timeout: TIMEOUT }, async () => {
    const simd = await openPage();
    assert.equal(await simd.$eval('#build-info', (e) => e.dataset.build), 'simd');
    assert.match(await simd.textContent('#build-info'), /SIMD128 build, kernel dot_f32__wasmsimd/);
    await simd.close();
    const scalar = await openPage('build=scalar');
    assert.equal(await scalar.$eval('#build-info', (e) => e.dataset.build), 'scalar');
    assert.match(await scalar.textContent('#build-info'), /scalar build, kernel dot_f32__scalar/);
    assert.match(await scalar.textContent('#build-info'), /computed in your browser/);
    assertProbs(await readProbs(scalar, 'ex0-unscaled'), [0.8668, 0.0159, 0.1173], 'scalar build');
    await scalar.close();
  });

  test('the language switch changes the page to Chinese and is remembered', { timeout: TIMEOUT }, async () => {
    const page = await openPage();
    assert.equal(await page.textContent('h1'), 'Why attention divides by √dₖ');
    await page.selectOption('#lang-select', 'zh');
    await until(() => page.textContent('h1'), (t) => t !== 'Why attention divides by √dₖ');
    assert.equal(await page.textContent('h1'), '注意力为何除以 √dₖ');
    assert.equal(await page.$eval('html', (e) => e.lang), 'zh-Hans');
    assert.match(page.url(), /lang=zh/);
    assert.match(await page.textContent('label[for="seed-ex0-scores"]'), /分数/);
    assert.match(await page.textContent('#build-info'), /浏览器/);
    assertProbs(await readProbs(page, 'ex0-unscaled'), [0.8668, 0.0159, 0.1173], 'numbers in zh');
    // Remembered in localStorage: a plain URL opens in Chinese, ?lang=en still wins.
    await page.goto(server.origin + '/');
    await until(() => page.textContent('h1'), (t) => t === '注意力为何除以 √dₖ');
    assert.equal(await page.textContent('h1'), '注意力为何除以 √dₖ');
    await page.selectOption('#lang-select', 'en');
    await until(() => page.textContent('h1'), (t) => t.startsWith('Why'));
    await page.close();
  });

  test('fits a 320 px screen and looks right at 375 px and 1280 px (screenshots)', { timeout: TIMEOUT }, async () => {
    for (const width of [320, 375, 1280]) {
      const page = await openPage('seed=1&dk=4096', { viewport: { width, height: 900 } });
      await waitFor(page, () => document.querySelector('#dk-table-title')?.textContent.includes('4096'), 'the slider');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `page is ${overflow}px wider than a ${width}px screen`);
      if (width !== 320) await page.screenshot({ path: path.join(ARTIFACTS, `page-${width}.png`), fullPage: true });
      await page.close();
    }
    const dark = await context.newPage();
    await dark.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
    await dark.setViewportSize({ width: 375, height: 900 });
    await dark.goto(`${server.origin}/?lang=zh&seed=1&dk=4096`);
    await waitFor(dark, () => document.getElementById('build-info')?.dataset.build, 'the core');
    await dark.screenshot({ path: path.join(ARTIFACTS, 'page-375-dark-zh.png'), fullPage: true });
    await dark.close();
  });

  test('the built JavaScript has no eval or new Function', { timeout: TIMEOUT }, () => {
    const dir = path.join(WEB, 'dist', 'assets');
    const js = fs.readdirSync(dir).filter((f) => f.endsWith('.js'));
    assert.ok(js.length >= 3, `found ${js.join(', ')}`);
    for (const f of js) assert.doesNotMatch(fs.readFileSync(path.join(dir, f), 'utf8'), /new Function|\beval\(/, f);
  });

  test('no console error, page error or request to another origin', { timeout: TIMEOUT }, () => {
    assert.ok(requests.some((u) => u.endsWith('.wasm')), 'the wasm was fetched');
    assert.deepEqual(problems, []);
  });
});
