// Benchmark worker: loads every build of the benchmarks' core module the
// browser can run (scalar; SIMD128 and relaxed SIMD where it has them) and measures every case of the grid in
// each, with an event per finished cell, so the page stays responsive and
// shows progress. One op over core/rpc.js, run(samples), which resolves with
// the number of cells when all are done. Events: plan {cases, builds}, cell
// {build, index, median, spread, samples}, peak {median, spread, samples} (the
// SIMD build's multiply-add rate from registers, measured last, when the
// browser has finished compiling the modules), fmaPeak {median, spread,
// samples} (the relaxed build's fused multiply-add rate, likewise).
import { resolveBuild, instantiate, hasRelaxedSimd } from '../core/loader.js';
import { serve } from '../core/rpc.js';
import { measureCase, summarize, PEAK_CASE } from './measure.js';

const emit = serve({
  async run(samples) {
    const builds = (await resolveBuild('auto')) === 'simd' ? ['scalar', 'simd'] : ['scalar'];
    if (builds.includes('simd') && (await hasRelaxedSimd())) builds.push('relaxed');
    const modules = {};
    for (const b of builds) modules[b] = await instantiate('bench', b);
    const cases = JSON.parse(modules.scalar.benchCasesJson(false));
    emit('plan', { cases, builds });
    for (const b of builds) {
      for (let i = 0; i < cases.length; i++) {
        const gflops = measureCase(modules[b], cases[i], { samples });
        emit('cell', { build: b, index: i, ...summarize(gflops) });
      }
    }
    if (modules.simd) {
      const peak = measureCase(modules.simd, PEAK_CASE, { samples });
      emit('peak', summarize(peak));
    }
    if (modules.relaxed) {
      const fma = measureCase(modules.relaxed, { ...PEAK_CASE, kernel: 'fma_peak' }, { samples });
      emit('fmaPeak', summarize(fma));
    }
    return cases.length * builds.length;
  },
});
