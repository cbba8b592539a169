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
  return { d: m.replace('.', '').replace(/0+$/, ''), p: +e + 1 };
}

/** {d, p} rounded half away from zero to its first n digits (n may be 0 or less). */
function round({ d, p }, n) {
  let head = d.slice(0, Math.max(n, 0));
  if (d[n] >= '5') {
    const up = String(BigInt(head) + 1n); // BigInt('') is 0n: 0.006 to 2 decimals is 0.01
    if (up.length > head.length) p++; // 9.96 -> 10.0: one more digit before the point
    head = up;
  }
  head = head.replace(/0+$/, '');
  return { d: head, p };
}

/** A rounded {d, p} of x as text with minF..(its own) fraction digits, grouped from five integer digits on. */
function text(x, { d, p }, minF = 0) {
  if (!d) p = 1;
  let whole = p > 0 ? d.slice(0, p).padEnd(p, '0') : '0';
  const frac = (p >= 0 ? d.slice(p) : '0'.repeat(-p) + d).padEnd(minF, '0');
  if (whole.length >= 5) whole = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return (1 / x < 0 ? '-' : '') + whole + (frac ? '.' + frac : ''); // -0 too, as Intl writes it
}

/** x to at most `sig` significant digits. */
const bySig = (x, sig) => text(x, round(decimal(x), sig));
/** x to minF..maxF fraction digits. */
const byFrac = (x, maxF, minF = 0) => {
  const dec = decimal(x);
  return text(x, round(dec, dec.p + maxF), minF);
};

export const DASH = '—';

/** f(x, ...), or a dash when x is not a finite number. */
const finite = (f) => (x, ...rest) => (Number.isFinite(x) ? f(x, ...rest) : DASH);

/**
 * A general number: `sig` significant digits; very small or large ones as a
 * reader writes them, 6.6 × 10⁻⁴ (never 6.6E-4).
 */
export const num = finite((x, sig = 4) => {
  const a = Math.abs(x);
  if (a !== 0 && (a < 1e-3 || a >= 1e7)) {
    const r = round(decimal(x), Math.min(sig, 3));
    const mantissa = text(x, { d: r.d, p: 1 });
    return r.p === 1 ? mantissa : `${mantissa} × ${powerOfTen(r.p - 1)}`;
  }
  return bySig(x, sig);
});

/** Up to `sig` significant digits, never scientific (the checker's statistics: 0.000123). */
export const significant = finite((x, sig = 3) => bySig(x, sig));

/** A value with at most `digits` decimals, e.g. an entropy in nats. */
export const fixed = finite((x, digits = 3) => byFrac(x, digits));

/** Exactly `digits` decimals: a ratio (3.2), a rate (21.63 GFLOP/s), a size (80.0 MB). */
export const decimals = finite((x, digits) => byFrac(x, digits, digits));

/** A probability as a percentage with two decimals (the decimal point moved, not x·100 rounded); tiny non-zero ones as "<0.01%". */
export const percent = finite((p) => {
  if (p > 0 && p < 0.00005) return '<0.01%';
  const dec = decimal(p);
  return text(p, round({ d: dec.d, p: dec.p + 2 }, dec.p + 4), 2) + '%';
});

/** A share as a number of percent, without the sign: whole (12), one decimal below 1% (0.4). */
export const percentNumber = finite((share) => byFrac(100 * share, share > 0 && share < 0.01 ? 1 : 0));

/** An integer (d_k = 4096, 65,536 samples), rounded half away from zero. */
export const int = finite((x) => byFrac(x, 0));

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
