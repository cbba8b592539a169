// Loads the C++ core (Emscripten, ES module) once: the SIMD128 build where the
// browser validates SIMD, else the scalar build. Both builds have the same API;
// only the dot-product kernel differs.
//
// Forcing a build: the page URL's `?build=scalar` (or `?build=simd`) is read on
// the main thread by client.js (a worker cannot see the page URL) and handed
// here as `build`. Tests use it to run the page on the scalar build.
import { simd } from 'wasm-feature-detect';

const BUILDS = ['auto', 'simd', 'scalar'];

let modulePromise = null;
let loadedBuild = null;

/**
 * The Emscripten Module, loaded once (memoised promise).
 * @param {'auto'|'simd'|'scalar'} build  only the first call's choice counts
 */
export function loadModule(build = 'auto') {
  if (!BUILDS.includes(build)) throw new Error(`unknown build "${build}"`);
  if (modulePromise) {
    if (build !== 'auto' && build !== loadedBuild)
      console.warn(`attn core already loaded as ${loadedBuild}; ignoring build=${build}`);
    return modulePromise;
  }
  modulePromise = (async () => {
    const useSimd = build === 'simd' || (build === 'auto' && (await simd()));
    loadedBuild = useSimd ? 'simd' : 'scalar';
    // Two literal import() calls so the bundler emits both builds as chunks.
    const factory = useSimd
      ? (await import('../wasm/attn_simd.js')).default
      : (await import('../wasm/attn_scalar.js')).default;
    return factory();
  })();
  // Let a failed load be retried instead of caching the rejection forever.
  modulePromise.catch(() => {
    modulePromise = null;
    loadedBuild = null;
  });
  return modulePromise;
}
