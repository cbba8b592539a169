// Every number the pages show, formatted for the current language. Not a
// number: a dash. English and 简体中文 write numbers alike (digits, a '.'
// decimal point, ',' between groups of three from five digits on: 65,536 and
// 1,000,000, but 4096; a comma in both languages, so a number never breaks
// across lines), so the formatting is done here, with the rules of
// Intl.NumberFormat(en | zh-CN, {useGrouping: 'min2', ...}) that it replaced:
// the decimal is the shortest one that reads back to the double, rounded half
// away from zero. tests/node/web_format.test.mjs checks it against Intl. Why
// not Intl: a page's first Intl.NumberFormat loads the browser's locale data,
// 30-160 ms of main-thread time on 2 busy cores, the largest single task of
// the explainer's first load.

/** |x| as decimal digits d (no leading or trailing zeros; '' for 0) with value 0.d × 10^p. */
function decimal(x) {
  const [m, e] = Math.abs(x).toExponential().split('e');
  const d = m.replace('.', '').replace(/0+$/, '');
  return { d, p: d ? Number(e) + 1 : 1 };
}

/** {d, p} rounded half away from zero to its first n digits (n may be 0 or less). */
function round({ d, p }, n) {
  if (n >= d.length) return { d, p };
  if (n < 0 || (n === 0 && d[0] < '5')) return { d: '', p: 1 };
  let head = d.slice(0, n);
  if (d[n] >= '5') {
    let i = head.length - 1;
    while (i >= 0 && head[i] === '9') i--;
    if (i < 0) return { d: '1', p: p + 1 };  // 9.96 -> 10.0: one more digit before the point
    head = head.slice(0, i) + String(Number(head[i]) + 1);
  }
  head = head.replace(/0+$/, '');
  return head ? { d: head, p } : { d: '', p: 1 };
}

/** A rounded {d, p} as text with minF..(its own) fraction digits, grouped from five integer digits on. */
function text(neg, { d, p }, minF = 0) {
  if (!d) p = 1;
  let whole = p > 0 ? d.slice(0, p).padEnd(p, '0') : '0';
  const frac = (p >= 0 ? d.slice(p) : '0'.repeat(-p) + d).padEnd(minF, '0');
  if (whole.length >= 5) whole = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return (neg ? '-' : '') + whole + (frac ? '.' + frac : '');
}

const negative = (x) => x < 0 || Object.is(x, -0);
/** x to at most `sig` significant digits. */
const bySig = (x, sig) => text(negative(x), round(decimal(x), sig));
/** x to minF..maxF fraction digits. */
const byFrac = (x, maxF, minF = 0) => {
  const dec = decimal(x);
  return text(negative(x), round(dec, dec.p + maxF), minF);
};

export const DASH = '—';

/**
 * A general number: `sig` significant digits; very small or large ones as a
 * reader writes them, 6.6 × 10⁻⁴ (never 6.6E-4).
 */
export function num(x, sig = 4) {
  if (!Number.isFinite(x)) return DASH;
  const a = Math.abs(x);
  if (a !== 0 && (a < 1e-3 || a >= 1e7)) {
    const r = round(decimal(x), Math.min(sig, 3));
    const mantissa = text(negative(x), { d: r.d, p: 1 });
    const exponent = r.p - 1;
    return exponent === 0 ? mantissa : `${mantissa} × ${powerOfTen(exponent)}`;
  }
  return bySig(x, sig);
}

/** Up to `sig` significant digits, never scientific (the checker's statistics: 0.000123). */
export function significant(x, sig = 3) {
  if (!Number.isFinite(x)) return DASH;
  return bySig(x, sig);
}

/** A value with at most `digits` decimals, e.g. an entropy in nats. */
export function fixed(x, digits = 3) {
  if (!Number.isFinite(x)) return DASH;
  return byFrac(x, digits);
}

/** Exactly `digits` decimals: a ratio (3.2), a rate (21.63 GFLOP/s), a size (80.0 MB). */
export function decimals(x, digits) {
  if (!Number.isFinite(x)) return DASH;
  return byFrac(x, digits, digits);
}

/** A probability as a percentage with two decimals (the decimal point moved, not x·100 rounded); tiny non-zero ones as "<0.01%". */
export function percent(p) {
  if (!Number.isFinite(p)) return DASH;
  if (p > 0 && p < 0.00005) return '<0.01%';
  const dec = decimal(p);
  return text(negative(p), round({ d: dec.d, p: dec.p + 2 }, dec.p + 4), 2) + '%';
}

/** A share as a number of percent, without the sign: whole (12), one decimal below 1% (0.4). */
export function percentNumber(share) {
  if (!Number.isFinite(share)) return DASH;
  return byFrac(100 * share, share > 0 && share < 0.01 ? 1 : 0);
}

/** An integer (d_k = 4096, 65,536 samples), rounded half away from zero. */
export function int(x) {
  return Number.isFinite(x) ? byFrac(x, 0) : DASH;
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
