// The checker page's client (client.js) of its own worker, check-worker.js,
// over attn-check.js; on the main thread, the same ops loaded on first use.
import { createClient } from './client.js';
import { startWorker } from './spawn.js';
import workerUrl from './check-worker.js?worker&url';

export const checkClient = createClient('check', {
  worker: (name) => startWorker(workerUrl, name),
  local: () => Promise.all([import('./ops.js'), import('./attn-check.js')]).then(([o, a]) => o.createCoreOps(a.createCheckAttn)),
});
