// <attn-saturation>'s attributes (element.js options), its controls' specs and
// the divisors on its curves: no DOM code, so the embed docs page lists them
// before the element's code loads.
import { MAX_DIVISOR } from '../wasm/divisor-range.js';

export const DK_LOG2_MAX = 12; // d_k = 1 .. 4096
// Divisors on the curves: [key, spec for the core's resolveDivisor, palette colour, dash].
export const CURVES = [
  ['1', '1', 'c-unscaled', null],
  ['2', '2', 'c-two', [2, 3]],
  ['sqrt', 'sqrt', 'c-sqrt', null],
  ['dk', 'dk', 'c-dk', [8, 4]],
  ['custom', null, 'c-custom', [1, 3]],
];
export const SPECS = {
  dk: { type: 'int', min: 1, max: 2 ** DK_LOG2_MAX, def: 64 },
  div: { type: 'enum', values: CURVES.map((c) => c[0]), def: 'sqrt' },
  c: { type: 'number', min: 0, minOpen: true, max: MAX_DIVISOR, def: 4 },
  m: { type: 'int', min: 2, max: 512, def: 16 },
  seed: { type: 'int', min: 0, max: 2 ** 32 - 1, def: 1 },
  thr: { type: 'int', min: 1, max: 8, def: 3 },  // "near 0": below 10^-thr (saturation-dist.js)
};

// divisor="…": one of the named divisors, or a number (the custom divisor).
const DIVISOR_SPEC = { ...SPECS.c, type: 'divisor', values: CURVES.filter((c) => c[1]).map((c) => c[0]), def: SPECS.div.def };

export const OPTIONS = {
  dk: { key: 'dk', spec: SPECS.dk },
  m: { key: 'm', spec: SPECS.m },
  divisor: { key: 'divisor', spec: DIVISOR_SPEC },
  seed: { key: 'seed', spec: SPECS.seed },
};
