// The embed build (scripts/build.sh runs it after the site's): web/dist/embed/
//   attnlab.js     the one file a host page includes; defines the widgets' elements
//   frame.html     one widget alone, for an iframe (?w=saturation&dk=256&lang=zh…)
//   assets/…       each widget's code, the worker, the wasm cores: loaded on demand,
//                  relative to attnlab.js's own URL (so from any origin, with CORS)
// Nothing here may put CSS into the host page: widgets style their shadow roots
// with constructable stylesheets (?inline imports), and the build fails if a
// CSS file would be emitted (Vite would inject it into the host's <head>).
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
// failed load inside the widget instead). The helper becomes a plain call:
// 0.9 kB gzip less for the first widget.
function plainDynamicImports() {
  return {
    name: 'embed-plain-dynamic-imports',
    generateBundle(_, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || chunk.name !== 'preload-helper') continue;
        if (chunk.exports.length !== 1)
          throw new Error(`embed: Vite's preload helper changed (exports ${chunk.exports.join(', ')}); update plainDynamicImports`);
        chunk.code = `const load = (importer) => importer();\nexport { load as ${chunk.exports[0]} };\n`;
      }
    },
  };
}

const src = (p) => fileURLToPath(new URL(p, import.meta.url));

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
      },
    },
  },
});
