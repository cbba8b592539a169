// The benchmark page runs both wasm builds in the browser and fills its table.
// No speed is asserted: only that every cell is measured.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, startPreview } from './harness.mjs';

let server;
let browser;

before(async () => {
  server = await startPreview();
  browser = await launch(server.origin);
});

after(async () => {
  await browser?.close();
  server?.stop();
});

test('bench.html measures every case in the scalar, SIMD128 and relaxed-SIMD builds', { timeout: 300_000 }, async () => {
  const page = await browser.context.newPage();
  await page.goto(`${server.origin}/bench.html`);
  const csp = await page.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.content);
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
  await page.fill('#bench-samples', '3');
  await page.click('#bench-run');
  await page.waitForFunction(() => /Done/.test(document.getElementById('bench-status').textContent),
    null, { timeout: 290_000 });
  const rows = await page.$$eval('#bench-table tbody tr', (trs) => trs.map((tr) =>
    Array.from(tr.children, (c) => c.textContent.trim())));
  assert.equal(rows.length, 14,
    'the full grid: 4 dot sizes, 4 Q·Kᵀ and 4 attention shapes, a training step fresh and converged');
  // Chromium validates relaxed SIMD, so its three columns are there too.
  for (const [work, scalar, simd, ratio, ofPeak, relaxed, relaxedRatio, ofFmaPeak] of rows) {
    assert.match(relaxed, /^\d+\.\d\d ±(<0\.1|\d+(\.\d)?)%$/, `${work} relaxed`);
    assert.match(relaxedRatio, /^\d+\.\d\d×$/, `${work} relaxed / SIMD`);
    assert.match(ofFmaPeak, /steps/.test(work) ? /^–$/ : /^\d+%$/, `${work} of FMA peak`);
    assert.match(scalar, /^\d+\.\d\d ±(<0\.1|\d+(\.\d)?)%$/, `${work} scalar`);
    assert.match(simd, /^\d+\.\d\d ±(<0\.1|\d+(\.\d)?)%$/, `${work} SIMD`);
    assert.match(ratio, /^\d+\.\d×$/, `${work} ratio`);
    assert.match(ofPeak, /steps/.test(work) ? /^–$/ : /^\d+%$/, `${work} of peak`);
  }
  const peakText = await page.textContent('#bench-peak');
  assert.match(peakText, /^Peak: the SIMD128 build does \d+\.\d\d GFLOP\/s/);
  assert.match(peakText, /FMA peak: the relaxed-SIMD build does \d+\.\d\d GFLOP\/s .* \(\d+\.\d\d× the multiply-and-add peak\)/);
  const head = await page.$$eval('#bench-table thead th', (ths) => ths.map((th) => th.textContent));
  assert.deepEqual(head.slice(-3), ['wasm relaxed SIMD (FMA)', 'relaxed / SIMD', 'relaxed of FMA peak']);
  assert.deepEqual(browser.problems, []);
});

test('a bad number of samples gets a sentence next to the field, in the page\'s language, and no run', { timeout: 60_000 }, async () => {
  const page = await browser.context.newPage();
  for (const [lang, want] of [['en', 'Samples per cell: a whole number from 3 to 99.'], ['zh', '每格采样次数必须是 3 到 99 之间的整数。']]) {
    await page.goto(`${server.origin}/bench.html?lang=${lang}`);
    for (const value of ['0', '2.5', '1000', '']) {
      await page.fill('#bench-samples', value);
      await page.click('#bench-run');
      assert.equal(await page.textContent('#bench-samples-msg'), want, `${lang}: ${JSON.stringify(value)}`);
      assert.equal(await page.getAttribute('#bench-samples', 'aria-invalid'), 'true');
      assert.equal(await page.$$eval('#bench-table tbody tr', (trs) => trs.length), 0, 'nothing measured');
    }
    await page.fill('#bench-samples', '9');
    // The language switch rewrites the sentence; a good value clears it (the run itself is the test above).
  }
  await page.selectOption('#lang-select', 'en');
  assert.equal(await page.textContent('#bench-samples-msg'), 'Samples per cell: a whole number from 3 to 99.');
  assert.deepEqual(browser.problems, []);
  await page.close();
});
