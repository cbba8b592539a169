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

const drawn = new Map(); // `${width} ${lang}` -> heights once drawn

describe('a widget keeps its height while it loads', { timeout: 300_000 }, () => {
  for (const width of [1280, 375])
    for (const lang of LANGS)
      test(`embedded, ${width} px, ${lang}: as tall before the core's numbers as after (±2 px)`, { timeout: 90_000 }, async () => {
        const page = await browser.context.newPage();
        try {
          await page.setViewportSize({ width, height: 900 });
          let release;
          const held = new Promise((r) => { release = r; });
          await page.route('**/*.wasm', async (route) => {
            await held;
            await route.continue();
          });
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
