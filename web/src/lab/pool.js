// The page's side of the training workers (worker.js, over core/rpc.js): up
// to `max` workers, one per core the browser reports, each with its own core
// instance, started on demand and kept warm between runs. A run is placed on a
// worker by the caller (the comparison spreads its runs round-robin; the sweep
// queues) and its events come back to the handlers given with it.
import { buildFromSearch } from '../core/build.js';
import { connect } from '../core/rpc.js';

export const CORES = Math.max(1, Math.floor(navigator.hardwareConcurrency || 1));

let nextRunId = 1;

export class Pool {
  constructor(name, max = CORES) {
    this.name = name;
    this.max = Math.max(1, max);
    this.workers = [];         // {port, ready: Promise<info>, runs: Set<runId>}
    this.handlers = new Map(); // runId -> {handlers, slot, keep}
    this.build = buildFromSearch();
  }

  /** Start workers until there are n (at most max); resolves with the first's build info. */
  ensure(n = 1) {
    while (this.workers.length < Math.min(n, this.max)) this.spawn();
    return this.workers[0].ready;
  }

  spawn() {
    const worker = new Worker(new URL('./worker.js', import.meta.url), {
      type: 'module', name: `lab-${this.name}-${this.workers.length}`,
    });
    const slot = { runs: new Set() };
    slot.port = connect(worker, {
      onEvent: (data) => this.receive(data),
      onLost: (message) => this.lost(slot, message),
    });
    slot.ready = slot.port.call('init', [this.build]);
    // A worker whose core failed to load is replaced on next use.
    slot.ready.catch((e) => this.lost(slot, e.message));
    this.workers.push(slot);
    return slot;
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
    // Failures arrive as the run's 'failed' event; the call's own rejection adds nothing.
    slot.port.call('start', [{ runId, keep, ...spec }]).catch(() => {});
    return runId;
  }

  send(op, runId) {
    this.handlers.get(runId)?.slot.port.call(op, [runId]).catch(() => {});
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
