// Benchmark worker: loads BOTH core builds (scalar, and SIMD128 where the
// browser has it) and measures every case of the grid in each, posting a
// message per finished cell, so the page stays responsive and shows progress.
// Request: {samples}. Messages: {type:'plan', cases, builds}, {type:'cell', ...},
// {type:'peak', ...} (the SIMD build's multiply-add rate from registers, measured
// last, when the browser has finished compiling the modules), {type:'done'} or
// {type:'error', message}.
import { simd } from 'wasm-feature-detect';
import { measureCase, summarize, PEAK_CASE } from './measure.js';

async function load(build) {
  const factory = build === 'simd'
    ? (await import('../wasm/attn_simd.js')).default
    : (await import('../wasm/attn_scalar.js')).default;
  return factory();
}

self.onmessage = async ({ data }) => {
  try {
    const builds = (await simd()) ? ['scalar', 'simd'] : ['scalar'];
    const modules = {};
    for (const b of builds) modules[b] = await load(b);
    const cases = JSON.parse(modules.scalar.benchCasesJson(false));
    self.postMessage({ type: 'plan', cases, builds });
    for (const b of builds) {
      for (let i = 0; i < cases.length; i++) {
        const gflops = measureCase(modules[b], cases[i], { samples: data.samples });
        self.postMessage({ type: 'cell', build: b, index: i, ...summarize(gflops) });
      }
    }
    if (modules.simd) {
      const peak = measureCase(modules.simd, PEAK_CASE, { samples: data.samples });
      self.postMessage({ type: 'peak', ...summarize(peak) });
    }
    self.postMessage({ type: 'done' });
  } catch (e) {
    self.postMessage({ type: 'error', message: e instanceof Error ? e.message : String(e) });
  }
};
