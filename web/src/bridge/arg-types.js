// The wrappers' checks of their callers' types (issue 14, class 10), before
// anything reaches Embind: Embind coerces what it is given ("1012" read as
// the scores [1, 0, 1, 2], an object as NaN) and, when a conversion throws
// half-way through an argument list or an options object, leaks what it had
// already converted (the struct, its strings). Every public function of
// attn.js, attn-check.js, train-ops.js and bench/measure.js checks here first.
//
// A refusal is an Error of the one convention (errors.js): .argument, kind
// 'type', params {expected, got} (and max for too long a text); its sentence
// is in error-strings.js. NaN is a number here: the core's range checks
// refuse it with their own sentence.

/** The longest text any option takes (a divisor, a task, a file name, an array name). */
export const MAX_TEXT = 4096;

const typeName = (x) => (x === null ? 'null' : Array.isArray(x) ? 'array' : ArrayBuffer.isView(x) ? x.constructor.name : typeof x);

// Kept short: this module is in every embedded widget's first load.
const WORDS = {
  number: 'a number', string: 'a string', numbers: 'an array of numbers', bytes: 'an ArrayBuffer or a Uint8Array',
  object: 'an object', boolean: 'a boolean',
};

/** The Error for `argument` not being `expected` (a key of WORDS, or 'files'); max: a string's longest length. */
export function typeError(argument, expected, x, max) {
  const got = max ? `${x.length} characters` : typeName(x);
  const message = expected === 'files' ? 'give one file (q and k together) or two (q, then k)'
    : `${argument} must be ${max ? `at most ${max} characters` : WORDS[expected]}`;
  return Object.assign(new Error(`${message}, got ${got}`),
    { argument, kind: 'type', params: max ? { expected, got, max } : { expected, got } });
}

export function requireNumber(name, x) {
  if (typeof x !== 'number') throw typeError(name, 'number', x);
  return x;
}

export function requireBoolean(name, x) {
  if (typeof x !== 'boolean') throw typeError(name, 'boolean', x);
  return x;
}

export function requireString(name, x, max = MAX_TEXT) {
  if (typeof x !== 'string') throw typeError(name, 'string', x);
  if (x.length > max) throw typeError(name, 'string', x, max);
  return x;
}

/** An Array whose every item is a number, or a Float64Array / Float32Array (no other typed array). */
export function requireNumbers(name, xs) {
  if (xs instanceof Float64Array || xs instanceof Float32Array) return xs;
  if (!Array.isArray(xs)) throw typeError(name, 'numbers', xs);
  for (const x of xs) if (typeof x !== 'number') throw typeError(name, 'numbers', xs);
  return xs;
}

/** A file's bytes: an ArrayBuffer or a Uint8Array. */
export function requireBytes(name, x) {
  if (!(x instanceof ArrayBuffer || x instanceof Uint8Array)) throw typeError(name, 'bytes', x);
  return x;
}

export function requireObject(name, x) {
  if (x === null || typeof x !== 'object' || Array.isArray(x) || ArrayBuffer.isView(x)) throw typeError(name, 'object', x);
  return x;
}

/**
 * An options object whose fields have the types of `spec` ({field: 'number' |
 * 'string'}); every field of spec must be there (Embind's value_object reads
 * them all), others are ignored. Returns a fresh object of spec's fields only.
 */
export function requireOptions(name, o, spec) {
  requireObject(name, o);
  const out = {};
  for (const [field, type] of Object.entries(spec)) {
    out[field] = type === 'string' ? requireString(field, o[field]) : requireNumber(field, o[field]);
  }
  return out;
}
