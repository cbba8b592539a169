// Why an embedded widget's setup failed, found out on the page and said in
// the widget's language: loaded only after something went wrong (attnlab.js
// when a widget's code cannot load; footer.js when the core cannot, or runs
// without a worker, or its .wasm came with the wrong MIME type), so a page
// where everything works never downloads it.
//
// The browser tells a script almost nothing (a failed import is "Failed to
// fetch", a blocked worker an error event, and a violation inside the core's
// worker never reaches the page), so each cause is tested here, on the main
// thread, which has the same Content-Security-Policy as the worker (a blob:
// worker inherits its page's): a fetch of the file that failed (its status,
// its Content-Type, Access-Control-Allow-Origin, or a connect-src violation),
// the compilation of an empty WebAssembly module ('wasm-unsafe-eval'), the
// page's origin (file:// is opaque: no module worker starts there). Each
// answer is {kind, key, params, file?}: kind is the attn-error event's kind,
// key the sentence's key (setup-strings.js). The tests run once a page: every
// widget that asks gets the same answer.
import { browserLang, inLang, langOfTag, t } from '../base/i18n.js';
import { metaCspForbidsBlobWorkers } from '../bridge/spawn.js';
import { releaseContent } from './markup.js';
import workerUrl from '../bridge/worker.js?worker&url';
import wasmUrl from '../wasm/attnlab_explain_relaxed.wasm?url';
import './setup-strings.js';

// The embed's folder and origin (this module's chunk sits in its assets/).
const BASE = new URL(/* @vite-ignore */ '../', import.meta.url).href;
const ORIGIN = new URL(BASE).origin;
const WORKER = new URL(workerUrl, import.meta.url).href;
const WASM = new URL(wasmUrl, import.meta.url).href;
const JS_TYPE = /^(text|application)\/(x-)?(javascript|ecmascript)$/;

const answer = (kind, key, params = {}, extra = {}) => ({ kind, key, params: { base: BASE, origin: ORIGIN, ...params }, ...extra });

/** The URL a failed import names ("Failed to fetch dynamically imported module: https://…/x.js"), or null. */
export function urlIn(message) {
  return /\b((?:https?|file):\/\/[^\s'"`]+?\.(?:js|mjs|wasm))\b/.exec(String(message ?? ''))?.[1] ?? null;
}

const nextTask = () => new Promise((r) => setTimeout(r, 50));

/**
 * What fetching `url` shows: null when it arrives as it should (2xx, CORS,
 * the right Content-Type for `as`: 'code' or 'wasm'), else an answer.
 */
export async function probe(url, as) {
  const blocked = [];
  const listen = (e) => blocked.push(e.effectiveDirective || e.violatedDirective);
  document.addEventListener('securitypolicyviolation', listen);
  try {
    const r = await fetch(url, { cache: 'no-store', credentials: 'omit' });
    r.body?.cancel().catch(() => {});
    if (!r.ok) return answer('missing', 'missing', { url, status: r.status });
    const type = (r.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (as === 'wasm' ? type !== 'application/wasm' : !JS_TYPE.test(type))
      return answer('mime', `mime.${as}`, { url, type: type || '—' }, { file: as });
    return null;
  } catch {
    // A violation event is queued as a task of its own: let it arrive.
    await nextTask();
    if (blocked.some((d) => /^(connect|default)-src/.test(d))) return answer('connect-src', 'connectSrc');
    // The server answered a request that needs no CORS: CORS is what failed.
    const answered = await fetch(url, { mode: 'no-cors', cache: 'no-store', credentials: 'omit' }).then(() => true, () => false);
    return answered ? answer('cors', `cors.${as === 'wasm' ? 'wasm' : 'code'}`, { url }, { file: as }) : answer('unreachable', 'unreachable', { url });
  } finally {
    document.removeEventListener('securitypolicyviolation', listen);
  }
}

/** Whether this page may compile WebAssembly (an empty module: only a CSP can refuse it). */
export async function canCompile() {
  try {
    await WebAssembly.compile(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
    return true;
  } catch {
    return false;
  }
}

const short = (message) => String(message ?? '').replace(/\s+/g, ' ').slice(0, 200);

// Each test once a page (every widget asks; a failed chunk is asked about by URL).
const memo = new Map();
const once = (key, fn) => {
  if (!memo.has(key)) memo.set(key, fn());
  return memo.get(key);
};

/** A widget's code (a chunk under assets/) did not load: error is what import() threw. */
export function codeFailed(error) {
  const url = urlIn(error?.message) ?? BASE + 'attnlab.js';
  return once(`code ${url}`, async () =>
    (await probe(url, 'code')) ?? answer('load', 'unknown.code', { message: short(error?.message ?? error) }));
}

/** The core did not load (client.call rejected before the core had answered once). */
export function coreFailed(error) {
  return once('core', async () => {
    if (!(await canCompile())) return answer('wasm-unsafe-eval', 'wasmEval');
    // A chunk the worker imports (the wasm glue), then the .wasm itself.
    const url = urlIn(error?.message);
    const found = (url && !url.endsWith('.wasm') && (await probe(url, 'code'))) || (await probe(WASM, 'wasm'));
    // A wrong MIME type alone does not stop the core (the glue compiles the bytes instead).
    if (found && found.kind !== 'mime') return found;
    return answer('core', 'unknown.core', { message: short(error?.message ?? error) });
  });
}

/** The core runs, but on the main thread: why no worker started. */
export function noWorker() {
  return once('worker', async () => {
    if (location.protocol === 'file:' || location.origin === 'null') return answer('file', 'file');
    if (metaCspForbidsBlobWorkers(WORKER)) return answer('worker-src', 'workerSrc');
    const found = await probe(WORKER, 'code');
    if (found?.kind === 'cors') return { ...found, key: 'cors.worker', file: 'worker' };
    if (found && found.kind !== 'connect-src') return found;
    // The worker's script arrives as it should: what refused it is the CSP
    // (a header, which the page cannot read, without worker-src blob: and the origin).
    return answer('worker-src', 'workerSrc');
  });
}

/** The core runs, but its .wasm came with another MIME type than application/wasm. */
export function wasmType() {
  return once('mime', async () => {
    const found = await probe(WASM, 'wasm');
    return found?.kind === 'mime' ? found : null;
  });
}

// ---- The same tests on request: a deployment and a page's CSP -------------

// Files a first widget loads, as the embed build names them (hashed), found
// by following the references from attnlab.js: its runtime, one widget, the
// element's chunk, the worker, the explainer's core (glue and .wasm).
const REF = /[`"']((?:\.\.?\/)?(?:assets\/)?[\w.-]+-[\w-]{6,}\.(?:js|wasm))[`"']/g;
const FOLLOW = /^(runtime|element|attn-softmax-table|worker|attnlab_explain_relaxed)-/;

/** The sources of a directive, with CSP's fallbacks (worker-src -> child-src -> script-src -> default-src). */
function sources(policy, directive) {
  const dirs = new Map(String(policy).split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0])
    .map(([name, ...src]) => [name.toLowerCase(), src.map((x) => x.toLowerCase())]));
  const chain = { 'worker-src': ['worker-src', 'child-src', 'script-src', 'default-src'], 'script-src': ['script-src', 'default-src'], 'connect-src': ['connect-src', 'default-src'] }[directive];
  return chain.map((d) => dirs.get(d)).find(Boolean) ?? null;
}

/** Whether a source list lets `url` load ('self' is not counted: this check does not know the page's origin). */
function allows(list, url) {
  const u = new URL(url);
  return list.some((src) => {
    if (src === '*') return true;
    if (src === u.protocol) return true;
    const m = /^(?:([a-z][\w+.-]*):\/\/)?(\*\.)?([^/:]+)(?::(\d+|\*))?/.exec(src);
    if (!m || src.startsWith("'")) return false;
    const [, scheme, wild, host, port] = m;
    if (scheme && `${scheme}:` !== u.protocol) return false;
    if (wild ? !u.hostname.endsWith(`.${host}`) : u.hostname !== host) return false;
    return !port || port === '*' || port === (u.port || (u.protocol === 'https:' ? '443' : '80'));
  });
}

/**
 * What a page whose Content-Security-Policy is `policy` would refuse of an
 * embed at `origin`: answers (fatal ones first), [] when it allows everything.
 */
export function checkPolicy(policy, origin) {
  if (!String(policy ?? '').trim()) return [];
  const found = [];
  const params = { origin, base: `${origin}/…/` };
  const script = sources(policy, 'script-src');
  if (script && !allows(script, origin)) found.push(answer('script-src', 'scriptSrc', params, { fatal: true }));
  if (script && !script.includes("'wasm-unsafe-eval'") && !script.includes("'unsafe-eval'")) found.push(answer('wasm-unsafe-eval', 'wasmEval', params, { fatal: true }));
  const connect = sources(policy, 'connect-src');
  if (connect && !allows(connect, origin)) found.push(answer('connect-src', 'connectSrc', params, { fatal: true }));
  const worker = sources(policy, 'worker-src');
  if (worker && !(worker.includes('blob:') && allows(worker, origin))) found.push(answer('worker-src', 'workerSrc', params, { fatal: false }));
  return found;
}

/**
 * Check a deployment of the embed, as a page on another origin would load it:
 * attnlab.js at `scriptUrl` and the files a first widget loads (each: there,
 * with Access-Control-Allow-Origin, with its type), and a page's CSP
 * (`csp`: its text; by default this page's <meta> one; `files: false`
 * checks only that). The docs page's panel runs it, and an author can in a
 * console (on the page, so under its own CSP):
 *   (await import('https://…/embed/attnlab.js')).check()
 * Resolves to [{file, ok, kind?, key?, params?, message}], message in `lang`.
 */
export async function checkEmbed(scriptUrl = BASE + 'attnlab.js', {
  csp = globalThis.document?.querySelector('meta[http-equiv="Content-Security-Policy" i]')?.content ?? '',
  lang = globalThis.document ? langOfTag(document.documentElement.lang) ?? browserLang() : 'en',
  files = true,
} = {}) {
  const start = new URL(scriptUrl, globalThis.location?.href).href;
  const base = new URL('./', start).href;
  const origin = new URL(start).origin;
  const lines = [];
  const seen = new Set();
  const queue = files ? [start] : [];
  while (queue.length && seen.size < 12) {
    const url = queue.shift();
    if (seen.has(url)) continue;
    seen.add(url);
    const as = url.endsWith('.wasm') ? 'wasm' : 'code';
    const found = await probe(url, as);
    lines.push({ file: url, ok: !found, ...(found && { ...found, params: { ...found.params, base, origin } }) });
    if (found || as === 'wasm') continue;
    const text = await fetch(url, { cache: 'no-store', credentials: 'omit' }).then((r) => r.text(), () => '');
    for (const [, ref] of text.matchAll(REF)) if (FOLLOW.test(ref.split('/').pop())) queue.push(new URL(ref, url).href);
  }
  for (const found of checkPolicy(csp, origin)) lines.push({ file: 'Content-Security-Policy', ok: false, ...found });
  return lines.map((l) => ({ ...l, message: l.ok ? '' : inLang(lang, () => t(`setup.${l.key}`, l.params)) }));
}

/** The language an element that may not have upgraded speaks (as element.js widgetLang). */
export function langOf(el) {
  return langOfTag(el.getAttribute('lang')) ?? langOfTag(el.parentElement?.closest('[lang]')?.getAttribute('lang'))
    ?? langOfTag(document.documentElement.getAttribute('lang')) ?? browserLang();
}

/**
 * Show in every <tag> of the page that has not upgraded why its code did not
 * load, and tell the host (attn-error). Returns the answer.
 */
export async function showCodeFailed(tag, error) {
  const found = await codeFailed(error);
  for (const el of document.querySelectorAll(tag)) {
    if (el.shadowRoot?.querySelector('.attn-body')) continue; // it did load
    releaseContent(el);
    const message = inLang(langOf(el), () => t(`setup.${found.key}`, found.params));
    const root = el.shadowRoot ?? el.attachShadow({ mode: 'open' });
    const p = document.createElement('p');
    p.setAttribute('role', 'alert');
    p.textContent = message;
    root.replaceChildren(p);
    el.dispatchEvent(new CustomEvent('attn-error', { bubbles: true, composed: true, detail: { kind: found.kind, message, fatal: true, ...(found.file && { file: found.file }) } }));
  }
  return found;
}
