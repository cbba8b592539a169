// Thin JS wrapper over the core's Embind API. Arrays cross into wasm memory as
// one set() and come back as one slice(); every allocation is freed in
// `finally`. The core returns errors as strings (never throws): here a
// non-empty error becomes `throw new Error(message)`.
//
// Module.HEAPF64 / HEAPF32 are re-read after each core call: a call may grow
// the memory, which replaces the underlying buffer and detaches old views.
//
// Usage: const attn = createAttn(await loadModule()); attn.softmaxStats([14, 10, 12], 8)

function check(error) {
  if (error) throw new Error(error);
}

/** Allocate `bytes` (at least 1) and run fn(ptr); always free. */
function withAlloc(M, sizes, fn) {
  const ptrs = [];
  try {
    for (const bytes of sizes) {
      const p = M._malloc(Math.max(bytes, 8));
      if (!p) throw new Error(`out of wasm memory (asked for ${bytes} bytes)`);
      ptrs.push(p);
    }
    return fn(...ptrs);
  } finally {
    for (const p of ptrs) M._free(p);
  }
}

function toF64(xs) {
  return xs instanceof Float64Array ? xs : Float64Array.from(xs);
}
function toF32(xs) {
  return xs instanceof Float32Array ? xs : Float32Array.from(xs);
}

/**
 * probs = softmax(scores / divisor), with the statistics that show saturation.
 * @param {number[]|Float64Array} scores
 * @param {number} divisor
 * @returns {{probs: Float64Array, scaled: Float64Array, entropy: number, maxProb: number,
 *   jacobianNorm: number, argmax: number}}  scaled = scores / divisor, from the core
 */
function softmaxStats(M, scores, divisor) {
  const s = toF64(scores);
  const n = s.length;
  return withAlloc(M, [n * 8, n * 8, n * 8], (sp, pp, cp) => {
    M.HEAPF64.set(s, sp / 8);
    const r = M.softmaxStats(sp, n, divisor, pp, cp);
    check(r.error);
    const probs = M.HEAPF64.slice(pp / 8, pp / 8 + n);
    const scaled = M.HEAPF64.slice(cp / 8, cp / 8 + n);
    return { probs, scaled, entropy: r.entropy, maxProb: r.maxProb, jacobianNorm: r.jacobianNorm, argmax: r.argmax };
  });
}

/**
 * The number that scores are divided by.
 * @param {string} text  'sqrt' | 'dk' | a positive number such as '1' or '8'
 * @param {number} dk
 * @returns {{value: number, label: string}}
 */
function resolveDivisor(M, text, dk) {
  const r = M.resolveDivisor(String(text), dk);
  check(r.error);
  return { value: r.value, label: r.label };
}

/**
 * One row of raw scores q·k_j, j < m, for random N(0,1) vectors q, k_j in R^dk.
 * @returns {Float32Array} length m
 */
function sampleScoreRow(M, dk, m, seed) {
  if (!(Number.isInteger(m) && m >= 1)) throw new Error(`m must be a positive integer, got ${m}`);
  return withAlloc(M, [m * 4], (sp) => {
    check(M.sampleScoreRow(dk, m, seed, sp));
    return M.HEAPF32.slice(sp / 4, sp / 4 + m);
  });
}

/**
 * out = softmax(Q Kᵀ / divisor) V. Q is n×dk, K is m×dk, V is m×dv, row-major.
 * @returns {{weights: Float32Array, out: Float32Array}}  n×m and n×dv
 */
function attentionForward(M, { q, k, v, n, m, dk, dv, divisor }) {
  const Q = toF32(q), K = toF32(k), V = toF32(v);
  const sizes = [n * dk, m * dk, m * dv, n * m, n * dv];
  if (!sizes.every((x) => Number.isInteger(x) && x >= 1))
    throw new Error(`n, m, dk and dv must be positive integers, got ${n}, ${m}, ${dk}, ${dv}`);
  if (Q.length !== sizes[0] || K.length !== sizes[1] || V.length !== sizes[2])
    throw new Error(`q, k, v must hold n*dk, m*dk, m*dv = ${sizes.slice(0, 3).join(', ')} numbers`);
  return withAlloc(M, sizes.map((x) => x * 4), (qp, kp, vp, wp, op) => {
    M.HEAPF32.set(Q, qp / 4);
    M.HEAPF32.set(K, kp / 4);
    M.HEAPF32.set(V, vp / 4);
    check(M.attentionForward(qp, kp, vp, n, m, dk, dv, divisor, wp, op));
    const H = M.HEAPF32;
    return { weights: H.slice(wp / 4, wp / 4 + n * m), out: H.slice(op / 4, op / 4 + n * dv) };
  });
}

/** @returns {{simd: boolean, dotKernel: string}} */
function buildInfo(M) {
  const r = M.buildInfo();
  return { simd: r.simd, dotKernel: r.dotKernel };
}

/**
 * The core's API bound to one loaded Module. Every function throws Error(message)
 * when the core reports an error.
 * @param {object} M  the Emscripten Module from loadModule()
 */
export function createAttn(M) {
  return {
    softmaxStats: (scores, divisor) => softmaxStats(M, scores, divisor),
    resolveDivisor: (text, dk) => resolveDivisor(M, text, dk),
    sampleScoreRow: (dk, m, seed) => sampleScoreRow(M, dk, m, seed),
    attentionForward: (args) => attentionForward(M, args),
    buildInfo: () => buildInfo(M),
  };
}
