// The lab's training ops, wherever they run: in a training worker (worker.js
// serves them over bridge/rpc.js) or, where a host page's CSP allows no worker
// (an embedded <attn-train-compare>), on the main thread (pool.js, through
// rpc.js connectLocal). They hold the lab's wasm core and one or more
// TrainSessions (runs). Runs step in batches sized so one core call takes
// about targetMs; between batches the loop yields a macrotask (a
// MessageChannel message, which works in a worker and on the main thread), so
// pause, resume and drop act within one batch, and on the main thread input
// and rendering run in between. Runs held by one set of ops take turns batch
// by batch, so their curves grow together.
//
// Ops (pool.js calls them):
//   init(build) -> {simd, kernel}     load the core ('auto' | 'simd' | 'scalar'), then warm it up
//   validate([options]) -> [{error, argument, kind, params}]  the core's verdict on each options object
//   referenceLr(opt, dk, dModel) -> {error, argument, kind, params, lr}
//   limits() -> {maxDk, maxHeads, maxStepsPerCall, maxSeed, initBandLow, initBandHigh, minCap, maxCap}   the core's trainLimits()
//   qk(runId, samples) -> {step, samples, heads, seq, dk, q, k, logits}
//   start({runId, options, steps, mapEvery, evalSamples, keep}), pause(runId), resume(runId), drop(runId)
// Events, each with its runId:
//   configured {init, columns, divisorValue, map}
//   rows {rows: Float64Array, latest: Float64Array, stepsDone, busyMs, map?}
//   paused {stepsDone}          (after the last batch: every earlier row has been posted)
//   done {eval, stepsTo90, busyMs, diverged, qkClips}   diverged: the step the run diverged at (then it stops
//                               there and eval is null: its weights are no longer finite), else 0;
//                               qkClips: the steps at which QK-clip rescaled a head
//   failed {error, argument, kind, params}
// A map is {step, weights: Float32Array [examples x heads x seq], labels: Int32Array, shape}.
// Typed arrays are copied out of wasm memory (the core's views die at the
// next call), so a worker can transfer them instead of cloning.
import { loadModule, hasRelaxedSimd } from '../bridge/loader.js';
import { nextTask as rpcNextTask } from '../bridge/rpc.js';
import { coreErrorOf, errorFields } from '../bridge/rpc.js';
import {
  requireBoolean, requireNumber, requireObject, requireOptions, requireString, typeError,
} from '../bridge/arg-types.js';
import { CORE_OPTIONS, FIXED } from './config.js';

// TrainSession.configure()'s options, as the core's option table has them
// (the fields configure() reads, cpp/wasm/train_bindings.cpp): every field, of
// its type, checked before Embind converts them (a number where a string
// belongs threw half-way and leaked the struct and its strings).
const FIELDS = Object.values(CORE_OPTIONS).filter((o) => o.field);
const jsType = (o) => (o.type === 'integer' || o.type === 'number' ? 'number' : 'string');
const TRAIN_OPTIONS = Object.fromEntries(FIELDS.filter((o) => !o.optional).map((o) => [o.field, jsType(o)]));
// The stabilisers, optional (callers from before them leave them out): 0 is off.
const STABILISERS = FIELDS.filter((o) => o.optional).map((o) => o.field);
function trainOptionsOf(o) {
  const out = requireOptions('options', o, TRAIN_OPTIONS);
  for (const field of STABILISERS)
    out[field] = o[field] === undefined ? 0 : requireNumber(field, o[field]);
  return out;
}

/** A whole number of at least 1 that only this file uses (the core never sees it). */
function requireCount(name, x) {
  requireNumber(name, x);
  if (!(Number.isSafeInteger(x) && x >= 1)) {
    throw Object.assign(new Error(`${name} must be an integer in [1, ${Number.MAX_SAFE_INTEGER}], got ${x}`),
      { argument: name, kind: 'range', params: { lo: 1, hi: Number.MAX_SAFE_INTEGER, value: x, integer: true } });
  }
  return x;
}

/** A worker's batch: one core call of about this long. */
export const WORKER_TARGET_MS = 40;
/** On the main thread: a slice short enough to leave most of each frame to the page. */
export const MAIN_THREAD_TARGET_MS = 16;
const MAX_BATCH = 50;

/**
 * The ops, sending their events through emit(event, payload, transfer).
 * targetMs: the length of one batch; warmSteps: steps of the warm-up run at init;
 * load(build): the lab's module; nextTask(): a promise of the next macrotask (a Node test passes its own).
 */
export function createTrainOps(emit, options = {}) {
  const { targetMs = WORKER_TARGET_MS, warmSteps = 12, load = (build) => loadModule('lab', build) } = options;
  let M = null;
  let loading = null;
  const runs = new Map();  // runId -> run state
  let looping = false;

  // Between batches, a macrotask (rpc.js nextTask): queued messages run in
  // between. A Node test passes its own.
  const nextTask = options.nextTask ?? rpcNextTask;

  function captureMap(r) {
    const m = r.s.attentionMaps();
    if (m.error) return null;
    const weights = r.s.mapWeights().slice();
    const labels = r.s.mapLabels().slice();
    return { step: r.done, weights, labels, shape: { examples: m.samples, heads: m.heads, seq: m.seq } };
  }
  const mapTransfer = (map) => (map ? [map.weights.buffer, map.labels.buffer] : []);

  function fail(r, status) {
    emit('failed', { runId: r.id, ...errorFields(status) });
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
    let status;
    try {
      status = s.configure(options);
    } catch (e) {
      status = e;  // not expected once the options are checked; the session must still go
    }
    if (status.error || status instanceof Error) {
      emit('failed', { runId, ...errorFields(status) });
      s.delete();
      return;
    }
    const r = {
      id: runId, s, steps, mapEvery, evalSamples, keep, done: 0, rowsSent: 0, batch: 1, busyMs: 0,
      nextMap: mapEvery, paused: false, finished: false,
    };
    runs.set(runId, r);
    const init = s.initStats();
    if (init.error) return fail(r, init);
    const map = captureMap(r);
    emit('configured', {
      runId, init: init.stats, columns: JSON.parse(s.columnsJson()), divisorValue: s.divisorValue(), map,
    }, mapTransfer(map));
    loop();
  }

  // One batch of steps of run r, and its new rows.
  function stepBatch(r) {
    const n = Math.max(1, Math.min(r.batch, r.steps - r.done, r.nextMap - r.done));
    const t0 = performance.now();
    const status = r.s.step(n);
    const ms = performance.now() - t0;
    if (status.error) return fail(r, status);
    r.done += n;
    r.busyMs += ms;
    // Aim the next call at targetMs (the first call is one step: the first point comes at once).
    r.batch = Math.max(1, Math.min(MAX_BATCH, Math.floor((targetMs * n) / Math.max(ms, 0.01))));
    const rows = r.s.metrics(r.rowsSent).slice();
    r.rowsSent = r.s.rowCount();
    const latest = r.s.latest().slice();
    // A diverged run stops here: every later step would be NaN too, and so
    // would its attention maps (no capture: a heatmap of NaN would show invented weights).
    const diverged = r.s.divergedAt();
    let map = null;
    if (!diverged && (r.done >= r.nextMap || r.done >= r.steps)) {
      map = captureMap(r);
      r.nextMap = r.done + r.mapEvery;
    }
    emit('rows', { runId: r.id, rows, latest, stepsDone: r.done, busyMs: r.busyMs, map },
      [rows.buffer, latest.buffer, ...mapTransfer(map)]);
    if (diverged > 0) finish(r, diverged);
    else if (r.done >= r.steps) finish(r);
  }

  function finish(r, diverged = 0) {
    r.finished = true;
    if (diverged) {
      // No evaluation: the weights are no longer finite, so it would only say NaN.
      emit('done', { runId: r.id, stepsTo90: r.s.stepsTo90(), busyMs: r.busyMs, eval: null, diverged, qkClips: r.s.qkClips() });
      if (!r.keep) drop(r.id);
      return;
    }
    const t0 = performance.now();
    const ev = r.s.evaluate(r.evalSamples);
    r.busyMs += performance.now() - t0;
    if (ev.error) return fail(r, ev);
    emit('done', { runId: r.id, stepsTo90: r.s.stepsTo90(), busyMs: r.busyMs, eval: ev.eval, diverged: 0, qkClips: r.s.qkClips() });
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
    if (warmSteps <= 0) return;
    const s = new M.TrainSession();
    try {
      // The core's defaults, at d_k 64 (the lab's model, FIXED: the shapes its runs step through).
      const defaults = Object.fromEntries(FIELDS.map((o) => [o.field, o.def]));
      const status = s.configure({ ...defaults, ...FIXED, dk: 64, lr: 1e-3 });
      if (!status.error) {
        s.step(warmSteps);
        s.attentionMaps();
      }
    } finally {
      s.delete();
    }
  }

  // The module, loaded by init(); every other op waits for it (a start sent
  // right after init is queued behind the load).
  async function core() {
    if (!loading) throw new Error('the WebAssembly core is not loaded');
    return loading;
  }

  return {
    async init(build) {
      requireString('build', build);
      loading ??= load(build);
      try {
        M = await loading;
      } catch (e) {
        loading = null;
        throw e;
      }
      const info = M.buildInfo();
      warmUp();
      // madd and relaxedAvailable: the page names the CLI's --madd for its runs,
      // and links between the builds (lab/main.js).
      // wasmRefetched: the .wasm came with another MIME type than application/wasm (loader.js); an embedded widget's footer says so.
      return { simd: info.simd, build: info.build, kernel: info.dotKernel, madd: info.madd,
        relaxedAvailable: await hasRelaxedSimd(), ...(M.wasmRefetched && { wasmRefetched: true }) };
    },
    // One throwaway session: the core's message and argument for each options object.
    async validate(list) {
      if (!Array.isArray(list)) throw typeError('options', 'object', list);
      await core();
      const s = new M.TrainSession();
      try {
        return list.map((options) => {
          // A type error is this options object's verdict, in the same fields as the core's.
          try {
            options = trainOptionsOf(options);
          } catch (e) {
            return errorFields(e);
          }
          const { error, argument, kind, params } = s.configure(options);
          return errorFields({ error, argument, kind, params });
        });
      } finally {
        s.delete();
      }
    },
    async referenceLr(optimizer, dk, dModel) {
      requireString('optimizer', optimizer);
      requireNumber('dk', dk);
      requireNumber('dModel', dModel);
      await core();
      const { error, argument, kind, params, lr } = M.trainReferenceLr(optimizer, dk, dModel);
      return { ...errorFields({ error, argument, kind, params }), lr };
    },
    // The core's own limits and the init checkpoint's pass band, so the page copies no number of the C++.
    async limits() {
      await core();
      const { maxDk, maxHeads, maxStepsPerCall, maxSeed, initBandLow, initBandHigh } = M.trainLimits();
      const { lo: minCap, hi: maxCap } = M.trainCapRange();  // the soft-cap's and τ's range
      return { maxDk, maxHeads, maxStepsPerCall, maxSeed, initBandLow, initBandHigh, minCap, maxCap };
    },
    // q and k of a fixed batch of the run, as it is now (before QK-LayerNorm), and its logits,
    // as the .npz the checker reads, written by the core (samples/sample_qk.h snapshot_npz).
    async qk(runId, samples) {
      requireNumber('samples', samples);
      await core();
      const r = runs.get(runId);
      if (!r) throw new Error('this run is no longer held by its worker');
      const shape = r.s.qkSnapshot(samples);
      if (shape.error) throw coreErrorOf(shape);
      return {
        step: r.done, samples: shape.samples, heads: shape.heads, seq: shape.seq, dk: shape.dk, divisor: shape.divisor,
        npz: r.s.snapshotNpz().slice(),
      };
    },
    async start(spec) {
      let checked;
      try {
        requireObject('spec', spec);
        checked = {
          runId: spec.runId, options: trainOptionsOf(spec.options), steps: requireCount('steps', spec.steps),
          mapEvery: requireCount('mapEvery', spec.mapEvery), evalSamples: requireNumber('evalSamples', spec.evalSamples),
          keep: requireBoolean('keep', spec.keep ?? false),
        };
        await core();
      } catch (e) {
        emit('failed', { runId: spec?.runId, ...errorFields(e instanceof Error ? e : String(e)) });
        return;
      }
      start(checked);
    },
    pause(runId) {
      const r = runs.get(runId);
      if (!r) return;
      r.paused = true;
      emit('paused', { runId: r.id, stepsDone: r.done });
    },
    resume(runId) {
      const r = runs.get(runId);
      if (!r) return;
      r.paused = false;
      loop();
    },
    drop(runId) {
      drop(runId);
    },
  };
}
