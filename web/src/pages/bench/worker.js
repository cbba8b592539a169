// Benchmark worker: loads every build of the benchmarks' core module the
// browser can run (scalar; SIMD128 and relaxed SIMD where it has them) and measures every case of the grid in
// each (a case's builds interleaved), with an event per finished cell, so the page stays responsive and
// shows progress. One op over bridge/rpc.js, run(samples), which resolves with
// the number of cells when all are done. Events: plan {cases, builds}, cell
// {build, index, median, spread, samples}, peaks {scalar, simd?, relaxed?:
// {peak, kernel, median, samples}} at the end: each build's ceiling, the
// fastest sample of its register-only loops, sampled through the run (before
// the first case, in the middle of each case's samples and after the last;
// measure.js, ceilingSampler).
import { resolveBuild, instantiate } from '../../bridge/loader.js';
import { serve } from '../../bridge/rpc.js';
import { ceilingSampler, measureInterleaved, summarize } from './measure.js';

const emit = serve({
  async run(samples) {
    const best = await resolveBuild('auto');  // relaxed, simd or scalar: the fastest this browser validates
    const builds = best === 'scalar' ? ['scalar'] : ['scalar', 'simd'];
    if (best === 'relaxed') builds.push('relaxed');
    const modules = {};
    for (const b of builds) modules[b] = await instantiate('bench', b);
    const cases = JSON.parse(modules.scalar.benchCasesJson(false));
    emit('plan', { cases, builds });
    const ceilings = ceilingSampler(modules);
    ceilings.take();
    // Case by case, the builds' samples interleaved (measure.js): a drift in
    // the machine's speed falls on every build alike, and on the ceilings.
    for (let i = 0; i < cases.length; i++) {
      const gflops = measureInterleaved(builds.map((b) => [modules[b], cases[i]]), { samples, midway: ceilings.take });
      builds.forEach((b, j) => emit('cell', { build: b, index: i, ...summarize(gflops[j]) }));
    }
    ceilings.take();
    emit('peaks', ceilings.peaks());
    return cases.length * builds.length;
  },
});
