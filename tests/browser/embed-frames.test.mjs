// Iframes that fit (issue 34, part 2): each widget in embed/frame.html, in an
// iframe 800 and 375 px wide, as tall as the Embed panel's snippet makes it
// (widgets/frame-heights.js), in English and Chinese: once its core has
// answered and it has drawn, the frame has no scrollbar, down or across. The
// snippet's one-line listener sizes the iframe to the height the frame
// reports. w takes the element's name too (w=attn-saturation). And a chart's
// exported SVG takes in the labels that reach past its box (issue 34, part 5:
// the variance histogram's "20,000" lost its left part).
//
//   node --test tests/browser/embed-frames.test.mjs   (after scripts/build.sh)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { WEB, launch } from './harness.mjs';
import { gotoEmbedPage, serveStatic } from './static-server.mjs';
import { FRAME_HEIGHTS, frameHeight, resizeListener } from '../../web/src/widgets/frame-heights.js';

const TIMEOUT = 120_000;
const EMBED_DIR = path.join(WEB, 'dist', 'embed');
const TAGS = Object.keys(FRAME_HEIGHTS);
const WIDTHS = [800, 375];

describe('each widget in an iframe of the snippet\'s height: no scrollbar', () => {
  let embed;
  let host;
  let ctx;

  before(async () => {
    assert.ok(fs.existsSync(path.join(EMBED_DIR, 'frame.html')), 'web/dist/embed/frame.html: run scripts/build.sh first');
    embed = await serveStatic({ dir: EMBED_DIR, headers: () => ({ 'Access-Control-Allow-Origin': '*' }) });
    const pages = {};
    for (const tag of TAGS)
      for (const lang of ['en', 'zh']) {
        // Half by the short name, half by the element's.
        const w = lang === 'en' ? tag : tag.slice(5);
        pages[`/${tag}-${lang}.html`] = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>frame</title></head>
<body><iframe id="f" title="widget" src="${embed.origin}/frame.html?w=${w}&lang=${lang}" width="800" height="${frameHeight(tag, 800)}"></iframe></body></html>`;
      }
    pages['/chart.html'] = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>chart</title>
<script type="module" src="${embed.origin}/attnlab.js"></script></head><body><attn-variance id="v"></attn-variance></body></html>`;
    pages['/listener.html'] = `<!doctype html><html><head><meta charset="utf-8"><title>listener</title></head><body>
<iframe id="f" title="widget" src="${embed.origin}/frame.html?w=saturation" width="100%" height="${frameHeight('attn-saturation', 800)}"></iframe>
${resizeListener(embed.origin)}
<script>window.__heights = []; addEventListener('message', (e) => { if (e.data?.type === 'attnlab:resize') __heights.push(e.data.height); });</script></body></html>`;
    host = await serveStatic({ pages });
    ctx = await launch(host.origin, { viewport: { width: 1000, height: 800 } });
  });

  after(async () => {
    await ctx?.close();
    await embed?.stop();
    await host?.stop();
  });

  // In the frame: the widget's core has answered (the chain: drawn), and its height has held still for 400 ms.
  async function settle(frame, tag) {
    await frame.waitForFunction((t) => {
      const r = document.querySelector(t)?.shadowRoot;
      return r?.querySelector('.embed-status')?.dataset.state === 'ready' || (t === 'attn-chain' && r?.querySelector('.chain-list li'));
    }, tag, { timeout: 30_000 });
    let last = -1;
    for (let i = 0; i < 40; i++) {
      const h = await frame.evaluate(() => document.documentElement.getBoundingClientRect().height);
      if (h === last) break;
      last = h;
      await new Promise((r) => setTimeout(r, 400));
    }
  }

  test('at 800 and 375 px, en and zh: the content fits the snippet\'s height and width', { timeout: TIMEOUT }, async () => {
    const misfits = [];
    const measured = {};
    // English and Chinese side by side (two pages at a time), widget after widget.
    for (const tag of TAGS) {
      await Promise.all(['en', 'zh'].map(async (lang) => {
        const page = await ctx.context.newPage();
        await gotoEmbedPage(page, `${host.origin}/${tag}-${lang}.html`);
        const frame = await (await page.waitForSelector('#f')).contentFrame();
        for (const width of WIDTHS) {
          await page.evaluate(([w, h]) => Object.assign(document.getElementById('f'), { width: w, height: h }), [width, frameHeight(tag, width)]);
          await settle(frame, tag);
          // The content's own height (scrollHeight is at least the frame's), and whether it scrolls.
          const m = await frame.evaluate(() => ({
            content: Math.ceil(document.documentElement.getBoundingClientRect().height),
            height: document.documentElement.scrollHeight, inner: innerHeight,
            width: document.documentElement.scrollWidth, innerWidth,
          }));
          (measured[tag] ??= {})[width] = Math.max(measured[tag][width] ?? 0, m.content);
          if (m.height > m.inner || m.content > m.inner || m.width > m.innerWidth)
            misfits.push(`${tag} ${lang} at ${width} px: content ${m.width}×${m.content} in ${m.innerWidth}×${m.inner}`);
        }
        await page.close();
      }));
    }
    console.log(`# frame content heights (px, the larger of en and zh): ${TAGS.map((t) => `${t} ${WIDTHS.map((w) => `${w}:${measured[t][w]}`).join(' ')}`).join('; ')}`);
    assert.deepEqual(misfits, [], 'outgrown: update widgets/frame-heights.js');
  });

  test('the snippet\'s one-line listener sizes the iframe to the height the frame reports', { timeout: TIMEOUT }, async () => {
    const page = await ctx.context.newPage();
    await gotoEmbedPage(page, `${host.origin}/listener.html`);
    const frame = await (await page.waitForSelector('#f')).contentFrame();
    await settle(frame, 'attn-saturation');
    await page.waitForTimeout(300);
    const { attr, last, doc } = await page.evaluate(async () => ({
      attr: Number(document.getElementById('f').height), last: window.__heights.at(-1),
      doc: null,
    }));
    const inner = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    assert.equal(attr, last);
    assert.equal(last, inner, `${doc}`);
    // Opening the table alternative grows the frame, and the iframe with it.
    await frame.evaluate(() => { document.querySelector('attn-saturation').shadowRoot.querySelector('.data-details').open = true; });
    await page.waitForFunction((h) => Number(document.getElementById('f').height) > h + 100, attr, { timeout: 10_000 });
    await page.close();
  });

  test('an exported SVG takes in an axis label that reaches past the chart\'s box', { timeout: TIMEOUT }, async () => {
    const page = await ctx.context.newPage();
    await gotoEmbedPage(page, `${host.origin}/chart.html`);
    await page.waitForFunction(() => document.querySelector('#v')?.shadowRoot?.querySelector('#var-hist-chart svg text'), null, { timeout: 30_000 });
    // The histogram stops streaming (its labels would be drawn again under the test's feet).
    await page.evaluate(() => document.querySelector('#v').stopWork());
    await page.waitForTimeout(300);
    const exportNow = (wide) => Promise.all([page.waitForEvent('download'), page.evaluate(async (w) => {
      const fig = document.querySelector('#v').shadowRoot.querySelector('#var-hist-chart');
      // The histogram's top count in a font wider than the margin the chart
      // reckons for it (7 px a character): right-aligned at the axis, it starts
      // left of the box.
      if (w) {
        const label = fig.querySelector('svg text[text-anchor="end"]');
        const copy = label.cloneNode();
        copy.textContent = '20,000';
        copy.setAttribute('x', '24');
        label.after(copy);
      }
      // From the chart's menu (its list loads on the first open).
      const item = () => fig.querySelector('[data-export="svg"]');
      fig.querySelector('.fig-menu').click();
      while (!item()) await new Promise((r) => setTimeout(r, 20));
      item().click();
    }, wide)]);
    await exportNow(false);  // the export's code is loaded now
    const [dl] = await exportNow(true);
    const text = fs.readFileSync(await dl.path(), 'utf8');
    // Every text of the picture inside its viewBox, drawn where the page would draw it.
    const out = await page.evaluate((t) => {
      const svg = new DOMParser().parseFromString(t, 'image/svg+xml').documentElement;
      const box = document.body.appendChild(document.createElement('div'));
      box.append(svg);
      const [vx, vy, vw, vh] = svg.getAttribute('viewBox').split(/\s+/).map(Number);
      const outside = [...svg.querySelectorAll('text')].map((el) => ({ text: el.textContent, b: el.getBBox() }))
        .filter(({ b }) => b.x < vx - 0.5 || b.y < vy - 0.5 || b.x + b.width > vx + vw + 0.5 || b.y + b.height > vy + vh + 0.5)
        .map(({ text, b }) => `${text} at ${[b.x, b.y, b.width, b.height].map(Math.round)}`);
      box.remove();
      return { outside, viewBox: [vx, vy, vw, vh], wide: t.includes('20,000') };
    }, text);
    assert.ok(out.wide);
    assert.ok(out.viewBox[0] < 0, `the picture starts left of the chart: ${out.viewBox}`);
    assert.deepEqual(out.outside, [], `viewBox ${out.viewBox}`);
    await page.close();
  });
});
