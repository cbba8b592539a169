// Loads one feature's C++ core module (Emscripten, ES module) once, chosen by
// feature detection: the relaxed-SIMD (FMA) build where the browser validates
// relaxed SIMD, else SIMD128 where it validates SIMD, else scalar. Each build
// gives the CLI's numbers for a seed, the relaxed one with the CLI's --madd
// for how this engine runs relaxed_madd (buildInfo().madd; docs/benchmarks.md, "Which
// build runs"). Each page's feature has a module of its own (explain for
// index.html, check, lab, bench), so a page downloads only the core code it runs.
//
// Forcing a build: the page URL's `?build=scalar` (or `simd`, `relaxed`) is read
// on the main thread (build.js; a worker cannot see the page URL) and handed
// here as `build`. Tests use it to run the pages on the scalar build.
import { BUILDS } from './build.js';
import { detectBuild, hasRelaxedSimd } from './detect.js';

export { hasRelaxedSimd };

// Literal import() calls, so the bundler emits every module as its own chunk
// and a page fetches only the one it asks for.
const MODULES = {
  explain: {
    relaxed: () => import('../wasm/attnlab_explain_relaxed.js'),
    simd: () => import('../wasm/attnlab_explain_simd.js'),
    scalar: () => import('../wasm/attnlab_explain_scalar.js'),
  },
  check: {
    relaxed: () => import('../wasm/attnlab_check_relaxed.js'),
    simd: () => import('../wasm/attnlab_check_simd.js'),
    scalar: () => import('../wasm/attnlab_check_scalar.js'),
  },
  lab: {
    relaxed: () => import('../wasm/attnlab_lab_relaxed.js'),
    simd: () => import('../wasm/attnlab_lab_simd.js'),
    scalar: () => import('../wasm/attnlab_lab_scalar.js'),
  },
  // The presets table's module, also the saturation explorer's distribution view's.
  presets: {
    relaxed: () => import('../wasm/attnlab_presets_relaxed.js'),
    simd: () => import('../wasm/attnlab_presets_simd.js'),
    scalar: () => import('../wasm/attnlab_presets_scalar.js'),
  },
  bench: {
    relaxed: () => import('../wasm/attnlab_bench_relaxed.js'),
    simd: () => import('../wasm/attnlab_bench_simd.js'),
    scalar: () => import('../wasm/attnlab_bench_scalar.js'),
  },
};

/** The build 'auto' resolves to in this browser. */
export async function resolveBuild(build = 'auto') {
  if (!BUILDS.includes(build)) throw new Error(`unknown build "${build}"`);
  return detectBuild(build);
}

/** A fresh instance of a feature's module in the given build ('relaxed', 'simd' or 'scalar'). */
export async function instantiate(feature, build) {
  const byBuild = MODULES[feature];
  if (!byBuild) throw new Error(`unknown feature "${feature}"`);
  if (!byBuild[build]) throw new Error(`unknown build "${build}"`);
  // Compiling the .wasm as it streams in is refused when the server sends it
  // with another MIME type than application/wasm; the glue then fetches and
  // compiles the bytes (the core loads all the same, more slowly). Noted, in a
  // worker (this global is ours there), so an embedded widget's footer can say so.
  const W = WebAssembly;
  const streaming = W.instantiateStreaming;
  let refused = false;
  if (streaming && !globalThis.document) W.instantiateStreaming = (...a) => streaming(...a).catch((e) => { refused = true; throw e; });
  let M;
  try {
    M = await (await byBuild[build]()).default();
  } finally {
    if (streaming) W.instantiateStreaming = streaming;
  }
  if (refused) M.wasmRefetched = true;
  return M;
}

const loaded = new Map(); // feature -> {build, promise}

/**
 * The feature's Emscripten Module, loaded once per feature (memoised promise).
 * @param {'explain'|'check'|'lab'|'bench'|'presets'} feature
 * @param {'auto'|'relaxed'|'simd'|'scalar'} build  only the first call's choice counts
 */
export function loadModule(feature, build = 'auto') {
  if (!MODULES[feature]) throw new Error(`unknown feature "${feature}"`);
  if (!BUILDS.includes(build)) throw new Error(`unknown build "${build}"`);
  const have = loaded.get(feature);
  if (have) {
    if (build !== 'auto' && have.build !== build)
      console.warn(`attnlab ${feature} core already loaded as ${have.build}; ignoring build=${build}`);
    return have.promise;
  }
  const entry = { build, promise: null };
  entry.promise = (async () => {
    entry.build = await resolveBuild(build);
    return instantiate(feature, entry.build);
  })();
  loaded.set(feature, entry);
  // Let a failed load be retried instead of caching the rejection forever.
  entry.promise.catch(() => loaded.delete(feature));
  return entry.promise;
}
