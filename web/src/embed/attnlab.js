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

/** Define one widget's element (loads its code); resolves when defined. */
export function define(tag) {
  if (!Object.hasOwn(WIDGETS, tag)) return Promise.reject(new Error(`attnlab: no widget <${tag}>`));
  if (customElements.get(tag)) return Promise.resolve();
  if (!loading.has(tag)) {
    runtime ??= import('./runtime.js').then((m) => m.setUp(import.meta.url));
    const p = runtime.then(() => WIDGETS[tag]()).then(() => {
      if (!customElements.get(tag)) throw new Error(`its module did not define <${tag}>`);
    });
    // A chunk that failed to load (a 404, a CSP) says so in the element itself.
    p.catch((e) => import('./load-error.js').then((m) => m.showLoadError(tag, e), () => {
      // Whatever blocked the widget blocked the message too: say it plainly.
      for (const el of document.querySelectorAll(tag)) {
        el.textContent = `attnlab: <${tag}> could not load (${e?.message ?? e})`;
        el.dispatchEvent(new CustomEvent('attn-error', { bubbles: true, composed: true, detail: { kind: 'load', message: el.textContent } }));
      }
    }));
    loading.set(tag, p);
  }
  return loading.get(tag);
}

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
