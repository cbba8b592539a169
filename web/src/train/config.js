// What a lab run is, as the page holds it: the form's raw texts and the
// sweep's choices with their place in the URL (state.js), the divisors a
// comparison can hold (each with one colour and one dash pattern, the same in
// every chart), and the TrainOptions object the core's TrainSession.configure()
// receives. Validation is the core's: this module
// only turns texts into numbers (NaN when they are not), so the core's own
// message reaches the reader.

import { numberText, wholeText } from '../base/number-text.js';
import { TRAIN_OPTIONS } from '../wasm/core-facts.js';

// The core's training options (cpp/core/train/train_config.h train_options,
// the table the CLI's parser and the module's configure() read), written into
// the build by web/scripts/core-facts.mjs: {name, field, type, def, lo, hi,
// choices, optional} by configure()'s field (dModel) or, for a run's own
// options, the CLI's name (steps, eval). Every default and range below that
// is the core's comes from here (tests/node/core_facts.test.mjs).
export const CORE_OPTIONS = TRAIN_OPTIONS;
const D = Object.fromEntries(Object.entries(TRAIN_OPTIONS).map(([k, o]) => [k, o.def]));

// Fixed parts of every run: the lab varies what the seed article talks about
// and keeps the rest of the model fixed, at the core's defaults (d_model, d_v,
// batch, init); logEvery is the lab's own, 5 where the core logs every
// D.logEvery (10) steps, so the charts have twice the points.
export const FIXED = { dModel: D.dModel, dv: D.dv, batch: D.batch, init: D.init, logEvery: 5 };
export const EVAL_SAMPLES = 512;      // held-out sequences scored at the end of a run
export const SNAPSHOT_SAMPLES = 64;   // sequences in an exported q/k snapshot
export const MAX_STEPS = 100_000;
export const MAX_CUSTOM = 3;

// The comparison's form in the URL, as texts (what the reader typed or the
// link held), under bare keys: ?dk=256&div=sqrt,2,1&opt=adam, as lab links
// always were. Every field is free text of any length here, a bad task or
// optimiser included: the core checks the values and its message appears next
// to the control, so a bad link shows what is wrong instead of being replaced.
// The defaults are the core's (the CLI's), but the divisors compared and lr
// ('auto': the core's reference rate for the optimiser and d_k).
const text = (def) => ({ type: 'text', max: Infinity, def: String(def) });
export const FORM_STATE = {
  task: text(D.task), dk: text(D.dk), heads: text(D.heads), div: text('sqrt,2,1'), opt: text(D.optimizer),
  lr: text('auto'), steps: text(D.steps), seed: text(D.seed),
};
// The stabilisers, shared by every run, under bare keys too (cap=50&clip=100&init=t5),
// read apart from FORM_STATE (whose values links have always read to): absent
// from the address while off (empty) or the default, so links from before
// them read as they did.
export const STAB_STATE = { cap: text(''), clip: text(''), init: text(D.init) };
/** The form's values as the address holds them: the stabilisers left out while off. */
export function formUrlValues(v) {
  return { ...v, cap: v.cap || null, clip: v.clip || null, init: v.init === D.init ? null : v.init };
}
export const FORM_PREFIX = '';
export const TASKS = TRAIN_OPTIONS.task.choices;
export const OPTIMIZERS = TRAIN_OPTIONS.optimizer.choices;
// Initialisations offered: the core's default (LeCun), and T5's (W_Q with variance 1/(d_model·d_k)).
export const INITS = [D.init, 't5'];

// Divisors offered as checkboxes, in the order runs are listed. `slot` picks
// the colour (lab.css: .slot-sqrt ...) and the dash pattern below; the colours
// match the explorable page's (√d_k blue, 2 purple, 1 vermillion, d_k green).
export const PRESETS = ['sqrt', '2', '1', 'dk', 'qknorm'];
const DASH = {
  sqrt: null, two: [10, 5], one: [2, 4], dk: [14, 4, 3, 4], qknorm: [6, 3, 1, 3],
  custom0: [4, 4], custom1: [16, 6], custom2: [1, 2],
};
const PRESET_SLOT = { sqrt: 'sqrt', 2: 'two', 1: 'one', dk: 'dk', qknorm: 'qknorm' };

// "Test the claim" (sweep.js) crosses these d_k with the presets and the
// optimisers picked. In the URL under "sw." (sw.dk=16,64,256): unknown list
// items are dropped, as no checkbox could show them; steps is free text,
// checked when the sweep starts.
export const SWEEP_DKS = [16, 32, 64, 128, 256, 512];
export const SWEEP_STATE = {
  dk: { type: 'list', values: SWEEP_DKS.map(String), def: ['16', '32', '64', '128', '256'] },
  div: { type: 'list', values: PRESETS, def: ['sqrt', '2', '1'] },
  opt: { type: 'list', values: OPTIMIZERS, def: [...OPTIMIZERS] },
  steps: text('600'),
};
export const SWEEP_PREFIX = 'sw';
// The sweep's list of learning rates (sw.lr=1e-3,1e-2,0.1; sweep-lr.js reads
// it when the sweep starts): free text, absent when empty, so links from
// before it existed read as they did.
export const SWEEP_LR_STATE = { lr: text('') };

/** Colour slot ('sqrt', 'two', …, 'custom0') and dash pattern (null: solid) of a divisor option. */
export function divisorStyle(option, customIndex = 0) {
  const slot = PRESET_SLOT[option] ?? `custom${customIndex}`;
  return { slot, dash: DASH[slot] ?? null };
}

/** A custom divisor text that names a preset ('2.0', ' SQRT') becomes that preset. */
export function presetOf(text) {
  const t = text.trim().toLowerCase();
  if (PRESETS.includes(t)) return t;
  const x = numberText(t);
  if (x === 1 || x === 2) return String(x);
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

/** A number from a text field: NaN for text that is not one in the core's grammar (the core then names the field). */
export const number = numberText;

// ---- the training form's spec, the lab's (pages/lab/form.js) and <attn-train-compare>'s ----

/**
 * An element option's spec (base/state.js) for a TrainOptions field, from the
 * core's table: an integer's range and default, a number's (lr: open at its
 * low end), a choice's values; `own` sets what a form chooses itself (a default).
 */
export function coreSpec(field, own = {}) {
  const o = TRAIN_OPTIONS[field];
  const spec = o.type === 'integer' ? { type: 'int', min: o.lo, max: o.hi, def: o.def }
    : o.type === 'choice' ? { type: 'enum', values: o.choices, def: o.def }
      : { type: 'number', min: o.lo, minOpen: field === 'lr', max: o.hi, def: o.def };
  return { ...spec, ...own };
}

// A small valid configuration: each field is checked alone on it, so every
// bad field gets the core's message at once (configure() stops at the first).
export const PROBE = { ...FIXED, task: D.task, dk: 16, heads: 1, divisor: 'sqrt', optimizer: D.optimizer, lr: 1e-3, seed: D.seed };

// The core names the bad argument of a whole configuration (its
// ArgumentError's argument, validate() in train_config.cpp); this maps it to
// the TrainOptions field it concerns. A form maps that field to its control.
const ARG_OPTION = {
  task: 'task', dk: 'dk', heads: 'heads', 'heads*dk': 'dk', 'batch*positions*heads*dk': 'dk',
  'd_model*heads*dk': 'dk', optimizer: 'optimizer', lr: 'lr', seed: 'seed', divisor: 'divisor',
  softcap: 'softcap', qk_clip: 'qkClip', init: 'init',
};

/**
 * The control a verdict on a whole configuration goes next to: `controls`
 * maps a TrainOptions field to a form's control (the lab's opt, div, cap and
 * clip; a field it has no control for is 'form', under its buttons).
 */
export function fieldOfArgument(argument, controls) {
  const option = ARG_OPTION[argument];
  return (option && controls[option]) ?? 'form';
}

/** A soft-cap or QK-clip text: empty (or absent) is 0, off; else the number (NaN when not one). */
export function capNumber(text) {
  return text === undefined || String(text).trim() === '' ? 0 : numberText(String(text).trim());
}

/**
 * TrainOptions for the core: texts become numbers (NaN when not numbers, which
 * the core rejects with its own message), `lr` is the resolved number. The
 * soft-cap (cap), QK-clip τ (clip) and init apply to every run alike.
 */
export function trainOptions(values, divisor, lr) {
  return {
    ...FIXED,
    task: values.task,
    dk: wholeText(values.dk),
    heads: wholeText(values.heads),
    divisor,
    optimizer: values.opt,
    lr,
    seed: wholeText(values.seed),
    init: values.init ?? FIXED.init,
    softcap: capNumber(values.cap),
    qkClip: capNumber(values.clip),
  };
}

/** Steps of a run: checked here (the core has no total-steps field). null when bad. */
export function parseSteps(text) {
  const x = wholeText(text);
  return Number.isInteger(x) && x >= 1 && x <= MAX_STEPS ? x : null;
}

/** Heatmap captures per run: about 60 over the run, at whole multiples of the logging interval. */
export function mapEvery(steps) {
  return Math.max(FIXED.logEvery, Math.ceil(steps / 60 / FIXED.logEvery) * FIXED.logEvery);
}
