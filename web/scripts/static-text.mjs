// Build step (a Vite plugin): what a page can say without JavaScript is in its
// HTML. Every [data-i18n] element is filled with its English text from the
// string tables (i18n.js replaces it as the page starts, in the reader's
// language), and a `<!-- static:NAME -->` comment is replaced by a static
// rendering: the chain's flowchart (its build-time SVG) and the proof's
// formulas (KaTeX's MathML, which the browser draws without KaTeX's CSS).
// So with JavaScript off the prose, the diagram and the formulas still show;
// only the live figures need scripts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import katex from 'katex';
import { FORMULAS } from '../src/math/formulas.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const CLI = fileURLToPath(new URL('../../build/native/bin/attnlab', import.meta.url));

// Every module that registers strings: *strings.js anywhere under src/.
function stringModules(dir = SRC) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return stringModules(p);
    return /strings\.js$/.test(e.name) ? [p] : [];
  });
}

const escapeHtml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
// The explainer's prose with math (σ_q, d_{model}, x^{−1/2}): sub- and superscripts, as widgets/math-text.js builds them.
const mathHtml = (s) => s.replace(/([_^])(?:\{([^}]*)\}|([A-Za-z0-9]))/g, (m, op, braced, one) =>
  (op === '_' ? `<sub>${braced ?? one}</sub>` : `<sup>${braced ?? one}</sup>`));

const STATIC = {
  // (Inside <noscript>: with scripts on it is never parsed, so its ids never meet the widget's.)
  'chain-svg': () => fs.readFileSync(path.join(SRC, 'diagrams/chain.en.svg'), 'utf8'),
  'proof-formulas': () => Object.values(FORMULAS)
    .map((f) => `<p class="static-formula">${katex.renderToString(f.tex, { displayMode: true, output: 'mathml', throwOnError: true })}</p>`)
    .join('\n'),
};

// The first screen's figure (src/pages/explainer/hero.js) at d_k = 64, computed by the native
// core (the CLI scripts/build.sh builds first): its texts are in the first
// paint, so nothing moves when the wasm core answers. Without the CLI (a bare
// `vite build`) the figure fills in when the page's core answers.
function cliCall(name, args) {
  // --dk only for a divisor that uses it: the CLI refuses an option it would ignore.
  const run = (scores, divisor, dk) => JSON.parse(execFileSync(CLI,
    ['softmax', '--scores', scores.map(String).join(','), '--divisor', String(divisor),
      ...(/^(sqrt|dk)$/.test(String(divisor)) ? ['--dk', String(dk)] : [])], { encoding: 'utf8' }));
  if (name === 'resolveDivisor') return Promise.resolve({ value: run([0], args[0], args[1]).divisor });
  if (name === 'softmaxStats') {
    const r = run(args[0], args[1], 1);
    return Promise.resolve({ probs: r.probs, maxProb: r.max_prob, entropy: r.entropy, jacobianNorm: r.jacobian_norm });
  }
  throw new Error(`static-text: no CLI form of ${name}`);
}

async function heroTexts(i18n) {
  if (!fs.existsSync(CLI)) {
    console.warn(`static-text: ${CLI} is missing (scripts/build.sh builds it); the first screen's figure fills in at run time`);
    return {};
  }
  const hero = await import(pathToFileURL(path.join(SRC, 'pages/explainer/hero.js')).href);
  i18n.useLang('en');
  const state = await hero.heroState(cliCall, hero.SEED_DK);
  // The state itself too (data-hero-state): a page in Chinese writes the same
  // numbers in its words at once, before the wasm core has answered.
  return { ...hero.heroTexts(state), [STATE]: JSON.stringify(state) };
}
const STATE = '\0state';

/** The plugin: fills index.html, lab.html, … at build time. */
export function staticText() {
  let en = null;
  let hero = null;
  return {
    name: 'static-text',
    apply: 'build',
    async transformIndexHtml(html) {
      if (!en) {
        for (const m of stringModules()) await import(pathToFileURL(m).href);
        const i18n = await import(pathToFileURL(path.join(SRC, 'base/i18n.js')).href);
        en = i18n._strings.en;
        hero = await heroTexts(i18n);
      }
      return html
        .replace(/<figure class="([^"]*)" id="hero"/, (all, cls) =>
          (hero[STATE] === undefined ? all : `<figure class="${cls}" id="hero" data-hero-state="${escapeHtml(hero[STATE]).replace(/"/g, '&quot;')}"`))
        .replace(/<(\w+)(\s[^>]*?\bdata-hero="([^"]+)"[^>]*)><\/\1>/g, (all, tag, attrs, key) =>
          (hero[key] === undefined ? all : `<${tag}${attrs}>${escapeHtml(hero[key])}</${tag}>`))
        .replace(/<(\w+)(\s[^>]*?\bdata-i18n="([^"]+)"[^>]*)>([^<]*)<\/\1>/g, (all, tag, attrs, key) => {
          if (en[key] === undefined) throw new Error(`static-text: no string "${key}"`);
          const text = escapeHtml(en[key]);
          return `<${tag}${attrs}>${key.startsWith('page.') && tag !== 'title' ? mathHtml(text) : text}</${tag}>`;
        })
        .replace(/<!-- static:([\w-]+) -->/g, (all, name) => {
          if (!STATIC[name]) throw new Error(`static-text: no static rendering "${name}"`);
          return STATIC[name]();
        });
    },
  };
}
