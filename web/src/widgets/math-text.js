// Text with math, as nodes (never parsed as HTML): σ_q, d_{model} and
// x^{−1/2} become sub- and superscripts (one character, or the braces'
// content). Its own module: the widgets that write such text import it (the
// variance figure, the explainer's prose), the others' first load does not
// carry it. scripts/static-text.mjs writes the same markup at build time.
import { h } from '../base/dom.js';

export const mathNodes = (text) => text.split(/([_^](?:\{[^}]*\}|[A-Za-z0-9]))/)
  .map((p, i) => (i % 2 ? h(p[0] === '_' ? 'sub' : 'sup', { text: p.slice(1).replace(/[{}]/g, '') }) : p));

/** The same in place: el's text set to text, with its math. */
export const setMath = (el, text) => el.replaceChildren(...mathNodes(text));
