// A kernel call inside the wasm stays inside the wasm. Under -fexceptions,
// emscripten routes a call made in a C++ scope with destructors through a JS
// invoke_* trampoline; emcc's own link (SIMD128, scalar) runs binaryen's
// --post-emscripten, which makes such a call direct where the callee cannot
// throw, and the relaxed build's wasm-opt step must run it too
// (cpp/CMakeLists.txt): without it the relaxed benchmarks' dot product went
// to JS and back on every call (2 JS calls an iteration, 0.42x SIMD128's speed
// at n = 64). Counted here by wrapping every function the module imports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import { loadWasm } from './paths.mjs';

// Node 20 validates relaxed SIMD only behind this flag.
v8.setFlagsFromString('--experimental-wasm-relaxed-simd');

async function loadCountingImports(feature, variant) {
  const calls = { n: 0 };
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = (bytes, imports) => {
    for (const mod of Object.values(imports))
      for (const [name, fn] of Object.entries(mod))
        if (typeof fn === 'function') mod[name] = (...args) => { calls.n++; return fn(...args); };
    return instantiate(bytes, imports);
  };
  try {
    return { M: await loadWasm(feature, variant), calls };
  } finally {
    WebAssembly.instantiate = instantiate;
  }
}

// The benchmark loops of every kernel: before time_loop was kept out of
// run_seconds (cpp/bench/kernel_bench.cpp), SIMD128's Q·Kᵀ and attention loops
// went to JS and back on every call (an invoke_ trampoline a call).
const CASES = [['dot', 64, 0], ['qk', 16, 64], ['attention', 16, 64]];

for (const variant of ['relaxed', 'simd', 'scalar']) {
  test(`${variant}: the benchmarks' kernel loops make no call into JS per iteration`, async () => {
    const { M, calls } = await loadCountingImports('bench', variant);
    const iters = 2000;
    for (const [kernel, n, d] of CASES) {
      M.benchRun(kernel, n, d, 100);  // first-call set-up (the timer's imports) out of the count
      const before = calls.n;
      const r = M.benchRun(kernel, n, d, iters);
      assert.equal(r.error, '');
      const made = calls.n - before;
      // The clock and the inputs' set-up: a few dozen calls, whatever iters is.
      assert.ok(made < iters / 20, `${kernel}: ${made} calls into JS for ${iters} calls of the kernel`);
    }
  });
}
