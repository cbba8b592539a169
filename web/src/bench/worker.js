// Benchmark worker: loads every build of the benchmarks' core module the
// browser can run (scalar; SIMD128 and relaxed SIMD where it has them) and measures every case of the grid in
// each (a case's builds interleaved), with an event per finished cell, so the page stays responsive and
// shows progress. One op over core/rpc.js, run(samples), which resolves with
// the number of cells when all are done. Events: plan {cases, builds}, cell
// {build, index, median, spread, samples}, peak {median, spread, samples} (the
// SIMD build's multiply-add rate from registers, measured last, when the
// browser has finished compiling the modules), fmaPeak {median, spread,
// samples} (the relaxed build's fused multiply-add rate, likewise).
import { resolveBuild, instantiate } from '../core/loader.js';
import { serve } from '../core/rpc.js';
import { measureInterleaved, summarize, PEAK_CASE } from './measure.js';

const emit = serve({
  async run(samples) {
    const best = await resolveBuild('auto');  // relaxed, simd or scalar: the fastest this browser validates
    const builds = best === 'scalar' ? ['scalar'] : ['scalar', 'simd'];
    if (best === 'relaxed') builds.push('relaxed');
    const modules = {};
    for (const b of builds) modules[b] = await instantiate('bench', b);
    const cases = JSON.parse(modules.scalar.benchCasesJson(false));
    emit('plan', { cases, builds });
    // Case by case, the builds' samples interleaved (measure.js): a drift in
    // the machine's speed falls on every build alike.
    for (let i = 0; i < cases.length; i++) {
      const gflops = measureInterleaved(builds.map((b) => [modules[b], cases[i]]), { samples });
      builds.forEach((b, j) => emit('cell', { build: b, index: i, ...summarize(gflops[j]) }));
    }
    const ceilings = [];
    if (modules.simd) ceilings.push(['peak', modules.simd, PEAK_CASE]);
    if (modules.relaxed) ceilings.push(['fmaPeak', modules.relaxed, { ...PEAK_CASE, kernel: 'fma_peak' }]);
    const rates = measureInterleaved(ceilings.map(([, M, c]) => [M, c]), { samples });
    ceilings.forEach(([event], j) => emit(event, summarize(rates[j])));
    return cases.length * builds.length;
  },
});
