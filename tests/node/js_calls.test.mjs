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

for (const variant of ['relaxed', 'simd', 'scalar']) {
  test(`${variant}: the benchmarks' dot product loop makes no call into JS per iteration`, async () => {
    const { M, calls } = await loadCountingImports('bench', variant);
    const iters = 2000;
    M.benchRun('dot', 64, 0, 100);  // first-call set-up (the timer's imports) out of the count
    const before = calls.n;
    const r = M.benchRun('dot', 64, 0, iters);
    assert.equal(r.error, '');
    const made = calls.n - before;
    // The clock and the inputs' set-up: a few dozen calls, whatever iters is.
    assert.ok(made < iters / 20, `${made} calls into JS for ${iters} dot products`);
  });
}
