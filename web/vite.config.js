// Vite config for the live page. The built page runs under a strict
// Content-Security-Policy: no eval (the wasm glue is built with
// DYNAMIC_EXECUTION=0), no inline scripts or styles, same-origin only.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import katex from 'katex';
import { FORMULAS } from './src/math/formulas.js';
import { staticText } from './scripts/static-text.mjs';
import { LANG_BOOT_HASH, langBoot, renderBlocking } from './scripts/lang-boot.mjs';

export const CSP = [
  "default-src 'self'",
  // The hash: the one inline script, lang-boot.mjs's (a Chinese page is not painted in English first).
  `script-src 'self' 'wasm-unsafe-eval' ${LANG_BOOT_HASH}`,
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');

// Build only: the dev server injects <style> tags for hot reload, which
// style-src 'self' would block. The meta goes right after <meta charset>, so it
// precedes every script and stylesheet it must govern.
export function cspMeta(csp = CSP) {
  return {
    name: 'csp-meta',
    apply: 'build',
    transformIndexHtml(html) {
      const charset = /<meta charset="utf-8"\s*\/?>/i;
      if (!charset.test(html)) throw new Error('csp-meta: index.html needs <meta charset="utf-8">');
      return html.replace(charset, (m) => `${m}\n    <meta http-equiv="Content-Security-Policy" content="${csp}" />`);
    },
  };
}

// The pages import the C++ core as wasm modules that scripts/build.sh compiles
// into src/wasm. Without them the dev server would start and every page fail
// on an unresolved import, and a build stop on a resolver error; this says
// what to run instead, as the server starts (configureServer) or the build
// does (buildStart). `vite preview` serves dist/ and needs none.
export function requireWasm(dir = fileURLToPath(new URL('./src/wasm/', import.meta.url))) {
  const check = () => {
    if (fs.existsSync(dir) && fs.readdirSync(dir).some((f) => f.endsWith('.wasm'))) {
      // The core's facts, which scripts/build.sh writes from the lab's module (scripts/core-facts.mjs).
      const missing = ['core-facts.js', 'divisor-range.js'].filter((f) => !fs.existsSync(path.join(dir, f)));
      if (missing.length === 0) return;
      throw new Error(`No ${missing.join(' or ')} in ${dir}: run scripts/build.sh (from the repository root), or ` +
        '`node scripts/core-facts.mjs` in web/ once the modules are there.');
    }
    throw new Error(`No WebAssembly modules in ${dir}: run scripts/build.sh (from the repository root) first; ` +
      'it compiles the C++ core into web/src/wasm.');
  };
  return { name: 'require-wasm', configureServer: check, buildStart: check };
}

// Typesets the page's static formulas at build time (KaTeX runs in Node), so
// the browser loads only KaTeX's CSS and fonts, never its JavaScript.
// src/math/katex-assets.js imports the result; math.js hydrates it.
export function formulas() {
  const ID = 'virtual:attn-formulas';
  return {
    name: 'attn-formulas',
    resolveId: (id) => (id === ID ? '\0' + ID : null),
    load(id) {
      if (id !== '\0' + ID) return null;
      // style="…" becomes data-style="…": parsing a style attribute, even in an
      // inert document, counts as inline style under the CSP; math.js applies
      // data-style through the CSSOM instead.
      const html = Object.fromEntries(Object.entries(FORMULAS).map(([key, f]) =>
        [key, katex.renderToString(f.tex, { displayMode: true, throwOnError: true, output: 'htmlAndMathml' })
          .replace(/ style="/g, ' data-style="')]));
      return `export default ${JSON.stringify(html)};`;
    },
  };
}

// The sample tutorial (embed-example.html and its script and stylesheet) is a
// host page, not a page of the site: it must work on another origin with the
// widgets' script from this one, under its own CSP. So it is copied into dist/
// as written, never bundled: no hashed names, no site CSP, no module graph of ours.
// Its script tag's src is ./embed/attnlab.js, relative, which dist/embed/ serves
// (the embed build writes it): the page runs from dist/, not on the dev server.
export function copyAsIs(files) {
  return {
    name: 'copy-as-is',
    apply: 'build',
    generateBundle() {
      for (const [fileName, from] of Object.entries(files))
        this.emitFile({ type: 'asset', fileName, source: fs.readFileSync(fileURLToPath(new URL(from, import.meta.url))) });
    },
  };
}

export default defineConfig({
  base: './',
  plugins: [requireWasm(), cspMeta(), langBoot(), renderBlocking(['embed.html']), staticText(), formulas(), copyAsIs({
    'embed-example.html': './embed-example.html',
    'embed-example.js': './src/pages/docs/example.js',
    'embed-example.css': './src/pages/docs/example.css',
  })],
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    // light-dark() (style.css) stays native: older targets make lightningcss
    // rewrite every colour into a pair of custom-property fallbacks.
    cssTarget: ['chrome123', 'edge123', 'firefox120', 'safari17.5'],
    // The wasm must stay a separate same-origin file: a data: URL is blocked by the CSP.
    assetsInlineLimit: 0,
    // One HTML entry per page of the site.
    rolldownOptions: {
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        bench: fileURLToPath(new URL('./bench.html', import.meta.url)),
        check: fileURLToPath(new URL('./check.html', import.meta.url)),
        lab: fileURLToPath(new URL('./lab.html', import.meta.url)),
        // The embed docs; its output dist/embed.html sits next to the embed build's dist/embed/.
        embed: fileURLToPath(new URL('./embed.html', import.meta.url)),
      },
      // What every page loads first in one chunk: the base layer, the language
      // switch, the build names, and the first widgets' options (which the embed
      // docs page reads too). Left to itself the bundler splits them by importer
      // into seven chunks, each a request and a gzip stream (0.8 kB more on the
      // explainer's first load). The training widget's options stay with it
      // (they import the training config, not a first-load module).
      output: {
        codeSplitting: {
          groups: [{ name: 'base', test: /[\\/]src[\\/](base[\\/][\w-]+|widgets[\\/](lang-switch|(proof|variance|saturation|seed)-options)|bridge[\\/]build-names)\.js$/ }],
        },
      },
    },
  },
  preview: {
    headers: { 'Content-Security-Policy': CSP },
  },
});
