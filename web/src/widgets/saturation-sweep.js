// The saturation explorer's sweep over d_k, one way for both views that run
// it: the curves of <attn-saturation> (the explainer's module) and its
// distribution view (saturation-dist.js, the presets' module, whose session
// also keeps the distribution over rows). The same seeds and row counts give
// both the same rows, so their means agree to the last digit.
export const SWEEP_DKS = Array.from({ length: 13 }, (_, i) => 2 ** i); // d_k = 1 .. 4096
// Monte Carlo budget, in normal draws (about 20 ns each in the worker): a call
// is at most CHUNK (≲ 50 ms), a d_k point at most POINT (≲ 100 ms).
const CHUNK = 2.5e6;
const POINT = 5e6;
const MIN_ROWS = 8;
const MAX_ROWS = 4000;

/**
 * For each d_k of SWEEP_DKS: the core resolves every curve's divisor (√d_k,
 * d_k, the custom number), a session draws the point's rows in chunks, and
 * onChunk(dk, i, used, res) hears each chunk's running statistics (used:
 * [{key, d}] for the curves drawn, in res.stats's order). Stops when stale()
 * turns true; a core error is thrown.
 * @param {{call: Function}} client  a core client (client.js) that draws the rows
 * @param {{m: number, seed: number, custom: number|null, curves: Array, stale: () => boolean,
 *   onChunk: Function, onPoint?: (i: number) => void, resolver?: {call: Function}}} o
 *   resolver: the client that resolves the divisors (the explainer's; the presets' module has no resolveDivisor)
 */
export async function sweepDks(client, { m, seed, custom, curves, stale, onChunk, onPoint, resolver = client }) {
  for (const [i, dk] of SWEEP_DKS.entries()) {
    let divisors;
    try {
      divisors = await Promise.all(curves.map(([key, spec]) =>
        key === 'custom' ? (custom !== null ? resolver.call('resolveDivisor', [String(custom), dk]) : null)
          : resolver.call('resolveDivisor', [spec, dk])));
    } catch {
      divisors = curves.map(([key, spec]) => (key === 'custom' ? null : spec)); // never: fixed specs
    }
    if (stale()) return;
    const used = curves.map(([key], j) => ({ key, d: divisors[j] })).filter((x) => x.d);
    const perRow = dk * (m + 1);
    const target = Math.max(MIN_ROWS, Math.min(MAX_ROWS, Math.round(POINT / perRow)));
    const chunk = Math.max(1, Math.floor(CHUNK / perRow));
    const pointSeed = (seed * 1000003 + i * 4099) % 2 ** 53;
    let id = null;
    try {
      id = await client.call('satOpen', [{ dk, m, seed: pointSeed, divisors: used.map((x) => x.d.value) }]);
      for (let done = 0; done < target;) {
        const res = await client.call('satDraw', [id, Math.min(chunk, target - done)]);
        if (stale()) return;
        done = res.rows;
        onChunk(dk, i, used, res);
      }
    } finally {
      if (id !== null) client.call('satClose', [id]).catch(() => {});
    }
    onPoint?.(i);
  }
}
