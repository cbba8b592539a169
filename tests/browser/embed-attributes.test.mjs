// Every attribute of every embedded element is checked (issue 34, part 3):
// a value a widget cannot use (each option's, and lang, theme, controls) and
// an attribute it does not have get the same treatment as dk="abc": a message
// in the widget and an attn-error event {kind: 'attribute', attribute, value},
// whether the attribute is in the markup or set later. HTML's global
// attributes and frameworks' markers are not reported. A widget without a
// lang of its own follows a change of <html lang>; a self-closing tag
// (<attn-chain />, which HTML does not have) gives back the page content it
// swallowed, with a word in the console; fallback content stays inside.
//
//   node --test tests/browser/embed-attributes.test.mjs   (after scripts/build.sh)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { WEB, launch } from './harness.mjs';
import { gotoEmbedPage, serveStatic } from './static-server.mjs';

const TIMEOUT = 90_000;
const EMBED_DIR = path.join(WEB, 'dist', 'embed');
const TAGS = ['attn-chain', 'attn-variance', 'attn-proof', 'attn-softmax-table', 'attn-saturation', 'attn-train-compare'];

const csp = (E) => [
  "default-src 'self'", `script-src 'self' ${E} 'wasm-unsafe-eval'`, "style-src 'self'",
  `connect-src 'self' ${E}`, `worker-src blob: ${E}`, "img-src 'self' data:",
].join('; ');

const WATCH_JS = `window.__errors = [];
window.__warnings = [];
document.addEventListener('attn-error', (e) => __errors.push({ tag: e.target.localName, id: e.target.id, ...e.detail }));
const warn = console.warn;
console.warn = (...a) => { __warnings.push(a.join(' ')); warn.apply(console, a); };`;

const page = (E, body, lang = 'en') => `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp(E)}"><title>attributes</title>
<script src="/watch.js"></script><script type="module" src="${E}/attnlab.js"></script></head>
<body><h1>Host</h1>
${body}
</body></html>`;

describe('every attribute of every element is checked', () => {
  let embed;
  let host;
  let ctx;

  before(async () => {
    assert.ok(fs.existsSync(path.join(EMBED_DIR, 'attnlab.js')), 'web/dist/embed/attnlab.js: run scripts/build.sh first');
    embed = await serveStatic({ dir: EMBED_DIR, headers: () => ({ 'Access-Control-Allow-Origin': '*' }) });
    const E = embed.origin;
    host = await serveStatic({ pages: {
      '/watch.js': WATCH_JS,
      '/empty.html': page(E, ''),
      '/lang.html': page(E, '<attn-softmax-table id="follow"></attn-softmax-table><attn-softmax-table id="own" lang="en"></attn-softmax-table>'),
      // A Markdown author's JSX habit: the rest of the page goes into the chain.
      '/self-closing.html': page(E, `<attn-variance id="var"><p slot="fallback" id="fb">If this text stays, …</p></attn-variance>
<attn-chain id="chain" />
<p id="next">The next paragraph.</p>
<attn-softmax-table id="table"></attn-softmax-table>`),
    } });
    ctx = await launch(host.origin);
  });

  after(async () => {
    await ctx?.close();
    await embed?.stop();
    await host?.stop();
  });

  async function open(p) {
    const pg = await ctx.context.newPage();
    await gotoEmbedPage(pg, host.origin + p);
    await pg.waitForFunction(() => window.__errors !== undefined);
    return pg;
  }

  // In the page: a value each attribute cannot take, from the element's own option specs.
  const BAD = `(cls) => {
    const bad = { lang: 'fr', theme: 'blue', controls: 'no' };
    for (const [attr, { spec }] of Object.entries(cls.options)) {
      bad[attr] = spec.type === 'text' ? 'x'.repeat((spec.max ?? 200) + 1)
        : { int: 'abc', number: 'abc', positive: '-1', enum: 'nope', divisor: '0', list: 'nope' }[spec.type];
    }
    return bad;
  }`;

  test('in the markup and set later: each bad value and unknown attribute is a message and an attn-error; global ones are not', { timeout: TIMEOUT }, async () => {
    const pg = await open('/empty.html');
    // Load every widget's code, then read what each takes.
    const plan = await pg.evaluate(async ({ tags, bad }) => {
      const badOf = eval(bad);
      for (const tag of tags) document.body.append(document.createElement(tag));
      await Promise.all(tags.map((t) => customElements.whenDefined(t)));
      for (const el of [...document.body.querySelectorAll(tags.join(','))]) el.remove();
      return Object.fromEntries(tags.map((tag) => [tag, badOf(customElements.get(tag))]));
    }, { tags: TAGS, bad: BAD });
    for (const tag of TAGS) assert.ok(Object.keys(plan[tag]).length >= 3, `${tag}: ${JSON.stringify(plan[tag])}`);
    console.log(`# attributes checked: ${TAGS.map((t) => `${t} ${Object.keys(plan[t]).join(" ")}`).join("; ")}`);
    // Every attribute has a bad value (no spec type left without one).
    for (const [tag, attrs] of Object.entries(plan)) for (const [a, v] of Object.entries(attrs)) assert.equal(typeof v, 'string', `${tag} ${a}`);

    // (1) In the markup: one element per tag with every bad value, an unknown
    // attribute and the global ones, created before it connects.
    await pg.evaluate(({ tags, plan }) => {
      window.__errors.length = 0;
      for (const tag of tags) {
        const el = document.createElement(tag);
        el.id = `m-${tag}`;
        for (const [a, v] of Object.entries(plan[tag])) el.setAttribute(a, v);
        el.setAttribute('colour', 'red');
        for (const [a, v] of [['tabindex', '-1'], ['title', 'x'], ['data-step', '2'], ['aria-label', 'a figure'], ['_ngcontent-ng-c1', ''], ['part', 'fig'], ['hidden', '']]) el.setAttribute(a, v);
        el.removeAttribute('hidden');
        document.body.append(el);
      }
    }, { tags: TAGS, plan });
    const expected = TAGS.flatMap((tag) => [...Object.keys(plan[tag]), 'colour'].map((a) => `m-${tag} ${a}`)).sort();
    await pg.waitForFunction((n) => new Set(window.__errors.filter((e) => e.kind === 'attribute').map((e) => `${e.id} ${e.attribute}`)).size >= n,
      expected.length, { timeout: 30_000 }).catch(() => {});
    const seen = await pg.evaluate(() => window.__errors);
    assert.deepEqual([...new Set(seen.filter((e) => e.kind === 'attribute').map((e) => `${e.id} ${e.attribute}`))].sort(), expected);
    for (const e of seen) assert.equal(e.kind, 'attribute', JSON.stringify(e));
    // The message in each widget names the attribute and its value.
    const shown = await pg.evaluate((tags) => Object.fromEntries(tags.map((tag) => [tag,
      [...document.getElementById(`m-${tag}`).shadowRoot.querySelectorAll('.attr-error')].map((p) => p.textContent)])), TAGS);
    for (const tag of TAGS) {
      for (const [a, v] of Object.entries(plan[tag]))
        assert.ok(shown[tag].some((m) => m.includes(`${a}="${v.slice(0, 40)}"`)), `${tag}: no message for ${a}: ${shown[tag].join(' | ')}`);
      assert.ok(shown[tag].some((m) => /has no attribute colour="red", so it is ignored: it takes .*lang, theme, controls/.test(m)), `${tag}: unknown attribute`);
    }
    // The defaults are used: English (the page's), the auto theme, the controls shown.
    const look = await pg.evaluate(() => {
      const el = document.getElementById('m-attn-saturation');
      const box = el.shadowRoot.querySelector('.attn-root');
      return { theme: box.dataset.theme, controls: box.dataset.controls, text: el.shadowRoot.textContent };
    });
    assert.deepEqual([look.theme, look.controls], ['auto', 'all']);
    assert.match(look.text, /The attribute lang="fr" cannot be used: it must be en or zh/);

    // (2) Set later, one at a time, on fresh elements: the same event for each.
    const later = await pg.evaluate(async ({ tags, plan }) => {
      const out = [];
      for (const tag of tags) {
        const el = document.createElement(tag);
        el.id = `l-${tag}`;
        document.body.append(el);
        await new Promise((r) => setTimeout(r, 50));
        for (const [a, v] of Object.entries(plan[tag])) {
          const before = window.__errors.length;
          el.setAttribute(a, v);
          const t0 = performance.now();
          while (!window.__errors.slice(before).some((e) => e.id === el.id && e.attribute === a) && performance.now() - t0 < 3000)
            await new Promise((r) => setTimeout(r, 20));
          const ev = window.__errors.slice(before).find((e) => e.id === el.id && e.attribute === a);
          out.push([tag, a, ev ? ev.kind : null, ev ? ev.value === v : false,
            [...el.shadowRoot.querySelectorAll('.attr-error')].some((p) => p.textContent.includes(`${a}="`))]);
        }
      }
      return out;
    }, { tags: TAGS, plan });
    for (const [tag, a, kind, value, shownNow] of later) {
      assert.equal(kind, 'attribute', `${tag} ${a} set later: no event`);
      assert.ok(value, `${tag} ${a}: the event's value`);
      assert.ok(shownNow, `${tag} ${a}: no message in the widget`);
    }
    // An unknown attribute set later (no attributeChangedCallback for it): the same message and event; removed, its message goes.
    const unknownLater = await pg.evaluate(async (tags) => {
      const out = [];
      for (const tag of tags) {
        const el = document.getElementById(`l-${tag}`);
        const before = window.__errors.length;
        el.setAttribute('colour', 'red');
        const t0 = performance.now();
        while (!window.__errors.slice(before).some((e) => e.id === el.id && e.attribute === 'colour') && performance.now() - t0 < 3000)
          await new Promise((r) => setTimeout(r, 20));
        const ev = window.__errors.slice(before).find((e) => e.id === el.id && e.attribute === 'colour');
        const shown = () => [...el.shadowRoot.querySelectorAll('.attr-error')].some((p) => /colour="red"/.test(p.textContent));
        const shownNow = shown();
        el.removeAttribute('colour');
        await new Promise((r) => setTimeout(r, 50));
        out.push([tag, ev?.kind ?? null, shownNow, shown()]);
      }
      return out;
    }, TAGS);
    for (const [tag, kind, shownNow, shownAfter] of unknownLater) {
      assert.equal(kind, 'attribute', `${tag}: colour="red" set later: no event`);
      assert.ok(shownNow, `${tag}: colour="red" set later: no message`);
      assert.ok(!shownAfter, `${tag}: colour removed, its message stays`);
    }
    // A good value clears its message.
    const cleared = await pg.evaluate(async () => {
      const el = document.getElementById('l-attn-saturation');
      el.setAttribute('theme', 'dark');
      el.setAttribute('lang', 'zh');
      await new Promise((r) => setTimeout(r, 100));
      return [...el.shadowRoot.querySelectorAll('.attr-error')].map((p) => p.textContent).join(' | ');
    });
    assert.doesNotMatch(cleared, /theme=|lang=/);
    await pg.close();
  });

  test('a change of <html lang> is followed by widgets without a lang of their own', { timeout: TIMEOUT }, async () => {
    const pg = await open('/lang.html');
    await pg.waitForFunction(() => /Example/.test(document.querySelector('#follow')?.shadowRoot?.textContent ?? ''), null, { timeout: 30_000 });
    await pg.evaluate(() => { document.documentElement.lang = 'zh-CN'; });
    await pg.waitForFunction(() => /例 1/.test(document.querySelector('#follow').shadowRoot.textContent), null, { timeout: 10_000 });
    assert.doesNotMatch(await pg.$eval('#own', (el) => el.shadowRoot.textContent), /例 1/);
    await pg.evaluate(() => { document.documentElement.lang = 'en'; });
    await pg.waitForFunction(() => !/例 1/.test(document.querySelector('#follow').shadowRoot.textContent), null, { timeout: 10_000 });
    assert.deepEqual(await pg.evaluate(() => window.__errors), []);
    await pg.close();
  });

  test('<attn-chain /> gives back the page content it swallowed and says so in the console; fallback content stays', { timeout: TIMEOUT }, async () => {
    const pg = await open('/self-closing.html');
    await pg.waitForFunction(() => document.querySelector('#next')?.parentElement === document.body
      && /\d/.test(document.querySelector('#table')?.shadowRoot?.querySelector('[data-row="ex0-unscaled"] .prob')?.textContent ?? ''), null, { timeout: 30_000 });
    const layout = await pg.evaluate(() => ({
      order: [...document.body.children].map((e) => e.id || e.localName),
      chainKids: document.querySelector('#chain').children.length,
      fallbackIn: document.querySelector('#fb').parentElement.id,
      nextShown: document.querySelector('#next').getBoundingClientRect().height > 0,
      warnings: window.__warnings,
    }));
    assert.deepEqual(layout.order.filter((x) => ['var', 'chain', 'next', 'table'].includes(x)), ['var', 'chain', 'next', 'table']);
    assert.equal(layout.chainKids, 0);
    assert.equal(layout.fallbackIn, 'var');
    assert.ok(layout.nextShown);
    assert.ok(layout.warnings.some((w) => /<attn-chain> held page content.*<attn-chain><\/attn-chain>, not <attn-chain \/>/.test(w)), layout.warnings.join('\n'));
    assert.equal(layout.warnings.filter((w) => /held page content/.test(w)).length, 1);
    await pg.close();
  });
});
