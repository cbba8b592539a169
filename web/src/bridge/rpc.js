// The one request/reply layer over postMessage, used by every worker of the
// site (the core worker, the lab's training workers, the benchmark worker).
//
//   page -> worker   {id, op, args}                    call op(...args)
//   worker -> page   {id, ok: true, result}            its result (typed arrays transferred)
//                    {id, ok: false, error, argument, kind, params}
//                                                      what it threw: message, the argument the
//                                                      core named, its kind and params (errors.js)
//                    {event, ...payload}               a message the worker sends by itself
//                                                      (a run's rows, a benchmark's cells)
// Events and replies travel on one channel, in order: an event emitted before
// a reply arrives before it. Squoosh's worker bridge (Comlink) is the model;
// this one is a few dozen lines and also streams events.

/** Buffers of the typed arrays in a value (itself, or its own fields). */
export function transferables(value) {
  const out = [];
  const add = (x) => {
    if (ArrayBuffer.isView(x) && !out.includes(x.buffer)) out.push(x.buffer);
  };
  add(value);
  if (value && typeof value === 'object' && !ArrayBuffer.isView(value)) Object.values(value).forEach(add);
  return out;
}

/**
 * An error's fields as they cross a boundary (wasm -> attn.js -> postMessage ->
 * the page): {error, argument, kind, params}, params an object (the core sends
 * its JSON text), from an Error, a core result or a message; errors.js writes
 * the reader's sentence from them.
 */
export function errorFields(e) {
  const o = e && typeof e === 'object' ? e : { message: e };
  let p = o.params || {};
  if (typeof p === 'string') {
    try {
      p = JSON.parse(p);
    } catch {
      p = {};
    }
  }
  return { error: String(o.error ?? o.message ?? ''), argument: o.argument ?? '', kind: o.kind ?? '', params: p };
}

/** The Error a caller sees for an error's fields (.message, .argument, .kind, .params). */
export const coreErrorOf = (f) => Object.assign(new Error((f = errorFields(f)).error), f);

const errorOf = errorFields;

/**
 * Worker side: answer {id, op, args} with ops[op](...args) (which may return a
 * promise). Returns emit(event, payload, transfer) for messages of its own.
 */
export function serve(ops, scope = self) {
  scope.onmessage = async ({ data }) => {
    const { id, op, args = [] } = data;
    try {
      if (!Object.hasOwn(ops, op)) throw new Error(`unknown op "${op}"`);
      const result = await ops[op](...args);
      scope.postMessage({ id, ok: true, result }, transferables(result));
    } catch (e) {
      scope.postMessage({ id, ok: false, ...errorOf(e) });
    }
  };
  return (event, payload = {}, transfer = transferables(payload)) => scope.postMessage({ event, ...payload }, transfer);
}

/**
 * Page side: call(op, args, transfer) -> Promise of the result; a rejection is
 * an Error with the worker's message (and .argument). onEvent gets each event
 * message; onLost(message) runs once if the worker dies, after every pending
 * call has been rejected with that message.
 */
export function connect(worker, { onEvent = () => {}, onLost = () => {} } = {}) {
  let nextId = 1;
  let lost = null;
  const pending = new Map();
  // lost: the worker itself is gone (not an op that threw), so a caller may try elsewhere.
  const failAll = (message) => {
    for (const { reject } of pending.values()) reject(Object.assign(new Error(message), { lost: true }));
    pending.clear();
  };
  const die = (message) => {
    if (lost) return;
    lost = message;
    failAll(message);
    worker.terminate();
    onLost(message);
  };
  worker.onmessage = ({ data }) => {
    if (data.event !== undefined) return onEvent(data);
    const p = pending.get(data.id);
    if (!p) return;
    pending.delete(data.id);
    if (data.ok) p.resolve(data.result);
    else p.reject(coreErrorOf(data));
  };
  worker.onerror = (e) => {
    e.preventDefault();
    die(`the worker failed: ${e.message || 'it could not start'}`);
  };
  worker.onmessageerror = () => die('a message from the worker could not be read');
  return {
    call(op, args = [], transfer = []) {
      if (lost) return Promise.reject(Object.assign(new Error(lost), { lost: true }));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, op, args }, transfer);
      });
    },
    /** Stop the worker; pending calls are rejected with `message`. */
    close(message = 'the worker was stopped') {
      if (lost) return;
      lost = message;
      failAll(message);
      worker.terminate();
    },
  };
}

// A macrotask without setTimeout's clamping: input, rendering and queued
// messages run in between.
export function nextTask() {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(0);
  });
}

/**
 * The same port as connect(), for ops run on this thread: where a host page's
 * CSP allows no worker, the core runs on the main thread, one op a task
 * (each op is a small slice of work: widgets ask for chunks of at most
 * ~50 ms), so the page stays responsive. makeOps(emit) gives the ops (or a
 * promise of them: they may load lazily); emit sends their events to onEvent.
 */
export function connectLocal(makeOps, { onEvent = () => {} } = {}) {
  let closed = null;
  const opsReady = Promise.resolve(makeOps((event, payload = {}) => {
    if (!closed) queueMicrotask(() => onEvent({ event, ...payload }));
  }));
  opsReady.catch(() => {});
  return {
    async call(op, args = []) {
      if (closed) throw Object.assign(new Error(closed), { lost: true });
      const ops = await opsReady;
      await nextTask();
      if (closed) throw Object.assign(new Error(closed), { lost: true });
      if (!Object.hasOwn(ops, op)) throw new Error(`unknown op "${op}"`);
      try {
        return await ops[op](...args);
      } catch (e) {
        throw coreErrorOf(errorOf(e));
      }
    },
    close(message = 'the core was stopped') {
      closed ??= message;
    },
  };
}
