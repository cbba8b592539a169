// Build step (a Vite plugin): what a page can say without JavaScript is in its
// HTML. Every [data-i18n] element is filled with its English text from the
// string tables (i18n.js replaces it as the page starts, in the reader's
// language), and a `<!-- static:NAME -->` comment is replaced by a static
// rendering: the chain's flowchart (its build-time SVG) and the proof's
// formulas (KaTeX's MathML, which the browser draws without KaTeX's CSS).
// So with JavaScript off the prose, the diagram and the formulas still show;
// only the live figures need scripts.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import katex from 'katex';
import { FORMULAS } from '../src/math/formulas.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

// Every module that registers strings: *strings.js anywhere under src/.
function stringModules(dir = SRC) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return stringModules(p);
    return /strings\.js$/.test(e.name) ? [p] : [];
  });
}

const escapeHtml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const STATIC = {
  // (Inside <noscript>: with scripts on it is never parsed, so its ids never meet the widget's.)
  'chain-svg': () => fs.readFileSync(path.join(SRC, 'diagrams/chain.en.svg'), 'utf8'),
  'proof-formulas': () => Object.values(FORMULAS)
    .map((f) => `<p class="static-formula">${katex.renderToString(f.tex, { displayMode: true, output: 'mathml', throwOnError: true })}</p>`)
    .join('\n'),
};

/** The plugin: fills index.html, lab.html, … at build time. */
export function staticText() {
  let en = null;
  return {
    name: 'static-text',
    apply: 'build',
    async transformIndexHtml(html) {
      if (!en) {
        for (const m of stringModules()) await import(pathToFileURL(m).href);
        en = (await import(pathToFileURL(path.join(SRC, 'i18n.js')).href))._strings.en;
      }
      return html
        .replace(/<(\w+)(\s[^>]*?\bdata-i18n="([^"]+)"[^>]*)>([^<]*)<\/\1>/g, (all, tag, attrs, key) => {
          if (en[key] === undefined) throw new Error(`static-text: no string "${key}"`);
          return `<${tag}${attrs}>${escapeHtml(en[key])}</${tag}>`;
        })
        .replace(/<!-- static:([\w-]+) -->/g, (all, name) => {
          if (!STATIC[name]) throw new Error(`static-text: no static rendering "${name}"`);
          return STATIC[name]();
        });
    },
  };
}
