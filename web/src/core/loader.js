// Loads one feature's C++ core module (Emscripten, ES module) once: the
// SIMD128 build where the browser validates SIMD, else the scalar build. Each
// page's feature has a module of its own (explain for index.html, check, lab,
// bench), so a page downloads only the core code it runs.
//
// Forcing a build: the page URL's `?build=scalar` (or `?build=simd`) is read
// on the main thread (build.js; a worker cannot see the page URL) and handed
// here as `build`. Tests use it to run the pages on the scalar build.
import { simd } from 'wasm-feature-detect';
import { BUILDS } from './build.js';

// Literal import() calls, so the bundler emits every module as its own chunk
// and a page fetches only the one it asks for.
const MODULES = {
  explain: {
    simd: () => import('../wasm/attnlab_explain_simd.js'),
    scalar: () => import('../wasm/attnlab_explain_scalar.js'),
  },
  check: {
    simd: () => import('../wasm/attnlab_check_simd.js'),
    scalar: () => import('../wasm/attnlab_check_scalar.js'),
  },
  lab: {
    simd: () => import('../wasm/attnlab_lab_simd.js'),
    scalar: () => import('../wasm/attnlab_lab_scalar.js'),
  },
  bench: {
    simd: () => import('../wasm/attnlab_bench_simd.js'),
    scalar: () => import('../wasm/attnlab_bench_scalar.js'),
  },
};

/** The build 'auto' resolves to in this browser. */
export async function resolveBuild(build = 'auto') {
  if (!BUILDS.includes(build)) throw new Error(`unknown build "${build}"`);
  return build === 'auto' ? ((await simd()) ? 'simd' : 'scalar') : build;
}

/** A fresh instance of a feature's module in the given build ('simd' or 'scalar'). */
export async function instantiate(feature, build) {
  const byBuild = MODULES[feature];
  if (!byBuild) throw new Error(`unknown feature "${feature}"`);
  if (!byBuild[build]) throw new Error(`unknown build "${build}"`);
  return (await byBuild[build]()).default();
}

const loaded = new Map(); // feature -> {build, promise}

/**
 * The feature's Emscripten Module, loaded once per feature (memoised promise).
 * @param {'explain'|'check'|'lab'|'bench'} feature
 * @param {'auto'|'simd'|'scalar'} build  only the first call's choice counts
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
