// The one file a host page includes:
//   <script type="module" src="https://…/embed/attnlab.js"></script>
// It defines the custom elements the page uses, and only those: each
// widget's code (and the wasm core and the worker) loads when its element
// first appears in the document (Shoelace's autoloader works the same way).
// It touches nothing else of the host page: no title, no global CSS, no ids
// outside the widgets' shadow roots. Loading it twice (two script tags, or
// two versions) is harmless: a tag already defined is left alone.
//
// import 'attnlab/widgets' (the npm package) runs this file too; a host that
// renders widgets inside its own shadow roots calls discover(thatRoot).
export const WIDGETS = {
  'attn-chain': () => import('../widgets/attn-chain.js'),
  'attn-variance': () => import('../widgets/attn-variance.js'),
  'attn-proof': () => import('../widgets/attn-proof.js'),
  'attn-softmax-table': () => import('../widgets/attn-softmax-table.js'),
  'attn-saturation': () => import('../widgets/attn-saturation.js'),
  'attn-train-compare': () => import('../widgets/attn-train-compare.js'),
};

let runtime = null;
const loading = new Map();

// attnlab.js came, but not even the diagnosis from its assets/: the server
// sends Access-Control-Allow-Origin on attnlab.js alone (the likeliest case).
const NO_ASSETS = {
  en: 'attnlab.js loaded, but not its files in {base}assets/: send Access-Control-Allow-Origin on those too.',
  zh: 'attnlab.js 已加载，但 {base}assets/ 中的文件没有：请同样为它们发送 Access-Control-Allow-Origin。',
};
function unloaded(tag) {
  for (const el of document.querySelectorAll(tag)) {
    if (el.shadowRoot) continue;
    const message = NO_ASSETS[/^zh\b/i.test(el.closest('[lang]')?.lang) ? 'zh' : 'en'].replace('{base}', new URL(/* @vite-ignore */ './', import.meta.url));
    const p = document.createElement('p');
    p.setAttribute('role', 'alert');
    p.textContent = message;
    el.attachShadow({ mode: 'open' }).append(p);
    el.dispatchEvent(new CustomEvent('attn-error', { bubbles: true, composed: true, detail: { kind: 'cors', message, fatal: true, file: 'code' } }));
  }
}

/** Define one widget's element (loads its code); resolves when defined. */
export function define(tag) {
  if (!Object.hasOwn(WIDGETS, tag)) return Promise.reject(new Error(`attnlab: no widget <${tag}>`));
  if (customElements.get(tag)) return Promise.resolve();
  if (!loading.has(tag)) {
    runtime ??= import('./runtime.js').then((m) => m.setUp(import.meta.url));
    const p = runtime.then(() => WIDGETS[tag]()).then(() => {
      if (!customElements.get(tag)) throw new Error(`its module did not define <${tag}>`);
    });
    // A chunk that failed to load (no CORS, a 404, a MIME type, a CSP): the
    // diagnosis (diagnose.js, loaded only then) says why inside each such element.
    p.catch((e) => diagnosis().then((m) => m.showCodeFailed(tag, e), () => unloaded(tag)));
    loading.set(tag, p);
  }
  return loading.get(tag);
}

const diagnosis = () => import('../widgets/diagnose.js');

/**
 * Check a deployment of the embed and a page's CSP, as the widgets do when
 * they fail (widgets/diagnose.js checkEmbed): in a page's console,
 *   (await import('https://…/embed/attnlab.js')).check().then(console.table)
 */
export const check = (...args) => diagnosis().then((m) => m.checkEmbed(...args));

/** Define every widget element now. */
export function defineAll() {
  return Promise.all(Object.keys(WIDGETS).map(define));
}

/** Define the widgets used under root (the document, or a host's own shadow root). */
export function discover(root = document) {
  for (const tag of Object.keys(WIDGETS)) if (!customElements.get(tag) && root.querySelector(tag)) define(tag);
}

if (typeof document !== 'undefined') {
  discover();
  // Widgets added later (a framework rendering, a tutorial revealing a step).
  const pending = () => Object.keys(WIDGETS).some((tag) => !loading.has(tag));
  if (pending()) {
    // Only what was added is looked at (a host page may change often).
    const added = (n) => {
      if (n.nodeType !== 1) return;
      if (Object.hasOwn(WIDGETS, n.localName) && !customElements.get(n.localName)) define(n.localName);
      if (n.firstElementChild) discover(n);
    };
    const mo = new MutationObserver((records) => {
      for (const r of records) r.addedNodes.forEach(added);
      if (!pending()) mo.disconnect();
    });
    mo.observe(document.documentElement, { childList: true, subtree: true });
  }
}
