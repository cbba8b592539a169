// Lighthouse 12 (mobile emulation, its default) on each of the site's pages,
// English: accessibility ≥ 95, best practices ≥ 95, SEO ≥ 90, performance ≥ 90;
// the scores are printed, and every request it saw stays on the local origin.
// Performance is a timing: this file runs alone, on a machine doing nothing
// else (scripts/test.sh runs it after the other browser tests, with the
// background checks finished); beside another test it scored 65. Even alone
// one run varies: on this machine the explainer's Total Blocking Time ranged
// over 94-570 ms in 18 runs of three commits (performance 86-98; CI saw 89
// once), so each page is run five times and each category's score is the
// median, as Lighthouse's own docs advise (docs/variability.md: "the median of
// 5 runs is twice as stable as 1 run") and Lighthouse CI does with
// aggregationMethod 'median'; every run's performance and TBT are printed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { ARTIFACTS, WEB, startPreview } from './harness.mjs';
import { PAGES } from './audit-pages.mjs';

const require = createRequire(path.join(WEB, 'package.json'));
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

let server;
before(async () => {
  server = await startPreview();
});
after(() => server?.stop());

const THRESHOLDS = { performance: 90, accessibility: 95, 'best-practices': 95, seo: 90 };
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];

describe('Lighthouse', () => {
  let chrome;
  let lighthouse;
  const scores = [];

  before(async () => {
    lighthouse = (await import(pathToFileURL(require.resolve('lighthouse')).href)).default;
    const chromeLauncher = await import(pathToFileURL(require.resolve('chrome-launcher')).href);
    chrome = await chromeLauncher.launch({
      chromePath: CHROMIUM,
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      logLevel: 'silent',
    });
  });

  after(async () => {
    await chrome?.kill();
    if (scores.length) {
      console.log('# Lighthouse (mobile)  perf  a11y  best   seo');
      for (const s of scores)
        console.log(`# ${s.name.padEnd(19)} ${Object.keys(THRESHOLDS).map((k) => String(s[k]).padStart(5)).join(' ')}`);
    }
  });

  for (const name of Object.keys(PAGES)) {
    test(`Lighthouse: ${name}.html scores at least ${Object.values(THRESHOLDS).join(', ')} (the median of ${RUNS} runs)`, { timeout: 180_000 * RUNS }, async (t) => {
      const url = `${server.origin}${PAGES[name].path === '/' ? '/' : PAGES[name].path}?lang=en`;
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        const result = await lighthouse(url, {
          port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: Object.keys(THRESHOLDS),
        });
        runs.push(result.lhr);
      }
      const score = (lhr, k) => Math.round(100 * (lhr.categories[k].score ?? 0));
      const row = { name: `${name}.html` };
      for (const k of Object.keys(THRESHOLDS)) row[k] = median(runs.map((lhr) => score(lhr, k)));
      scores.push(row);
      t.diagnostic(`runs: performance ${runs.map((lhr) => score(lhr, 'performance')).join(', ')}; TBT ${runs.map((lhr) => Math.round(lhr.audits['total-blocking-time'].numericValue)).join(', ')} ms`);
      // The run whose performance is the median: its report is kept and its audits listed.
      const lhr = runs.find((r) => score(r, 'performance') === row.performance);
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      fs.writeFileSync(path.join(ARTIFACTS, `lighthouse-${name}.json`), JSON.stringify(lhr));
      // What keeps a category below 100: each failing audit with its weight, for the report.
      const failing = [];
      for (const k of Object.keys(THRESHOLDS)) {
        for (const ref of lhr.categories[k].auditRefs) {
          const a = lhr.audits[ref.id];
          if (ref.weight > 0 && a.score !== null && a.score < 0.9)
            failing.push(`${k}: ${a.id} ${a.score} ${a.displayValue ?? ''} — ${a.title}`);
        }
      }
      for (const f of failing) t.diagnostic(f);
      const m = (id) => lhr.audits[id]?.displayValue ?? '–';
      t.diagnostic(`metrics: FCP ${m('first-contentful-paint')}, LCP ${m('largest-contentful-paint')}, TBT ${m('total-blocking-time')}, CLS ${m('cumulative-layout-shift')}, SI ${m('speed-index')}`);
      const nodes = (id) => (lhr.audits[id]?.details?.items ?? []).flatMap((it) => it.items ?? [it])
        .map((it) => `${it.node?.selector ?? it.node?.snippet ?? '?'}${it.score !== undefined ? ` (${Number(it.score).toFixed(3)})` : ''}`);
      for (const n of nodes('largest-contentful-paint-element')) t.diagnostic(`LCP element: ${n}`);
      for (const n of nodes('layout-shifts').slice(0, 5)) t.diagnostic(`layout shift: ${n}`);
      const offOrigin = runs.flatMap((r) => r.audits['network-requests']?.details?.items ?? [])
        .map((r) => r.url).filter((u) => !/^(data|blob):/.test(u) && new URL(u).origin !== server.origin);
      assert.deepEqual(offOrigin, [], 'Lighthouse saw requests off the local origin');
      for (const [k, min] of Object.entries(THRESHOLDS))
        assert.ok(row[k] >= min, `${name}.html ${k} ${row[k]} < ${min}\n${failing.filter((f) => f.startsWith(k)).join('\n')}`);
    });
  }
});
