// What a tutorial author is told when the embed is set up wrong (issue 34):
// web/dist/embed served from a second origin without CORS, with CORS on
// attnlab.js alone, on everything but the worker or the .wasm, with the .wasm
// missing or sent with another MIME type; host pages whose CSP lacks
// connect-src, worker-src (as a header, which the page cannot read) or
// 'wasm-unsafe-eval'; a page opened from file://. Each widget of each page
// says the real cause in its own language (one widget is lang="zh"), once,
// never under the author's inputs, and the host hears an attn-error event of
// that kind. Where nothing of ours can run (no CORS on attnlab.js), the
// fallback content the snippets put inside each element says it.
//
//   node --test tests/browser/embed-setup.test.mjs   (after scripts/build.sh)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { WEB, launch } from './harness.mjs';
import { gotoEmbedPage, serveStatic } from './static-server.mjs';

const TIMEOUT = 60_000;
const EMBED_DIR = path.join(WEB, 'dist', 'embed');
const CORS = { 'Access-Control-Allow-Origin': '*' };
const TAGS = ['attn-softmax-table', 'attn-saturation', 'attn-variance', 'attn-proof', 'attn-chain', 'attn-train-compare'];
// Fallback content as the Embed panel writes it (embed-panel.js), in each element.
const FALLBACK = (src) => `<p slot="fallback">If this text stays, the widget did not load: ${src} must be served with Access-Control-Allow-Origin.</p>`;

// The host's CSP, as the docs give it, with one directive left out.
const csp = (E, leave = '') => [
  "default-src 'self'",
  `script-src 'self' ${E}${leave === 'wasm' ? '' : " 'wasm-unsafe-eval'"}`,
  "style-src 'self'",
  `connect-src 'self'${leave === 'connect' ? '' : ` ${E}`}`,
  ...(leave === 'worker' ? [] : [`worker-src blob: ${E}`]),
  "img-src 'self' data:",
].join('; ');

const WATCH_JS = `window.__errors = [];
document.addEventListener('attn-error', (e) => __errors.push({ tag: e.target.localName, ...e.detail }));`;

function page(src, { meta = null } = {}) {
  const widgets = TAGS.map((tag) => `<${tag}${tag === 'attn-softmax-table' ? ' lang="zh"' : ''}>${FALLBACK(src)}</${tag}>`).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
${meta ? `<meta http-equiv="Content-Security-Policy" content="${meta}">` : ''}
<title>setup</title><script src="/watch.js"></script><script type="module" src="${src}"></script></head>
<body><h1>A host tutorial</h1>
${widgets}
<p id="after">The end.</p></body></html>`;
}

// What each widget shows: its status line, or the message that replaced it, or (nothing of ours ran) its fallback.
const shown = () => Object.fromEntries([...document.body.children]
  .filter((el) => el.localName.startsWith('attn-'))
  .map((el) => {
    const r = el.shadowRoot;
    const status = r?.querySelector('.embed-status');
    return [el.localName, {
      status: status?.textContent ?? null, state: status?.dataset.state ?? null,
      alert: r?.querySelector('[role=alert]:not(.msg)')?.textContent ?? null,
      fallback: r ? null : el.textContent.trim(),
      invalid: r ? r.querySelectorAll('[aria-invalid="true"]').length : 0,
      msgs: r ? [...r.querySelectorAll('.msg')].map((m) => m.textContent).filter(Boolean) : [],
      chain: !!r?.querySelector('.chain-list li'),
    }];
  }));

describe('the embed set up wrong: each widget names the real cause', () => {
  const servers = {};
  let host;
  let ctx;
  let tmp;
  const pages = { '/watch.js': WATCH_JS };
  const headers = {};

  before(async () => {
    assert.ok(fs.existsSync(path.join(EMBED_DIR, 'attnlab.js')), 'web/dist/embed/attnlab.js: run scripts/build.sh first');
    const serve = (opts) => serveStatic({ dir: EMBED_DIR, ...opts });
    servers.ok = await serve({ headers: () => CORS });
    servers.nocors = await serve({});
    servers.scriptOnly = await serve({ headers: (p) => (p === '/attnlab.js' ? CORS : {}) });
    servers.workerNoCors = await serve({ headers: (p) => (/\/worker-[^/]*\.js$/.test(p) ? {} : CORS) });
    servers.wasmNoCors = await serve({ headers: (p) => (p.endsWith('.wasm') ? {} : CORS) });
    servers.wasmMime = await serve({ headers: (p) => (p.endsWith('.wasm') ? { ...CORS, 'Content-Type': 'application/octet-stream' } : CORS) });
    servers.wasmMissing = await serve({ headers: () => CORS, missing: (p) => p.endsWith('.wasm') });
    // A server that gets one file's type wrong: the widgets' own chunks go out as text/plain.
    servers.jsMime = await serve({ headers: (p) => (p.startsWith('/assets/attn-') && p.endsWith('.js') ? { ...CORS, 'Content-Type': 'text/plain' } : CORS) });
    const E = servers.ok.origin;
    const src = (s) => `${servers[s].origin}/attnlab.js`;
    Object.assign(pages, {
      '/nocors.html': page(src('nocors')),
      '/script-only.html': page(src('scriptOnly')),
      '/worker-cors.html': page(src('workerNoCors')),
      '/wasm-cors.html': page(src('wasmNoCors')),
      '/wasm-mime.html': page(src('wasmMime')),
      '/wasm-missing.html': page(src('wasmMissing')),
      '/js-mime.html': page(src('jsMime')),
      '/connect.html': page(src('ok'), { meta: csp(E, 'connect') }),
      '/wasm-eval.html': page(src('ok'), { meta: csp(E, 'wasm') }),
      // Sent as a header: the page cannot read it, so the worker is tried, and refused.
      '/worker-src.html': page(src('ok')),
    });
    headers['/worker-src.html'] = { 'Content-Security-Policy': csp(E, 'worker') };
    host = await serveStatic({ pages, headers: (p) => headers[p] ?? {} });
    // The same page opened as a file, its script from the embed's origin (with CORS).
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-file-'));
    fs.writeFileSync(path.join(tmp, 'watch.js'), WATCH_JS);
    fs.writeFileSync(path.join(tmp, 'page.html'), page(src('ok')).replace('src="/watch.js"', 'src="./watch.js"'));
    ctx = await launch(host.origin);
  });

  after(async () => {
    await ctx?.close();
    for (const s of Object.values(servers)) await s.stop();
    await host?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  /**
   * Open `url`, wait until each of `tags` has fired attn-error (the chain,
   * when not among them, has drawn itself), and return what each widget shows
   * and the events.
   */
  async function visit(url, tags) {
    const p = await ctx.context.newPage();
    // Requests still open when a page does not settle (said in the failure).
    const open = new Map();
    p.on('request', (r) => open.set(r, Date.now()));
    p.on('requestfinished', (r) => open.delete(r));
    p.on('requestfailed', (r) => { open.delete(r); failed.push(`${r.url()}: ${r.failure()?.errorText}`); });
    const failed = [];
    const consoleErrors = [];
    p.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text().slice(0, 300)); });
    await gotoEmbedPage(p, url);
    try {
      await p.waitForFunction((want) => {
        const heard = new Set(window.__errors.map((e) => e.tag));
        return want.every((t) => heard.has(t))
          && (want.includes('attn-chain') || !!document.querySelector('attn-chain')?.shadowRoot?.querySelector('.chain-list li'));
      }, tags, { timeout: 30_000 });
    } catch {
      const now = await p.evaluate(shown).catch(() => null);
      const errors = await p.evaluate(() => window.__errors).catch(() => null);
      await p.close();
      const pending = [...open].map(([r, t0]) => `${r.url()} (${Date.now() - t0} ms)`);
      const served = Object.fromEntries(Object.entries(servers).map(([k, v]) => [k, v.requests.slice(-3)]));
      throw new Error(`${url}: not every widget spoke: ${JSON.stringify({ now, errors, pending, failed, consoleErrors, served }, null, 1)}`);
    }
    await p.waitForTimeout(300);  // a second event would arrive now
    const result = { shown: await p.evaluate(shown), errors: await p.evaluate(() => window.__errors) };
    await p.close();
    return result;
  }

  const COMPUTING = TAGS.filter((t) => t !== 'attn-chain');
  // Every computing widget, attn-train-compare too (the lab's core reports it through its pool's init).
  const MIME_TAGS = COMPUTING;

  // Each of `tags` shows `re` (`zh` for the lang="zh" one) once, and fires one attn-error of `kind` with that message.
  function check(r, { kind, re, zh, fatal, file, where = 'status', tags = COMPUTING }) {
    for (const tag of tags) {
      const s = r.shown[tag];
      const text = where === 'status' ? s.status : s.alert;
      assert.match(text ?? '', tag === 'attn-softmax-table' ? zh : re, `${tag}: ${JSON.stringify(s)}`);
      if (where === 'status') assert.equal(s.state, fatal ? 'failed' : 'ready', `${tag} state`);
      // One message: no field marked invalid, no other message in the widget.
      assert.equal(s.invalid, 0, `${tag}: a field blamed`);
      assert.deepEqual(s.msgs, [], `${tag}: other messages`);
      const ev = r.errors.filter((e) => e.tag === tag);
      assert.equal(ev.length, 1, `${tag}: events ${JSON.stringify(r.errors)}`);
      assert.equal(ev[0].kind, kind, `${tag}: kind`);
      assert.equal(ev[0].fatal, fatal, `${tag}: fatal`);
      if (file) assert.equal(ev[0].file, file, `${tag}: file`);
      assert.equal(ev[0].message, text, `${tag}: the event's message is the one shown`);
    }
    // The chain computes nothing: where only the core failed, it is drawn and silent.
    if (!tags.includes('attn-chain')) {
      assert.ok(r.shown['attn-chain'].chain, 'the chain is drawn');
      assert.deepEqual(r.errors.filter((e) => e.tag === 'attn-chain'), []);
    }
  }

  test('no CORS at all: nothing of ours runs, the fallback content names the cause', { timeout: TIMEOUT }, async () => {
    const p = await ctx.context.newPage();
    await gotoEmbedPage(p, `${host.origin}/nocors.html`);
    await p.waitForLoadState('load');
    await p.waitForTimeout(500);
    const r = { shown: await p.evaluate(shown), errors: await p.evaluate(() => window.__errors) };
    // Shown: the element is not an empty box.
    assert.ok(await p.$eval('attn-saturation', (el) => el.getBoundingClientRect().height) > 10);
    await p.close();
    for (const tag of TAGS) assert.match(r.shown[tag].fallback ?? '', /did not load.*Access-Control-Allow-Origin/, tag);
    assert.deepEqual(r.errors, []);
  });

  test('CORS on attnlab.js alone: every widget says the other files need it too (kind cors, file code)', { timeout: TIMEOUT }, async () => {
    const r = await visit(`${host.origin}/script-only.html`, TAGS);
    check(r, { kind: 'cors', file: 'code', fatal: true, where: 'alert', tags: TAGS,
      re: /attnlab\.js loaded, but not its files in http:\/\/127\.0\.0\.1:\d+\/assets\/: send Access-Control-Allow-Origin/,
      zh: /attnlab\.js 已加载.*Access-Control-Allow-Origin/ });
  });

  test('a .js chunk sent as text/plain: kind mime, naming the file and its type', { timeout: TIMEOUT }, async () => {
    const r = await visit(`${host.origin}/js-mime.html`, TAGS);
    check(r, { kind: 'mime', file: 'code', fatal: true, where: 'alert', tags: TAGS,
      re: /sends http:\/\/127\.0\.0\.1:\d+\/assets\/\S+\.js as “text\/plain”.*text\/javascript/, zh: /“text\/plain”.*text\/javascript/ });
  });

  test('no CORS on the worker script: computed on the main thread, kind cors (file worker)', { timeout: TIMEOUT }, async () => {
    const r = await visit(`${host.origin}/worker-cors.html`, COMPUTING);
    check(r, { kind: 'cors', file: 'worker', fatal: false,
      re: /main thread.*The worker script \(http:\/\/127\.0\.0\.1:\d+\/assets\/worker-\S+\.js\) comes without Access-Control-Allow-Origin/,
      zh: /主线程.*Worker 脚本.*Access-Control-Allow-Origin/ });
  });

  test('no CORS on the .wasm: kind cors (file wasm)', { timeout: TIMEOUT }, async () => {
    const r = await visit(`${host.origin}/wasm-cors.html`, COMPUTING);
    check(r, { kind: 'cors', file: 'wasm', fatal: true,
      re: /^The WebAssembly core \(http:\/\/127\.0\.0\.1:\d+\/assets\/\S+\.wasm\) comes without Access-Control-Allow-Origin/,
      zh: /^WebAssembly 计算核心（.*\.wasm）没有 Access-Control-Allow-Origin/ });
  });

  test('the .wasm missing (404): kind missing', { timeout: TIMEOUT }, async () => {
    const r = await visit(`${host.origin}/wasm-missing.html`, COMPUTING);
    check(r, { kind: 'missing', fatal: true, re: /\.wasm is not on the server \(HTTP 404\)/, zh: /\.wasm（HTTP 404）/ });
  });

  test('the .wasm sent as application/octet-stream: it computes, and says so (kind mime)', { timeout: TIMEOUT }, async () => {
    const r = await visit(`${host.origin}/wasm-mime.html`, MIME_TAGS);
    check(r, { kind: 'mime', file: 'wasm', fatal: false,
      re: /in a worker\. The server sends the WebAssembly core .* as “application\/octet-stream”, not application\/wasm/,
      zh: /“application\/octet-stream”而不是 application\/wasm/, tags: MIME_TAGS });
  });

  test('a CSP without the embed in connect-src: kind connect-src', { timeout: TIMEOUT }, async () => {
    const r = await visit(`${host.origin}/connect.html`, COMPUTING);
    check(r, { kind: 'connect-src', fatal: true, re: /add http:\/\/127\.0\.0\.1:\d+ to connect-src/, zh: /connect-src/ });
  });

  test('a CSP without \'wasm-unsafe-eval\': kind wasm-unsafe-eval', { timeout: TIMEOUT }, async () => {
    const r = await visit(`${host.origin}/wasm-eval.html`, COMPUTING);
    check(r, { kind: 'wasm-unsafe-eval', fatal: true, re: /forbids compiling WebAssembly.*'wasm-unsafe-eval' to script-src/, zh: /禁止编译 WebAssembly/ });
  });

  test('a CSP header without worker-src: computed on the main thread, kind worker-src', { timeout: TIMEOUT }, async () => {
    const r = await visit(`${host.origin}/worker-src.html`, COMPUTING);
    check(r, { kind: 'worker-src', fatal: false, re: /main thread.*allows no worker.*add worker-src blob: http:\/\/127\.0\.0\.1:\d+/, zh: /主线程.*worker-src blob:/ });
  });

  test('a page opened from file://: computed on the main thread, kind file (no CSP is blamed)', { timeout: TIMEOUT }, async () => {
    const r = await visit(pathToFileURL(path.join(tmp, 'page.html')).href, COMPUTING);
    check(r, { kind: 'file', fatal: false, re: /main thread.*opened from a file \(file:\/\/\).*http\(s\)/, zh: /主线程.*file:\/\//, });
    for (const tag of TAGS) assert.doesNotMatch(r.shown[tag].status ?? '', /Content-Security-Policy/, tag);
  });
});
