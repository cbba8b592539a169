// Nothing is clipped without a cue (issue 13): on every page, at 1280 and
// 375 px, in both languages, every table, formula, chart and code block either
// fits its box or sits in a box that scrolls with a visible cue (the scroll
// shadows of style.css), and nothing sticks out of the page. Run on the states
// that make content wide: the checker's report, the lab after a run and a sweep with its
// tables open, the seed table with six scores, every step of the proof and
// the explainer's data tables opened. Also: the checker's result table fits a
// 1280 px screen outright, and the proof's formulas never scroll. The check
// itself is cueCheck (audit-checks.mjs); the benchmarks page is checked by its
// audit (audit-pages.mjs), after the one run that audit makes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ARTIFACTS, launch, startPreview } from './harness.mjs';
import { cueCheck } from './audit-checks.mjs';

const TIMEOUT = 120_000;
let server;
let browser;

before(async () => {
  server = await startPreview();
  browser = await launch(server.origin);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  server?.stop();
});

async function newPage(width) {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height: 900 });
  return page;
}

const openAllDetails = (page) => page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));

async function check(page, what) {
  const r = await page.evaluate(cueCheck);
  assert.ok(r.checked > 0, `${what}: nothing to check`);
  assert.deepEqual(r.problems, [], what);
}

const CASES = [];
for (const width of [1280, 375]) for (const lang of ['en', 'zh']) CASES.push({ width, lang });

describe('nothing is clipped without a cue', { timeout: TIMEOUT * 20 }, () => {
  for (const { width, lang } of CASES) {
    test(`the explainer at ${width} px (${lang}): six scores, every proof step, the data tables open`, { timeout: TIMEOUT }, async () => {
      const page = await newPage(width);
      await page.goto(`${server.origin}/?lang=${lang}&sm.s0=14%2C10%2C12%2C9%2C11%2C13`);
      // Bring every section near, so each widget computes and the formulas are typeset.
      for (const id of ['chain', 'variance', 'proof', 'softmax', 'saturation']) {
        await page.locator(`#${id}`).scrollIntoViewIfNeeded();
        if (id === 'variance')
          await page.waitForFunction(() => document.querySelector('attn-variance').dataset.hist === 'done', null, { timeout: 30_000 });
        if (id === 'proof')
          await page.waitForFunction(() => document.querySelector('.step-formula [data-typeset]') && document.fonts.status === 'loaded',
            null, { timeout: 30_000 });
        await page.waitForTimeout(150);
      }
      await openAllDetails(page);
      await check(page, `explainer ${width} ${lang}`);
      // Every proof step: its formula fits the panel outright (no scrolling needed).
      await page.locator('#proof').scrollIntoViewIfNeeded();
      for (let s = 1; s <= 7; s++) {
        await page.evaluate((n) => document.querySelector('attn-proof').setAttribute('step', String(n)), s);
        await page.waitForFunction((n) => document.querySelector('attn-proof').dataset.step === String(n), s);
        await page.waitForFunction(() => document.querySelector('.step-formula [data-typeset]'));
        const f = await page.$eval('.step-formula', (b) => ({ sw: b.scrollWidth, cw: b.clientWidth, key: b.querySelector('.math')?.dataset.formula }));
        assert.ok(f.sw <= f.cw + 1, `proof step ${s} (${f.key}) at ${width} px: ${f.sw} px in ${f.cw} px`);
        await check(page, `explainer ${width} ${lang}, proof step ${s}`);
      }
      if (lang === 'en') await page.screenshot({ path: path.join(ARTIFACTS, `layout-index-${width}.png`), fullPage: true });
      await page.close();
    });

    test(`the checker at ${width} px (${lang}): the example data's report`, { timeout: TIMEOUT }, async () => {
      const page = await newPage(width);
      await page.goto(`${server.origin}/check.html?lang=${lang}`);
      for (const sample of ['init.npz', 'saturated.npz', 'lab-learned.npz']) {
        await page.waitForSelector(`button[data-sample="${sample}"]`);
        await page.click(`button[data-sample="${sample}"]`);
        await page.waitForFunction((s) => document.getElementById('check-summary')?.textContent.startsWith(s), sample, { timeout: 30_000 });
        await openAllDetails(page);
        await check(page, `checker ${width} ${lang} ${sample}`);
        // On a laptop the table fits outright: no column behind a scroll.
        const box = await page.$eval('#check-table', (t) => ({ sw: t.parentElement.scrollWidth, cw: t.parentElement.clientWidth }));
        assert.ok(box.sw <= box.cw + 1, `${sample}: the table is ${box.sw} px in ${box.cw} px`);
        if (width === 375) {
          // A card per head: the verdict and the reason are in view, beside their names.
          const card = await page.$eval('#check-table tbody tr[data-verdict]', (tr) => {
            const r = tr.getBoundingClientRect();
            return { right: r.right, label: getComputedStyle(tr.querySelector('td.ck-verdict'), '::before').content };
          });
          assert.ok(card.right <= width, `card reaches ${card.right}`);
          assert.notEqual(card.label, 'none');
        }
      }
      if (lang === 'en') await page.screenshot({ path: path.join(ARTIFACTS, `layout-check-${width}.png`), fullPage: true });
      await page.close();
    });

    test(`the lab at ${width} px (${lang}): after a run and a sweep, every table open`, { timeout: TIMEOUT }, async () => {
      const page = await newPage(width);
      // A short comparison, and a sweep with every preset divisor (the widest sweep table).
      await page.goto(`${server.origin}/lab.html?lang=${lang}&steps=60&sw.dk=16&sw.div=sqrt,2,1,dk,ln&sw.opt=adam,sgd&sw.steps=20`);
      await page.waitForFunction(() => /Every number|每个数字/.test(document.getElementById('lab-footer').textContent));
      await page.click('#lab-start');
      await page.waitForFunction(() => document.getElementById('lab-status').dataset.state === 'done', null, { timeout: TIMEOUT });
      await page.click('#lab-sw-start');
      await page.waitForFunction(() => document.getElementById('lab-sw-status').dataset.state === 'done', null, { timeout: TIMEOUT });
      await page.waitForFunction(() => document.querySelectorAll('#lab-init-table .badge').length > 0);
      await openAllDetails(page);
      await page.waitForTimeout(300);
      await check(page, `lab ${width} ${lang}`);
      // The init checkpoint's point, Var(logit) and its mark, is in view without scrolling.
      const varLogit = await page.$$eval('#lab-init-table tbody tr', (trs) => trs.map((tr) => {
        const td = tr.children[4];
        const badge = td.querySelector('.badge').getBoundingClientRect();
        const box = td.closest('.table-scroll').getBoundingClientRect();
        return { right: badge.right, boxRight: box.right };
      }));
      for (const v of varLogit) assert.ok(v.right <= v.boxRight + 1, `Var(logit)'s mark at ${v.right} in a box to ${v.boxRight}`);
      if (lang === 'en') await page.screenshot({ path: path.join(ARTIFACTS, `layout-lab-${width}.png`), fullPage: true });
      await page.close();
    });

  }

  test('no page error, no request to another origin', () => {
    assert.deepEqual(browser.problems, []);
  });
});
