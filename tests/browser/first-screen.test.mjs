// Browser test of the first screens: the explainer's (web/src/pages/explainer/hero.js, index.html's
// .intro): a live figure, a control and a drawn chart inside the first viewport
// at 1280×800 and 375×700, in both languages; its numbers are the core's and
// agree with a plain-JS softmax; and with JavaScript off the page still shows
// its prose, the chain's diagram and the proof's formulas. The lab's: its
// Start on a phone's first screen.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, startPreview } from './harness.mjs';
import { softmax } from '../node/oracle.mjs';

const TIMEOUT = 60_000;
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

/** The figure's numbers once the core has drawn them: {dk, rows: {unscaled, scaled}: [{p, score, height}]}. */
async function heroState(page) {
  await page.waitForFunction(() => {
    const fig = document.getElementById('hero');
    return fig && !fig.classList.contains('is-stale') && fig.dataset.dk;
  }, null, { timeout: 20_000 });
  return page.evaluate(() => ({
    dk: document.getElementById('hero-dk-out').textContent,
    note: document.getElementById('hero-note').textContent,
    rows: Object.fromEntries(['unscaled', 'scaled'].map((key) => {
      const row = document.querySelector(`#hero [data-row="${key}"]`);
      return [key, {
        title: row.querySelector('.chart-title').textContent,
        cols: [...row.querySelectorAll('.hero-col')].map((c) => ({
          p: c.querySelector('.hero-p').textContent,
          score: c.querySelector('.hero-s').textContent,
          height: c.querySelector('.fill').getBoundingClientRect().height,
          bar: c.querySelector('.bar').clientHeight, // the fill's 100%: inside the axis line
        })),
      }];
    })),
  }));
}

// "86.68%" -> 0.8668; "<0.01%" -> anything below 0.0001 (format.js percent).
const pct = (s) => (s.startsWith('<') ? 0 : Number(s.replace(/[^\d.]/g, '')) / 100);

describe('the first screen', { timeout: TIMEOUT * 14 }, () => {
  for (const [width, height] of [[1280, 800], [375, 700]]) {
    for (const lang of ['en', 'zh']) {
      test(`${width}×${height} ${lang}: a control and a drawn chart in the first viewport`, { timeout: TIMEOUT }, async () => {
        const page = await browser.context.newPage();
        await page.setViewportSize({ width, height });
        await page.goto(`${server.origin}/?lang=${lang}`);
        await heroState(page);
        const boxes = await page.evaluate(() => {
          const focusable = [...document.querySelectorAll('main input, main button, main select, main textarea, #hero input')]
            .filter((el) => el.getClientRects().length);
          const first = focusable.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)[0];
          const box = (el) => { const r = el.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
          return {
            control: first.id, controlBox: box(first),
            chart: box(document.querySelector('#hero .hero-rows')),
            filled: [...document.querySelectorAll('#hero .fill')].filter((f) => f.getBoundingClientRect().height >= 1).length,
          };
        });
        assert.equal(boxes.control, 'hero-dk', 'the first control is the figure’s d_k slider');
        for (const [what, b] of [['control', boxes.controlBox], ['chart', boxes.chart]]) {
          assert.ok(b.top >= 0 && b.bottom <= height && b.left >= 0 && b.right <= width,
            `${what} at ${JSON.stringify(b)} is not inside the ${width}×${height} viewport`);
        }
        assert.equal(boxes.filled, 6, 'six bars are drawn');
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
        assert.ok(overflow <= 0, `the page is ${overflow} px wider than the screen`);
        await page.close();
      });
    }
  }

  test('the figure opens on the seed’s 14, 10, 12 at d_k = 64; the slider grows the row, √d_k keeps it', { timeout: TIMEOUT }, async () => {
    const page = await browser.context.newPage();
    await page.goto(`${server.origin}/?lang=en`);
    let s = await heroState(page);
    assert.equal(s.dk, 'dₖ = 64');
    assert.deepEqual(s.rows.unscaled.cols.map((c) => c.score), ['14', '10', '12']);
    assert.match(s.rows.scaled.title, /√dₖ = 8\b/);
    const check = (row, scores, divisor) => {
      const want = softmax(scores, divisor);
      row.cols.forEach((c, j) => {
        if (c.p.startsWith('<')) assert.ok(want[j] < 0.0001, `p${j} ${c.p} vs ${want[j]}`);
        else assert.ok(Math.abs(pct(c.p) - want[j]) <= 0.00005 + 1e-12, `p${j} ${c.p} vs ${want[j]}`);
        assert.ok(Math.abs(c.height / c.bar - want[j]) < 0.02, `bar ${j} height ${c.height}/${c.bar} vs ${want[j]}`);
      });
    };
    check(s.rows.unscaled, [14, 10, 12], 1);
    check(s.rows.scaled, [14, 10, 12], 8);
    // The seed's worked numbers, as the article prints them.
    assert.deepEqual(s.rows.unscaled.cols.map((c) => c.p), ['86.68%', '1.59%', '11.73%']);
    assert.deepEqual(s.rows.scaled.cols.map((c) => c.p), ['41.92%', '25.43%', '32.65%']);
    assert.match(s.note, /14, 10, 12/);

    // By keyboard: End takes d_k to 4096, where the row is 8× the seed's.
    await page.focus('#hero-dk');
    await page.keyboard.press('End');
    await page.waitForFunction(() => document.getElementById('hero-dk-out').textContent === 'dₖ = 4096');
    s = await heroState(page);
    assert.deepEqual(s.rows.unscaled.cols.map((c) => c.score), ['112', '80', '96']);
    check(s.rows.unscaled, [112, 80, 96], 1);
    check(s.rows.scaled, [112, 80, 96], 64);
    assert.equal(s.rows.scaled.cols.map((c) => c.p).join(), '41.92%,25.43%,32.65%', 'divided by √d_k the row does not change');
    assert.equal(s.rows.unscaled.cols[0].p, '100.00%');
    assert.match(s.note, /dₖ = 4096/);

    // Home: d_k = 1, the row is an eighth of the seed's, softmax spread out either way.
    await page.keyboard.press('Home');
    await page.waitForFunction(() => document.getElementById('hero-dk-out').textContent === 'dₖ = 1');
    s = await heroState(page);
    check(s.rows.unscaled, [1.75, 1.25, 1.5], 1);
    check(s.rows.scaled, [1.75, 1.25, 1.5], 1);
    await page.close();
  });

  test('in Chinese the figure speaks Chinese', { timeout: TIMEOUT }, async () => {
    const page = await browser.context.newPage();
    await page.goto(`${server.origin}/?lang=zh`);
    const s = await heroState(page);
    assert.match(s.rows.unscaled.title, /不缩放/);
    assert.match(s.rows.scaled.title, /除以 √dₖ = 8/);
    assert.match(s.note, /原文/);
    const caption = await page.textContent('#hero-caption');
    assert.match(caption, /调节/);
    await page.close();
  });

  test('with JavaScript off: the prose, the chain’s diagram and the proof’s formulas show; the figure hides', { timeout: TIMEOUT }, async () => {
    const nojs = await launch(server.origin, { javaScriptEnabled: false });
    try {
      const page = await nojs.context.newPage();
      await page.goto(`${server.origin}/`);
      const seen = await page.evaluate(() => {
        const visible = (el) => Boolean(el && el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden');
        return {
          title: document.querySelector('h1').textContent,
          lede: document.querySelector('.lede').textContent,
          headings: [...document.querySelectorAll('main h2')].map((h) => h.textContent.trim()),
          intros: [...document.querySelectorAll('main section > p[data-i18n]')].filter((p) => visible(p) && p.textContent.length > 40).length,
          svg: visible(document.querySelector('.static-chain svg')),
          svgLinks: document.querySelectorAll('.static-chain svg a').length,
          math: [...document.querySelectorAll('.static-formula math')].filter(visible).length,
          hero: visible(document.getElementById('hero')),
          toc: [...document.querySelectorAll('.toc a')].map((a) => a.textContent),
        };
      });
      assert.match(seen.title, /√dₖ/);
      assert.match(seen.lede, /dot product/);
      // The argument's six numbered sections, then what real models divide by, after it.
      assert.equal(seen.headings.length, 7);
      assert.deepEqual(seen.headings.slice(0, 6).map((h) => h[0]), ['1', '2', '3', '4', '5', '6']);
      for (const h of seen.headings) assert.ok(h.length > 3, `heading "${h}" is empty`);
      assert.ok(seen.intros >= 8, `only ${seen.intros} paragraphs of prose show`);
      assert.ok(seen.svg, 'the chain’s diagram shows');
      assert.ok(seen.svgLinks >= 5, 'its nodes link to the sections');
      assert.equal(seen.math, 7, 'the proof’s seven formulas show as MathML');
      assert.equal(seen.hero, false, 'the live figure, which needs scripts, is hidden');
      assert.equal(seen.toc.length, 6);
      await page.close();
      assert.deepEqual(nojs.problems, []);
    } finally {
      await nojs.close();
    }
  });

  for (const lang of ['en', 'zh']) {
    test(`the lab at 375×700 (${lang}): Start is on the first screen, with its settings in a line, and starts the comparison`, { timeout: TIMEOUT }, async () => {
      const page = await browser.context.newPage();
      await page.setViewportSize({ width: 375, height: 700 });
      await page.goto(`${server.origin}/lab.html?lang=${lang}&dk=64&steps=40&div=sqrt,1`);
      const quick = page.locator('#lab-quick-start');
      await quick.waitFor();
      const box = await quick.boundingBox();
      assert.ok(box.y >= 0 && box.y + box.height <= 700 && box.x + box.width <= 375, `Start at ${JSON.stringify(box)}`);
      const what = await page.textContent('#lab-quick-what');
      assert.match(what, /dₖ = 64/);
      assert.match(what, lang === 'en' ? /√dₖ, 1 \(no scaling\); Adam, 40 steps/ : /√dₖ、1（不缩放）；Adam，40 步/);
      assert.match(await quick.textContent(), lang === 'en' ? /Start the comparison/ : /开始比较/);
      // A change in the form shows at once in the line.
      await page.fill('#lab-steps', '30');
      assert.match(await page.textContent('#lab-quick-what'), /30/);
      await quick.click();
      await page.waitForFunction(() => ['running', 'done'].includes(document.getElementById('lab-status').dataset.state), null, { timeout: 30_000 });
      await page.waitForFunction(() => document.getElementById('lab-status').dataset.state === 'done', null, { timeout: 60_000 });
      const top = await page.evaluate(() => document.getElementById('lab-curves').getBoundingClientRect().top);
      assert.ok(top < 700, `after Start the curves are in view (top ${top})`);
      await page.close();
    });
  }

  test('the built HTML already holds the figure at d_k = 64, computed by the native core', async () => {
    const html = await (await fetch(`${server.origin}/index.html`)).text();
    const text = (key) => new RegExp(`data-hero="${key.replace('.', '\\.')}">([^<]*)<`).exec(html)?.[1];
    const want = { unscaled: softmax([14, 10, 12], 1), scaled: softmax([14, 10, 12], 8) };
    for (const key of ['unscaled', 'scaled'])
      want[key].forEach((p, j) => assert.ok(Math.abs(pct(text(`${key}.p${j}`)) - p) <= 0.00005 + 1e-12, `${key}.p${j}: ${text(`${key}.p${j}`)}`));
    assert.equal(text('scaled.title'), 'Divided by √dₖ = 8');
    assert.match(text('note'), /^At dₖ = 64 these are the seed’s scores 14, 10, 12/);
  });

  for (const [width, height] of [[375, 700], [1280, 800]]) {
    test(`${width}×${height}: nothing moves while the pages load (cumulative layout shift, English)`, { timeout: TIMEOUT }, async () => {
      for (const name of ['index.html', 'lab.html', 'check.html', 'bench.html']) {
        const page = await browser.context.newPage();
        await page.setViewportSize({ width, height });
        await page.addInitScript(() => {
          window.__shifts = [];
          new PerformanceObserver((list) => {
            for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts.push(e.value);
          }).observe({ type: 'layout-shift', buffered: true });
        });
        await page.goto(`${server.origin}/${name}?lang=en`);
        if (name === 'index.html') await heroState(page);
        await page.waitForTimeout(1500);
        const cls = await page.evaluate(() => window.__shifts.reduce((a, b) => a + b, 0));
        assert.ok(cls < 0.02, `${name}: cumulative layout shift ${cls.toFixed(4)}`);
        await page.close();
      }
    });
  }

  test('no console error, page error or request to another origin', () => {
    assert.deepEqual(browser.problems, []);
  });
});
