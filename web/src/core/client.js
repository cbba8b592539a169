// Main-thread side of the core worker: call(op, args) -> Promise of the result.
// One worker, created on the first call. Ops and their args are those of
// createAttn() in attn.js, e.g. call('softmaxStats', [[14, 10, 12], 8]).
// A rejected promise carries the core's message as Error.message.

// The page URL's ?build=scalar|simd forces a wasm build (see loader.js); a
// worker cannot see the page URL, so it is read here and sent with 'init'.
// Kept out of loader.js so the page bundle holds no loader code.
function buildFromSearch(search) {
  const b = new URLSearchParams(search).get('build');
  return b === 'simd' || b === 'scalar' ? b : 'auto';
}

let worker = null;
let nextId = 1;
const pending = new Map();

function failAll(message) {
  for (const { reject } of pending.values()) reject(new Error(message));
  pending.clear();
}

function ensureWorker() {
  if (worker) return worker;
  worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'attn-core' });
  worker.onmessage = ({ data }) => {
    const p = pending.get(data.id);
    if (!p) return;
    pending.delete(data.id);
    if (data.ok) p.resolve(data.result);
    else p.reject(Object.assign(new Error(data.error), data.argument ? { argument: data.argument } : {}));
  };
  worker.onerror = (e) => {
    e.preventDefault();
    failAll(`the core worker failed: ${e.message || 'could not start'}`);
    worker.terminate();
    worker = null;
  };
  worker.onmessageerror = () => failAll('a message from the core worker could not be read');
  send('init', [buildFromSearch(globalThis.location?.search ?? '')]).catch(() => {});
  return worker;
}

function send(op, args, transfer) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, op, args }, transfer ?? []);
  });
}

/**
 * Run one core op in the worker.
 * @param {string} op  'softmaxStats' | 'resolveDivisor' | 'sampleScoreRow' | 'attentionForward' | 'buildInfo'
 *   | 'saturationPoint' | 'qkOpen' | 'qkDraw' | 'qkClose' | 'qkSummary'
 * @param {unknown[]} [args]  positional arguments of that op
 * @param {Transferable[]} [transfer]  buffers to hand over instead of copying
 * @returns {Promise<any>}
 */
export function call(op, args = [], transfer) {
  ensureWorker();
  return send(op, args, transfer);
}

/** Stop the worker; the next call starts a fresh one. */
export function terminate() {
  if (!worker) return;
  worker.terminate();
  worker = null;
  failAll('the core worker was stopped');
}

/** The object widgets receive in mount(element, client). */
export const client = { call, terminate };
