// A widget keeps its height while it loads, so nothing below it moves: the
// layout-shift test (scroll-shift.test.mjs) scrolls pages at a reader's pace
// and sees this only when the machine is slow enough for a widget to load on
// screen; here each stage is held still and measured.
//
// (1) In a host's page (the embed docs page: the published embed, shadow
//     roots), with the core's wasm held back: each widget's height once
//     defined (its controls, its charts, the room its numbers take) equals
//     its height once the core has drawn its numbers, within 2 px, at 1280
//     and 375 px, in English and 简体中文.
// (2) The docs page keeps each example's room before its code arrives
//     (docs.css): with the embed blocked, every element section is as tall
//     as with the widgets drawn, within 4 px, at 1280, 768 and 375 px, in
//     both languages.
// (3) A page keeps its layout while its core loads: with the wasm held back,
//     every element of the explainer, the lab and the checker above its
//     footer is where it is once the core has answered, within 2 px, at 1280,
//     768 and 375 px, in both languages (and the lab with SGD at d_k 64, the
//     checker with a preset in the address). The lab's soft-cap and τ hints
//     grew by a line when its worker sent their range, and the checker's limits
//     appeared, 21-100 px, under a reader who had scrolled on (scroll-shift
//     failed on the lab at 375 px in Chinese, on a loaded machine); the core's
//     facts they state are now there on the first frame (web/scripts/core-facts.mjs).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, startPreview } from './harness.mjs';

const TAGS = ['attn-chain', 'attn-variance', 'attn-proof', 'attn-softmax-table', 'attn-saturation', 'attn-train-compare'];
const LANGS = ['en', 'zh'];

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

/** Each live example's height (px) and whether it is defined; and each element section's. */
const heights = (page) => page.evaluate((tags) => Object.fromEntries(tags.map((t) => {
  const el = document.querySelector(`#element-sections ${t}`);
  return [t, { defined: !!customElements.get(t), widget: el.getBoundingClientRect().height, section: el.closest('section').getBoundingClientRect().height }];
})), TAGS);

/** Poll until every height has stayed the same for `quiet` ms (at most `limit` ms); returns them. */
async function settled(page, { quiet = 1500, limit = 30_000 } = {}) {
  const t0 = Date.now();
  let last = await heights(page);
  let since = Date.now();
  while (Date.now() - t0 < limit) {
    await page.waitForTimeout(250);
    const now = await heights(page);
    if (JSON.stringify(now) !== JSON.stringify(last)) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quiet) return now;
  }
  return last;
}

/** Holds back the page's requests to `glob` whose URL `pick` chooses; resolves to release(), which lets them go. */
async function holdBack(page, glob, pick = () => true) {
  let release;
  const gate = new Promise((r) => { release = r; });
  await page.route(glob, async (route) => {
    if (pick(route.request().url().split('?')[0])) await gate;
    await route.continue();
  });
  return release;
}

const drawn = new Map(); // `${width} ${lang}` -> heights once drawn

describe('a widget keeps its height while it loads', { timeout: 300_000 }, () => {
  for (const width of [1280, 375])
    for (const lang of LANGS)
      test(`embedded, ${width} px, ${lang}: as tall before the core's numbers as after (±2 px)`, { timeout: 90_000 }, async () => {
        const page = await browser.context.newPage();
        try {
          await page.setViewportSize({ width, height: 900 });
          const release = await holdBack(page, '**/*.wasm');
          await page.goto(`${server.origin}/embed.html?lang=${lang}`, { waitUntil: 'load' });
          await page.waitForFunction((tags) => tags.every((t) => customElements.get(t)), TAGS, { timeout: 60_000 });
          const built = await settled(page, { quiet: 800 });
          release();
          // The core's numbers drawn: every computing widget's footer says which build ran.
          await page.waitForFunction((tags) => tags.filter((t) => t !== 'attn-chain')
            .every((t) => document.querySelector(`#element-sections ${t}`).shadowRoot?.querySelector('.embed-status')?.dataset.state === 'ready'),
          TAGS, { timeout: 60_000 });
          const done = await settled(page);
          drawn.set(`${width} ${lang}`, done);
          const moved = TAGS.filter((t) => Math.abs(done[t].widget - built[t].widget) > 2)
            .map((t) => `${t}: ${built[t].widget.toFixed(0)} px while loading, ${done[t].widget.toFixed(0)} px drawn`);
          assert.deepEqual(moved, []);
        } finally {
          await page.close();
        }
      });
});

describe('the docs page keeps each example\'s room before its code arrives', { timeout: 300_000 }, () => {
  for (const width of [1280, 768, 375])
    for (const lang of LANGS)
      test(`${width} px, ${lang}: each element section as tall with the embed blocked as drawn (±4 px)`, { timeout: 90_000 }, async () => {
        let done = drawn.get(`${width} ${lang}`);
        if (!done) {
          const page = await browser.context.newPage();
          await page.setViewportSize({ width, height: 900 });
          await page.goto(`${server.origin}/embed.html?lang=${lang}`, { waitUntil: 'load' });
          await page.waitForFunction((tags) => tags.every((t) => customElements.get(t)), TAGS, { timeout: 60_000 });
          done = await settled(page);
          await page.close();
        }
        const page = await browser.context.newPage();
        // ?blocked: the embed's failed loads are this test's, not the page's problems.
        await page.route('**/embed/**', (route) => route.abort());
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${server.origin}/embed.html?lang=${lang}&blocked`, { waitUntil: 'load' });
        const kept = await settled(page, { quiet: 500 });
        await page.close();
        const name = (p) => p.includes('&blocked');
        browser.problems.splice(0, browser.problems.length, ...browser.problems.filter((p) => !name(p)));
        assert.ok(TAGS.every((t) => !kept[t].defined), 'nothing defined with the embed blocked');
        const off = TAGS.filter((t) => Math.abs(kept[t].section - done[t].section) > 4)
          .map((t) => `${t}: ${kept[t].section.toFixed(0)} px kept, ${done[t].section.toFixed(0)} px drawn (the widget ${done[t].widget.toFixed(0)} px)`);
        assert.deepEqual(off, []);
      });

  test('no page error, no request to another origin', () => {
    assert.deepEqual(browser.problems, []);
  });
});

// Every element with an id: its top and height (px, the document's), and the footer's text.
const layout = (page, footer) => page.evaluate((footer) => {
  const boxes = {};
  for (const el of document.querySelectorAll('[id]')) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) boxes[el.id] = { top: Math.round(r.top + scrollY), height: Math.round(r.height) };
  }
  return { boxes, footer: document.getElementById(footer).textContent };
}, footer);

const PAGES = [
  { path: '/', footer: 'build-info', widths: [1280, 768, 375] },
  { path: '/lab.html', footer: 'lab-footer', widths: [1280, 768, 375] },
  { path: '/lab.html?opt=sgd&dk=64', footer: 'lab-footer', widths: [768] },
  { path: '/check.html', footer: 'check-footer', widths: [1280, 768, 375] },
  { path: '/check.html?preset=gemma2-27b', footer: 'check-footer', widths: [375] },
];
// What is held back until the first measure: 'later', the code the page's HTML
// does not name (its figures, loaded in turn; its workers) and every wasm
// module, so the page is as a reader on a slow machine first sees it;
// 'wasm', the modules alone, measured once every element is defined.
const HOLDS = { later: (path) => true, wasm: (path) => path === '/' };

describe('a page keeps its layout while its code and its core load', { timeout: 600_000 }, () => {
  for (const { path, footer, widths } of PAGES)
    for (const [hold, applies] of Object.entries(HOLDS))
      for (const width of applies(path) ? widths : [])
        for (const lang of LANGS)
          test(`${path}, ${width} px, ${lang}, ${hold === 'later' ? 'its later code' : 'the core'} held back: every element above the footer where it is once drawn (±2 px)`, { timeout: 90_000 }, async () => {
            const url = `${server.origin}${path}${path.includes('?') ? '&' : '?'}lang=${lang}`;
            const named = new Set([...(await (await fetch(url)).text()).matchAll(/(?:src|href)="\.\/(assets\/[^"]+\.js)"/g)].map((m) => `${server.origin}/${m[1]}`));
            const page = await browser.context.newPage();
            try {
              await page.setViewportSize({ width, height: 900 });
              const release = await holdBack(page, '**/assets/**', (u) => u.endsWith('.wasm') || (hold === 'later' && u.endsWith('.js') && !named.has(u)));
              await page.goto(url, { waitUntil: 'load' });
              if (hold === 'wasm') await page.waitForFunction((tags) => tags.every((t) => customElements.get(t)), TAGS.filter((t) => t !== 'attn-train-compare'), { timeout: 60_000 });
              await page.waitForTimeout(300);
              const before = await layout(page, footer);
              release();
              // The footer names the build that ran once the core has loaded; then what
              // follows it (the lab's first check of its form, the figures' first numbers), until still for 600 ms.
              await page.waitForFunction(([id, text]) => document.getElementById(id).textContent !== text, [footer, before.footer], { timeout: 60_000 });
              let after = await layout(page, footer);
              for (let still = 0, t0 = Date.now(); still < 600 && Date.now() - t0 < 20_000; ) {
                await page.waitForTimeout(200);
                const now = await layout(page, footer);
                still = JSON.stringify(now) === JSON.stringify(after) ? still + 200 : 0;
                after = now;
              }
              const end = before.boxes[footer].top;
              const moved = Object.entries(before.boxes)
                .filter(([id, b]) => id !== footer && b.top < end && after.boxes[id])
                .filter(([id, b]) => Math.abs(after.boxes[id].top - b.top) > 2 || Math.abs(after.boxes[id].height - b.height) > 2)
                .map(([id, b]) => `#${id}: top ${b.top} → ${after.boxes[id].top}, height ${b.height} → ${after.boxes[id].height}`);
              assert.deepEqual(moved.slice(0, 8), [], `${moved.length} elements moved or changed height`);
            } finally {
              await page.close();
            }
          });

  test('no page error, no request to another origin', () => {
    assert.deepEqual(browser.problems, []);
  });
});
