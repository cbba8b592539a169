// Benchmark worker: loads BOTH builds of the benchmarks' core module (scalar,
// and SIMD128 where the browser has it) and measures every case of the grid in
// each, with an event per finished cell, so the page stays responsive and
// shows progress. One op over core/rpc.js, run(samples), which resolves with
// the number of cells when all are done. Events: plan {cases, builds}, cell
// {build, index, median, spread, samples}, peak {median, spread, samples} (the
// SIMD build's multiply-add rate from registers, measured last, when the
// browser has finished compiling the modules).
import { resolveBuild, instantiate } from '../core/loader.js';
import { serve } from '../core/rpc.js';
import { measureCase, summarize, PEAK_CASE } from './measure.js';

const emit = serve({
  async run(samples) {
    const builds = (await resolveBuild('auto')) === 'simd' ? ['scalar', 'simd'] : ['scalar'];
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
    return cases.length * builds.length;
  },
});
