// Number formatting for the current language (Intl.NumberFormat, cached per locale).
import { locale } from './i18n.js';

const cache = new Map();
function nf(options) {
  const key = locale() + JSON.stringify(options);
  let f = cache.get(key);
  if (!f) cache.set(key, (f = new Intl.NumberFormat(locale(), options)));
  return f;
}

export const DASH = '—';

/** A general number: `sig` significant digits, scientific when very small or large. */
export function num(x, sig = 4) {
  if (!Number.isFinite(x)) return DASH;
  const a = Math.abs(x);
  if (a !== 0 && (a < 1e-3 || a >= 1e7))
    return nf({ notation: 'scientific', maximumSignificantDigits: Math.min(sig, 3) }).format(x);
  return nf({ maximumSignificantDigits: sig }).format(x);
}

/** A value with at most `digits` decimals, e.g. an entropy in nats. */
export function fixed(x, digits = 3) {
  if (!Number.isFinite(x)) return DASH;
  return nf({ maximumFractionDigits: digits }).format(x);
}

/** A probability as a percentage with two decimals; tiny non-zero ones as "<0.01%". */
export function percent(p) {
  if (!Number.isFinite(p)) return DASH;
  if (p > 0 && p < 0.00005) return '<' + nf({ style: 'percent', minimumFractionDigits: 2 }).format(0.0001);
  return nf({ style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(p);
}

/** An integer without grouping (d_k = 4096, as written in formulas). */
export function int(x) {
  return Number.isFinite(x) ? nf({ maximumFractionDigits: 0, useGrouping: false }).format(x) : DASH;
}

/** A list of numbers, e.g. scores. */
export function list(xs, sig = 6) {
  return Array.from(xs, (x) => num(x, sig)).join(', ');
}
