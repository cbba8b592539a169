// Browser test of the embed docs page (web/dist/embed.html) and the sample
// tutorial (web/dist/embed-example.html), after both builds (the site's, then
// vite.embed.config.js):
//   cd web && node --test --test-concurrency=1 ../tests/browser/embed-docs.test.mjs
// (a) The docs page under the site's CSP (vite preview sends it as a header):
//     every element's live example shows what the core computed (the
//     softmax-table's largest probability is checked against softmax in double
//     precision here), the attribute tables list each element's `static
//     options` (attn-saturation's dk: 1–4096), the snippets and the widgets'
//     Embed buttons name the real embed URL, both languages, no console error,
//     no CSP violation, no request off the origin.
// (b) The sample tutorial on a second origin, with the widgets' script from
//     the first (CORS on every file), under the page's own strict CSP with the
//     first origin added where its comment says: widgets render in a worker,
//     scrolling to the third step sets dk = 1024 on the saturation figure, the
//     language toggle relabels page and widgets, no request to a third origin,
//     no violation.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { WEB, launch, startPreview } from './harness.mjs';
import { serveStatic } from './static-server.mjs';

// A widget's Embed panel, opened from its first figure menu (a chart's, or the footer's
// where it has no chart): the button, then its Embed… item; resolves when the snippets are filled in.
async function openEmbed(page, tag) {
  await page.$eval(tag, (el) => el.shadowRoot.querySelector('.fig-menu').click());
  await page.waitForFunction((t) => document.querySelector(t).shadowRoot.querySelector('[data-menu="embed"]'), tag);
  await page.$eval(tag, (el) => el.shadowRoot.querySelector('[data-menu="embed"]').click());
  await page.waitForFunction((t) => document.querySelector(t).shadowRoot.querySelector('.embed-panel:not([hidden]) textarea')?.value, tag);
}

const DIST = path.join(WEB, 'dist');
const TAGS = ['attn-chain', 'attn-variance', 'attn-proof', 'attn-softmax-table', 'attn-saturation', 'attn-train-compare'];

// The seed's example row, unscaled, in double precision: softmax([14, 10, 12]).
function softmax(z) {
  const m = Math.max(...z);
  const e = z.map((x) => Math.exp(x - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}
const SEED_MAX = `${(100 * Math.max(...softmax([14, 10, 12]))).toFixed(2)}%`;

// Collects securitypolicyviolation events from the first script on (an init
// script runs before the page's own and is not subject to its CSP), and the
// widgets' attn-error events: a violation inside the core's worker (the wasm
// fetch) reaches the page only as the widget's core error.
const WATCH_CSP = () => {
  window.__csp = [];
  window.__attnErrors = [];
  document.addEventListener('securitypolicyviolation', (e) =>
    window.__csp.push(`${e.violatedDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`));
  document.addEventListener('attn-error', (e) => window.__attnErrors.push(`${e.target.localName}: ${e.detail.kind}: ${e.detail.message}`));
};

async function waitFor(page, fn, what, arg, timeout = 30_000) {
  try {
    await page.waitForFunction(fn, arg, { timeout });
  } catch (e) {
    throw new Error(`timed out waiting for ${what}: ${e.message.split('\n')[0]}`);
  }
}

const shadowText = (page, sel) => page.$eval(sel, (el) => el.shadowRoot?.textContent ?? '');

describe('the embed docs page (embed.html) under the site CSP', () => {
  let server;
  let browser;
  let page;
  const defined = [];

  before(async () => {
    server = await startPreview();
    browser = await launch(server.origin);
    page = await browser.context.newPage();
    await page.addInitScript(WATCH_CSP);
    await page.goto(`${server.origin}/embed.html?lang=en`);
    // Every element the build defines (attn-train-compare may still be a placeholder).
    await waitFor(page, () => customElements.get('attn-saturation'), 'the widgets to be defined');
    await page.waitForTimeout(500);
    defined.push(...await page.evaluate((tags) => tags.filter((t) => customElements.get(t)), TAGS));
  });

  after(async () => {
    await browser?.close();
    server?.stop();
  });

  test('the site serves it with its CSP, and the index page links to it', async () => {
    const res = await fetch(`${server.origin}/embed.html`);
    assert.match(res.headers.get('content-security-policy'), /worker-src 'self'/);
    const index = await (await fetch(`${server.origin}/`)).text();
    assert.match(index, /<a href="embed\.html" data-i18n="page\.embedLink">/);
  });

  test('every defined element shows core-computed content in its shadow root, from a worker', async (t) => {
    for (const tag of ['attn-chain', 'attn-variance', 'attn-proof', 'attn-softmax-table', 'attn-saturation'])
      assert.ok(defined.includes(tag), `${tag} is defined`);
    if (!defined.includes('attn-train-compare'))
      t.diagnostic('attn-train-compare is not defined by this build (placeholder module): its example is not checked');

    await waitFor(page, (p) => document.querySelector('attn-softmax-table')?.shadowRoot?.textContent.includes(p),
      `the softmax table to show ${SEED_MAX}`, SEED_MAX);
    await waitFor(page, () => /samples: mean -?[\d.]+/.test(document.querySelector('attn-variance').shadowRoot.textContent),
      'the variance histogram statistics');
    await waitFor(page, () => /Measured: Var\(q·k\) = [\d.]+/.test(document.querySelector('attn-proof').shadowRoot.textContent),
      'the proof grid means');
    await waitFor(page, () => /largest probability [\d.]+%/.test(document.querySelector('attn-saturation').shadowRoot.textContent),
      'the saturation row');
    assert.ok(await page.$eval('attn-chain', (el) => !!el.shadowRoot.querySelector('svg')), 'the chain diagram');
    assert.match(await shadowText(page, 'attn-saturation'), /dₖ = 256/, 'the saturation example uses its dk attribute');
    // Same-origin workers start directly under worker-src 'self'.
    for (const tag of defined) {
      // The chain computes nothing: it loads no core and has no status line.
      if (tag === 'attn-chain') {
        assert.equal(await page.$eval(tag, (el) => el.shadowRoot.querySelector('.embed-status')), null);
        continue;
      }
      await waitFor(page, (tg) => document.querySelector(tg).shadowRoot.querySelector('.embed-status')?.dataset.state === 'ready',
        `${tag}'s footer`, tag);
      assert.match(await page.$eval(tag, (el) => el.shadowRoot.querySelector('.embed-status').textContent), /in a worker/, tag);
    }
  });

  test('the attribute tables list every attribute of each element\'s static options', async () => {
    for (const tag of defined) {
      const { attrs, rows } = await page.evaluate((tg) => ({
        attrs: Object.keys(customElements.get(tg).options ?? {}),
        rows: [...document.querySelectorAll(`table[data-tag="${tg}"] tbody tr`)].map((tr) =>
          [...tr.children].map((c) => c.textContent.trim())),
      }), tag);
      assert.deepEqual(rows.map((r) => r[0]), attrs, tag);
    }
    const rows = await page.$$eval('table[data-tag="attn-saturation"] tbody tr', (trs) =>
      trs.map((tr) => [...tr.children].map((c) => c.textContent.trim())));
    const dk = rows.find((r) => r[0] === 'dk');
    assert.deepEqual(dk, ['dk', 'dk', 'integer', '64', '1–4096']);
    const variance = await page.$$eval('table[data-tag="attn-variance"] tbody th', (ths) => ths.map((th) => th.textContent));
    assert.deepEqual(variance, ['dk', 'sigma-q', 'sigma-k', 'rho', 'seed']);
  });

  test('each events line names the change event\'s detail keys, as the widget\'s state() gives them', async () => {
    for (const tag of defined.filter((tg) => tg !== 'attn-chain')) {
      const { keys, line } = await page.evaluate((tg) => {
        const el = document.querySelector(`#element-sections ${tg}`);
        return { keys: el.state ? Object.keys(el.state()) : null, line: el.closest('section').querySelector('.events').textContent };
      }, tag);
      if (keys) assert.ok(line.includes(`{${keys.join(', ')}}`), `${tag}: "${line}" names {${keys.join(', ')}}`);
    }
  });

  test('the attribute tables are in place before the widgets\' code arrives (none comes)', async () => {
    const p = await browser.context.newPage();
    try {
      await p.route('**/embed/**', (r) => r.abort());
      // ?blocked: its errors (the embed's failed loads) are this test's, not the page's problems.
      await p.goto(`${server.origin}/embed.html?lang=en&blocked`, { waitUntil: 'load' });
      await p.waitForTimeout(300);
      const counts = await p.evaluate((tags) => tags.map((tg) => [tg, customElements.get(tg) ? 'defined' : document.querySelectorAll(`table[data-tag="${tg}"] tbody tr`).length]), TAGS);
      const expected = await page.evaluate((tags) => tags.map((tg) => [tg, Object.keys(customElements.get(tg).options).length]), TAGS);
      assert.deepEqual(counts, expected.map(([tg, n]) => [tg, n]));
    } finally {
      await p.close();
      const mine = browser.problems.filter((x) => x.includes('&blocked'));
      browser.problems.splice(0, browser.problems.length, ...browser.problems.filter((x) => !mine.includes(x)));
    }
  });

  test('the snippets and the widgets\' Embed buttons name this site\'s embed URL', async () => {
    const embed = `${server.origin}/embed/attnlab.js`;
    assert.ok((await page.textContent('#snippet-script')).includes(`src="${embed}"`));
    assert.ok((await page.textContent('#snippet-resize')).includes(`if (e.origin !== '${server.origin}') return;`));
    const frame = await page.textContent('#snippet-frame');
    assert.ok(frame.includes(`${server.origin}/embed/frame.html?w=saturation&amp;dk=256`));
    // Tall enough for an 800 px column, and the one line that resizes it where scripts run.
    assert.match(frame, /height="2\d{3}"/);
    assert.ok(frame.includes(`<script>addEventListener('message', (e) => { if (e.origin === '${server.origin}' && e.data?.type === 'attnlab:resize')`), frame);
    assert.match(await page.textContent('#snippet-jupyter'), /height=2\d{3}\)/);
    assert.match(await page.textContent('#snippet-script'), /<p slot="fallback">If this text stays, the attnlab widget did not load: /);
    assert.match(await page.textContent('#snippet-csp'), new RegExp(`worker-src 'self' blob: ${server.origin}`));
    assert.equal((await fetch(embed)).status, 200, 'the URL the snippets name exists');
    // The saturation widget's Embed panel, from a chart's menu (fig-menu.js).
    // The menu's and the panel's code load on the first click.
    await openEmbed(page, 'attn-saturation');
    // The menu closed, the focus in the panel; Escape closes the panel and gives the focus back to the menu's button.
    assert.deepEqual(await page.$eval('attn-saturation', (el) => [el.shadowRoot.querySelector('.uchart .fig-menu').getAttribute('aria-expanded'),
      el.shadowRoot.activeElement?.localName]), ['false', 'textarea']);
    await page.keyboard.press('Escape');
    assert.deepEqual(await page.$eval('attn-saturation', (el) => [el.shadowRoot.querySelector('.embed-panel').hidden,
      el.shadowRoot.activeElement === el.shadowRoot.querySelector('.uchart .fig-menu')]), [true, true]);
    await openEmbed(page, 'attn-saturation');
    const script = await page.$eval('attn-saturation', (el) => el.shadowRoot.querySelector('.embed-panel textarea').value);
    assert.ok(script.includes(`src="${embed}"`), script);
    assert.match(script, /<attn-saturation dk="256" m="16" divisor="1" seed="1" lang="en">\n  <p slot="fallback">If this text stays/);
    const frameSnippet = await page.$eval('attn-saturation', (el) => el.shadowRoot.querySelectorAll('.embed-panel textarea')[1].value);
    assert.match(frameSnippet, /frame\.html\?w=saturation&amp;dk=256.*lang=en" title="[^"]+" width="100%" height="\d{4}" loading="lazy"><\/iframe>\n<script>addEventListener/);
  });

  test('when a widget does not show: every cause, its kind and sentence; the check panel reads a CSP in the widgets\' words', async () => {
    const rows = await page.$$eval('#trouble-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    assert.deepEqual([...new Set(rows.map((r) => r[0]))].sort(),
      ['connect-src', 'cors', 'file', 'mime', 'missing', 'script-src', 'unreachable', 'wasm-unsafe-eval', 'worker-src']);
    assert.ok(rows.find((r) => r[0] === 'wasm-unsafe-eval')[2].includes("add 'wasm-unsafe-eval' to script-src"));
    const heights = await page.$$eval('#frame-heights tbody tr', (trs) => trs.map((tr) => tr.children[0].textContent));
    assert.deepEqual(heights.sort(), [...TAGS].sort());
    // A CSP without the embed's origin in connect-src and without 'wasm-unsafe-eval'; this site's files, checked too.
    await page.fill('#check-csp', `default-src 'self'; script-src 'self' ${server.origin}; worker-src blob: ${server.origin}`);
    await page.click('#check-run');
    await waitFor(page, () => document.querySelectorAll('#check-out li[data-kind]').length >= 3, 'the check\'s lines');
    const lines = await page.$$eval('#check-out li[data-kind]', (lis) => lis.map((li) => [li.dataset.kind, li.textContent]));
    const kinds = lines.map((l) => l[0]);
    assert.ok(kinds.includes('wasm-unsafe-eval') && kinds.includes('connect-src'), JSON.stringify(lines));
    assert.ok(!kinds.includes('script-src') && !kinds.includes('worker-src'), JSON.stringify(lines));
    // The files a first widget loads: attnlab.js, runtime, element, a widget, the worker, the core's glue and .wasm.
    const files = lines.filter((l) => l[0] === 'ok').map((l) => l[1]);
    for (const f of [/\/embed\/attnlab\.js: there/, /runtime-[\w-]+\.js: there/, /worker-[\w-]+\.js: there/, /\.wasm: there/]) assert.ok(files.some((x) => f.test(x)), `${f}: ${files.join('\n')}`);
    assert.match(await page.textContent('#snippet-check'), new RegExp(`\\(await import\\('${server.origin}/embed/attnlab\\.js'\\)\\)\\.check\\(\\)`));
  });

  test('a change event from an example is shown under it', async () => {
    await page.$eval('attn-saturation', (el) => el.setAttribute('dk', '1024'));
    await waitFor(page, () => document.querySelector('#saturation .last-event').textContent.includes('"dk":1024'),
      'the change event line');
  });

  test('Chinese: page text, table headings and the widgets switch', async () => {
    const before = await page.textContent('h1');
    await page.selectOption('#lang-select', 'zh');
    assert.equal(await page.textContent('h1'), '嵌入这些组件');
    assert.notEqual(before, '嵌入这些组件');
    assert.equal(await page.$eval('html', (el) => el.lang), 'zh-Hans');
    assert.equal(await page.textContent('#theming-heading'), '主题');
    assert.equal(await page.$eval('table[data-tag="attn-saturation"] thead th', (th) => th.textContent), '属性');
    await waitFor(page, () => document.querySelector('attn-softmax-table').shadowRoot.textContent.includes('不缩放'),
      'the softmax table in Chinese');
    await waitFor(page, () => /Worker 内计算/.test(document.querySelector('attn-saturation').shadowRoot.querySelector('.embed-status').textContent),
      'the footer in Chinese');
    // The Embed snippet keeps the widget's language (its fallback sentence too).
    await openEmbed(page, 'attn-softmax-table');
    const zhSnippet = await page.$eval('attn-softmax-table', (el) => el.shadowRoot.querySelector('.embed-panel textarea').value);
    assert.match(zhSnippet, /lang="zh">\n  <p slot="fallback">如果这段文字一直显示/);
    await page.selectOption('#lang-select', 'en');
    assert.equal(await page.textContent('h1'), before);
  });

  test('no CSP violation, attn-error, console error or request off the origin', async () => {
    assert.deepEqual(await page.evaluate(() => window.__csp), []);
    assert.deepEqual(await page.evaluate(() => window.__attnErrors), []);
    assert.deepEqual(browser.problems, []);
  });
});

describe('the sample tutorial (embed-example.html) on a second origin', () => {
  let embed;
  let host;
  let browser;
  let page;
  const origins = new Set();

  before(async () => {
    // First origin: the built site, CORS on every file.
    embed = await serveStatic({ dir: DIST, headers: () => ({ 'Access-Control-Allow-Origin': '*' }) });
    // Second origin: the page as built, its script tag pointed at the first
    // origin and that origin added to the three directives its comment names.
    let html = fs.readFileSync(path.join(DIST, 'embed-example.html'), 'utf8');
    assert.ok(html.includes('src="./embed/attnlab.js"'));
    html = html.replace('src="./embed/attnlab.js"', `src="${embed.origin}/embed/attnlab.js"`);
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)[1];
    const added = csp.split(';').map((d) => d.trim()).map((d) =>
      (/^(script-src|connect-src|worker-src) /.test(d) ? d.replace(/^(\S+) 'self'/, `$1 'self' ${embed.origin}`) : d)).join('; ');
    assert.notEqual(added, csp);
    html = html.replace(csp, added);
    host = await serveStatic({
      pages: {
        '/embed-example.html': html,
        '/embed-example.js': fs.readFileSync(path.join(DIST, 'embed-example.js')),
        '/embed-example.css': fs.readFileSync(path.join(DIST, 'embed-example.css')),
        '/favicon.svg': fs.readFileSync(path.join(DIST, 'favicon.svg')),
      },
    });
    browser = await launch(host.origin);
    browser.context.on('request', (req) => {
      const u = new URL(req.url());
      if (!['data:', 'blob:'].includes(u.protocol)) origins.add(u.origin);
    });
    page = await browser.context.newPage();
    await page.addInitScript(WATCH_CSP);
    await page.goto(`${host.origin}/embed-example.html?lang=en`);
  });

  after(async () => {
    await browser?.close();
    await embed?.stop();
    await host?.stop();
  });

  test('the page ships a strict CSP: no unsafe-inline, no unsafe-eval, default-src none', () => {
    const html = fs.readFileSync(path.join(DIST, 'embed-example.html'), 'utf8');
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)[1];
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /'unsafe-inline'|'unsafe-eval'|\*/);
    assert.doesNotMatch(html, /<script(?![^>]*\ssrc=)/, 'no inline script');
    assert.doesNotMatch(html, /\sstyle=/, 'no style attribute');
  });

  test('the widgets render from the first origin, in a worker', async () => {
    await waitFor(page, (p) => document.querySelector('attn-softmax-table')?.shadowRoot?.textContent.includes(p),
      `the softmax table to show ${SEED_MAX}`, SEED_MAX);
    await waitFor(page, () => /samples: mean/.test(document.querySelector('attn-variance').shadowRoot.textContent), 'the variance widget');
    const sats = await page.$$('attn-saturation');
    assert.equal(sats.length, 2);
    await waitFor(page, () => [...document.querySelectorAll('attn-saturation')].every((el) =>
      /largest probability [\d.]+%/.test(el.shadowRoot?.textContent ?? '')), 'both saturation figures');
    // The fixed figure: controls="none" hides its inputs.
    const fixed = 'attn-saturation:not(#scrolly-figure)';
    assert.equal(await page.$eval(fixed, (el) => el.shadowRoot.querySelector('.attn-root').dataset.controls), 'none');
    assert.equal(await page.$eval(fixed, (el) => getComputedStyle(el.shadowRoot.querySelector('.controls')).display), 'none');
    await waitFor(page, () => document.querySelector('attn-variance').shadowRoot.querySelector('.embed-status')?.dataset.state === 'ready', 'the footer');
    assert.match(await page.$eval('attn-variance', (el) => el.shadowRoot.querySelector('.embed-status').textContent), /in a worker/);
  });

  test('scrolling to the third step sets dk = 1024, and the fourth divides by √dₖ', async () => {
    const figure = '#scrolly-figure';
    assert.equal(await page.$eval(figure, (el) => el.dk), 4);
    await page.$eval('.step:nth-child(3)', (el) => el.scrollIntoView({ block: 'center' }));
    await waitFor(page, () => document.querySelector('#scrolly-figure').getAttribute('dk') === '1024', 'the third step');
    assert.equal(await page.$eval(figure, (el) => el.dk), 1024);
    await waitFor(page, () => document.querySelector('#scrolly-figure').shadowRoot.textContent.includes('dₖ = 1024'),
      'the figure\'s row table title for dₖ = 1024');
    assert.match(await page.textContent('#scrolly-status'), /dₖ = 1024, scores divided by 1/);
    assert.ok(await page.$eval('.step:nth-child(3)', (el) => el.classList.contains('active')));
    await page.$eval('.step:nth-child(4)', (el) => el.scrollIntoView({ block: 'center' }));
    await waitFor(page, () => document.querySelector('#scrolly-figure').divisor === 'sqrt', 'the fourth step');
    assert.match(await page.textContent('#scrolly-status'), /divided by √dₖ/);
  });

  test('the language toggle relabels the page and the widgets', async () => {
    await page.click('.lang-toggle button[data-lang="zh"]');
    assert.equal(await page.textContent('h1'), '为什么要除以 √dₖ？五分钟导览');
    assert.equal(await page.$eval('attn-softmax-table', (el) => el.getAttribute('lang')), 'zh');
    await waitFor(page, () => document.querySelector('attn-softmax-table').shadowRoot.textContent.includes('不缩放'), 'the widget in Chinese');
    assert.match(page.url(), /lang=zh/);
    await page.click('.lang-toggle button[data-lang="en"]');
    assert.match(await page.textContent('h1'), /Why divide by/);
  });

  test('the docs link points next to the widgets\' script', async () => {
    assert.equal(await page.$eval('#docs-link', (a) => a.href), `${embed.origin}/embed.html`);
  });

  test('no CSP violation, no attn-error, no console error, no third origin', async () => {
    assert.deepEqual(await page.evaluate(() => window.__csp), []);
    assert.deepEqual(await page.evaluate(() => window.__attnErrors), []);
    const offOrigin = `request to another origin: ${embed.origin}/`;
    assert.deepEqual(browser.problems.filter((p) => !p.startsWith(offOrigin)), []);
    assert.deepEqual([...origins].sort(), [embed.origin, host.origin].sort());
    assert.ok(embed.requests.some((r) => r.endsWith('.wasm')), 'the wasm came from the first origin');
  });
});
