// The core's number grammar (cpp/core/base/number.h), for the text fields the
// page reads before the core sees the value: JSON's number syntax and nothing
// else (no '+', hex, '.5', '1.' or blanks inside; a field's text is trimmed
// first). Number() of such text is the correctly rounded double, as strtod gives.
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

export const isNumberText = (text) => NUMBER.test(text);

/** The number a field's text writes, or NaN (which the core then refuses, naming the field). */
export function numberText(text) {
  const t = String(text).trim();
  return NUMBER.test(t) ? Number(t) : NaN;
}

const WHOLE = /^(?:0|[1-9]\d*)$/;

/** A whole-number field (d_k, heads, seed, steps, samples, sequences): digits only, as the
 *  core's whole-number options (no '64.0', '6.4e1' or '1e3'); NaN otherwise. */
export function wholeText(text) {
  const t = String(text).trim();
  return WHOLE.test(t) ? Number(t) : NaN;
}
