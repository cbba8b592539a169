// What a lab run is, as the page holds it: the form's raw texts, their URL
// keys, the divisors a comparison can hold (each with one colour and one dash
// pattern, the same in every chart), and the TrainOptions object the core's
// TrainSession.configure() receives. Validation is the core's: this module
// only turns texts into numbers (NaN when they are not), so the core's own
// message reaches the reader.
import { getParam } from '../url.js';

// Fixed parts of every run (the core's TrainOptions defaults): the lab varies
// what the seed article talks about and keeps the rest of the model fixed.
export const FIXED = { dModel: 64, dv: 32, batch: 64, init: 'lecun', logEvery: 5 };
export const EVAL_SAMPLES = 512;      // held-out sequences scored at the end of a run
export const SNAPSHOT_SAMPLES = 64;   // sequences in an exported q/k snapshot
export const MAX_STEPS = 100_000;
export const MAX_CUSTOM = 3;

// The comparison's form, as texts (what the reader typed or the URL held).
export const DEFAULTS = {
  task: 'recall', dk: '256', heads: '2', div: 'sqrt,2,1', opt: 'adam', lr: 'auto', steps: '1500', seed: '0',
};
export const FORM_KEYS = Object.keys(DEFAULTS);
export const TASKS = ['recall', 'copy'];
export const OPTIMIZERS = ['adam', 'sgd'];

// Divisors offered as checkboxes, in the order runs are listed. `slot` picks
// the colour (lab.css: .slot-sqrt ...) and the dash pattern below; the colours
// match the explorable page's (√d_k blue, 2 purple, 1 vermillion, d_k green).
export const PRESETS = ['sqrt', '2', '1', 'dk', 'qknorm'];
const DASH = {
  sqrt: null, two: [10, 5], one: [2, 4], dk: [14, 4, 3, 4], qknorm: [6, 3, 1, 3],
  custom0: [4, 4], custom1: [16, 6], custom2: [1, 2],
};
const PRESET_SLOT = { sqrt: 'sqrt', 2: 'two', 1: 'one', dk: 'dk', qknorm: 'qknorm' };

/** Colour slot ('sqrt', 'two', …, 'custom0') and dash pattern (null: solid) of a divisor option. */
export function divisorStyle(option, customIndex = 0) {
  const slot = PRESET_SLOT[option] ?? `custom${customIndex}`;
  return { slot, dash: DASH[slot] ?? null };
}

/** A custom divisor text that names a preset ('2.0', ' SQRT') becomes that preset. */
export function presetOf(text) {
  const t = text.trim().toLowerCase();
  if (PRESETS.includes(t)) return t;
  const x = Number(t);
  if (t !== '' && (x === 1 || x === 2)) return String(x);
  return null;
}

/**
 * Split a divisor list ("sqrt,2,1,4") into checked presets and custom texts.
 * @returns {{presets: Set<string>, custom: string[]}}
 */
export function splitDivisors(text) {
  const presets = new Set();
  const custom = [];
  for (const item of String(text).split(',')) {
    if (item.trim() === '') continue;
    const p = presetOf(item);
    if (p) presets.add(p);
    else custom.push(item.trim());
  }
  return { presets, custom };
}

/** The divisor options of a comparison, presets first (in PRESETS order), then custom ones. */
export function divisorOptions(presets, custom) {
  const out = PRESETS.filter((p) => presets.has(p)).map((option) => ({ option, custom: false }));
  custom.forEach((option, i) => out.push({ option, custom: true, customIndex: i }));
  return out.map((d) => ({ ...d, ...divisorStyle(d.option, d.customIndex) }));
}

/** A number from a text field: NaN for text that is not one (the core then names the field). */
export function number(text) {
  const t = String(text).trim();
  return t === '' ? NaN : Number(t);
}

/** The form's texts from the URL, where present; `present` lists the keys the URL held. */
export function readUrl() {
  const values = { ...DEFAULTS };
  const present = [];
  for (const key of FORM_KEYS) {
    const v = getParam(key);
    if (v !== null) {
      values[key] = v;
      present.push(key);
    }
  }
  return { values, present };
}

/**
 * TrainOptions for the core: texts become numbers (NaN when not numbers, which
 * the core rejects with its own message), `lr` is the resolved number.
 */
export function trainOptions(values, divisor, lr) {
  return {
    ...FIXED,
    task: values.task,
    dk: number(values.dk),
    heads: number(values.heads),
    divisor,
    optimizer: values.opt,
    lr,
    seed: number(values.seed),
  };
}

/** Steps of a run: checked here (the core has no total-steps field). null when bad. */
export function parseSteps(text) {
  const x = number(text);
  return Number.isInteger(x) && x >= 1 && x <= MAX_STEPS ? x : null;
}

/** Heatmap captures per run: about 60 over the run, at whole multiples of the logging interval. */
export function mapEvery(steps) {
  return Math.max(FIXED.logEvery, Math.ceil(steps / 60 / FIXED.logEvery) * FIXED.logEvery);
}
