// Main-thread side of a core worker: call(op, args) -> Promise of the
// result. One worker per feature's module, started on the first call and
// started again after it dies or is stopped; every widget of a page shares
// it. The explainer's (worker.js, over attn.js) is the default here; the
// checker's (check-worker.js, over attn-check.js) is check-client.js. Where
// no worker can start (an embedding page's CSP without worker-src blob:), the
// same ops run on the main thread, one op a task (rpc.js connectLocal), and
// the client says so: mode() is 'worker' or 'main-thread'. Ops and their args
// are those of the feature's wrapper, e.g. call('softmaxStats', [[14, 10, 12], 8]).
// A rejected promise carries the core's message as Error.message, the
// argument it named as .argument and the error's .kind and .params; the
// sentences for readers (errors.js) have loaded by then, so a widget can show
// readerError(e) at once.
import { buildFromSearch } from './build.js';
import { loadErrorStrings } from './errors.js';
import { connect, connectLocal } from './rpc.js';
import { startWorker } from './spawn.js';
import workerUrl from './worker.js?worker&url';

/**
 * A client of its own core. `options.worker(name)` starts the worker (a test
 * may pass one that fails); `options.local()` gives the ops for the main
 * thread (a promise: loaded on first use). Both default to the explainer's.
 */
export function createClient(feature, {
  worker = (name) => startWorker(workerUrl, name),
  local = () => Promise.all([import('./ops.js'), import('./attn.js')]).then(([o, a]) => o.createCoreOps(a.createAttn)),
} = {}) {
  let port = null;
  let mode = null;              // 'worker' | 'main-thread', once known
  let loaded = false;           // the core has answered init once
  const listeners = new Set();
  const setMode = (m) => {
    if (mode === m) return;
    mode = m;
    for (const fn of listeners) fn(m);
  };

  const ensure = () => {
    if (port) return port;
    if (mode !== 'main-thread') {
      try {
        const w = worker(`attnlab-${feature}`);
        const mine = connect(w, { onLost: () => { if (port === mine) port = null; } });
        port = mine;
        // The worker loads the module on this first call. A worker that could
        // not start (lost before init answered) hands over to the main
        // thread; a core that failed to load fails this call (later calls retry).
        port.ready = port.call('init', [feature, buildFromSearch()]).then(
          (r) => { setMode('worker'); return r; },
          (e) => {
            if (e.lost && mode === null) {
              setMode('main-thread');
              if (port === mine) port = null;
            } else {
              mine.ready = null;  // the next call goes through: the worker retries the load
            }
            throw e;
          });
        port.ready.catch(() => {});
        return port;
      } catch {
        setMode('main-thread');
      }
    }
    port = localPort(feature, local);
    return port;
  };

  return {
    /**
     * Run one core op.
     * @param {string} op  an op of the feature's wrapper (createAttn, createCheckAttn), e.g. 'buildInfo'
     * @param {unknown[]} [args]  positional arguments of that op
     * @param {Transferable[]} [transfer]  buffers to hand over instead of copying
     * @returns {Promise<any>}
     */
    async call(op, args = [], transfer = []) {
      try {
        const p = ensure();
        if (p.ready) {
          try {
            await p.ready;
            loaded = true;  // the module answered init: a failure from here on is the op's
          } catch (e) {
            // The worker could not start: run this call on the main thread.
            if (e.lost && mode === 'main-thread') return await ensure().call(op, args, transfer);
            throw e;
          }
        }
        const result = await p.call(op, args, transfer);
        loaded = true;
        return result;
      } catch (e) {
        // Until the core has loaded once, a failure is the load's (a 404, a
        // CSP without 'wasm-unsafe-eval'), not the op's: widgets say so
        // instead of blaming the field that asked (e.load).
        if (!loaded && e instanceof Error) e.load = true;
        else await loadErrorStrings();
        throw e;
      }
    },
    /** 'worker' | 'main-thread' | null (not started yet). */
    mode: () => mode,
    /** Call fn(mode) when the mode is known or changes; returns a function that stops. */
    onMode(fn) {
      listeners.add(fn);
      if (mode) fn(mode);
      return () => listeners.delete(fn);
    },
    /** Stop the worker; the next call starts a fresh one. */
    terminate() {
      port?.close('the core worker was stopped');
      port = null;
    },
  };
}

// The ops on this thread (loaded on first use), init first, then one op a task.
function localPort(feature, local) {
  const port = connectLocal(local);
  port.ready = port.call('init', [feature, buildFromSearch()]).catch((e) => {
    port.ready = null;  // the next call goes through: the ops retry the load
    throw e;
  });
  port.ready.catch(() => {});
  return port;
}

/** The explainer's client: the object widgets receive in mount(element, client). */
export const client = createClient('explain');
