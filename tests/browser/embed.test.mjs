// The embed (web/dist/embed), as a tutorial author meets it: web/dist/embed is
// served on one origin (with CORS), host pages on a second origin with a
// strict CSP and an aggressive stylesheet, and the widgets are placed by
// script tag and by iframe. Every number is checked against a softmax in
// plain JS or the widget's own attributes; nothing of the host may change;
// no request may go to a third origin; no CSP violation where the documented
// CSP is in place.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { WEB, launch } from './harness.mjs';
import { serveStatic } from './static-server.mjs';
import { softmax } from '../node/oracle.mjs';

const TIMEOUT = 90_000;
// The explainer's widgets, each measured alone and after another one: the
// issue's budget is 80 kB gzip for the first widget (JS + worker + wasm).
const SIZED = ['attn-softmax-table', 'attn-saturation', 'attn-variance', 'attn-proof', 'attn-chain'];
const FIRST_BUDGET = 80_000;
const FRAMED = ['chain', 'variance', 'proof', 'softmax-table', 'saturation', 'train-compare'];
const EMBED_DIR = path.join(WEB, 'dist', 'embed');
const CORS = { 'Access-Control-Allow-Origin': '*' };

const pp = (text) => Number(text.replace(/[%\s]/g, ''));

// The host's own stylesheet: as rude as a real blog theme can be.
const HOST_CSS = `* { font: 40px serif !important; color: red; }
div { padding: 30px; }
body { margin: 7px; background: rgb(250, 240, 230); }
h1 { letter-spacing: 3px; }
#col { width: 300px; padding: 0; }`;

/** The CSP the docs give a host: script and worker from the embed origin, wasm allowed. */
const hostCsp = (embed, { worker = true, wasm = true } = {}) => [
  "default-src 'self'",
  `script-src 'self' ${embed}${wasm ? " 'wasm-unsafe-eval'" : ''}`,
  "style-src 'self'",
  `connect-src 'self' ${embed}`,
  "img-src 'self' data:",
  ...(worker ? [`worker-src blob: ${embed}`] : []),
  `frame-src ${embed}`,
  "object-src 'none'",
  "base-uri 'none'",
].join('; ');

function hostPage({ csp, body, scripts = [], lang = 'en', title = 'A host tutorial' }) {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
${csp ? `<meta http-equiv="Content-Security-Policy" content="${csp}">` : ''}
<title>${title}</title>
<link rel="stylesheet" href="/host.css">
<script src="/watch.js"></script>
${scripts.map((s) => `<script type="module" src="${s}"></script>`).join('\n')}
</head>
<body><h1 id="title">Host heading</h1><div id="intro">Host text</div>
${body}
</body></html>`;
}

// Loaded first by every host page: records what the test asserts about.
const WATCH_JS = `window.__violations = [];
window.__errors = [];
window.__changes = [];
document.addEventListener('securitypolicyviolation', (e) => __violations.push(e.violatedDirective + ' ' + e.blockedURI));
document.addEventListener('attn-error', (e) => __errors.push({ tag: e.target.localName, id: e.target.id, ...e.detail }));
document.addEventListener('change', (e) => { if (e.target.localName?.startsWith('attn-')) __changes.push({ id: e.target.id, ...e.detail }); });
window.__frames = [];
window.addEventListener('message', (e) => {
  if (e.origin !== window.__embedOrigin) return;  // the documented check
  __frames.push(e.data);
  const f = document.querySelector('iframe');
  if (e.data?.type === 'attnlab:resize' && f) f.style.height = e.data.height + 'px';
});`;

let embed;      // web/dist/embed with CORS
let broken;     // the same, with the wasm missing
let host;       // host pages
let ctx;
const pages = {};
const allRequests = [];

async function open(pathname, { wait = true } = {}) {
  const page = await ctx.context.newPage();
  page.on('request', (r) => allRequests.push(r.url()));
  await page.addInitScript((o) => { window.__embedOrigin = o; }, embed.origin);
  await page.goto(host.origin + pathname);
  if (wait) await page.waitForLoadState('load');
  return page;
}

/** Wait until fn (run in the page) returns a truthy value; returns it. */
async function until(page, fn, arg, what, timeout = 30_000) {
  try {
    return await (await page.waitForFunction(fn, arg, { timeout })).jsonValue();
  } catch (e) {
    throw new Error(`timed out waiting for ${what}: ${e.message.split('\n')[0]}`);
  }
}

// In-page helpers (passed as strings' bodies through evaluate).
const shadowText = (page, sel) => page.$eval(sel, (el) => el.shadowRoot?.textContent ?? '');

describe('the embed on another origin', () => {
  before(async () => {
    assert.ok(fs.existsSync(path.join(EMBED_DIR, 'attnlab.js')), 'web/dist/embed/attnlab.js: run scripts/build.sh first');
    embed = await serveStatic({ dir: EMBED_DIR, headers: () => CORS });
    broken = await serveStatic({ dir: EMBED_DIR, headers: () => CORS, missing: (p) => p.endsWith('.wasm') });
    const E = embed.origin;
    const all = `<attn-softmax-table id="table"></attn-softmax-table>
<attn-saturation id="sat" dk="256" divisor="sqrt" m="16"></attn-saturation>
<attn-saturation id="sat2" dk="16" divisor="dk" m="8" seed="3"></attn-saturation>
<attn-variance id="var" dk="8"></attn-variance>
<attn-proof id="proof" dk="2" step="4"></attn-proof>
<attn-chain id="chain"></attn-chain>`;
    Object.assign(pages, {
      '/host.css': HOST_CSS,
      '/watch.js': WATCH_JS,
      '/control.html': hostPage({ csp: hostCsp(E), body: '', scripts: [`${E}/attnlab.js`] }),
      '/all.html': hostPage({ csp: hostCsp(E), body: all, scripts: [`${E}/attnlab.js`] }),
      '/early.js': `document.querySelector('#early').dk = 512; document.querySelector('#early').theme = 'dark';`,
      '/early.html': hostPage({ csp: hostCsp(E), body: '<attn-saturation id="early"></attn-saturation>', scripts: ['/early.js', `${E}/attnlab.js`] }),
      '/twice.html': hostPage({ csp: hostCsp(E), body: '<attn-softmax-table id="table"></attn-softmax-table>',
        scripts: [`${E}/attnlab.js`, `${E}/attnlab.js?v=2`, `${E}/attnlab.js`] }),
      '/noworker.html': hostPage({ csp: hostCsp(E, { worker: false }), body: '<attn-softmax-table id="table"></attn-softmax-table><attn-saturation id="sat" dk="64"></attn-saturation>', scripts: [`${E}/attnlab.js`] }),
      '/nowasm.html': hostPage({ csp: hostCsp(E, { wasm: false }), body: '<attn-softmax-table id="table"></attn-softmax-table><attn-saturation id="sat" dk="64"></attn-saturation>', scripts: [`${E}/attnlab.js`] }),
      '/missing.html': hostPage({ csp: hostCsp(broken.origin), body: '<attn-softmax-table id="table"></attn-softmax-table><attn-saturation id="sat" dk="64"></attn-saturation>', scripts: [`${broken.origin}/attnlab.js`] }),
      '/bad.html': hostPage({ csp: hostCsp(E), body: `<attn-saturation id="abc" dk="abc"></attn-saturation>
<attn-saturation id="zero" dk="0"></attn-saturation><attn-saturation id="div0" divisor="0"></attn-saturation>`, scripts: [`${E}/attnlab.js`] }),
      '/lang.html': hostPage({ csp: hostCsp(E), lang: 'zh-CN', body: '<attn-softmax-table id="zh"></attn-softmax-table><attn-softmax-table id="en" lang="en" theme="dark"></attn-softmax-table>', scripts: [`${E}/attnlab.js`] }),
      // A narrow column on a wide screen: each widget takes the layout of its own width.
      '/narrow.html': hostPage({ csp: hostCsp(E), body: `<div id="col">${all}</div>`, scripts: [`${E}/attnlab.js`] }),
      '/frame.html': hostPage({ csp: hostCsp(E), body: `<iframe id="f" title="widget" src="${E}/frame.html?w=saturation&dk=256&div=1&lang=zh&theme=dark&controls=none" width="600" height="150"></iframe>` }),
      '/frame-bad.html': hostPage({ csp: hostCsp(E), body: `<iframe id="f" title="widget" src="${E}/frame.html?w=nope" width="600" height="150"></iframe>` }),
    });
    for (const tag of SIZED) {
      pages[`/size-${tag}.html`] = hostPage({ csp: hostCsp(E), body: `<${tag} id="w"></${tag}>`, scripts: [`${E}/attnlab.js`] });
      pages[`/size-plus-${tag}.html`] = hostPage({ csp: hostCsp(E), body: `<attn-softmax-table id="first"></attn-softmax-table><${tag} id="w"></${tag}>`, scripts: [`${E}/attnlab.js`] });
    }
    for (const w of FRAMED)
      pages[`/frame-${w}.html`] = hostPage({ csp: hostCsp(E), body: `<iframe id="f" title="widget" src="${E}/frame.html?w=${w}&dk=4&lang=en" width="700" height="150"></iframe>` });
    host = await serveStatic({ pages });
    // The header-CSP case: the page cannot see its CSP, so the worker is tried, fails, and the core falls back.
    const headerHost = hostPage({ csp: null, body: '<attn-softmax-table id="table"></attn-softmax-table>', scripts: [`${E}/attnlab.js`] });
    pages['/header-csp.html'] = headerHost;
    ctx = await launch(host.origin);
  });

  after(async () => {
    await ctx?.close();
    await embed?.stop();
    await broken?.stop();
    await host?.stop();
  });

  test('every widget by script tag: numbers from the core, attributes live, copies independent, host untouched', { timeout: TIMEOUT }, async () => {
    const control = await open('/control.html');
    const hostStyle = () => ({
      title: document.title,
      body: (({ margin, backgroundColor, fontSize, color }) => ({ margin, backgroundColor, fontSize, color }))(getComputedStyle(document.body)),
      h1: (({ letterSpacing, fontSize, fontFamily }) => ({ letterSpacing, fontSize, fontFamily }))(getComputedStyle(document.querySelector('h1'))),
      sheets: document.styleSheets.length,
      adopted: document.adoptedStyleSheets.length,
      head: document.head.children.length,
    });
    const before_ = await control.evaluate(hostStyle);
    await control.close();

    const page = await open('/all.html');
    // The seed's example, from the core, in the table alternative.
    await until(page, () => document.querySelector('#table')?.shadowRoot?.querySelector('[data-row="ex0-unscaled"] .prob'), null, 'the softmax table');
    const probs = await until(page, () => {
      const t = [...document.querySelector('#table').shadowRoot.querySelectorAll('[data-row="ex0-scaled"] .prob')].map((e) => e.textContent);
      return t.length === 3 && t.every((x) => /\d/.test(x)) ? t : null;
    }, null, 'scaled probabilities');
    softmax([14, 10, 12], 8).forEach((p, i) => assert.ok(Math.abs(pp(probs[i]) - 100 * p) <= 0.01, `${probs[i]} vs ${100 * p}`));

    // Saturation: the table alternative names the widget's own attributes.
    const rowTitle = (id) => page.$eval(`#${id}`, (el) => el.shadowRoot.querySelector('.table-title')?.textContent ?? '');
    await until(page, () => /dₖ = 256/.test(document.querySelector('#sat').shadowRoot.querySelector('.table-title')?.textContent), null, 'sat row');
    await until(page, () => /dₖ = 16, m = 8, divisor 16, random seed 3/.test(document.querySelector('#sat2').shadowRoot.querySelector('.table-title')?.textContent), null, 'sat2 row');
    // The probabilities of the sampled row against a JS softmax of its own scores.
    const rows = await page.$eval('#sat', (el) => {
      const d = el.shadowRoot.querySelector('.data-details');
      d.open = true;
      d.dispatchEvent(new Event('toggle'));
      return [...el.shadowRoot.querySelectorAll('.data-details tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent));
    });
    assert.equal(rows.length, 16);
    const scores = rows.map((r) => Number(r[1]));
    softmax(scores, 16).forEach((p, i) => assert.ok(Math.abs(pp(rows[i][4]) - 100 * p) <= 0.02 + 1e-3 * 100 * p, `row ${i}: ${rows[i][4]} vs ${100 * p}`));

    // An attribute change updates the widget and fires change; the other copy stays.
    await page.$eval('#sat', (el) => el.setAttribute('dk', '1024'));
    await until(page, () => /dₖ = 1024/.test(document.querySelector('#sat').shadowRoot.querySelector('.table-title')?.textContent), null, 'dk 1024');
    assert.equal(await page.$eval('#sat', (el) => el.dk), 1024);
    await page.$eval('#sat', (el) => { el.divisor = 'dk'; });
    await until(page, () => /divisor 1024/.test(document.querySelector('#sat').shadowRoot.querySelector('.table-title')?.textContent), null, 'divisor dk');
    assert.match(await rowTitle('sat2'), /dₖ = 16, m = 8, divisor 16, random seed 3/);
    const changes = await page.evaluate(() => window.__changes.filter((c) => c.id === 'sat'));
    assert.ok(changes.some((c) => c.dk === 1024 && c.divisor === 'dk'), JSON.stringify(changes));

    // Variance and proof computed; the chain drawn.
    await until(page, () => document.querySelector('#var').shadowRoot.querySelector('[data-theory-var]')?.dataset.theoryVar === '8', null, 'variance readout');
    assert.equal(await page.$eval('#proof', (el) => el.shadowRoot.querySelectorAll('td.cell').length), 4);
    assert.equal(await page.$eval('#chain', (el) => el.shadowRoot.querySelectorAll('svg').length >= 1), true);
    // The chain's links never change the host's URL (#proof is the host's anchor, not ours).
    assert.equal(await page.$eval('#chain', (el) => el.shadowRoot.querySelectorAll('a[href^="#"], a[*|href^="#"]').length), 0);

    // The footer says where the core runs.
    const status = await until(page, () => {
      const s = document.querySelector('#table').shadowRoot.querySelector('.embed-status');
      return s?.dataset.state === 'ready' ? s.textContent : null;
    }, null, 'footer status');
    assert.match(status, /in a worker/);

    // Isolation: the host's title and styles, no ids of ours in the host document,
    // no style tags or attributes in the shadow roots, the host's CSS kept out.
    assert.deepEqual(await page.evaluate(hostStyle), before_);
    const ids = await page.$$eval('[id]', (els) => els.filter((e) => e.getRootNode() === document).map((e) => e.id));
    assert.equal(new Set(ids).size, ids.length, `duplicate ids in the host: ${ids}`);
    assert.deepEqual(ids.sort(), ['chain', 'intro', 'proof', 'sat', 'sat2', 'table', 'title', 'var'].sort());
    const inside = await page.$eval('#sat', (el) => {
      const root = el.shadowRoot;
      const cs = getComputedStyle(root.querySelector('.attn-root'));
      const label = getComputedStyle(root.querySelector('label'));
      return {
        styleTags: root.querySelectorAll('style, link').length,
        styleAttrs: [...root.querySelectorAll('[style]')].filter((e) => !e.matches('.fill, .bar, svg *, .bars *')).length,
        adopted: root.adoptedStyleSheets.length,
        font: cs.fontSize, color: cs.color, labelFont: label.fontSize, divPadding: getComputedStyle(root.querySelector('div.controls')).paddingTop,
      };
    });
    assert.equal(inside.styleTags, 0);
    assert.ok(inside.adopted >= 1);
    assert.equal(inside.font, '16px');
    assert.notEqual(inside.color, 'rgb(255, 0, 0)');
    assert.notEqual(inside.labelFont, '40px');
    assert.notEqual(inside.divPadding, '30px');

    assert.deepEqual(await page.evaluate(() => window.__violations), []);
    assert.deepEqual(await page.evaluate(() => window.__errors), []);
    await page.screenshot({ path: path.join(WEB, '..', 'tests', 'browser', 'artifacts', 'embed-all.png'), fullPage: true });
    await page.close();
  });

  test('properties a host sets before the code has loaded are kept; a removed widget stops computing', { timeout: TIMEOUT }, async () => {
    const page = await open('/early.html');
    await until(page, () => /dₖ = 512/.test(document.querySelector('#early').shadowRoot?.querySelector('.table-title')?.textContent), null, 'dk 512');
    assert.equal(await page.$eval('#early', (el) => [el.dk, el.getAttribute('dk'), el.shadowRoot.querySelector('.attn-root').dataset.theme].join()), '512,512,dark');
    // Removed mid-sweep: no more core calls for it.
    await page.$eval('#early', (el) => { window.__kept = el; el.remove(); });
    await page.waitForTimeout(300);
    const sweep = await page.evaluate(() => window.__kept.shadowRoot.querySelector('.progress').textContent);
    await page.waitForTimeout(800);
    assert.equal(await page.evaluate(() => window.__kept.shadowRoot.querySelector('.progress').textContent), sweep, 'the sweep went on off the page');
    await page.close();
  });

  test('in a 300 px column of a wide page every widget fits its column, in its narrow layout', { timeout: TIMEOUT }, async () => {
    const page = await open('/narrow.html');
    await page.setViewportSize({ width: 1280, height: 900 });
    await until(page, () => /\d/.test(document.querySelector('#table')?.shadowRoot?.querySelector('[data-row="ex0-unscaled"] .prob')?.textContent ?? ''), null, 'the table');
    await until(page, () => document.querySelector('#chain')?.shadowRoot?.querySelector('.chain-list li'), null, 'the chain');
    const fit = await page.evaluate(() => [...document.querySelectorAll('#col > *')].map((el) => {
      const box = el.shadowRoot.querySelector('.attn-root');
      return { id: el.id, width: el.getBoundingClientRect().width, scroll: box.scrollWidth, client: box.clientWidth,
        page: document.documentElement.scrollWidth };
    }));
    for (const f of fit) {
      assert.ok(f.width <= 300.5, `${f.id} is ${f.width} px wide in a 300 px column`);
      assert.ok(f.scroll <= f.client + 1, `${f.id}: content ${f.scroll} px in ${f.client} px`);
    }
    assert.ok(fit[0].page <= 1280, 'the page does not scroll sideways');
    // The chain's flowchart and its text stack in one column (chain.css's narrow layout, as a container query).
    const cols = await page.$eval('#chain', (el) => getComputedStyle(el.shadowRoot.querySelector('.chain-layout')).gridTemplateColumns.split(' ').length);
    assert.equal(cols, 1);
    await page.close();
  });

  test('loading the script twice (and a second URL of it) is harmless', { timeout: TIMEOUT }, async () => {
    const page = await open('/twice.html');
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await until(page, () => /\d/.test(document.querySelector('#table')?.shadowRoot?.querySelector('[data-row="ex0-unscaled"] .prob')?.textContent ?? ''), null, 'the table');
    assert.equal(await page.$$eval('attn-softmax-table', (els) => els.length), 1);
    assert.deepEqual(errors, []);
    assert.deepEqual(await page.evaluate(() => window.__violations), []);
    await page.close();
  });

  test('without worker-src the core runs on the main thread, says so, and computes', { timeout: TIMEOUT }, async () => {
    for (const p of ['/noworker.html', '/header-csp.html']) {
      const page = await open(p);
      const probs = await until(page, () => {
        const t = [...(document.querySelector('#table')?.shadowRoot?.querySelectorAll('[data-row="ex0-unscaled"] .prob') ?? [])].map((e) => e.textContent);
        return t.length === 3 && t.every((x) => /\d/.test(x)) ? t : null;
      }, null, `${p}: the table`);
      softmax([14, 10, 12]).forEach((q, i) => assert.ok(Math.abs(pp(probs[i]) - 100 * q) <= 0.01));
      const status = await page.$eval('#table', (el) => el.shadowRoot.querySelector('.embed-status').textContent);
      if (p === '/noworker.html') {
        assert.match(status, /main thread/);
        // The page's <meta> CSP forbids blob: workers: we do not even try (no violation).
        assert.deepEqual(await page.evaluate(() => window.__violations), []);
        await until(page, () => /dₖ = 64/.test(document.querySelector('#sat').shadowRoot.querySelector('.table-title')?.textContent), null, 'sat on the main thread');
      } else {
        assert.match(status, /worker|main thread/);
      }
      await page.close();
    }
  });

  test('a core that cannot load (wasm 404, CSP without wasm-unsafe-eval): its cause in the widget and an attn-error event of that kind', { timeout: TIMEOUT }, async () => {
    // Every other cause: embed-setup.test.mjs.
    for (const [p, kind, re] of [['/missing.html', 'missing', /\.wasm is not on the server \(HTTP 404\)/], ['/nowasm.html', 'wasm-unsafe-eval', /'wasm-unsafe-eval' to script-src/]]) {
      const page = await open(p);
      const status = await until(page, () => {
        const s = document.querySelector('#table')?.shadowRoot?.querySelector('.embed-status');
        return s?.dataset.state === 'failed' && !/Loading/.test(s.textContent) ? s.textContent : null;
      }, null, `${p}: the failure`);
      assert.match(status, re);
      const errors = await until(page, () => window.__errors.length >= 2 && window.__errors, null, 'attn-error events');
      assert.ok(errors.every((e) => e.kind === kind && re.test(e.message) && e.fatal === true), JSON.stringify(errors));
      // Not blamed on a field: the d_k field of the saturation widget has no error.
      assert.equal(await page.$eval('#sat', (el) => el.shadowRoot.querySelector('input[aria-invalid="true"]')), null);
      await page.close();
    }
  });

  test('bad attributes: a message in the widget, an attn-error event, the default used', { timeout: TIMEOUT }, async () => {
    const page = await open('/bad.html');
    const errors = await until(page, () => window.__errors.length >= 3 && window.__errors, null, 'three attn-error events');
    assert.deepEqual(errors.map((e) => [e.id, e.kind, e.attribute, e.value]).sort(),
      [['abc', 'attribute', 'dk', 'abc'], ['div0', 'attribute', 'divisor', '0'], ['zero', 'attribute', 'dk', '0']]);
    for (const [id, re] of [['abc', /dk="abc".*whole number from 1 to 4096/], ['zero', /dk="0"/], ['div0', /divisor="0".*above 0/]]) {
      const msg = await page.$eval(`#${id}`, (el) => el.shadowRoot.querySelector('.attr-error')?.textContent ?? '');
      assert.match(msg, re);
    }
    // The widget still works, with its default d_k.
    await until(page, () => /dₖ = 64/.test(document.querySelector('#abc').shadowRoot.querySelector('.table-title')?.textContent), null, 'default dk');
    // A good value later clears the message.
    await page.$eval('#abc', (el) => el.setAttribute('dk', '32'));
    await until(page, () => !document.querySelector('#abc').shadowRoot.querySelector('.attr-error'), null, 'message cleared');
    await page.close();
  });

  test('lang and theme attributes: the host\'s <html lang> by default, each widget its own', { timeout: TIMEOUT }, async () => {
    const page = await open('/lang.html');
    await until(page, () => /\d/.test(document.querySelector('#zh')?.shadowRoot?.querySelector('[data-row="ex0-unscaled"] .prob')?.textContent ?? ''), null, 'zh table');
    assert.match(await shadowText(page, '#zh'), /例 1/);
    await until(page, () => /Example/.test(document.querySelector('#en').shadowRoot.textContent), null, 'en table');
    assert.doesNotMatch(await shadowText(page, '#en'), /例 1/);
    const bg = await page.$eval('#en', (el) => getComputedStyle(el.shadowRoot.querySelector('.attn-root')).backgroundColor);
    const [r, g, b] = bg.match(/\d+/g).map(Number);
    assert.ok(r + g + b < 150, `dark theme background ${bg}`);
    await page.$eval('#en', (el) => el.setAttribute('lang', 'zh'));
    await until(page, () => /例 1/.test(document.querySelector('#en').shadowRoot.textContent), null, 'relabelled');
    await page.close();
  });

  test('iframe: one widget with its options, reports its height, grows with its content; an unknown widget says so', { timeout: TIMEOUT }, async () => {
    const page = await open('/frame.html');
    const first = await until(page, () => {
      const r = window.__frames.filter((m) => m.type === 'attnlab:resize');
      return r.length && r.at(-1).height > 200 ? r.at(-1).height : null;
    }, null, 'a resize message');
    const frame = page.frameLocator('#f');
    await until(page, () => parseFloat(document.querySelector('#f').style.height) > 200, null, 'the iframe resized');
    const text = await frame.locator('attn-saturation').evaluate((el) => el.shadowRoot.textContent);
    assert.match(text, /除以/);  // lang=zh
    assert.equal(await frame.locator('attn-saturation').evaluate((el) => el.shadowRoot.querySelector('.attn-root').dataset.theme), 'dark');
    assert.equal(await frame.locator('attn-saturation').evaluate((el) => getComputedStyle(el.shadowRoot.querySelector('.controls')).display), 'none');
    await frame.locator('attn-saturation').evaluate((el) => new Promise((resolve) => {
      const wait = () => (/256/.test(el.shadowRoot.querySelector('.table-title')?.textContent) ? resolve() : setTimeout(wait, 50));
      wait();
    }));
    // Open the table alternative: the frame grows and tells the host.
    await frame.locator('attn-saturation').evaluate((el) => {
      const d = el.shadowRoot.querySelector('.data-details');
      d.open = true;
    });
    await until(page, (h) => window.__frames.some((m) => m.type === 'attnlab:resize' && m.height > h + 100), first, 'a larger height');
    await until(page, (h) => parseFloat(document.querySelector('#f').style.height) > h + 100, first, 'the iframe grew');
    assert.deepEqual(await page.evaluate(() => window.__violations), []);
    await page.close();

    const bad = await open('/frame-bad.html');
    const err = await until(bad, () => window.__frames.find((m) => m.type === 'attnlab:error'), null, 'the error message');
    assert.match(err.message, /no widget “nope”.*saturation/);
    assert.match(await bad.frameLocator('#f').locator('[role=alert]').textContent(), /nope/);
    await bad.close();
  });

  test('what a host pays: gzip bytes of the first widget and of each further one (measured and reported)', { timeout: 4 * TIMEOUT }, async () => {
    const gz = (p) => zlib.gzipSync(fs.readFileSync(path.join(EMBED_DIR, p)), { level: 9 }).length;
    const timing = new Map();
    const measure = async (pathname) => {
      const from = embed.requests.length;
      const t0 = Date.now();
      const page = await open(pathname);
      // Ready: the core answered (the chain, which computes nothing, is drawn).
      await until(page, () => {
        const els = [...document.querySelectorAll('[id]')].filter((e) => e.localName.startsWith('attn-'));
        return els.length > 0 && els.every((e) => e.shadowRoot?.querySelector('.embed-status')?.dataset.state === 'ready'
          || (e.localName === 'attn-chain' && e.shadowRoot?.querySelector('.chain-list li')));
      }, null, `${pathname}: ready`);
      // What the reader waits for: from navigation to the core's first answer in the widget.
      timing.set(pathname, Date.now() - t0);
      await page.waitForTimeout(300);
      const files = [...new Set(embed.requests.slice(from).map((u) => u.split('?')[0]))];
      await page.close();
      return new Map(files.map((f) => [f, gz(f)]));
    };
    const kB = (n) => `${(n / 1000).toFixed(1)} kB`;
    const sum = (m) => [...m.values()].reduce((a, b) => a + b, 0);
    console.log('# embed: what a host page downloads (gzip -9), first widget alone / after attn-softmax-table');
    const base = await measure('/size-attn-softmax-table.html');
    for (const tag of SIZED) {
      const alone = tag === 'attn-softmax-table' ? base : await measure(`/size-${tag}.html`);
      const withFirst = await measure(`/size-plus-${tag}.html`);
      const further = sum(withFirst) - sum(base);
      console.log(`#   ${tag.padEnd(20)} first ${kB(sum(alone)).padStart(9)} (${sum(alone)} B)   further ${tag === 'attn-softmax-table' ? '       —' : kB(further).padStart(9)}`
        + `   ready after ${timing.get(`/size-${tag}.html`)} ms (local servers, cache off)`);
      for (const [f, n] of [...alone].sort((a, b) => b[1] - a[1]).filter(([, n]) => n >= 500)) console.log(`#       ${f.padEnd(48)} ${kB(n)}`);
      // The chain computes nothing: no core, no worker (issue 34).
      if (tag === 'attn-chain') assert.ok(![...alone.keys()].some((f) => f.endsWith('.wasm') || /\/worker-/.test(f)), `${tag}: no core loaded`);
      else assert.ok([...alone.keys()].some((f) => f.endsWith('.wasm')), `${tag}: the wasm is counted`);
      assert.ok(![...alone.keys()].some((f) => /attnlab_(lab|check|bench)_/.test(f)), `${tag}: only the explainer's core`);
      assert.ok(sum(alone) <= FIRST_BUDGET, `${tag}: the first widget costs ${sum(alone)} bytes gzip (budget ${FIRST_BUDGET})`);
    }
  });

  test('iframe: every widget, computed by the core, sized by its messages', { timeout: 2 * TIMEOUT }, async () => {
    for (const w of FRAMED) {
      const page = await open(`/frame-${w}.html`);
      await until(page, () => parseFloat(document.querySelector('#f').style.height) > 150, null, `${w}: resized`);
      const state = await page.frameLocator('#f').locator(`attn-${w}`).evaluate((el) => new Promise((resolve) => {
        const look = () => {
          const s = el.shadowRoot?.querySelector('.embed-status');
          if (s?.dataset.state === 'ready' || el.shadowRoot?.querySelector('.chain-list li')) resolve({ status: s?.textContent ?? null, dk: el.dk ?? null });
          else setTimeout(look, 50);
        };
        look();
      }));
      // The chain computes nothing, so it has no core to report on.
      if (w === 'chain') assert.equal(state.status, null);
      else assert.match(state.status, /in a worker/, w);
      if (w !== 'chain') assert.ok(state.dk === 4 || state.dk === '4', `${w}: dk=${state.dk}`);
      assert.deepEqual(await page.evaluate(() => window.__violations), [], w);
      await page.close();
    }
  });

  test('no request left the two origins; no page error', { timeout: TIMEOUT }, async () => {
    const origins = new Set([host.origin, embed.origin, broken.origin]);
    const stray = allRequests.filter((u) => !/^(data|blob):/.test(u) && !origins.has(new URL(u).origin));
    assert.deepEqual(stray, []);
    // ctx.problems counts requests to the embed origins as foreign (harness is one-origin); keep the rest.
    const problems = ctx.problems.filter((p) => !/request to another origin: http:\/\/127\.0\.0\.1:\d+\//.test(p) || ![...origins].some((o) => p.includes(o)))
      .filter((p) => !/Failed to load resource.*404|Refused to compile or instantiate WebAssembly|wasm-unsafe-eval|Content Security Policy/.test(p));
    assert.deepEqual(problems, []);
  });
});
