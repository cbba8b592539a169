// The one choice of build by feature detection, for the loader (workers) and
// for the presets table (which loads its module on the main thread): the
// relaxed-SIMD (FMA) build where the browser validates relaxed SIMD, else
// SIMD128 where it validates SIMD, else scalar. A forced build (?build=, read
// by build.js) is returned as it is.
import { relaxedSimd, simd } from 'wasm-feature-detect';

/** 'relaxed' | 'simd' | 'scalar' for a requested build ('auto' or one of those). */
export async function detectBuild(build = 'auto') {
  if (build !== 'auto') return build;
  if (await relaxedSimd()) return 'relaxed';
  return (await simd()) ? 'simd' : 'scalar';
}

/** Whether this browser validates relaxed SIMD (the relaxed build can run). */
export const hasRelaxedSimd = () => relaxedSimd();
