// The sweep's series: one per divisor picked, plus the optional stabiliser
// series of the learning-rate question ("√dₖ + soft-cap C",
// "√dₖ + QK-clip τ", T5's "1 + T5 init"; QK-LayerNorm is already a divisor).
// Every cell also carries the setup's soft-cap, QK-clip and init, as
// `attnlab sweep --softcap C --qk-clip τ --init t5` applies them to its whole
// grid; a stabiliser series overrides only its own setting.
import { divisorStyle } from '../../train/config.js';

// key: its place in sw.stab; div: the divisor it trains with; field: the value
// the reader types (sw.cap, sw.clip) and the TrainOptions member it sets;
// dash: a pattern no divisor has (the soft-cap's colour is near divisor 1's).
export const STAB_SERIES = [
  { key: 'cap', div: 'sqrt', field: 'softcap', def: '50', dash: [12, 3] },
  { key: 'clip', div: 'sqrt', field: 'qkClip', def: '100', dash: [16, 6] },
  { key: 't5', div: '1', field: null, dash: [1, 2] },
];
// In the URL: sw.stab=cap,clip (unknown items dropped, as for the other lists),
// sw.cap=50, sw.clip=100 (free text, checked by the core when the sweep starts).
export const SWEEP_STAB_STATE = {
  stab: { type: 'list', values: STAB_SERIES.map((s) => s.key), def: [] },
  cap: { type: 'text', max: Infinity, def: STAB_SERIES[0].def },
  clip: { type: 'text', max: Infinity, def: STAB_SERIES[1].def },
};

/**
 * The sweep's series in column order: divisors (PRESETS order), then the
 * stabiliser series checked. values: {cap, clip} as numbers.
 * Each: {key, div, over (TrainOptions members it sets), stab (its key or null), value, slot, dash}.
 */
export function sweepSeries(divs, stabs, values) {
  const out = divs.map((d) => ({ key: d, div: d, over: {}, stab: null, value: null, ...divisorStyle(d) }));
  STAB_SERIES.forEach((s, i) => {
    if (!stabs.includes(s.key)) return;
    const value = s.field ? values[s.key] : null;
    const over = s.field ? { [s.field]: value } : { init: 't5' };
    out.push({ key: `stab-${s.key}`, div: s.div, over, stab: s.key, value, ...divisorStyle(`stab-${s.key}`, i), dash: s.dash });
  });
  return out;
}

/** A cell's TrainOptions: the setup's (base, with its stabilisers), the series' divisor and override, d_k, optimiser, rate. */
export function cellOptions(base, series, dk, optimizer, lr) {
  return { ...base, divisor: series.div, ...series.over, dk, optimizer, lr };
}
