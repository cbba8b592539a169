// Scalable-Softmax's log-n divisor for the saturation explorer's
// sequence-length view, by the formula of the core's ssmax_divisor
// (explain/saturation_divisor.h) and with its range for s; no DOM, so
// tests/node/saturation_length.test.mjs compares it with the CLI in Node.
import { parseNumber } from '../base/parse.js';

// The core's kMinSsmaxS, kMaxSsmaxS (explain/saturation_divisor.h).
const S_RANGE = [1e-6, 1e6];

/** √d_k / (s·ln n), n >= 2: Scalable-Softmax's scores × s·ln n / √d_k as a divisor. */
export function ssmaxDivisor(dk, n, s) {
  return Math.sqrt(dk) / (s * Math.log(n));
}

/** The s field's text: {value} or {error: {key, params}}. */
export function parseS(text) {
  const r = parseNumber(text, 'satlen.err.s');
  if (r.error) return r;
  if (!(r.value >= S_RANGE[0] && r.value <= S_RANGE[1])) return { error: { key: 'satlen.err.s' } };
  return r;
}

