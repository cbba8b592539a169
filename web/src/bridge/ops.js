// A core's ops, wherever they run: in its worker (worker.js for the
// explainer, check-worker.js for the checker) or, where a host page's CSP
// allows no worker, on the main thread (client.js). init(feature, build)
// first; then every op of the wrapper (createAttn of attn.js, createCheckAttn
// of attn-check.js), once the module has loaded. The wrapper is passed in, so
// each worker bundles its own page's wrapper and no other.
import { loadModule } from './loader.js';

/** @param {(M: object) => object} createWrapper  the feature's wrapper factory */
export function createCoreOps(createWrapper) {
  let attnPromise = null;
  let feature = 'explain';
  let build = 'auto';

  function attn() {
    if (!attnPromise) {
      attnPromise = loadModule(feature, build).then(createWrapper);
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
  for (const op of Object.keys(createWrapper({}))) ops[op] = async (...args) => (await attn())[op](...args);
  return ops;
}
