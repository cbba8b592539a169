// The comparison's form: its fields, their values in the URL, and validation.
// Validation is in two pure parts, so it can be tested without a page or a
// core: checkValues() does what the page checks itself (empty fields, steps,
// how many divisors) and lists the options objects to ask the core about;
// verdictMessages() and fieldOfArgument() put each of the core's verdicts
// ({error, argument}, the worker's 'validate' op) next to its field.
// createForm() builds the fields (nothing here touches the DOM at import).
import { t } from '../../base/i18n.js';
import { loadErrorStrings, readerError } from '../../bridge/errors.js';
import { errorFields } from '../../bridge/rpc.js';
import { h, setFieldError } from '../../base/dom.js';
import { writeState } from '../../base/state.js';
import { int, num } from '../../base/format.js';
import './strings.js';
import {
  CORE_OPTIONS, FIXED, MAX_CUSTOM, MAX_STEPS, TASKS, OPTIMIZERS, INITS, PRESETS, FORM_PREFIX, PROBE,
  divisorOptions, splitDivisors, number, trainOptions, parseSteps, capNumber, formUrlValues, fieldOfArgument as controlOf,
} from '../../train/config.js';
import { MODEL_PRESETS } from '../../wasm/presets.js';
import { swatch } from './swatch.js';

export { PROBE };
// Each field alone on PROBE (train/config.js), the form's control -> the TrainOptions field.
const PROBED = [
  ['task', 'task', (x) => x], ['dk', 'dk', number], ['heads', 'heads', number],
  ['opt', 'optimizer', (x) => x], ['lr', 'lr', number], ['seed', 'seed', number],
];
// The stabilisers, probed only when set (empty is off; LeCun is the default init).
const PROBED_SET = [
  ['cap', 'softcap', capNumber, (x) => (x ?? '') !== ''], ['clip', 'qkClip', capNumber, (x) => (x ?? '') !== ''],
  ['init', 'init', (x) => x, (x) => x !== undefined && x !== FIXED.init],
];

// The form's control for each TrainOptions field.
const CONTROLS = {
  task: 'task', dk: 'dk', heads: 'heads', optimizer: 'opt', lr: 'lr', seed: 'seed', divisor: 'div',
  softcap: 'cap', qkClip: 'clip', init: 'init',
};

/** The field a verdict on a whole configuration goes next to ('form': under the buttons). */
export function fieldOfArgument(argument) {
  return controlOf(argument, CONTROLS);
}

/**
 * What the page checks itself, and what it asks the core.
 * @param {object} v  the form's texts (formValues())
 * @returns {{msgs: object, steps: number|null, presets: Set<string>, custom: string[], auto: boolean,
 *            probes: Array<[string, object]>}}  msgs: field -> {key, params}; probes: [field, options]
 *            for the core's 'validate' op: each field alone on PROBE (not those already wrong,
 *            nor lr when 'auto'), then each custom divisor
 */
export function checkValues(v) {
  const msgs = {};
  for (const f of ['dk', 'heads', 'lr', 'steps', 'seed'])
    if (v[f] === '') msgs[f] = { key: 'lab.err.empty' };
  const steps = parseSteps(v.steps);
  if (steps === null && !msgs.steps) msgs.steps = { key: 'lab.err.steps', params: { max: int(MAX_STEPS) } };
  const { presets, custom } = splitDivisors(v.div);
  if (presets.size + custom.length === 0) msgs.div = { key: 'lab.err.noDivisor' };
  else if (custom.length > MAX_CUSTOM) msgs.div = { key: 'lab.err.tooManyCustom', params: { max: MAX_CUSTOM } };
  const auto = v.lr.toLowerCase() === 'auto';
  const probes = PROBED.filter(([f]) => !msgs[f] && !(f === 'lr' && auto))
    .map(([f, option, conv]) => [f, { ...PROBE, [option]: conv(v[f]) }]);
  for (const [f, option, conv, set] of PROBED_SET) if (set(v[f])) probes.push([f, { ...PROBE, [option]: conv(v[f]) }]);
  if (!msgs.div) for (const c of custom) probes.push(['div', { ...PROBE, divisor: c }]);
  return { msgs, steps, presets, custom, auto, probes };
}

/**
 * The core's verdicts on the probes, as messages by field (the first for a field wins).
 * @param {Array<[string, object]>} probes  from checkValues()
 * @param {Array<{error: string, argument: string, kind: string, params: object}>} verdicts  the 'validate' op's answer, in the same order
 * @returns {object} field -> {core: {error, argument, kind, params}}
 */
export function verdictMessages(probes, verdicts) {
  const msgs = {};
  verdicts.forEach((r, i) => {
    if (r.error) msgs[probes[i][0]] ??= { core: errorFields(r) };
  });
  return msgs;
}

/** A comparison's plan from checked values and the resolved learning rate. */
export function planOf(v, { steps, presets, custom, auto }, lr) {
  return {
    values: { ...v }, steps, lr, auto,
    divisors: divisorOptions(presets, custom),
    config: {
      task: v.task, dk: number(v.dk), heads: number(v.heads), optimizer: v.opt, lr, steps, seed: number(v.seed), ...FIXED,
      init: v.init ?? FIXED.init, softcap: capNumber(v.cap), qkClip: capNumber(v.clip),
    },
  };
}

/** A preset's divisor as the form's text: the core's number, exactly (String() reads back to the same double). */
export const presetDivisorText = (p) => String(p.divisor);

/**
 * The form's values with preset p applied: its d_k, its divisor added to the
 * comparison (a checkbox when it is 1 or 2, else the other divisors' text,
 * replacing what was there), its soft-cap (none: empty) and its init; the
 * QK-clip, optimiser, rate and the rest stay.
 */
export function presetValues(p, v) {
  const { presets, custom } = splitDivisors(v.div);
  const text = presetDivisorText(p);
  const box = [...splitDivisors(text).presets][0];
  const div = box ? [...presets, box, ...custom] : [...presets, text];
  return {
    ...v, dk: String(p.dk), div: [...new Set(div)].join(','), cap: p.softcap > 0 ? String(p.softcap) : '',
    init: p.init || FIXED.init,
  };
}

/** Whether the form's values hold preset p: its d_k, its divisor among the compared, its soft-cap and init. */
export function holdsPreset(p, v) {
  const { presets, custom } = splitDivisors(v.div);
  const values = [...presets].map(Number).filter(Number.isFinite).concat(custom.map(number));
  return number(v.dk) === p.dk && values.includes(p.divisor) && capNumber(v.cap) === (p.softcap ?? 0) &&
    (v.init ?? FIXED.init) === (p.init || FIXED.init);
}

/** The preset the form shows: `current` while the values hold it, else the first they hold, else ''. */
export function shownPreset(presets, v, current = '') {
  const held = presets.filter((p) => holdsPreset(p, v));
  return held.some((p) => p.name === current) ? current : held[0]?.name ?? '';
}

/**
 * Check the form's values: the page's checks, each field alone by the core,
 * then the whole configuration (limits on products such as heads·d_k).
 * ask(op, args) calls the lab worker.
 * @returns {Promise<{msgs: object, plan: object|null, autoLr: number|null}>}
 */
export async function validateValues(v, ask) {
  const checked = checkValues(v);
  const msgs = { ...checked.msgs };
  let lr = number(v.lr);
  let autoLr = null;
  try {
    const verdicts = await ask('validate', [checked.probes.map(([, o]) => o)]);
    for (const [f, m] of Object.entries(verdictMessages(checked.probes, verdicts))) msgs[f] ??= m;
    if (checked.auto && !msgs.opt && !msgs.dk) {
      const r = await ask('referenceLr', [v.opt, number(v.dk), FIXED.dModel]);
      if (r.error) msgs.lr = { core: errorFields(r) };
      else lr = autoLr = r.lr;
    }
    if (Object.keys(msgs).length === 0) {
      const [r] = await ask('validate', [[trainOptions(v, 'sqrt', lr)]]);
      if (r.error) msgs[fieldOfArgument(r.argument)] = { core: errorFields(r) };
    }
  } catch (e) {
    msgs.form = { core: errorFields(e) };
  }
  // The core's verdicts are shown as sentences for readers (bridge/errors.js): load them first.
  if (Object.values(msgs).some((m) => m.core)) await loadErrorStrings();
  const plan = Object.keys(msgs).length ? null : planOf(v, checked, lr);
  return { msgs, plan, autoLr };
}

function messageText(m) {
  if (!m) return '';
  return m.core ? readerError(m.core) : t(m.key, m.params);
}

/**
 * The form's fields, built now. extras: elements placed after the fields
 * (buttons, status). pool: where the core is asked.
 */
export function createForm({ pool, extras = [] }) {
  const texts = [];  // [element, key] pairs filled by relabel()
  const txt = (tag, key, attrs = {}) => {
    const el = h(tag, attrs);
    texts.push([el, key]);
    return el;
  };
  const fieldOf = (key, input, hint) => {
    const id = input.id;
    const label = txt('label', `lab.f.${key}`, { for: id });
    const hintEl = hint ? h('p', { class: 'hint', id: `${id}-hint` }) : null;
    const msg = h('p', { class: 'msg', id: `${id}-msg`, 'aria-live': 'polite' });
    const wrap = h('div', { class: `field field-${key}` }, label, input, hintEl, msg);
    return { key, input, label, hint: hintEl, msg, wrap };
  };
  const textField = (key, { inputmode = 'decimal', list, hint = false } = {}) => {
    const id = `lab-${key}`;
    const input = h('input', {
      type: 'text', id, name: key, inputmode, list, autocomplete: 'off', spellcheck: 'false',
      'aria-describedby': [hint ? `${id}-hint` : null, `${id}-msg`].filter(Boolean).join(' '),
    });
    return fieldOf(key, input, hint);
  };
  const selectField = (key, options) => {
    const id = `lab-${key}`;
    const input = h('select', { id, name: key, 'aria-describedby': `${id}-hint ${id}-msg` },
      options.map((v) => h('option', { value: v })));
    return fieldOf(key, input, true);
  };

  const F = {
    task: selectField('task', TASKS),
    dk: textField('dk', { inputmode: 'numeric', list: 'lab-dk-list', hint: true }),
    heads: textField('heads', { inputmode: 'numeric' }),
    opt: selectField('opt', OPTIMIZERS),
    lr: textField('lr', { hint: true }),
    steps: textField('steps', { inputmode: 'numeric' }),
    seed: textField('seed', { inputmode: 'numeric' }),
    cap: textField('cap', { hint: true }),
    clip: textField('clip', { hint: true }),
    init: selectField('init', INITS),
  };
  // The rate "auto" stands for is the core's answer (validate()), which comes
  // after the first frame: the hint keeps the room of its every form from the
  // start (base/style.css .room-stack), so the form does not change height under a
  // reader who has scrolled on (it did, by a line at 768 px in English).
  const lrText = h('span');
  const lrRooms = [null, ...OPTIMIZERS].map(() => h('span', { 'aria-hidden': 'true' }));
  F.lr.hint.classList.add('room-stack');
  F.lr.hint.append(lrText, ...lrRooms);
  // Real models' settings (the core's presets, base/presets.h, exported at build
  // time): a select that fills the fields, not a value of its own (not in the address).
  const preset = selectField('preset', ['']);
  preset.input.append(...MODEL_PRESETS.map((p) => h('option', { value: p.name, text: p.label })));
  // d_k's suggestions: powers of two from 16 to the core's largest.
  const dks = [];
  for (let v = 16; v <= CORE_OPTIONS.dk.hi; v *= 2) dks.push(v);
  const dkList = h('datalist', { id: 'lab-dk-list' }, dks.map((v) => h('option', { value: v })));

  // Divisors: a checkbox per preset and a text field for other numbers.
  const presetBoxes = Object.fromEntries(PRESETS.map((p) => {
    const input = h('input', { type: 'checkbox', id: `lab-div-${p}`, name: 'div', value: p });
    const label = h('label', { for: input.id });
    const style = divisorOptions(new Set([p]), [])[0];
    return [p, { input, label, wrap: h('span', { class: 'check' }, input, swatch(style), label) }];
  }));
  const customDiv = {
    input: h('input', {
      type: 'text', id: 'lab-div-custom', name: 'divCustom', inputmode: 'decimal', autocomplete: 'off',
      spellcheck: 'false', 'aria-describedby': 'lab-div-hint lab-div-msg',
    }),
    label: txt('label', 'lab.f.divCustom', { for: 'lab-div-custom' }),
    hint: h('p', { class: 'hint', id: 'lab-div-hint' }),
    msg: h('p', { class: 'msg', id: 'lab-div-msg', 'aria-live': 'polite' }),
  };
  const divFieldset = h('fieldset', { class: 'field field-div', id: 'lab-div' },
    txt('legend', 'lab.f.div'),
    h('div', { class: 'checks' }, PRESETS.map((p) => presetBoxes[p].wrap)),
    h('div', { class: 'field' }, customDiv.label, customDiv.input),
    customDiv.hint, customDiv.msg);
  const formMsg = h('p', { class: 'msg', id: 'lab-form-msg', role: 'alert' });
  const fixedNote = h('p', { class: 'hint', id: 'lab-fixed' });
  const [buttons, ...after] = extras;
  const el = h('form', { id: 'lab-form', novalidate: true, 'aria-labelledby': 'lab-setup-heading' },
    h('div', { class: 'controls lab-controls' },
      F.task.wrap, F.dk.wrap, F.heads.wrap, F.opt.wrap, F.lr.wrap, F.steps.wrap, F.seed.wrap, dkList),
    h('div', { class: 'controls' }, divFieldset),
    h('div', { class: 'controls lab-stab-controls' }, preset.wrap, F.cap.wrap, F.clip.wrap, F.init.wrap),
    fixedNote, buttons, formMsg, ...after);

  function values() {
    const presets = PRESETS.filter((p) => presetBoxes[p].input.checked);
    const custom = customDiv.input.value.split(',').map((x) => x.trim()).filter(Boolean);
    return {
      task: F.task.input.value, dk: F.dk.input.value.trim(), heads: F.heads.input.value.trim(),
      div: [...presets, ...custom].join(','), opt: F.opt.input.value, lr: F.lr.input.value.trim(),
      steps: F.steps.input.value.trim(), seed: F.seed.input.value.trim(),
      cap: F.cap.input.value.trim(), clip: F.clip.input.value.trim(), init: F.init.input.value,
    };
  }

  // A select holds only known values: a bad one from the URL becomes an extra
  // option, shown selected, so the core's message next to it names what the
  // reader sees; choosing another value removes it.
  function set(v) {
    for (const key of ['task', 'opt', 'init']) {
      if (v[key] === undefined) continue;
      const allowed = key === 'task' ? TASKS : key === 'opt' ? OPTIMIZERS : INITS;
      if (!allowed.includes(v[key]))
        F[key].input.append(h('option', { value: v[key], text: v[key], dataset: { bad: '' } }));
      F[key].input.value = v[key];
    }
    for (const key of ['dk', 'heads', 'lr', 'steps', 'seed', 'cap', 'clip']) if (v[key] !== undefined) F[key].input.value = v[key];
    const { presets, custom } = splitDivisors(v.div);
    for (const p of PRESETS) presetBoxes[p].input.checked = presets.has(p);
    customDiv.input.value = custom.join(', ');
    showPreset();
  }

  const writeUrl = () => writeState(FORM_PREFIX, formUrlValues(values()));

  // ---- the Preset select ----
  function showPreset() {
    preset.input.value = shownPreset(MODEL_PRESETS, values(), preset.input.value);
    renderPresetHint();
  }
  function renderPresetHint() {
    const p = MODEL_PRESETS.find((x) => x.name === preset.input.value);
    preset.hint.textContent = p ? t('lab.f.presetSource', {
      label: p.label, dk: int(p.dk), rule: p.rule, divisor: num(p.divisor, 6),
      cap: p.softcap > 0 ? t('lab.f.presetCap', { cap: num(p.softcap, 6) }) : '',
      init: p.init === 't5' ? t('lab.f.presetT5') : '', source: p.source,
    }) : t('lab.f.presetHint');
  }
  function relabelPresetNone() {
    preset.input.querySelector('option[value=""]').textContent = t('lab.f.presetNone');
  }
  preset.input.addEventListener('change', () => {
    const p = MODEL_PRESETS.find((x) => x.name === preset.input.value);
    if (p) set(presetValues(p, values()));
    preset.input.value = p ? p.name : '';
    renderPresetHint();
    // The form's own listener (below) then writes the address and checks the values.
  });

  let messages = {};  // field -> {key, params} or {core: {error, argument, kind, params}}
  function showMessages() {
    for (const [key, f] of Object.entries(F)) setFieldError(f.input, f.msg, messageText(messages[key]));
    setFieldError(customDiv.input, customDiv.msg, messageText(messages.div));
    formMsg.textContent = messageText(messages.form);
  }

  let lrHint = { key: 'lab.f.lrHint' };
  function renderHints() {
    lrText.textContent = t(lrHint.key, lrHint.params);
    // As wide as any rate num(…, 3) writes (1.23 × 10⁻⁴), with the widest d_k.
    lrRooms.forEach((el, i) => (el.textContent = i === 0 ? t('lab.f.lrHint')
      : t('lab.f.lrHintAuto', { lr: num(1.23e-4, 3), opt: t(`lab.opt.${OPTIMIZERS[i - 1]}`), dk: CORE_OPTIONS.dk.hi })));
    F.dk.hint.textContent = t('lab.f.dkHint', { max: int(CORE_OPTIONS.dk.hi) });
    F.task.hint.textContent = TASKS.includes(F.task.input.value) ? t(`lab.task.${F.task.input.value}`) : '';
    F.opt.hint.textContent = t('lab.f.optHint');
    // Each range is the core's option table's (the parser's), as the CLI's help states it.
    const range = ({ lo, hi }) => t('lab.f.capRange', { lo: num(lo, 3), hi: num(hi, 6) });
    F.cap.hint.textContent = t('lab.f.capHint', { range: range(CORE_OPTIONS.softcap) });
    F.clip.hint.textContent = t('lab.f.clipHint', { range: range(CORE_OPTIONS.qkClip) });
    F.init.hint.textContent = INITS.includes(F.init.input.value) ? t(`lab.initKind.hint.${F.init.input.value}`) : '';
    customDiv.hint.textContent = t('lab.f.divHint', { max: MAX_CUSTOM });
  }

  let ticket = 0;  // a newer validation makes an older one's result moot
  let last = null; // {key, plan, ticket}: the last valid form, so Start need not check it again
  let timer = 0;

  /** Check the form; shows the messages. @returns {Promise<object|null>} the plan, or null */
  async function validate() {
    const mine = ++ticket;
    const v = values();
    const ask = async (op, args) => {
      await pool.ensure(1);
      return pool.call(op, args);
    };
    const { msgs, plan, autoLr } = await validateValues(v, ask);
    // A newer check (a later edit, or the page's own first check once the
    // core is ready) shows its messages instead; this one's plan still holds
    // for the values it checked, which Start asked for.
    if (mine !== ticket) return plan;
    messages = msgs;
    lrHint = autoLr !== null
      ? { key: 'lab.f.lrHintAuto', params: { lr: num(autoLr, 3), opt: t(`lab.opt.${v.opt}`), dk: v.dk } }
      : { key: 'lab.f.lrHint' };
    renderHints();
    showMessages();
    last = plan ? { key: JSON.stringify(v), plan, ticket: mine } : null;
    return plan;
  }

  /** The plan of the form as it stands: the last check's if nothing changed since, else a new check. */
  async function plan() {
    clearTimeout(timer);
    const fresh = last && last.ticket === ticket && last.key === JSON.stringify(values());
    return fresh ? last.plan : validate();
  }

  function onChange(e) {
    if (e.target.tagName === 'SELECT')
      for (const o of e.target.querySelectorAll('option[data-bad]')) if (o.value !== e.target.value) o.remove();
    if (e.target !== preset.input) showPreset();
    writeUrl();
    clearTimeout(timer);
    timer = setTimeout(validate, 250);
  }
  el.addEventListener('input', onChange);
  el.addEventListener('change', onChange);

  function relabel() {
    for (const [node, key] of texts) node.textContent = t(key);
    for (const v of TASKS) F.task.input.querySelector(`option[value="${v}"]`).textContent = t(`lab.task.name.${v}`);
    for (const v of OPTIMIZERS) F.opt.input.querySelector(`option[value="${v}"]`).textContent = t(`lab.opt.${v}`);
    for (const v of INITS) F.init.input.querySelector(`option[value="${v}"]`).textContent = t(`lab.initKind.${v}`);
    relabelPresetNone();
    renderPresetHint();
    for (const p of PRESETS) presetBoxes[p].label.textContent = t(`lab.div.preset.${p}`);
    fixedNote.textContent = t('lab.fixed', { ...FIXED, cores: pool.max });
    renderHints();
    showMessages();
  }

  return { el, values, set, writeUrl, validate, plan, relabel };
}
