// Module Worker that owns the checker's wasm core (check.html): worker.js's
// twin over attn-check.js, so the checker's wrapper stays out of the
// explainer's worker and the embedded widgets.
import { createCheckAttn } from './attn-check.js';
import { createCoreOps } from './ops.js';
import { serve } from './rpc.js';

serve(createCoreOps(createCheckAttn));
