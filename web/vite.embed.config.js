// The embed build (scripts/build.sh runs it after the site's): web/dist/embed/
//   attnlab.js     the one file a host page includes; defines the widgets' elements
//   frame.html     one widget alone, for an iframe (?w=saturation&dk=256&lang=zh…)
//   assets/…       each widget's code, the worker, the wasm cores: loaded on demand,
//                  relative to attnlab.js's own URL (so from any origin, with CORS)
// Nothing here may put CSS into the host page: widgets style their shadow roots
// with constructable stylesheets (?inline imports), and the build fails if a
// CSS file would be emitted (Vite would inject it into the host's <head>).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { cspMeta, formulas, requireWasm } from './vite.config.js';

// The frame's own CSP: the site's, plus blob: workers (a frame served from
// another origin than its scripts is not a case here, but the widget code is the same).
export const FRAME_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');

function noGlobalCss() {
  return {
    name: 'embed-no-global-css',
    generateBundle(_, bundle) {
      const css = Object.keys(bundle).filter((f) => f.endsWith('.css'));
      if (css.length) throw new Error(`the embed build must not emit CSS into the host page: ${css.join(', ')} (import it with ?inline)`);
    },
  };
}

// math.js loads KaTeX's stylesheet through katex-assets.js on the site; the
// embed shows MathML only (math.js useMathMLOnly), so that chunk is replaced
// by the formulas alone and KaTeX's CSS never enters the build.
function noKatexCss() {
  return {
    name: 'embed-no-katex-css',
    enforce: 'pre',
    resolveId(id, importer) {
      if (importer && /[\\/]math[\\/]math\.js$/.test(importer) && id === './katex-assets.js')
        return fileURLToPath(new URL('./src/math/formulas-html.js', import.meta.url));
      return null;
    },
  };
}

// Vite routes every dynamic import() through its preload helper, which (with
// module preload off) only dispatches a 'vite:preloadError' event on the
// host's window when a chunk fails: not ours to send (attnlab.js reports a
// failed load inside the widget instead). The helper becomes a plain call,
// written into each chunk that uses it instead of imported from a chunk of
// its own: attnlab.js then imports nothing statically, so it runs (and can
// say what failed) even where no file under assets/ can load. The build fails
// if Vite's own helper still reaches a chunk (its id or export changed).
const PRELOAD_HELPER = '\0vite/preload-helper.js';
function plainDynamicImports() {
  return {
    name: 'embed-plain-dynamic-imports',
    enforce: 'pre',
    load: (id) => (id === PRELOAD_HELPER ? 'export const __vitePreload = (importer) => importer();\n' : null),
    generateBundle(_, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const helper = chunks.find((c) => c.moduleIds.includes(PRELOAD_HELPER));
      if (helper) {
        if (helper.moduleIds.length !== 1 || helper.exports.length !== 1)
          throw new Error(`embed: the preload helper shares ${helper.fileName}; update plainDynamicImports`);
        const name = helper.fileName.split('/').pop().replace(/[.$]/g, '\\$&');
        const from = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*["'](?:\\./|\\.\\./)*(?:assets/)?${name}["'];?`);
        for (const c of chunks) {
          if (c === helper) continue;
          c.code = c.code.replace(from, (m, names) => names.split(',').map((n) => `const ${n.trim().split(/\s+as\s+/).pop()}=(f)=>f();`).join(''));
          if (c.code.includes(helper.fileName.split('/').pop())) throw new Error(`embed: ${c.fileName} still imports the preload helper`);
        }
        delete bundle[helper.fileName];
      }
      for (const c of chunks)
        if (/modulepreload|vite:preloadError/.test(c.code)) throw new Error(`embed: Vite's preload helper is in ${c.fileName}; update plainDynamicImports`);
    },
  };
}

const src = (p) => fileURLToPath(new URL(p, import.meta.url));

// The modules every embedded widget loads first (see codeSplitting below). A
// path that no longer exists (a module moved or renamed) stops the build: the
// group would silently lose it, and the first widget would pay a request more.
const FIRST_LOAD_FILES = [
  'base/i18n.js', 'base/url.js', 'base/dom.js', 'base/state.js', 'base/format.js', 'base/parse.js', 'base/number-text.js',
  'math/mode.js', 'widgets/element.js', 'widgets/footer.js', 'widgets/fig-menu.js', 'widgets/strings.js',
  'bridge/client.js', 'bridge/rpc.js', 'bridge/errors.js', 'bridge/generic-error-strings.js', 'bridge/build.js',
  'bridge/build-names.js', 'bridge/spawn.js', 'bridge/worker.js?worker&url',
];
for (const f of FIRST_LOAD_FILES)
  if (!fs.existsSync(src(`./src/${f.replace(/\?.*$/, '')}`))) throw new Error(`vite.embed.config.js: FIRST_LOAD_FILES names src/${f}, which does not exist`);
const FIRST_LOAD_IDS = new Set(FIRST_LOAD_FILES.map((f) => src(`./src/${f}`)));
const FIRST_LOAD = (id) => FIRST_LOAD_IDS.has(id.split(path.sep).join('/'));

export default defineConfig({
  root: src('./src/embed/'),
  base: './',
  publicDir: false,
  plugins: [requireWasm(), cspMeta(FRAME_CSP), formulas(), noKatexCss(), noGlobalCss(), plainDynamicImports()],
  worker: { format: 'es' },
  build: {
    outDir: src('./dist/embed/'),
    emptyOutDir: true,
    target: 'es2022',
    // light-dark() (style.css) stays native: older targets make lightningcss
    // rewrite every colour into a pair of custom-property fallbacks.
    cssTarget: ['chrome123', 'edge123', 'firefox120', 'safari17.5'],
    assetsInlineLimit: 0,
    // Vite's preload helper adds <link rel="modulepreload"> tags to the
    // document's <head>: the host's head is not ours to write.
    modulePreload: false,
    rolldownOptions: {
      input: {
        attnlab: src('./src/embed/attnlab.js'),
        frame: src('./src/embed/frame.html'),
      },
      preserveEntrySignatures: 'exports-only',
      output: {
        entryFileNames: (chunk) => (chunk.name === 'attnlab' ? 'attnlab.js' : 'assets/[name]-[hash].js'),
        // What every widget runs (the runtime, the element base, its footer and
        // client, i18n, the shared formatting and parsing) in one file: left to
        // itself the bundler splits it by importer into five or six, each a
        // gzip stream and a request of its own (1.4 kB gzip more for the first widget).
        codeSplitting: {
          groups: [
            // Its own chunk, which plainDynamicImports writes into its importers.
            { name: 'preload-helper', test: (id) => id === PRELOAD_HELPER, priority: 2 },
            { name: 'element', test: FIRST_LOAD, priority: 1 },
          ],
        },
      },
    },
  },
});
