// Module Worker that owns the explainer's wasm core, so no core call ever
// blocks the page. Its ops are ops.js's over attn.js, served over rpc.js; the
// first call is init(feature, build) (see client.js). The checker has its own
// (check-worker.js).
import { createAttn } from './attn.js';
import { createCoreOps } from './ops.js';
import { serve } from './rpc.js';

serve(createCoreOps(createAttn));
