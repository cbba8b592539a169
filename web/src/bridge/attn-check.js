// Thin JS wrapper over the checker's core module (cpp/wasm/checker_bindings.cpp),
// for check.html alone: its own worker (check-worker.js) bundles it, the
// explainer's worker and the embedded widgets never do. Same conventions as
// attn.js: bytes cross into wasm memory as one set() each, every allocation
// is freed, a core error becomes an Error with .argument, .kind, .params.
import { requireBytes, requireNumber, requireObject, requireString, typeError } from './arg-types.js';
import { buildInfo, check, withAlloc } from './wasm-call.js';

// Usage: const c = createCheckAttn(await loadModule('check')); c.checkTensors([{name: 'qk.npz', bytes}])

/** @returns {{maxFileBytes, maxValues, maxHeads, maxSeqLen, maxDk}} the checker's limits, from the core */
function checkLimits(M) {
  return { ...M.checkLimits() };
}

/**
 * The checker of a user's q and k (cpp/core/checker/check_run.h, as `attnlab check`):
 * the bytes of one file holding both, or of two files (q, then k), and
 * optionally of the model's logits or probabilities, copied into wasm memory
 * once and checked in one call.
 * @param {{name: string, bytes: ArrayBuffer|Uint8Array}[]} files  one or two
 * @param {{divisor?: string, preset?: string, format?: string, q?: string, k?: string, sequences?: number,
 *   scores?: {name: string, bytes: ArrayBuffer|Uint8Array, kind: 'logits'|'probs'}}} [options]
 *   divisor the model uses ('sqrt', 'dk' or a number; none beside a preset;
 *   absent or '': an .npz's own "divisor" array, else √d_k, as the CLI),
 *   preset (a name of checkPresets(): its divisor, d_k and soft-cap), format
 *   ('auto' picks by name, then by content), array names in an .npz / JSON
 *   object / CSV, sequences stacked in q and k (0: an .npz's "sequences"
 *   array, else 1), scores: the model's own (--logits / --probs FILE)
 * @returns {object} the report, the same JSON as `attnlab check` prints
 */
function checkTensors(M, files, options = {}) {
  if (!Array.isArray(files) || files.length < 1 || files.length > 2) throw typeError('files', 'files', files);
  for (const f of files) {
    requireObject('files', f);
    if (f.name !== undefined) requireString('name', f.name);
    requireBytes('bytes', f.bytes);
  }
  requireObject('options', options);
  for (const key of ['divisor', 'preset', 'format', 'q', 'k']) if (options[key] !== undefined) requireString(key, options[key]);
  if (options.sequences !== undefined) requireNumber('sequences', options.sequences);
  const scores = options.scores;
  if (scores !== undefined) {
    requireObject('scores', scores);
    if (scores.name !== undefined) requireString('name', scores.name);
    requireString('scores', scores.kind);
    requireBytes('bytes', scores.bytes);
  }
  const all = scores ? [...files, scores] : files;
  const views = all.map((f) => (f.bytes instanceof Uint8Array ? f.bytes : new Uint8Array(f.bytes)));
  const sizes = [views[0].length, files.length === 2 ? views[1].length : 0, scores ? views[views.length - 1].length : 0];
  return withAlloc(M, sizes, (p1, p2, p3) => {
    M.HEAPU8.set(views[0], p1);
    if (files.length === 2) M.HEAPU8.set(views[1], p2);
    if (scores) M.HEAPU8.set(views[views.length - 1], p3);
    const r = check(M.checkTensors(p1, sizes[0], files.length === 2 ? p2 : 0, sizes[1], scores ? p3 : 0, sizes[2], {
      fileName: files[0].name ?? '', fileName2: files[1]?.name ?? '', fileName3: scores?.name ?? '',
      format: options.format ?? 'auto', preset: options.preset ?? '',
      divisor: options.divisor ?? '', scores: scores?.kind ?? '',
      q: options.q ?? 'q', k: options.k ?? 'k', sequences: options.sequences ?? 0,
    }));
    return JSON.parse(r.json);
  });
}

/** @returns {{presets: object[]}} every preset as `attnlab presets` prints it (base/presets.h) */
function checkPresets(M) {
  return M.checkPresets();
}

/**
 * The checker's API bound to one loaded Module (the check feature's).
 * @param {object} M  the Emscripten Module from loadModule('check')
 */
export function createCheckAttn(M) {
  return {
    buildInfo: () => buildInfo(M),
    checkTensors: (files, options) => checkTensors(M, files, options),
    checkLimits: () => checkLimits(M),
    checkPresets: () => checkPresets(M),
  };
}
