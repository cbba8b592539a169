// Module Worker that owns one feature's wasm core (explain or check), so no
// core call ever blocks the page. Its ops are ops.js's, served over rpc.js;
// the first call is init(feature, build) (see client.js).
import { createCoreOps } from './ops.js';
import { serve } from './rpc.js';

serve(createCoreOps());
