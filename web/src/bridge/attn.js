// Thin JS wrapper over the explainer's core module (and the benchmarks'
// attention forward), cpp/wasm/; the checker's is attn-check.js, kept apart
// so no widget's worker bundles it. Arrays cross into wasm memory as one set()
// and come back as one slice(); every allocation is freed in `finally`. Every
// fallible core call returns {error, argument, kind, params} (or a result
// holding them): here a non-empty error becomes an Error whose .argument names
// the bad argument and whose .kind and .params (an object) let the page write
// its own sentence (errors.js).
//
// Module.HEAPF64 / HEAPF32 are re-read after each core call: a call may grow
// the memory, which replaces the underlying buffer and detaches old views.
//
import { requireNumber, requireNumbers, requireObject, requireString } from './arg-types.js';
import { buildInfo, check, withAlloc } from './wasm-call.js';

// Usage: const attn = createAttn(await loadModule('explain')); attn.softmaxStats([14, 10, 12], 8)

// The wrapper checks its callers' types before anything reaches the core or
// is allocated (arg-types.js): a string is not an array of scores ("1012"
// would be read as [1, 0, 1, 2]), and a number where the core wants a string
// leaks the strings Embind had already converted.

/** Each field of o must be a number (named by its key). */
function requireNumberFields(o) {
  for (const k in o) requireNumber(k, o[k]);
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
  requireNumbers('scores', scores);
  requireNumber('divisor', divisor);
  const s = toF64(scores);
  const n = s.length;
  return withAlloc(M, [n * 8, n * 8, n * 8], (sp, pp, cp) => {
    M.HEAPF64.set(s, sp / 8);
    const { stats } = check(M.softmaxStats(sp, n, divisor, pp, cp));
    const probs = M.HEAPF64.slice(pp / 8, pp / 8 + n);
    const scaled = M.HEAPF64.slice(cp / 8, cp / 8 + n);
    return { probs, scaled, ...stats };
  });
}

/**
 * The number that scores are divided by.
 * @param {string} text  'sqrt' | 'dk' | a positive number such as '1' or '8'
 * @param {number} dk
 * @returns {{value: number, label: string}}
 */
function resolveDivisor(M, text, dk) {
  requireString('divisor', text);
  requireNumber('dk', dk);
  const r = check(M.resolveDivisor(text, dk));
  return { value: r.value, label: r.label };
}

/**
 * One row of raw scores q·k_j, j < m, for random N(0,1) vectors q, k_j in R^dk.
 * @returns {Float32Array} length m
 */
function sampleScoreRow(M, dk, m, seed) {
  requireNumberFields({ dk, m, seed });
  // The core's limits, from the shape alone, before the row's buffer exists.
  check(M.checkScoreRow(dk, m));
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
  // Only the benchmarks' module has it (cpp/wasm/attention_bindings.cpp): no widget calls it.
  if (typeof M.attentionForward !== 'function') throw new Error('this core module has no attention forward (it is in the benchmarks\' module)');
  requireNumberFields({ n, m, dk, dv, divisor });
  for (const [name, x] of [['q', q], ['k', k], ['v', v]]) requireNumbers(name, x);
  // The core's limits, from the shapes alone, before any buffer exists.
  check(M.checkAttentionShape(n, m, dk, dv));
  const Q = toF32(q), K = toF32(k), V = toF32(v);
  // (checkAttentionShape has refused any n, m, dk, dv that is not a whole number from 1.)
  const sizes = [n * dk, m * dk, m * dv, n * m, n * dv];
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

// Sessions that live in the module between calls (QkSession,
// SaturationSession), so a widget can draw batch after batch and show
// running results computed by the core. Ids are shared by both kinds.
const sessions = new Map();
let nextSession = 1;

function openSession(s, status) {
  if (status.error) {
    s.delete();
    check(status);
  }
  const id = nextSession++;
  sessions.set(id, s);
  return id;
}

function session(id) {
  requireNumber('session', id);
  const s = sessions.get(id);
  if (!s) throw new Error(`no Monte Carlo session ${id}`);
  return s;
}

function closeSession(id) {
  const s = sessions.get(id);
  if (s) {
    s.delete();
    sessions.delete(id);
  }
  return true;
}

/**
 * Softmax saturation at one d_k: rows of m scores q·k_j drawn in batches;
 * every divisor is applied to the same sampled scores.
 * @param {{dk: number, m: number, seed: number, divisors: number[]}} opts  divisors resolved, e.g. [1, 2, 8, 64]
 * @returns {number} a session id for satDraw / satClose
 */
function satOpen(M, opts) {
  const { dk, m, seed } = requireObject('options', opts);
  requireNumberFields({ dk, m, seed });
  const d = toF64(requireNumbers('divisors', opts.divisors));
  return withAlloc(M, [d.length * 8], (dp) => {
    M.HEAPF64.set(d, dp / 8);
    const s = new M.SaturationSession();
    s.divisors = Float64Array.from(d);  // for satDraw's layout
    return openSession(s, s.configure(dk, m, seed, dp, d.length));
  });
}

/**
 * Draw `rows` more rows (0 draws none); the running mean and standard error
 * of each statistic over every row so far, per divisor, from the core. From
 * the presets' module, whose session keeps the distribution over rows, each
 * divisor also has `dist`: the core's further numbers in its layout
 * (cpp/wasm/saturation_js.h; read by widgets/saturation-dist.js).
 * @returns {{rows: number, stats: {divisor, maxProb: {mean, se}, entropy: {mean, se}, jacobianNorm: {mean, se}, dist?: number[]}[]}}
 */
function satDraw(M, id, rows) {
  const s = session(id);
  requireNumber('rows', rows);
  if (rows > 0) check(s.draw(rows));
  const n = s.divisors;
  const per = s.perDivisor();
  return withAlloc(M, [n.length * per * 8], (op) => {
    check(s.stats(op));
    const o = M.HEAPF64.slice(op / 8, op / 8 + n.length * per);
    return {
      rows: s.rows(),
      stats: Array.from(n, (divisor, c) => ({
        divisor,
        maxProb: { mean: o[per * c], se: o[per * c + 1] },
        entropy: { mean: o[per * c + 2], se: o[per * c + 3] },
        jacobianNorm: { mean: o[per * c + 4], se: o[per * c + 5] },
        ...(per > 6 && { dist: Array.from(o.subarray(per * c + 6, per * (c + 1))) }),
      })),
    };
  });
}

/**
 * Monte Carlo of q·k (QkSession in the bindings).
 * @param {{dk, divisor, rho, sigmaQ, sigmaK, seed, bins}} opts  divisor is a number
 * @returns {number} a session id for qkDraw / qkClose
 */
const QK_DEFAULTS = { dk: 64, divisor: 8, rho: 0, sigmaQ: 1, sigmaK: 1, seed: 0, bins: 64 };
function qkOpen(M, opts = {}) {
  const o = { ...QK_DEFAULTS, ...requireObject('options', opts) };
  requireNumberFields(o);
  const s = new M.QkSession();
  return openSession(s, s.configure(o));
}

/**
 * Draw `count` more samples (0 draws none) and return the running results.
 * @returns {{summary: object, histogram: Float64Array, proofMeans: Float64Array}}
 */
function qkDraw(M, id, count) {
  const s = session(id);
  requireNumber('samples', count);
  if (count > 0) check(s.draw(count));
  const { summary } = check(s.summary());
  // The views point into wasm memory: copy them before the next call.
  return { summary, histogram: s.histogram().slice(), proofMeans: s.proofMeans().slice() };
}

/** One-shot Monte Carlo: open, draw `samples`, return the summary, close. */
function qkSummary(M, opts, samples) {
  requireObject('options', opts);
  requireNumber('samples', samples);
  const id = qkOpen(M, { bins: 1, ...opts });
  try {
    return qkDraw(M, id, samples).summary;
  } finally {
    closeSession(id);
  }
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
    qkOpen: (opts) => qkOpen(M, opts),
    qkDraw: (id, count) => qkDraw(M, id, count),
    qkClose: (id) => closeSession(id),
    satOpen: (opts) => satOpen(M, opts),
    satDraw: (id, rows) => satDraw(M, id, rows),
    satClose: (id) => closeSession(id),
    qkSummary: (opts, samples) => qkSummary(M, opts, samples),
  };
}
