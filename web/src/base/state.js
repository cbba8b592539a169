// Page state in the query string, so any view can be shared: each widget keeps
// its controls under its own prefix ("sat.dk=256&sat.div=dk"), the lab's sweep
// under "sw", the lab's form under bare keys ("dk=256&div=sqrt,2,1", as its
// links always were). Values read back are checked against a spec; a
// malformed one falls back to the default and an out-of-range one is clamped,
// each with a notice the page may show.
// Writes are batched (one history.replaceState per 200 ms at most): Chromium
// throttles pages that call it on every slider step.
import { defineStrings } from './i18n.js';
import { getParam } from './url.js';
import { isNumberText, numberText } from './number-text.js';

// The notices readState gives (a widget shows them; element.js renderNotices).
defineStrings('url', {
  en: {
    invalid: 'The link’s value {param}={given} could not be read; using {used}.',
    clamped: 'The link’s value {param}={given} is out of range; using {used}.',
    ignored: 'The link’s value {param}={given} could not be read, so it is ignored.',
  },
  zh: {
    invalid: '链接中的 {param}={given} 无法读取，改用 {used}。',
    clamped: '链接中的 {param}={given} 超出范围，改用 {used}。',
    ignored: '链接中的 {param}={given} 无法读取，已忽略。',
  },
});

/** The query parameter of `key` under `prefix`: 'sat' -> sat.dk, '' -> dk. */
function paramName(prefix, key) {
  return prefix ? `${prefix}.${key}` : key;
}

/**
 * Read `specs` from the URL under `prefix` ('sat': sat.dk=…; '': bare keys,
 * dk=…; null: no URL state, every value its default). Spec of one parameter:
 *   {type: 'int', min, max, def}        integers, clamped to [min, max]
 *   {type: 'number', min, max, def}     decimals, clamped (min may be exclusive: minOpen)
 *   {type: 'enum', values: [...], def}  one of the listed strings
 *   {type: 'text', max, def}            free text up to `max` characters (default 200; Infinity:
 *                                       any, for a field whose checker shows its own message)
 *   {type: 'list', values: [...], def}  comma-separated items, each one of the listed strings
 *                                       (def: an array); unknown ones are dropped; '' is no item
 *
 * @returns {{values: object, notices: {key: string, params: object}[]}}
 *   notice keys: 'url.invalid' (fell back to the default, or dropped a list's items), 'url.clamped'
 */
export function readState(prefix, specs) {
  const values = {};
  const notices = [];
  for (const [key, spec] of Object.entries(specs)) {
    const name = paramName(prefix, key);
    const text = prefix === null || prefix === undefined ? null : getParam(name);
    if (text === null) {
      values[key] = spec.def;
      continue;
    }
    const r = parseOne(text, spec);
    values[key] = r.value;
    if (!r.notice) continue;
    // Nothing to fall back to (an empty default, a list left with no item): the value is ignored,
    // where "using ." told the reader nothing (the checker's ?preset=bogus).
    const used = String(r.value);
    notices.push({ key: used === '' ? 'url.ignored' : r.notice, params: { param: name, given: text.slice(0, 40), used } });
  }
  return { values, notices };
}

function parseOne(text, spec) {
  const s = text.trim();
  switch (spec.type) {
    case 'enum':
      return spec.values.includes(s) ? { value: s } : { value: spec.def, notice: 'url.invalid' };
    case 'text':
      return s.length <= (spec.max ?? 200) ? { value: s } : { value: spec.def, notice: 'url.invalid' };
    case 'list': {
      const items = s.split(',').map((x) => x.trim()).filter(Boolean);
      const value = items.filter((x) => spec.values.includes(x));
      return { value, notice: value.length < items.length ? 'url.invalid' : null };
    }
    default: {
      if (!isNumberText(s)) return { value: spec.def, notice: 'url.invalid' };  // the core's grammar
      let x = Number(s);
      let notice = null;
      if (spec.type === 'int' && !Number.isInteger(x)) {
        x = Math.round(x);
        notice = 'url.clamped';
      }
      const lo = spec.min ?? -Infinity;
      const hi = spec.max ?? Infinity;
      if (x < lo || (spec.minOpen && x === lo) || x > hi) {
        x = x > hi ? hi : spec.minOpen ? spec.def : lo;
        notice = 'url.clamped';
      }
      return { value: x, notice };
    }
  }
}

/**
 * An attribute of an embedded widget, read strictly by the same spec: no
 * clamping, no fallback in silence. {value} or {error: {key, params}} (an
 * 'opt.*' string saying what the attribute takes).
 */
export function parseOption(text, spec) {
  const s = String(text).trim();
  const range = { min: spec.min, max: spec.max, values: (spec.values ?? []).join(', ') };
  switch (spec.type) {
    case 'enum':
      return spec.values.includes(s) ? { value: s } : { error: { key: 'opt.enum', params: range } };
    case 'text':
      return s.length <= (spec.max ?? 200) ? { value: s } : { error: { key: 'opt.text', params: range } };
    case 'divisor': {
      // A named divisor ('sqrt', 'dk', ...) or a positive number up to max.
      if (spec.values.includes(s)) return { value: s };
      const r = parseOption(s, { type: 'number', min: 0, minOpen: true, max: spec.max });
      return r.error ? { error: { key: 'opt.divisor', params: range } } : r;
    }
    case 'list': {
      const items = s.split(',').map((x) => x.trim()).filter(Boolean);
      const ok = items.length > 0 && items.every((x) => spec.values.includes(x)) && new Set(items).size === items.length;
      return ok ? { value: items } : { error: { key: 'opt.list', params: range } };
    }
    default: {
      const x = numberText(s);  // the core's grammar: no '+1', '.5' or hex
      const lo = spec.min ?? -Infinity;
      const hi = spec.max ?? Infinity;
      const bad = !Number.isFinite(x) || (spec.type === 'int' && !Number.isInteger(x)) || x < lo || x > hi || (spec.minOpen && x === lo);
      if (!bad) return { value: x };
      return { error: { key: spec.type === 'int' ? 'opt.int' : spec.minOpen ? 'opt.positive' : 'opt.number', params: range } };
    }
  }
}

const pending = new Map();
let timer = null;

/** Queue `{key: value}` under `prefix` for the URL (null removes a key; a list is written comma-separated). */
export function writeState(prefix, values) {
  if (prefix === null || prefix === undefined) return;
  for (const [k, v] of Object.entries(values)) pending.set(paramName(prefix, k), Array.isArray(v) ? v.join(',') : v);
  if (timer === null) {
    timer = setTimeout(flush, 200);
    // Only a page that keeps URL state listens for leaving it.
    if (!listening) addEventListener('pagehide', flush);
    listening = true;
  }
}
let listening = false;

/** Write queued values now (tests and `pagehide` use it). */
export function flush() {
  clearTimeout(timer);
  timer = null;
  if (pending.size === 0) return;
  const url = new URL(location.href);
  for (const [k, v] of pending) {
    if (v === null || v === undefined) url.searchParams.delete(k);
    else url.searchParams.set(k, String(v));
  }
  pending.clear();
  history.replaceState(history.state, '', url);
}

/** A random seed for "resample" buttons (fits the core's 53-bit seeds). */
export function randomSeed() {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}
