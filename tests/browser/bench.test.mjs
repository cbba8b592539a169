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

test('bench.html measures every case in the scalar and SIMD builds', { timeout: 180_000 }, async () => {
  const page = await browser.context.newPage();
  await page.goto(`${server.origin}/bench.html`);
  const csp = await page.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.content);
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
  await page.fill('#bench-samples', '3');
  await page.click('#bench-run');
  await page.waitForFunction(() => /Done/.test(document.getElementById('bench-status').textContent),
    null, { timeout: 170_000 });
  const rows = await page.$$eval('#bench-table tbody tr', (trs) => trs.map((tr) =>
    Array.from(tr.children, (c) => c.textContent.trim())));
  assert.equal(rows.length, 14,
    'the full grid: 4 dot sizes, 4 Q·Kᵀ and 4 attention shapes, a training step fresh and converged');
  for (const [work, scalar, simd, ratio, ofPeak] of rows) {
    assert.match(scalar, /^\d+\.\d\d ±(<0\.1|\d+(\.\d)?)%$/, `${work} scalar`);
    assert.match(simd, /^\d+\.\d\d ±(<0\.1|\d+(\.\d)?)%$/, `${work} SIMD`);
    assert.match(ratio, /^\d+\.\d×$/, `${work} ratio`);
    assert.match(ofPeak, /steps/.test(work) ? /^–$/ : /^\d+%$/, `${work} of peak`);
  }
  assert.match(await page.textContent('#bench-peak'), /^Peak: the SIMD128 build does \d+\.\d\d GFLOP\/s/);
  assert.deepEqual(browser.problems, []);
});
