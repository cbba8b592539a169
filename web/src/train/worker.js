// A training worker of the lab: its own instance of the wasm core (the lab's
// module) and the training ops of train-ops.js (ops, events and batching are
// described there), served over bridge/rpc.js. pool.js starts it, or runs the
// same ops on the main thread where no worker can start.
import { serve } from '../bridge/rpc.js';
import { createTrainOps, WORKER_TARGET_MS } from './train-ops.js';

const emit = serve(createTrainOps((...args) => emit(...args), { targetMs: WORKER_TARGET_MS }));
