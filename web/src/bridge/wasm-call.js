// What every wrapper over a core module shares (attn.js, the explainer's;
// attn-check.js, the checker's): a core error becomes a thrown Error, and
// wasm memory is always freed.
import { coreErrorOf } from './rpc.js';

/** Throws the core's error, if any, of a Status or a result holding one; returns r. */
export function check(r) {
  if (!r.error) return r;
  throw coreErrorOf(r);
}

/** Allocate `bytes` (at least 1) and run fn(ptr); always free. */
export function withAlloc(M, sizes, fn) {
  const ptrs = [];
  try {
    for (const bytes of sizes) {
      const p = M._malloc(Math.max(bytes, 8));
      if (!p) throw new Error(`out of wasm memory (asked for ${bytes} bytes)`);
      ptrs.push(p);
    }
    return fn(...ptrs);
  } finally {
    for (const p of ptrs) M._free(p);
  }
}

/**
 * wasmRefetched: the .wasm's streaming compilation was refused (another MIME type), so it was fetched again (loader.js).
 * @returns {{simd: boolean, build: 'relaxed'|'simd'|'scalar', dotKernel: string, madd: 'fused'|'separate', wasmRefetched?: true}}
 */
export function buildInfo(M) {
  const r = M.buildInfo();
  return { simd: r.simd, build: r.build, dotKernel: r.dotKernel, madd: r.madd, ...(M.wasmRefetched && { wasmRefetched: true }) };
}
