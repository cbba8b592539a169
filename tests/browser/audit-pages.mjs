// The audits of the site's four pages (web/dist) in Debian's Chromium: issue 13's
// "prove it with real audits". Each page has a file of its own
// (audit-<page>.test.mjs, which calls auditPages), so node --test can audit two
// pages at a time; the Lighthouse scores are timings and run alone
// (lighthouse.test.mjs, which scripts/test.sh runs after the rest).
//
// - axe-core (its default rules: WCAG 2 A/AA and best practices, color-contrast
//   included, none excluded; color-contrast once more with the tables' scroll
//   shadows off, since axe cannot judge text over a gradient): zero violations on index, lab, check and bench,
//   light and dark, English and 简体中文, at 1280 and 375 px, after the page has
//   been used (sliders moved, tables opened, the proof stepped, runs made,
//   a sample checked, a benchmark run).
// - The clipping check (audit-checks.mjs): every table, formula and chart
//   either fits, or the box it scrolls in shows the scroll cue.
// - A full-page screenshot of each combination, written to
//   build/screenshots/audit/<page>/<width>px-<theme>-<lang>.png.
// The harness's problems (console errors, requests off the origin) must stay empty.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { WEB, launch, startPreview } from './harness.mjs';
import { clippingCheck, cueCheck, runAxe, runContrastUnderCues } from './audit-checks.mjs';

const require = createRequire(path.join(WEB, 'package.json'));
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SHOTS = path.join(ROOT, 'build', 'screenshots', 'audit');

const WIDTHS = [{ width: 1280, height: 900 }, { width: 375, height: 812 }];
const THEMES = ['light', 'dark'];
const LANGS = ['en', 'zh'];

const waitFor = (page, fn, arg, timeout = 30_000) => page.waitForFunction(fn, arg, { timeout });

/** Press keys on a focused control. */
async function keys(page, selector, ...names) {
  await page.focus(selector);
  for (const k of names) await page.keyboard.press(k);
}

/** Open every closed <details> on the page (the charts' data tables, the sources). */
const openDetails = (page) => page.$$eval('details:not([open])', (ds) => ds.forEach((d) => (d.open = true)));

export const PAGES = {
  index: {
    path: '/',
    async use(page) {
      await waitFor(page, () => document.getElementById('build-info')?.dataset.build);
      await waitFor(page, () => /\d/.test(document.querySelector('[data-row="ex0-unscaled"] .c-probs')?.textContent ?? ''));
      // Section 2: the sliders.
      await keys(page, '#var-dk-range', 'ArrowRight', 'ArrowRight');
      await keys(page, '#var-rho', 'ArrowRight', 'ArrowRight', 'ArrowRight');
      // Section 3: step the proof to its end and change d_k.
      await page.locator('#proof').scrollIntoViewIfNeeded();
      await keys(page, '#proof-panel', 'ArrowRight', 'ArrowRight', 'End');
      await keys(page, '#proof-dk', 'ArrowRight');
      // Section 4: edit the seed's scores.
      await page.fill('#seed-ex0-scores', '14, 10, 13');
      // Section 5: d_k and the divisor.
      await keys(page, '#sat-dk-range', 'ArrowRight', 'ArrowRight');
      await page.check('#sat-div-dk');
      // A widget's Embed panel (its snippets), opened from a figure's menu.
      await page.click('#sat-chart-maxProb .fig-menu');
      await page.click('#sat-chart-maxProb [data-menu="embed"]');
      await waitFor(page, () => document.querySelector('#saturation .embed-panel textarea, #saturation .embed-panel input'));
      // Section 6: run the comparison, in 40 steps (page.test.mjs runs the full one and checks its numbers).
      await page.locator('#training').scrollIntoViewIfNeeded();
      await page.$eval('#training attn-train-compare', (el) => el.setAttribute('steps', '40'));
      await page.click('#train-live-start');
      await waitFor(page, () => document.querySelector('#training attn-train-compare')?.dataset.run === 'done', null, 90_000);
      // Every lazily loaded part near the viewport once (the formulas' CSS, the charts).
      await page.evaluate(async () => {
        for (const s of document.querySelectorAll('main > section')) {
          s.scrollIntoView();
          await new Promise((r) => setTimeout(r, 150));
        }
        window.scrollTo(0, 0);
      });
      await openDetails(page);
      await waitFor(page, () => !document.querySelector('.katex-display') || document.fonts.status === 'loaded');
    },
  },
  lab: {
    path: '/lab.html',
    query: 'dk=16&steps=120&div=sqrt,1&seed=3&sw.dk=16,32&sw.div=sqrt,1&sw.opt=adam&sw.steps=60',
    async use(page) {
      await waitFor(page, () => /Every number|每个数字/.test(document.getElementById('lab-footer').textContent), null, 60_000);
      // A short comparison, then a small sweep (its table and prose).
      await page.click('#lab-start');
      await waitFor(page, () => document.getElementById('lab-status').dataset.state === 'done', null, 120_000);
      await page.click('#lab-sw-start');
      await waitFor(page, () => document.getElementById('lab-sw-status').dataset.state === 'done', null, 120_000);
      await openDetails(page);
      // The heatmaps' scrubber, if there is one.
      const scrub = await page.$('input[type="range"]');
      if (scrub) await keys(page, 'input[type="range"]', 'Home', 'ArrowRight');
    },
  },
  check: {
    path: '/check.html',
    async use(page) {
      await waitFor(page, () => document.querySelector('button[data-sample="init.npz"]'));
      for (const sample of ['saturated.npz', 'init.npz']) {
        const run = Number(await page.getAttribute('#check-status', 'data-run'));
        await page.click(`button[data-sample="${sample}"]`);
        await waitFor(page, (r) => {
          const s = document.getElementById('check-status');
          return Number(s.dataset.run) > r && s.dataset.state !== 'busy';
        }, run);
      }
      await openDetails(page);
    },
    // A second state, so each verdict's colour is audited: init.npz is all "fine", saturated.npz "frozen", lab-learned.npz "sharp".
    then: {
      state: 'verdicts',
      async use(page) {
        const run = Number(await page.getAttribute('#check-status', 'data-run'));
        await page.click('button[data-sample="lab-learned.npz"]');
        await waitFor(page, (r) => {
          const s = document.getElementById('check-status');
          return Number(s.dataset.run) > r && s.dataset.state !== 'busy';
        }, run);
      },
    },
  },
  bench: {
    path: '/bench.html',
    // One run, audited in English, then in Chinese through the page's own
    // language switch (which relabels the table it measured): a run costs
    // 30-45 s here, and the switch after a run is a path of its own to check.
    switchLang: true,
    async use(page) {
      // The smallest run the page takes (3 samples a cell, about 30 s here), so the table is there.
      await waitFor(page, () => document.getElementById('bench-run'));
      await page.fill('#bench-samples', '3');
      await page.click('#bench-run');
      await waitFor(page, () => /^(Done|完成)/.test(document.getElementById('bench-status').textContent), null, 170_000);
    },
  },
};

/**
 * Registers the audits of the named pages (keys of PAGES), each in both
 * languages; with `clippingSelfTest`, first the test of the clipping check itself.
 */
export function auditPages(names, { clippingSelfTest = false } = {}) {
  let server;
  let browser;
  const summary = [];  // one line per page × language × width × theme

  before(async () => {
    server = await startPreview();
    browser = await launch(server.origin, { bypassCSP: true });  // to evaluate axe's source under the pages' CSP
  });

  after(async () => {
    await browser?.close();
    server?.stop();
    if (summary.length) {
      console.log('# page           lang width theme  axe clipped');
      for (const s of summary) console.log(`# ${s}`);
    }
  });

  if (clippingSelfTest) {
    test('the clipping check tells a fitting, a cued, an uncued, a clipped and a page-wide table apart', async () => {
      const page = await browser.context.newPage();
      await page.setViewportSize({ width: 375, height: 600 });
      const wide = '<table><tr><td style="min-width:600px">wide</td></tr></table>';
      const cue = 'background: linear-gradient(to right, white, transparent) local, radial-gradient(black, transparent) scroll';
      await page.setContent(`<body style="margin:0">
        <div id="fits"><table><tr><td>narrow</td></tr></table></div>
        <div id="cued" style="overflow-x:auto;${cue}">${wide}</div>
        <div id="uncued" style="overflow-x:auto">${wide}</div>
        <div id="flagged" class="is-overflowing" style="overflow-x:auto">${wide}</div>
        <div id="clipped" style="overflow:hidden">${wide}</div>
        <div id="page">${wide}</div></body>`);
      const { count, problems } = await page.evaluate(clippingCheck);
      await page.close();
      assert.equal(count, 6);
      const byTarget = Object.fromEntries(problems.map((p) => [p.target.split(' ')[0], p]));
      assert.deepEqual(Object.keys(byTarget).sort(), ['#clipped', '#page', '#uncued', 'document']);
      assert.equal(byTarget['#uncued'].kind, 'no-cue');
      assert.equal(byTarget['#clipped'].kind, 'clipped');
      assert.equal(byTarget['#page'].kind, 'page');
      assert.ok(Math.abs(byTarget['#clipped'].px - (600 + 2 * 2 + 2 * 2 - 375)) < 12, `clipped by ${byTarget['#clipped'].px} px`);
    });
  }

  describe('axe, clipping and screenshots', () => {
    for (const name of names) {
      const spec = PAGES[name];
      for (const lang of spec.switchLang ? [LANGS.join(' then ')] : LANGS) {
        const langs = lang.split(' then ');
        test(`${name}.html, ${lang}${spec.switchLang ? ' (its language switch)' : ''}: no axe violation and nothing clipped, at 1280 and 375 px, light and dark`, { timeout: 300_000 }, async (t) => {
          const page = await browser.context.newPage();
          await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
          await page.setViewportSize(WIDTHS[0]);
          const t0 = Date.now();
          await page.goto(`${server.origin}${spec.path}?lang=${langs[0]}${spec.query ? `&${spec.query}` : ''}`);
          await spec.use(page, langs[0]);
          t.diagnostic(`used in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
          await page.evaluate(AXE_SOURCE);
          const failures = [];
          // The page's own language, and a description in it (for search engines).
          const checkMeta = async (lang) => {
            const meta = await page.evaluate(() => ({
              lang: document.documentElement.lang,
              description: document.querySelector('meta[name="description"]')?.content ?? '',
            }));
            if (!meta.lang.startsWith(lang)) failures.push(`<html lang="${meta.lang}"> on the ${lang} page`);
            const cjk = /[\u4e00-\u9fff]/.test(meta.description);
            if (meta.description.length < 30 || cjk !== (lang === 'zh'))
              failures.push(`meta description not in ${lang} (or missing/short): "${meta.description}"`);
          };
          // Every width and theme of the page as it is now; `state` names a second state.
          let lang = langs[0];
          const auditAll = async (state = '') => {
            for (const vp of WIDTHS) {
              await page.setViewportSize(vp);
              for (const theme of THEMES) {
                await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
                // Let resize observers and scheme listeners redraw the charts.
                await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 250)))));
                const where = `${name}${state ? ` (${state})` : ''} ${lang} ${vp.width}px ${theme}`;
                const violations = [...await page.evaluate(runAxe), ...await page.evaluate(runContrastUnderCues)];
                for (const v of violations)
                  failures.push(`${where}: axe ${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.slice(0, 6).map((n) => `${n.target} — ${n.summary}`).join('\n    ')}${v.nodes.length > 6 ? `\n    … ${v.nodes.length - 6} more` : ''}`);
                const clip = await page.evaluate(clippingCheck);
                for (const c of clip.problems)
                  failures.push(`${where}: ${c.target} ${c.kind === 'page' ? 'runs past the viewport' : c.kind === 'clipped' ? `is clipped by ${c.where}` : `scrolls in ${c.where} with no cue`} by ${c.px} px`);
                assert.ok(clip.count > 0, `${where}: the clipping check found tables, formulas or charts to examine`);
                // layout.test.mjs's check as well (it also looks at code blocks and canvases).
                const cue = await page.evaluate(cueCheck);
                for (const p of cue.problems) failures.push(`${where}: ${p}`);
                const file = path.join(SHOTS, name, `${vp.width}px-${theme}-${lang}${state ? `-${state}` : ''}.png`);
                fs.mkdirSync(path.dirname(file), { recursive: true });
                await page.screenshot({ path: file, fullPage: true });
                summary.push(`${(name + (state ? `/${state}` : '')).padEnd(14)} ${lang}   ${String(vp.width).padStart(4)}  ${theme.padEnd(5)} ${String(violations.length).padStart(4)} ${String(clip.problems.length).padStart(7)}  (${clip.count} examined)`);
              }
            }
          };
          await checkMeta(lang);
          await auditAll();
          if (spec.then) {
            await page.setViewportSize(WIDTHS[0]);
            await spec.then.use(page);
            await auditAll(spec.then.state);
          }
          for (lang of langs.slice(1)) {
            await page.setViewportSize(WIDTHS[0]);
            await page.selectOption('#lang-select', lang);
            await waitFor(page, (l) => document.documentElement.lang.startsWith(l), lang);
            await checkMeta(lang);
            await auditAll();
          }
          await page.close();
          assert.ok(failures.length === 0, `${failures.length} findings:\n${failures.join('\n')}`);
          assert.deepEqual(browser.problems, []);
        });
      }
    }
  });
}
