// Pre-rendered formulas (see formulas.js): mathEl(key) returns a span showing
// the plain-text form at once; when it nears the viewport, KaTeX's stylesheet
// and the build-time HTML are loaded (one lazy chunk) and swapped in.
//
// KaTeX's HTML carries style="…" attributes, which the page's CSP
// (style-src 'self') forbids in markup. The build renames them data-style;
// here the HTML is parsed into an inert document and rebuilt node by node,
// each data-style set through the CSSOM (el.style.cssText), which the CSP allows.
import { FORMULAS } from './formulas.js';
import { whenNear } from '../base/dom.js';

import { mathMode } from './mode.js';

// mathMode.mathmlOnly (the embed): the browser's own MathML, without KaTeX's
// CSS and fonts (a stylesheet loaded into the host page would restyle it, and
// @font-face does not work inside a shadow root).
let assets = null;
function loadAssets() {
  assets ??= (mathMode.mathmlOnly ? import('./formulas-html.js') : import('./katex-assets.js')).then((m) => m.default);
  return assets;
}

function rebuild(node) {
  if (node.nodeType === Node.TEXT_NODE) return document.createTextNode(node.data);
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const el = document.createElementNS(node.namespaceURI, node.localName);
  for (const a of node.attributes) {
    if (a.name === 'data-style') el.style.cssText = a.value;
    else if (a.namespaceURI) el.setAttributeNS(a.namespaceURI, a.name, a.value);
    else el.setAttribute(a.name, a.value);
  }
  for (const c of node.childNodes) {
    const r = rebuild(c);
    if (r) el.append(r);
  }
  return el;
}

/** The formula's DOM, from its build-time HTML. */
export function hydrate(html) {
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${html}`, 'text/html');
  return [...doc.body.childNodes].map(rebuild).filter(Boolean);
}

/** A span that holds formula `key`: plain text now, typeset when in view. */
export function mathEl(key, { display = false } = {}) {
  const f = FORMULAS[key];
  if (!f) throw new Error(`no formula "${key}"`);
  const span = document.createElement(display ? 'div' : 'span');
  span.className = `math${display ? ' math-display' : ''}`;
  span.dataset.formula = key;
  span.textContent = f.text;
  whenNear(span, async () => {
    try {
      const html = (await loadAssets())[key];
      let nodes = hydrate(html);
      if (mathMode.mathmlOnly) {
        const math = nodes.map((n) => (n.localName === 'math' ? n : n.querySelector?.('math'))).find(Boolean);
        if (!math) return;
        if (display) math.setAttribute('display', 'block');
        nodes = [math];
      }
      span.replaceChildren(...nodes);
      span.dataset.typeset = 'true';
    } catch {
      // Stay with the plain text: the page keeps working without KaTeX.
    }
  }, '600px');
  return span;
}
