// The explainer core's ops, wherever they run: in the core worker (worker.js)
// or, where a host page's CSP allows no worker, on the main thread (client.js).
// init(feature, build) first; then every op of createAttn() (attn.js), once
// the module has loaded.
import { loadModule } from './loader.js';
import { createAttn } from './attn.js';

export function createCoreOps() {
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

  const ops = {
    async init(f, b) {
      feature = f;
      build = b;
      return (await attn()).buildInfo();
    },
  };
  for (const op of Object.keys(createAttn({}))) ops[op] = async (...args) => (await attn())[op](...args);
  return ops;
}
