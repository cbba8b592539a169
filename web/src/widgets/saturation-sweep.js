// The saturation explorer's sweep, one way for every view that runs it: the
// curves of <attn-saturation> against d_k (the explainer's module), its
// distribution view (saturation-dist.js, the presets' module, whose session
// also keeps the distribution over rows) and the sequence-length view against
// d_k or n (saturation-length.js). The same seeds and row counts give the
// same rows, so views of the same points agree to the last digit.
import { MAX_DIVISOR } from '../wasm/divisor-range.js';

export const SWEEP_DKS = Array.from({ length: 13 }, (_, i) => 2 ** i); // d_k = 1 .. 4096
// Monte Carlo budget, in normal draws (about 20 ns each in the worker): a call
// is at most CHUNK (≲ 50 ms), a point at most POINT (≲ 100 ms).
const CHUNK = 2.5e6;
const POINT = 5e6;
const MIN_ROWS = 8;
const MAX_ROWS = 4000;

// The largest divisor the core takes (limits::kMaxDivisor, written into the build: wasm/divisor-range.js).
export { MAX_DIVISOR };

/** The reader's custom divisor as a number the core takes, or null (a message is the core's, at the row). */
export const customDivisor = (text) => {
  const c = Number(text);
  return text !== '' && c > 0 && c <= MAX_DIVISOR ? c : null;
};

/**
 * The curves' divisors at (d_k, m), resolved by the core (√d_k, d_k, the
 * custom number; a failure gives the specs, which never fail): [{key, d}].
 * @param {{call: Function}} resolver  the explainer's client (the presets' module has no resolveDivisor)
 */
export const curveDivisors = (resolver, curves, custom) => (dk) => Promise.all(curves.map(([key, spec]) =>
  key === 'custom' ? (custom !== null ? resolver.call('resolveDivisor', [String(custom), dk]) : null)
    : resolver.call('resolveDivisor', [spec, dk])))
  .catch(() => curves.map(([key, spec]) => (key === 'custom' ? null : spec)))
  .then((ds) => curves.map(([key], j) => ({ key, d: ds[j] })));

/**
 * For each point {x, dk, m} (i its index): divisorsAt(dk, m) gives the
 * curves' divisors ([{key, d: {value}}], a null d not drawn; null stops the
 * sweep), a session draws the point's rows in chunks, and onChunk(x, i, used,
 * res) hears each chunk's running statistics (used: the curves drawn, in
 * res.stats's order). Stops when stale() turns true; a core error is thrown.
 * @param {{call: Function}} client  a core client (client.js) that draws the rows
 */
export async function sweepPoints(client, { points, seed, divisorsAt, stale, onChunk, onPoint }) {
  for (const [i, { x, dk, m }] of points.entries()) {
    const all = await divisorsAt(dk, m);
    if (stale() || !all) return;
    const used = all.filter((u) => u.d);
    const perRow = dk * (m + 1);
    const target = Math.max(MIN_ROWS, Math.min(MAX_ROWS, Math.round(POINT / perRow)));
    const chunk = Math.max(1, Math.floor(CHUNK / perRow));
    const pointSeed = (seed * 1000003 + i * 4099) % 2 ** 53;
    let id = null;
    try {
      id = await client.call('satOpen', [{ dk, m, seed: pointSeed, divisors: used.map((u) => u.d.value) }]);
      for (let done = 0; done < target;) {
        const res = await client.call('satDraw', [id, Math.min(chunk, target - done)]);
        if (stale()) return;
        done = res.rows;
        onChunk(x, i, used, res);
      }
    } finally {
      if (id !== null) client.call('satClose', [id]).catch(() => {});
    }
    onPoint?.(i);
  }
}
