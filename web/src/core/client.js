// Main-thread side of a core worker (worker.js): call(op, args) -> Promise of
// the result. One worker per feature's module (explain, check), started on the
// first call and started again after it dies or is stopped. Ops and their
// args are those of createAttn() in attn.js, e.g. call('softmaxStats',
// [[14, 10, 12], 8]). A rejected promise carries the core's message as
// Error.message and the argument it named as .argument.
import { buildFromSearch } from './build.js';
import { connect } from './rpc.js';

/** A client of its own worker, which loads `feature`'s module (core/loader.js). */
export function createClient(feature) {
  let port = null;
  const ensure = () => {
    if (port) return port;
    const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: `attnlab-${feature}` });
    const mine = connect(worker, { onLost: () => { if (port === mine) port = null; } });
    port = mine;
    // The worker loads the module on this first call; a failed load fails it
    // (and later calls retry the load).
    port.call('init', [feature, buildFromSearch()]).catch(() => {});
    return port;
  };
  return {
    /**
     * Run one core op in the worker.
     * @param {string} op  an op of createAttn() (attn.js), or 'buildInfo'
     * @param {unknown[]} [args]  positional arguments of that op
     * @param {Transferable[]} [transfer]  buffers to hand over instead of copying
     * @returns {Promise<any>}
     */
    call: (op, args = [], transfer = []) => ensure().call(op, args, transfer),
    /** Stop the worker; the next call starts a fresh one. */
    terminate() {
      port?.close('the core worker was stopped');
      port = null;
    },
  };
}

/** The explainer's client: the object widgets receive in mount(element, client). */
export const client = createClient('explain');
