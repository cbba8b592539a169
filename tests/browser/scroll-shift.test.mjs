// Nothing jumps while you scroll, and Chinese text never wraps a character or
// two a line (issue 33, items 3 and 4).
//
// Lighthouse's layout-shift score covers the load only; a reader who scrolls
// reaches lazily loaded parts (the presets' table, the saturation explorer's
// distribution view, the docs' live widgets) as they arrive. Each page, at 1280
// and 375 px, in English and 简体中文, is loaded once and scrolled top to bottom
// at a fast reader's pace (half a screen every 100 ms), then left to settle;
// every 'layout-shift' entry without recent input, from the load on, is summed.
// The total (not only the largest session window) stays under 0.02.
//
// On the same Chinese pages, after the scroll: every box of Chinese text that
// wraps holds at least 4 characters a line on average (a header that read
// 软/上/限, a button 在探/索器/中查/看, failed).
//
// The explainer's figures, when first on screen, already show their numbers:
// the saturation explorer's curves have sampled rows (never "0 sampled rows").
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, startPreview } from './harness.mjs';

const LIMIT = 0.02;
const MIN_CHARS_PER_LINE = 4;
const PAGES = process.env.SHIFT_PAGES?.split(',') ?? ['/', '/lab.html', '/check.html', '/bench.html', '/embed.html'];
const SIZES = [{ width: 1280, height: 900 }, { width: 375, height: 812 }];
const LANGS = ['en', 'zh'];
const STEP_MS = 100;
const SETTLE_MS = 1000;
// Pages whose Chinese boxes are still too narrow, with the owner's issue: the
// check reports them (as todo) without failing the run, until they are fixed.
const NARROW_KNOWN = {};

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

// In the page before its scripts run: every shift, with the nodes that moved.
function observe() {
  window.__shifts = [];
  const describe = (n) => {
    if (!n || n.nodeType !== 1) return n?.nodeName ?? '?';
    const parts = [];
    for (let e = n; e && e.nodeType === 1 && parts.length < 4; e = e.parentElement ?? e.getRootNode()?.host) {
      parts.unshift(e.localName + (e.id ? `#${e.id}` : '') + (e.classList.length ? `.${[...e.classList].slice(0, 2).join('.')}` : ''));
      if (e.id) break;
    }
    return parts.join(' > ');
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.hadRecentInput) continue;
      window.__shifts.push({
        value: e.value, t: Math.round(e.startTime), y: Math.round(scrollY),
        sources: (e.sources ?? []).map((s) => `${describe(s.node)} ${Math.round(s.previousRect.y)}→${Math.round(s.currentRect.y)} h${Math.round(s.previousRect.height)}→${Math.round(s.currentRect.height)}`),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

/** Scroll the page top to bottom; returns what the saturation explorer's curves showed when first on screen. */
function scrollThrough({ step, ms }) {
  return (async () => {
    const seen = {};
    const sat = document.querySelector('attn-saturation');
    // Half a screen a step, or a sixtieth of a long page (the embed docs are 40 screens on a phone).
    for (let y = 0; ; y += Math.max(step, Math.round(document.documentElement.scrollHeight / 60))) {
      window.scrollTo(0, y);
      await new Promise((r) => setTimeout(r, ms));
      const root = sat?.shadowRoot ?? sat;
      const curves = root?.querySelector('.curve-charts');
      if (curves && seen.curves === undefined) {
        const r = curves.getBoundingClientRect();
        if (r.top < innerHeight && r.bottom > 0)
          seen.curves = { note: root.querySelector('[id$="curves-note"]')?.textContent ?? '', progress: root.querySelector('.progress')?.textContent ?? '' };
      }
      if (y >= document.documentElement.scrollHeight - innerHeight) break;
    }
    return seen;
  })();
}

/** The wrapped boxes of Chinese text with the fewest characters a line (widgets' shadow roots too), narrowest first. */
function narrowestChinese() {
  const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
  // Visually hidden text (the cards' column headers, 1 px wide and clipped) is not read as laid out.
  const hidden = (el) => {
    for (let e = el; e && e.nodeType === 1; e = e.parentElement ?? e.getRootNode()?.host) {
      const cs = getComputedStyle(e);
      if (cs.clipPath === 'inset(50%)' || (cs.overflow === 'hidden' && e.getBoundingClientRect().width <= 1)) return true;
    }
    return false;
  };
  const out = [];
  const seen = new Set();
  const visit = (root) => {
    const w = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = w.nextNode(); n; n = w.nextNode()) {
      const el = n.parentElement;
      if (!el || seen.has(el) || !CJK.test(n.data)) continue;
      seen.add(el);
      const range = document.createRange();
      range.selectNodeContents(el);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
      const lines = [];
      for (const r of rects) if (!lines.some((t) => Math.abs(t - r.top) < r.height / 2)) lines.push(r.top);
      if (lines.length < 2 || hidden(el)) continue;
      const chars = [...el.textContent.replace(/\s+/g, '')].length;
      out.push({ perLine: chars / lines.length, lines: lines.length, text: el.textContent.trim().slice(0, 40), tag: el.localName + (el.id ? `#${el.id}` : '') });
    }
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) visit(el.shadowRoot);
  };
  visit(document.body);
  return out.sort((a, b) => a.perLine - b.perLine).slice(0, 3);
}

const results = [];
const narrow = new Map(); // `${page} ${width}` -> narrowestChinese()

describe('nothing jumps while you scroll; Chinese keeps its lines', { timeout: 300_000 }, () => {
  for (const p of PAGES)
    for (const size of SIZES)
      for (const lang of LANGS)
        test(`${p} at ${size.width} px (${lang}): layout shift over a scroll top to bottom < ${LIMIT}`, { timeout: 60_000 }, async () => {
          const page = await browser.context.newPage();
          await page.setViewportSize(size);
          await page.addInitScript(observe);
          const t0 = Date.now();
          await page.goto(`${server.origin}${p}?lang=${lang}`, { waitUntil: 'load' });
          await page.waitForTimeout(300);
          const seen = await page.evaluate(scrollThrough, { step: Math.round(size.height / 2), ms: STEP_MS });
          await page.waitForTimeout(SETTLE_MS);
          const shifts = await page.evaluate(() => window.__shifts);
          if (lang === 'zh') narrow.set(`${p} ${size.width}`, await page.evaluate(narrowestChinese));
          await page.close();
          const total = shifts.reduce((s, e) => s + e.value, 0);
          results.push({ page: p, width: size.width, lang, total: total.toFixed(4), n: shifts.length, ms: Date.now() - t0, curves: seen.curves });
          if (process.env.SHIFT_DEBUG)
            for (const s of shifts) console.log(p, size.width, lang, s.value.toFixed(4), `t=${s.t} y=${s.y}`, s.sources.join(' | '));
          const worst = [...shifts].sort((a, b) => b.value - a.value).slice(0, 3)
            .map((s) => `${s.value.toFixed(4)} at y=${s.y}: ${s.sources.join(' | ')}`).join('\n');
          assert.ok(total < LIMIT, `layout shift ${total.toFixed(4)} over the scroll (limit ${LIMIT}); largest:\n${worst}`);
          if (p === '/')
            assert.doesNotMatch(seen.curves?.note ?? 'not seen', /\b0 sampled rows|已抽样 0 行|not seen/, `the saturation explorer's curves when first on screen: ${JSON.stringify(seen.curves)}`);
        });

  for (const p of PAGES)
    for (const { width } of SIZES)
      test(`${p} at ${width} px in Chinese: every wrapped box holds ≥ ${MIN_CHARS_PER_LINE} characters a line`, { todo: NARROW_KNOWN[p] }, () => {
        const boxes = narrow.get(`${p} ${width}`);
        assert.ok(boxes, 'the page was measured');
        const bad = boxes.filter((b) => b.perLine < MIN_CHARS_PER_LINE);
        assert.deepEqual(bad.map((b) => `${b.tag} "${b.text}": ${b.perLine.toFixed(1)} a line over ${b.lines} lines`), []);
      });

  test('no page error, no request to another origin', () => {
    console.log(results.map((r) => `${r.page} ${r.width} ${r.lang}: ${r.total} (${r.n} shifts, ${r.ms} ms)`).join('\n'));
    for (const [k, boxes] of narrow) console.log(`${k} zh: narrowest ${boxes[0] ? `${boxes[0].perLine.toFixed(1)} a line (${boxes[0].tag} "${boxes[0].text}")` : 'no wrapped box'}`);
    assert.deepEqual(browser.problems, []);
  });
});
