// The one choice of build by feature detection, for the loader (workers) and
// for the presets table (which loads its module on the main thread): the
// relaxed-SIMD (FMA) build where the browser validates relaxed SIMD, else
// SIMD128 where it validates SIMD, else scalar. A forced build (?build=, read
// by build.js) is honoured where the browser can run it; where it cannot
// (?build=relaxed in Safari) the page would only show the engine's compile
// error, so it falls back to the build detection picks, and the footers,
// which name the build that runs, say which that is.
import { relaxedSimd, simd } from 'wasm-feature-detect';

const CAN_RUN = { relaxed: () => relaxedSimd(), simd: () => simd(), scalar: async () => true };

/** 'relaxed' | 'simd' | 'scalar' for a requested build ('auto' or one of those). */
export async function detectBuild(build = 'auto') {
  if (build !== 'auto') {
    if (await CAN_RUN[build]?.()) return build;
    console.warn(`attnlab: this browser cannot run the ${build} build; using the one it can`);
  }
  if (await relaxedSimd()) return 'relaxed';
  return (await simd()) ? 'simd' : 'scalar';
}

/** Whether this browser validates relaxed SIMD (the relaxed build can run). */
export const hasRelaxedSimd = () => relaxedSimd();
