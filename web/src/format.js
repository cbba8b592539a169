// Every number the pages show, formatted for the current language
// (Intl.NumberFormat, cached per locale and options). Not a number: a dash.
import { locale } from './i18n.js';

const cache = new Map();
// One grouping rule for every number: digits in groups of three from five
// digits on (65,536 and 1,000,000, but 4096), as style guides write them;
// a comma in both languages, so a number never breaks across lines.
function nf(options) {
  const key = locale() + JSON.stringify(options);
  let f = cache.get(key);
  if (!f) cache.set(key, (f = new Intl.NumberFormat(locale(), { useGrouping: 'min2', ...options })));
  return f;
}

export const DASH = '—';

/**
 * A general number: `sig` significant digits; very small or large ones as a
 * reader writes them, 6.6 × 10⁻⁴ (never 6.6E-4), the mantissa in the page's
 * language.
 */
export function num(x, sig = 4) {
  if (!Number.isFinite(x)) return DASH;
  const a = Math.abs(x);
  if (a !== 0 && (a < 1e-3 || a >= 1e7)) {
    const parts = nf({ notation: 'scientific', maximumSignificantDigits: Math.min(sig, 3) }).formatToParts(x);
    const mantissa = parts.filter((p) => !/^exponent/.test(p.type)).map((p) => p.value).join('');
    const exponent = Number(parts.filter((p) => p.type === 'exponentMinusSign' || p.type === 'exponentInteger').map((p) => (p.type === 'exponentMinusSign' ? '-' : p.value)).join(''));
    return exponent === 0 ? mantissa : `${mantissa} × ${powerOfTen(exponent)}`;
  }
  return nf({ maximumSignificantDigits: sig }).format(x);
}

/** Up to `sig` significant digits, never scientific (the checker's statistics: 0.000123). */
export function significant(x, sig = 3) {
  if (!Number.isFinite(x)) return DASH;
  return nf({ maximumSignificantDigits: sig }).format(x);
}

/** A value with at most `digits` decimals, e.g. an entropy in nats. */
export function fixed(x, digits = 3) {
  if (!Number.isFinite(x)) return DASH;
  return nf({ maximumFractionDigits: digits }).format(x);
}

/** Exactly `digits` decimals: a ratio (3.2), a rate (21.63 GFLOP/s), a size (80.0 MB). */
export function decimals(x, digits) {
  if (!Number.isFinite(x)) return DASH;
  return nf({ minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
}

/** A probability as a percentage with two decimals; tiny non-zero ones as "<0.01%". */
export function percent(p) {
  if (!Number.isFinite(p)) return DASH;
  if (p > 0 && p < 0.00005) return '<' + nf({ style: 'percent', minimumFractionDigits: 2 }).format(0.0001);
  return nf({ style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(p);
}

/** A share as a number of percent, without the sign: whole (12), one decimal below 1% (0.4). */
export function percentNumber(share) {
  if (!Number.isFinite(share)) return DASH;
  return nf({ maximumFractionDigits: share > 0 && share < 0.01 ? 1 : 0 }).format(100 * share);
}

/** An integer without grouping (d_k = 4096, as written in formulas). */
export function int(x) {
  return Number.isFinite(x) ? nf({ maximumFractionDigits: 0 }).format(x) : DASH;
}

/** A list of numbers, e.g. scores. */
export function list(xs, sig = 6) {
  return Array.from(xs, (x) => num(x, sig)).join(', ');
}

/** A log axis's tick label: whole numbers as they are (4096), fractions to 2 significant digits (0.01). */
export function logTick(v) {
  return v >= 1 ? String(Math.round(v)) : String(+v.toPrecision(2));
}

// Superscript digits for powers of ten on axes that plot log10 of a value.
const SUPER = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };

/** 10 to the integer k, as an axis writes it: 1, 10, 10², 10⁻³². */
export function powerOfTen(k) {
  if (k === 0) return '1';
  if (k === 1) return '10';
  return '10' + String(k).replace(/[-0-9]/g, (c) => SUPER[c]);
}
