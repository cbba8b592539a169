// Module Worker that owns the wasm core, so no core call ever blocks the page.
// Protocol: request {id, op, args: []} -> reply {id, ok: true, result} or
// {id, ok: false, error: message}. Typed arrays in a result are transferred.
// The first request is {op: 'init', args: [build]} (see client.js, loader.js).
import { loadModule } from './loader.js';
import { createAttn } from './attn.js';

let attnPromise = null;
let build = 'auto';

function attn() {
  if (!attnPromise) {
    attnPromise = loadModule(build).then(createAttn);
    // A failed load must not stick: the next request tries again.
    attnPromise.catch(() => {
      attnPromise = null;
    });
  }
  return attnPromise;
}

const OPS = {
  init: async (b) => {
    build = b;
    return (await attn()).buildInfo();
  },
  buildInfo: async () => (await attn()).buildInfo(),
  softmaxStats: async (scores, divisor) => (await attn()).softmaxStats(scores, divisor),
  resolveDivisor: async (text, dk) => (await attn()).resolveDivisor(text, dk),
  sampleScoreRow: async (dk, m, seed) => (await attn()).sampleScoreRow(dk, m, seed),
  attentionForward: async (args) => (await attn()).attentionForward(args),
  saturationPoint: async (...a) => (await attn()).saturationPoint(...a),
  qkOpen: async (opts) => (await attn()).qkOpen(opts),
  qkDraw: async (id, count) => (await attn()).qkDraw(id, count),
  qkClose: async (id) => (await attn()).qkClose(id),
  qkSummary: async (opts, samples) => (await attn()).qkSummary(opts, samples),
  checkTensors: async (files, options) => (await attn()).checkTensors(files, options),
};

// Buffers of the typed arrays in a result (itself or its own fields).
function transferables(result) {
  const out = [];
  const add = (x) => {
    if (ArrayBuffer.isView(x) && !out.includes(x.buffer)) out.push(x.buffer);
  };
  add(result);
  if (result && typeof result === 'object' && !ArrayBuffer.isView(result))
    Object.values(result).forEach(add);
  return out;
}

self.onmessage = async ({ data }) => {
  const { id, op, args = [] } = data;
  try {
    const fn = Object.hasOwn(OPS, op) ? OPS[op] : null;
    if (!fn) throw new Error(`unknown op "${op}"`);
    const result = await fn(...args);
    self.postMessage({ id, ok: true, result }, transferables(result));
  } catch (e) {
    self.postMessage({ id, ok: false, error: e instanceof Error ? e.message : String(e), argument: e?.argument });
  }
};
