// Module Worker that owns one feature's wasm core (explain or check), so no
// core call ever blocks the page. Its ops are createAttn()'s (attn.js), served
// over rpc.js; the first call is init(feature, build) (see client.js).
import { loadModule } from './loader.js';
import { createAttn } from './attn.js';
import { serve } from './rpc.js';

let attnPromise = null;
let feature = 'explain';
let build = 'auto';

function attn() {
  if (!attnPromise) {
    attnPromise = loadModule(feature, build).then(createAttn);
    // A failed load must not stick: the next request tries again.
    attnPromise.catch(() => {
      attnPromise = null;
    });
  }
  return attnPromise;
}

// init first; then every op of createAttn(), once the module has loaded.
const ops = {
  async init(f, b) {
    feature = f;
    build = b;
    return (await attn()).buildInfo();
  },
};
for (const op of Object.keys(createAttn({}))) ops[op] = async (...args) => (await attn())[op](...args);
serve(ops);
