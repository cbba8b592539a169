// The page's side of the training workers (worker.js, over bridge/rpc.js): up
// to `max` workers, one per core the browser reports, each with its own core
// instance, started on demand and kept warm between runs. A run is placed on a
// worker by the caller (the comparison spreads its runs round-robin; the sweep
// queues) and its events come back to the handlers given with it.
// Where no worker can start (an embedding page whose CSP allows no blob:
// worker), a slot runs the same ops (train-ops.js) on the main thread, in
// shorter batches, through rpc.js connectLocal; mode() says which.
import { buildFromSearch } from '../bridge/build.js';
import { connect, connectLocal } from '../bridge/rpc.js';
import { startWorker } from '../bridge/spawn.js';
import labWorkerUrl from './worker.js?worker&url';

export const CORES = Math.max(1, Math.floor(navigator.hardwareConcurrency || 1));

let nextRunId = 1;

export class Pool {
  /**
   * options.worker(name) starts a worker (a test may pass one that fails);
   * options.local(emit) gives the ops for the main thread (or a promise of them).
   */
  constructor(name, max = CORES, {
    worker = (workerName) => startWorker(labWorkerUrl, workerName),
    local = (emit) => import('./train-ops.js').then((m) => m.createTrainOps(emit, { targetMs: m.MAIN_THREAD_TARGET_MS, warmSteps: 2 })),
  } = {}) {
    this.name = name;
    this.max = Math.max(1, max);
    this.workers = [];         // {port, ready: Promise<info>, runs: Set<runId>, local}
    this.handlers = new Map(); // runId -> {handlers, slot, keep}
    this.build = buildFromSearch();
    this.startWorker = worker;
    this.localOps = local;
    this.runMode = null;       // 'worker' | 'main-thread', once a slot has started
  }

  /** 'worker' | 'main-thread' | null (no slot has started yet). */
  mode() {
    return this.runMode;
  }

  /** Start workers until there are n (at most max); resolves with the first's build info. */
  ensure(n = 1) {
    while (this.workers.length < Math.min(n, this.max)) this.spawn();
    return this.workers[0].ready;
  }

  spawn() {
    const slot = { runs: new Set(), port: null, local: false };
    slot.ready = this.connectSlot(slot, `lab-${this.name}-${this.workers.length}`);
    // A worker whose core failed to load is replaced on next use.
    slot.ready.catch((e) => this.lost(slot, e.message));
    this.workers.push(slot);
    return slot;
  }

  // A worker, or the main thread where none can start: a worker that cannot
  // be created (startWorker throws) or dies before its init answers (a CSP
  // sent as a header) hands its slot to the main thread, unless a worker of
  // this pool has already run (then it is a crash, and the slot is lost).
  async connectSlot(slot, name) {
    if (this.runMode !== 'main-thread') {
      let worker = null;
      try {
        worker = this.startWorker(name);
      } catch {
        this.runMode = 'main-thread';
      }
      if (worker) {
        let ready = false;
        slot.port = connect(worker, {
          onEvent: (data) => this.receive(data),
          onLost: (message) => ready && this.lost(slot, message),
        });
        try {
          const info = await slot.port.call('init', [this.build]);
          ready = true;
          this.runMode = 'worker';
          return info;
        } catch (e) {
          if (!e.lost || this.runMode === 'worker') throw e;
          this.runMode = 'main-thread';
        }
      }
    }
    slot.local = true;
    slot.port = connectLocal((emit) => this.localOps(emit), { onEvent: (data) => this.receive(data) });
    return slot.port.call('init', [this.build]);
  }

  receive(data) {
    const entry = this.handlers.get(data.runId);
    if (!entry) return;  // a run dropped while its message was on the way
    if (data.event === 'done' || data.event === 'failed') {
      if (!entry.keep || data.event === 'failed') this.forget(data.runId);
    }
    entry.handlers[data.event]?.(data);
  }

  // A worker that died (or whose core did not load) fails its runs; its
  // pending calls were rejected by rpc.js; the slot is replaced on next use.
  lost(slot, message) {
    const i = this.workers.indexOf(slot);
    if (i < 0) return;
    this.workers.splice(i, 1);
    slot.port.close(message);
    for (const runId of slot.runs) {
      const entry = this.handlers.get(runId);
      this.handlers.delete(runId);
      entry?.handlers.failed?.({ event: 'failed', runId, error: message, argument: '' });
    }
  }

  forget(runId) {
    const entry = this.handlers.get(runId);
    if (!entry) return;
    entry.slot.runs.delete(runId);
    this.handlers.delete(runId);
  }

  /** An op of worker.js on worker `index` (default the first), once its core has loaded. */
  async call(op, args = [], index = 0) {
    this.ensure(index + 1);
    const slot = this.workers[Math.min(index, this.workers.length - 1)];
    await slot.ready;
    return slot.port.call(op, args);
  }

  /**
   * Start a run on worker `index` (started if needed). handlers: configured,
   * rows, paused, done, failed (each gets the worker's event). keep: the worker
   * holds the session after the run ends (for exports), until drop().
   * @returns {number} the run id
   */
  run(index, spec, handlers, keep = true) {
    this.ensure(index + 1);
    const slot = this.workers[Math.min(index, this.workers.length - 1)];
    const runId = nextRunId++;
    slot.runs.add(runId);
    this.handlers.set(runId, { handlers, slot, keep });
    // Sent once the slot's core is ready (a worker, or the main thread it fell back to).
    // Failures arrive as the run's 'failed' event; the call's own rejection adds nothing.
    slot.ready.then(() => slot.port.call('start', [{ runId, keep, ...spec }])).catch(() => {});
    return runId;
  }

  send(op, runId) {
    const slot = this.handlers.get(runId)?.slot;
    // After the start: both wait on the same promise, in the order they were asked.
    slot?.ready.then(() => slot.port.call(op, [runId])).catch(() => {});
  }

  pause(runId) {
    this.send('pause', runId);
  }

  resume(runId) {
    this.send('resume', runId);
  }

  /** Stop a run and free its session; its later events are ignored. */
  drop(runId) {
    this.send('drop', runId);
    this.forget(runId);
  }

  /** Which worker holds the run (for a report), or -1. */
  workerOf(runId) {
    const entry = this.handlers.get(runId);
    return entry ? this.workers.indexOf(entry.slot) : -1;
  }
}
