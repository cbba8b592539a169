// A training worker of the lab: its own instance of the wasm core, holding one
// or more TrainSessions (runs). Runs step in batches sized so one core call
// takes about TARGET_MS; between batches the worker yields to its message
// queue, so pause, resume and drop act within one batch. Runs held by one
// worker take turns batch by batch, so their curves grow together.
//
// Page -> worker
//   {type: 'init', build}                              load the core ('auto' | 'simd' | 'scalar'), then
//                                                      warm it up (a few steps of a small run)
//   {type: 'call', id, op, args}                       ops: validate([options]), referenceLr(opt, dk, dModel),
//                                                      qk(runId, samples)
//   {type: 'start', runId, options, steps, mapEvery, evalSamples, keep}
//   {type: 'pause' | 'resume' | 'drop', runId}
// Worker -> page
//   {type: 'ready', simd, kernel} | {type: 'load-failed', error}
//   {type: 'reply', id, ok, result | error, argument}
//   {type: 'configured', runId, init, columns, divisorValue, map}
//   {type: 'rows', runId, rows: Float64Array, latest: Float64Array, stepsDone, busyMs, map?}
//   {type: 'paused', runId, stepsDone}                (after the last batch: every earlier row has been posted)
//   {type: 'done', runId, eval, stepsTo90, busyMs}
//   {type: 'failed', runId, error, argument}
// A map is {step, weights: Float32Array [examples x heads x seq], labels: Int32Array, shape}.
// Typed arrays are copied out of wasm memory (the core's views die at the
// next call) and transferred, not cloned.
import { loadModule } from '../core/loader.js';

const TARGET_MS = 40;
const MAX_BATCH = 50;

let M = null;
let loading = null;
const runs = new Map();  // runId -> run state
let looping = false;

const post = (msg, transfer = []) => self.postMessage(msg, transfer);

// A macrotask without setTimeout's clamping: queued messages run in between.
const channel = new MessageChannel();
const wakers = [];
channel.port1.onmessage = () => wakers.shift()?.();
const nextTask = () => new Promise((resolve) => {
  wakers.push(resolve);
  channel.port2.postMessage(0);
});

function captureMap(r) {
  const m = r.s.attentionMaps();
  if (m.error) return null;
  const weights = r.s.mapWeights().slice();
  const labels = r.s.mapLabels().slice();
  return { step: r.done, weights, labels, shape: { examples: m.samples, heads: m.heads, seq: m.seq } };
}
const mapTransfer = (map) => (map ? [map.weights.buffer, map.labels.buffer] : []);

function fail(r, error) {
  post({ type: 'failed', runId: r.id, error, argument: r.s.errorArgument() });
  drop(r.id);
}

function drop(runId) {
  const r = runs.get(runId);
  if (!r) return;
  runs.delete(runId);
  r.s.delete();
}

function start({ runId, options, steps, mapEvery, evalSamples, keep }) {
  const s = new M.TrainSession();
  const error = s.configure(options);
  if (error) {
    post({ type: 'failed', runId, error, argument: s.errorArgument() });
    s.delete();
    return;
  }
  const r = {
    id: runId, s, steps, mapEvery, evalSamples, keep, done: 0, rowsSent: 0, batch: 1, busyMs: 0,
    nextMap: mapEvery, paused: false, finished: false,
  };
  runs.set(runId, r);
  const init = s.initStats();
  const map = captureMap(r);
  post({
    type: 'configured', runId, init, columns: JSON.parse(s.columnsJson()), divisorValue: s.divisorValue(), map,
  }, mapTransfer(map));
  loop();
}

// One batch of steps of run r, and its new rows.
function stepBatch(r) {
  const n = Math.max(1, Math.min(r.batch, r.steps - r.done, r.nextMap - r.done));
  const t0 = performance.now();
  const error = r.s.step(n);
  const ms = performance.now() - t0;
  if (error) return fail(r, error);
  r.done += n;
  r.busyMs += ms;
  // Aim the next call at TARGET_MS (the first call is one step: the first point comes at once).
  r.batch = Math.max(1, Math.min(MAX_BATCH, Math.floor((TARGET_MS * n) / Math.max(ms, 0.01))));
  const rows = r.s.metrics(r.rowsSent).slice();
  r.rowsSent = r.s.rowCount();
  const latest = r.s.latest().slice();
  let map = null;
  if (r.done >= r.nextMap || r.done >= r.steps) {
    map = captureMap(r);
    r.nextMap = r.done + r.mapEvery;
  }
  post({ type: 'rows', runId: r.id, rows, latest, stepsDone: r.done, busyMs: r.busyMs, map },
    [rows.buffer, latest.buffer, ...mapTransfer(map)]);
  if (r.done >= r.steps) finish(r);
}

function finish(r) {
  r.finished = true;
  const t0 = performance.now();
  const ev = r.s.evaluate(r.evalSamples);
  r.busyMs += performance.now() - t0;
  if (ev.error) return fail(r, ev.error);
  post({
    type: 'done', runId: r.id, stepsTo90: r.s.stepsTo90(), busyMs: r.busyMs,
    eval: { samples: ev.samples, loss: ev.loss, accuracy: ev.accuracy, attnCorrect: ev.attnCorrect },
  });
  if (!r.keep) drop(r.id);
}

async function loop() {
  if (looping) return;
  looping = true;
  try {
    for (;;) {
      const active = [...runs.values()].filter((r) => !r.paused && !r.finished);
      if (active.length === 0) break;
      for (const r of active) {
        // A message handled during the last yield may have paused or dropped it.
        if (runs.get(r.id) !== r || r.paused || r.finished) continue;
        stepBatch(r);
        await nextTask();
      }
    }
  } finally {
    looping = false;
  }
}

// V8 first runs wasm in its baseline compiler and tiers hot functions up in
// the background: a few steps of a small run at load, so a reader's first
// click meets optimised kernels.
function warmUp() {
  const s = new M.TrainSession();
  try {
    const error = s.configure({
      task: 'recall', dk: 64, heads: 2, dModel: 64, dv: 32, divisor: 'sqrt', optimizer: 'adam', lr: 1e-3,
      init: 'lecun', batch: 64, seed: 0, logEvery: 5,
    });
    if (!error) {
      s.step(12);
      s.attentionMaps();
    }
  } finally {
    s.delete();
  }
}

const OPS = {
  // One throwaway session: the core's message and argument for each options object.
  validate(list) {
    const s = new M.TrainSession();
    try {
      return list.map((options) => {
        const error = s.configure(options);
        return { error, argument: s.errorArgument() };
      });
    } finally {
      s.delete();
    }
  },
  referenceLr(optimizer, dk, dModel) {
    const r = M.trainReferenceLr(String(optimizer), dk, dModel);
    return { error: r.error, lr: r.lr };
  },
  // q and k of a fixed batch of the run, as it is now (before QK-LayerNorm), and its logits.
  qk(runId, samples) {
    const r = runs.get(runId);
    if (!r) throw new Error('this run is no longer held by its worker');
    const shape = r.s.qkSnapshot(samples);
    if (shape.error) throw new Error(shape.error);
    return {
      step: r.done, samples: shape.samples, heads: shape.heads, seq: shape.seq, dk: shape.dk,
      q: r.s.snapshotQ().slice(), k: r.s.snapshotK().slice(), logits: r.s.snapshotLogits().slice(),
    };
  },
};

function reply(id, fn) {
  try {
    const result = fn();
    const transfer = Array.isArray(result) ? [] : Object.values(result).filter(ArrayBuffer.isView).map((v) => v.buffer);
    post({ type: 'reply', id, ok: true, result }, transfer);
  } catch (e) {
    post({ type: 'reply', id, ok: false, error: e instanceof Error ? e.message : String(e) });
  }
}

self.onmessage = async ({ data }) => {
  if (data.type === 'init') {
    loading ??= loadModule(data.build);
    try {
      M = await loading;
      const info = M.buildInfo();
      post({ type: 'ready', simd: info.simd, kernel: info.dotKernel });
      warmUp();
    } catch (e) {
      loading = null;
      post({ type: 'load-failed', error: e instanceof Error ? e.message : String(e) });
    }
    return;
  }
  if (!M) await loading?.catch(() => {});  // messages sent right after init wait for the module
  if (!M) {
    const error = 'the WebAssembly core is not loaded';
    if (data.type === 'call') post({ type: 'reply', id: data.id, ok: false, error });
    if (data.type === 'start') post({ type: 'failed', runId: data.runId, error, argument: '' });
    return;
  }
  const r = runs.get(data.runId);
  switch (data.type) {
    case 'call':
      reply(data.id, () => {
        if (!Object.hasOwn(OPS, data.op)) throw new Error(`unknown op "${data.op}"`);
        return OPS[data.op](...data.args);
      });
      break;
    case 'start':
      start(data);
      break;
    case 'pause':
      if (r) {
        r.paused = true;
        post({ type: 'paused', runId: r.id, stepsDone: r.done });
      }
      break;
    case 'resume':
      if (r) {
        r.paused = false;
        loop();
      }
      break;
    case 'drop':
      drop(data.runId);
      break;
    default:
      break;
  }
};
