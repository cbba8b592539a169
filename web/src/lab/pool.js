// The page's side of the training workers (worker.js): up to `max` workers,
// one per core the browser reports, each with its own core instance, started
// on demand and kept warm between runs. A run is placed on a worker by the
// caller (the comparison spreads its runs round-robin; the sweep queues) and
// its events come back to the handlers given with it.

// The page URL's ?build=scalar|simd forces a wasm build (see core/loader.js).
function buildFromSearch(search) {
  const b = new URLSearchParams(search).get('build');
  return b === 'simd' || b === 'scalar' ? b : 'auto';
}

export const CORES = Math.max(1, Math.floor(navigator.hardwareConcurrency || 1));

let nextRunId = 1;
let nextCallId = 1;

export class Pool {
  constructor(name, max = CORES) {
    this.name = name;
    this.max = Math.max(1, max);
    this.workers = [];        // {worker, ready: Promise<info>, runs: Set<runId>}
    this.handlers = new Map(); // runId -> {handlers, slot}
    this.calls = new Map();    // callId -> {resolve, reject}
    this.build = buildFromSearch(location.search);
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
    const slot = { worker, runs: new Set() };
    slot.ready = new Promise((resolve, reject) => {
      slot.onReady = resolve;
      slot.onLoadFailed = reject;
    });
    slot.ready.catch(() => {});
    worker.onmessage = ({ data }) => this.receive(slot, data);
    worker.onerror = (e) => {
      e.preventDefault();
      this.lost(slot, e.message || 'the training worker could not start');
    };
    worker.onmessageerror = () => this.lost(slot, 'a message from the training worker could not be read');
    worker.postMessage({ type: 'init', build: this.build });
    this.workers.push(slot);
    return slot;
  }

  receive(slot, data) {
    if (data.type === 'ready') return slot.onReady({ simd: data.simd, kernel: data.kernel });
    if (data.type === 'load-failed') {
      slot.onLoadFailed(new Error(data.error));
      return this.lost(slot, data.error);
    }
    if (data.type === 'reply') {
      const c = this.calls.get(data.id);
      if (!c) return;
      this.calls.delete(data.id);
      if (data.ok) c.resolve(data.result);
      else c.reject(new Error(data.error));
      return;
    }
    const entry = this.handlers.get(data.runId);
    if (!entry) return;  // a run dropped while its message was on the way
    if (data.type === 'done' || data.type === 'failed') {
      if (!entry.keep || data.type === 'failed') this.forget(data.runId);
    }
    entry.handlers[data.type]?.(data);
  }

  // A worker that died fails its runs and its pending calls; the slot is replaced on next use.
  lost(slot, message) {
    const i = this.workers.indexOf(slot);
    if (i < 0) return;
    this.workers.splice(i, 1);
    slot.worker.terminate();
    slot.onLoadFailed(new Error(message));
    for (const runId of slot.runs) {
      const entry = this.handlers.get(runId);
      this.handlers.delete(runId);
      entry?.handlers.failed?.({ type: 'failed', runId, error: message, argument: '' });
    }
    for (const [id, c] of this.calls) {
      if (c.slot === slot) {
        this.calls.delete(id);
        c.reject(new Error(message));
      }
    }
  }

  forget(runId) {
    const entry = this.handlers.get(runId);
    if (!entry) return;
    entry.slot.runs.delete(runId);
    this.handlers.delete(runId);
  }

  /** An op of worker.js's OPS on worker `index` (default the first). */
  async call(op, args = [], index = 0) {
    this.ensure(index + 1);
    const slot = this.workers[Math.min(index, this.workers.length - 1)];
    await slot.ready;
    const id = nextCallId++;
    return new Promise((resolve, reject) => {
      this.calls.set(id, { resolve, reject, slot });
      slot.worker.postMessage({ type: 'call', id, op, args });
    });
  }

  /**
   * Start a run on worker `index` (started if needed). handlers: configured,
   * rows, done, failed (each gets the worker's message). keep: the worker holds
   * the session after the run ends (for exports), until drop().
   * @returns {number} the run id
   */
  run(index, spec, handlers, keep = true) {
    this.ensure(index + 1);
    const slot = this.workers[Math.min(index, this.workers.length - 1)];
    const runId = nextRunId++;
    slot.runs.add(runId);
    this.handlers.set(runId, { handlers, slot, keep });
    slot.worker.postMessage({ type: 'start', runId, keep, ...spec });
    return runId;
  }

  send(type, runId) {
    const entry = this.handlers.get(runId);
    entry?.slot.worker.postMessage({ type, runId });
  }

  pause(runId) {
    this.send('pause', runId);
  }

  resume(runId) {
    this.send('resume', runId);
  }

  /** Stop a run and free its session; its later messages are ignored. */
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
