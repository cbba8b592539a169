// The training lab (lab.html): the seed article's experiment, run for real.
// The reader picks a task, d_k, heads, the divisors to compare, optimiser,
// learning rate, steps and seed; one TrainSession per divisor trains in Web
// Workers (pool.js, worker.js) on the same data from the same initial
// weights, and the page draws each run's metrics as they stream in: curves,
// the init checkpoint, attention heatmaps over training, exports. Every
// number shown comes from the C++ core; the page only arranges it.
import '../style.css';
import './lab.css';
import { applyDocument, onLangChange, t } from '../i18n.js';
import { h, reducedMotion, setFieldError } from '../dom.js';
import { readState, writeState } from '../state.js';
import { decimals, fixed, int, num } from '../format.js';
import * as langSwitch from '../widgets/lang-switch.js';
import './strings.js';
import {
  FIXED, EVAL_SAMPLES, SNAPSHOT_SAMPLES, MAX_CUSTOM, MAX_STEPS, TASKS, OPTIMIZERS, PRESETS,
  FORM_PREFIX, FORM_STATE, divisorOptions, splitDivisors, number, trainOptions, parseSteps, mapEvery,
} from './config.js';
import { Pool, CORES } from './pool.js';
import { createCharts, swatch } from './charts.js';
import { createHeatmap, track, mapLabels, weightAt, SHOWN_EXAMPLES } from './heatmap.js';
import { snapshotNpz } from './npz.js';
import { runCsv, runJson, fileStem, download } from './export.js';
import { mountSweep } from './sweep.js';

const byId = (id) => document.getElementById(id);
const root = byId('lab');
const pool = new Pool('compare');
const DATA_ROWS = 10;  // logged rows per run in the charts' data table

// ---- static text: [element, key] pairs filled by relabel() ----
const texts = [];
const txt = (tag, key, attrs = {}) => {
  const el = h(tag, attrs);
  texts.push([el, key]);
  return el;
};

// ---- the form ----
function textField(key, { inputmode = 'decimal', list, hint = false } = {}) {
  const id = `lab-${key}`;
  const input = h('input', {
    type: 'text', id, name: key, inputmode, list, autocomplete: 'off', spellcheck: 'false',
    'aria-describedby': [hint ? `${id}-hint` : null, `${id}-msg`].filter(Boolean).join(' '),
  });
  return fieldOf(key, input, hint);
}

function selectField(key, options) {
  const id = `lab-${key}`;
  const input = h('select', { id, name: key, 'aria-describedby': `${id}-hint ${id}-msg` },
    options.map((v) => h('option', { value: v })));
  return fieldOf(key, input, true);
}

function fieldOf(key, input, hint) {
  const id = input.id;
  const label = txt('label', `lab.f.${key}`, { for: id });
  const hintEl = hint ? h('p', { class: 'hint', id: `${id}-hint` }) : null;
  const msg = h('p', { class: 'msg', id: `${id}-msg`, 'aria-live': 'polite' });
  const wrap = h('div', { class: `field field-${key}` }, label, input, hintEl, msg);
  return { key, input, label, hint: hintEl, msg, wrap };
}

const F = {
  task: selectField('task', TASKS),
  dk: textField('dk', { inputmode: 'numeric', list: 'lab-dk-list', hint: true }),
  heads: textField('heads', { inputmode: 'numeric' }),
  opt: selectField('opt', OPTIMIZERS),
  lr: textField('lr', { hint: true }),
  steps: textField('steps', { inputmode: 'numeric' }),
  seed: textField('seed', { inputmode: 'numeric' }),
};
const dkList = h('datalist', { id: 'lab-dk-list' }, [16, 32, 64, 128, 256, 512, 1024].map((v) => h('option', { value: v })));

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

const startButton = h('button', { type: 'submit', id: 'lab-start', class: 'primary' });
const pauseButton = h('button', { type: 'button', id: 'lab-pause', disabled: true });
const resetButton = h('button', { type: 'button', id: 'lab-reset', disabled: true });
const formMsg = h('p', { class: 'msg', id: 'lab-form-msg', role: 'alert' });
const status = h('p', { id: 'lab-status', role: 'status', 'aria-live': 'polite', dataset: { state: 'idle' } });
const progress = h('p', { id: 'lab-progress', class: 'progress' });
const fixedNote = h('p', { class: 'hint', id: 'lab-fixed' });
const form = h('form', { id: 'lab-form', novalidate: true, 'aria-labelledby': 'lab-setup-heading' },
  h('div', { class: 'controls lab-controls' },
    F.task.wrap, F.dk.wrap, F.heads.wrap, F.opt.wrap, F.lr.wrap, F.steps.wrap, F.seed.wrap, dkList),
  h('div', { class: 'controls' }, divFieldset),
  fixedNote,
  h('div', { class: 'lab-buttons' }, startButton, pauseButton, resetButton),
  formMsg, status, progress);

// ---- sections ----
const initTable = h('table', { id: 'lab-init-table', class: 'data-table lab-init' });
const legend = h('ul', { class: 'lab-legend', id: 'lab-legend', 'aria-label': '' });
const chartsHost = h('div', { id: 'lab-charts-host' });
const dataDetails = h('details', { class: 'data-details', id: 'lab-data' },
  h('summary', { id: 'lab-data-summary' }), h('div', { id: 'lab-data-tables' }));
const summary = h('div', { id: 'lab-summary', class: 'lab-summary', 'aria-live': 'polite' });
const scrub = h('input', { type: 'range', id: 'lab-scrub', min: 0, max: 0, step: 1, value: 0, disabled: true,
  'aria-describedby': 'lab-scrub-out' });
const scrubOut = h('output', { id: 'lab-scrub-out', for: 'lab-scrub' });
const runsHost = h('div', { class: 'lab-runs', id: 'lab-runs' });

const sweepSection = h('section', { id: 'lab-sweep', 'aria-labelledby': 'lab-sweep-heading' });

root.replaceChildren(
  h('section', { id: 'lab-setup', 'aria-labelledby': 'lab-setup-heading' },
    txt('h2', 'lab.setup.heading', { id: 'lab-setup-heading' }), txt('p', 'lab.setup.intro'), form),
  h('section', { id: 'lab-init', 'aria-labelledby': 'lab-init-heading' },
    txt('h2', 'lab.init.heading', { id: 'lab-init-heading' }), txt('p', 'lab.init.intro'), txt('p', 'lab.init.rule', { class: 'hint' }),
    h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-labelledby': 'lab-init-heading' }, initTable)),
  h('section', { id: 'lab-curves', 'aria-labelledby': 'lab-curves-heading' },
    txt('h2', 'lab.curves.heading', { id: 'lab-curves-heading' }), txt('p', 'lab.curves.intro'),
    legend, chartsHost, dataDetails, summary),
  h('section', { id: 'lab-maps', 'aria-labelledby': 'lab-maps-heading' },
    txt('h2', 'lab.maps.heading', { id: 'lab-maps-heading' }), txt('p', 'lab.maps.intro'),
    h('div', { class: 'controls lab-scrub' },
      h('div', { class: 'field field-range' },
        h('div', { class: 'range-head' }, txt('label', 'lab.maps.scrub', { for: 'lab-scrub' }), scrubOut), scrub)),
    runsHost),
  sweepSection,
  h('p', { class: 'lab-links' }, txt('a', 'lab.back', { href: './index.html' }), ' · ', txt('a', 'lab.toCheck', { href: './check.html' })),
);

// ---- form values and the URL ----
function formValues() {
  const presets = PRESETS.filter((p) => presetBoxes[p].input.checked);
  const custom = customDiv.input.value.split(',').map((x) => x.trim()).filter(Boolean);
  return {
    task: F.task.input.value, dk: F.dk.input.value.trim(), heads: F.heads.input.value.trim(),
    div: [...presets, ...custom].join(','), opt: F.opt.input.value, lr: F.lr.input.value.trim(),
    steps: F.steps.input.value.trim(), seed: F.seed.input.value.trim(),
  };
}

// A select holds only known values: a bad one from the URL becomes an extra
// option, shown selected, so the core's message next to it names what the
// reader sees; choosing another value removes it.
function setForm(values) {
  for (const key of ['task', 'opt']) {
    const allowed = key === 'task' ? TASKS : OPTIMIZERS;
    if (!allowed.includes(values[key]))
      F[key].input.append(h('option', { value: values[key], text: values[key], dataset: { bad: '' } }));
    F[key].input.value = values[key];
  }
  for (const key of ['dk', 'heads', 'lr', 'steps', 'seed']) F[key].input.value = values[key];
  const { presets, custom } = splitDivisors(values.div);
  for (const p of PRESETS) presetBoxes[p].input.checked = presets.has(p);
  customDiv.input.value = custom.join(', ');
}

function writeUrl() {
  writeState(FORM_PREFIX, formValues());
}

// ---- validation: the core's messages next to the controls ----
// The core names the bad argument (TrainSession.errorArgument()); this maps it to a control.
const ARG_FIELD = {
  task: 'task', dk: 'dk', heads: 'heads', 'heads*dk': 'dk', 'batch*positions*heads*dk': 'dk',
  'd_model*heads*dk': 'dk', optimizer: 'opt', lr: 'lr', seed: 'seed', divisor: 'div',
};
const fieldMessages = {};  // key -> {key, params} or {core: message}

function showMessages() {
  for (const [key, f] of Object.entries(F)) setFieldError(f.input, f.msg, messageText(fieldMessages[key]));
  setFieldError(customDiv.input, customDiv.msg, messageText(fieldMessages.div));
  formMsg.textContent = messageText(fieldMessages.form);
}

function messageText(m) {
  if (!m) return '';
  return m.core ? t('lab.err.core', { message: m.core }) : t(m.key, m.params);
}

let validation = 0;  // a newer validation makes an older one's result moot

let lastPlan = null;  // {key, plan}: the last valid form, so Start need not check it again
let lastValidation = 0;

// A small valid configuration: each field is checked alone on it, so every
// bad field gets the core's message at once (configure() stops at the first).
const PROBE = { ...FIXED, task: 'recall', dk: 16, heads: 1, divisor: 'sqrt', optimizer: 'adam', lr: 1e-3, seed: 0 };
const PROBED = [
  ['task', 'task', (x) => x], ['dk', 'dk', number], ['heads', 'heads', number],
  ['opt', 'optimizer', (x) => x], ['lr', 'lr', number], ['seed', 'seed', number],
];

/**
 * Check the form: plain checks here (empty fields, steps, divisor count),
 * everything else by the core: each field alone on PROBE, each custom
 * divisor, then the whole configuration (limits on products such as heads·d_k).
 * @returns {Promise<object|null>} the plan of a comparison, or null (messages shown)
 */
async function validate() {
  const ticket = ++validation;
  const v = formValues();
  const key = JSON.stringify(v);
  const msgs = {};
  const { task, opt } = v;
  for (const f of ['dk', 'heads', 'lr', 'steps', 'seed'])
    if (v[f] === '') msgs[f] = { key: 'lab.err.empty' };
  const steps = parseSteps(v.steps);
  if (steps === null && !msgs.steps) msgs.steps = { key: 'lab.err.steps', params: { max: int(MAX_STEPS) } };
  const { presets, custom } = splitDivisors(v.div);
  if (presets.size + custom.length === 0) msgs.div = { key: 'lab.err.noDivisor' };
  else if (custom.length > MAX_CUSTOM) msgs.div = { key: 'lab.err.tooManyCustom', params: { max: MAX_CUSTOM } };

  const auto = v.lr.toLowerCase() === 'auto';
  let lr = number(v.lr);
  let autoLr = null;
  try {
    await pool.ensure(1);
    const probes = PROBED.filter(([f]) => !msgs[f] && !(f === 'lr' && auto)).map(([f, option, conv]) => [f, { ...PROBE, [option]: conv(v[f]) }]);
    if (!msgs.div) for (const c of custom) probes.push(['div', { ...PROBE, divisor: c }]);
    const results = await pool.call('validate', [probes.map(([, o]) => o)]);
    results.forEach((r, i) => {
      if (r.error) msgs[probes[i][0]] ??= { core: r.error };
    });
    if (auto && !msgs.opt && !msgs.dk) {
      const r = await pool.call('referenceLr', [opt, number(v.dk), FIXED.dModel]);
      if (r.error) msgs.lr = { core: r.error };
      else lr = autoLr = r.lr;
    }
    if (Object.keys(msgs).length === 0) {
      const [r] = await pool.call('validate', [[trainOptions(v, 'sqrt', lr)]]);
      if (r.error) msgs[ARG_FIELD[r.argument] ?? 'form'] = { core: r.error };
    }
  } catch (e) {
    msgs.form = { core: e.message };
  }
  if (ticket !== validation) return null;
  lastValidation = ticket;
  for (const k of Object.keys(fieldMessages)) delete fieldMessages[k];
  Object.assign(fieldMessages, msgs);
  lrHint = autoLr !== null ? { key: 'lab.f.lrHintAuto', params: { lr: num(autoLr, 3), opt: t(`lab.opt.${opt}`), dk: v.dk } } : { key: 'lab.f.lrHint' };
  renderHints();
  showMessages();
  if (Object.keys(msgs).length) return null;
  const plan = {
    values: { ...v }, steps, lr, auto,
    divisors: divisorOptions(presets, custom),
    config: { task, dk: number(v.dk), heads: number(v.heads), optimizer: opt, lr, steps, seed: number(v.seed), ...FIXED },
  };
  lastPlan = { key, plan };
  return plan;
}

let lrHint = { key: 'lab.f.lrHint' };
function renderHints() {
  F.lr.hint.textContent = t(lrHint.key, lrHint.params);
  F.dk.hint.textContent = t('lab.f.dkHint');
  F.task.hint.textContent = TASKS.includes(F.task.input.value) ? t(`lab.task.${F.task.input.value}`) : '';
  F.opt.hint.textContent = t('lab.f.optHint');
  customDiv.hint.textContent = t('lab.f.divHint', { max: MAX_CUSTOM });
}

let validateTimer = 0;
function onFormChange(e) {
  if (e.target.tagName === 'SELECT')
    for (const o of e.target.querySelectorAll('option[data-bad]')) if (o.value !== e.target.value) o.remove();
  writeUrl();
  clearTimeout(validateTimer);
  validateTimer = setTimeout(validate, 250);
}
form.addEventListener('input', onFormChange);
form.addEventListener('change', onFormChange);

// ---- a comparison ----
let cmp = null;

function divisorLabel(run) {
  const value = run.divisorValue;
  switch (run.option) {
    case 'sqrt': return value ? t('lab.div.sqrtValue', { value: num(value, 4) }) : t('lab.div.sqrt');
    case 'dk': return value ? t('lab.div.dkValue', { value: num(value, 6) }) : t('lab.div.dk');
    case 'qknorm': return t('lab.div.qknorm');
    case '1': return t('lab.div.one');
    default: return run.option;
  }
}

function newRun(d, i) {
  const heat = createHeatmap(`lab-run-${i}-heatmap`);
  const run = {
    ...d, index: i, runId: 0, columns: null, data: { step: [] }, init: null, divisorValue: 0, maps: [],
    stepsDone: 0, latest: null, finished: false, failed: null, eval: null, stepsTo90: 0, busyMs: 0, heat,
    pace: [],  // [time, stepsDone] of the last few seconds: the run's rate as the reader waits for it
  };
  run.untrack = track(heat);
  run.card = buildCard(run);
  return run;
}

function buildCard(run) {
  const id = `lab-run-${run.index}`;
  const c = {
    title: h('h3', { id: `${id}-title` }),
    bar: h('progress', { id: `${id}-progress`, max: cmp.plan.steps, value: 0 }),
    barLabel: h('label', { for: `${id}-progress` }),
    stepText: h('span', { class: 'lab-run-step' }),
    readout: h('p', { class: 'readout' }),
    result: h('p', { class: 'lab-run-result' }),
    error: h('p', { class: 'msg', role: 'alert' }),
    heatCaption: h('figcaption'),
    heatDetails: h('details', { class: 'data-details' }, h('summary'), h('div', { class: 'table-scroll', tabindex: 0 })),
    csv: h('button', { type: 'button', dataset: { export: 'csv' } }),
    json: h('button', { type: 'button', dataset: { export: 'json' } }),
    npz: h('button', { type: 'button', dataset: { export: 'npz' } }),
    exportStatus: h('span', { class: 'hint', role: 'status' }),
  };
  c.el = h('article', {
    class: `lab-run slot-${run.slot}`, id, 'aria-labelledby': c.title.id, dataset: { option: run.option, state: 'queued' },
  },
  c.title, h('p', { class: 'lab-run-bar' }, c.barLabel, c.bar, c.stepText), c.readout, c.result, c.error,
  h('figure', { class: 'lab-heat' }, run.heat.el, c.heatCaption), c.heatDetails,
  h('div', { class: 'lab-run-export' }, c.csv, c.json, c.npz, c.exportStatus));
  c.csv.addEventListener('click', () => exportRun(run, 'csv'));
  c.json.addEventListener('click', () => exportRun(run, 'json'));
  c.npz.addEventListener('click', () => exportRun(run, 'npz'));
  c.heatDetails.addEventListener('toggle', () => renderHeatTable(run));
  return c;
}

// Start is refused while a comparison is being checked or runs (Pause and
// Reset act on it then); it comes back, as "Start again", when it is done,
// paused or reset.
let starting = false;
function syncStart() {
  const busy = starting || (cmp !== null && cmp.totalMs === null && !cmp.paused);
  if (busy && document.activeElement === startButton) pauseButton.focus();
  startButton.disabled = busy;
  relabelButtons();
}

async function start(clickAt) {
  if (starting || startButton.disabled) return;
  starting = true;
  syncStart();
  try {
    await startComparison(clickAt);
  } finally {
    starting = false;
    syncStart();
  }
}

async function startComparison(clickAt) {
  status.dataset.state = 'checking';
  status.textContent = t('lab.status.checking');
  clearTimeout(validateTimer);
  const cached = lastPlan?.key === JSON.stringify(formValues()) && validation === lastValidation ? lastPlan.plan : null;
  const plan = cached ?? (await validate());
  if (!plan) {
    status.dataset.state = 'invalid';
    status.textContent = t('lab.status.invalid');
    return;
  }
  stopComparison();
  writeUrl();
  const workers = Math.min(CORES, plan.divisors.length);
  cmp = {
    plan, clickAt, firstPointMs: null, totalMs: null, pausedMs: 0, pausedAt: null, paused: false, workers,
    mapEvery: mapEvery(plan.steps), charts: null, runs: [], timeline: { validated: performance.now() - clickAt },
  };
  cmp.runs = plan.divisors.map((d, i) => newRun(d, i));
  cmp.charts = createCharts(cmp.runs);
  chartsHost.replaceChildren(cmp.charts.el);
  runsHost.replaceChildren(...cmp.runs.map((r) => r.card.el));
  pool.ensure(workers);
  const base = trainOptions(plan.values, '', plan.lr);
  cmp.runs.forEach((run, i) => {
    const spec = {
      options: { ...base, divisor: run.option }, steps: plan.steps, mapEvery: cmp.mapEvery, evalSamples: EVAL_SAMPLES,
    };
    run.worker = i % workers;
    run.runId = pool.run(run.worker, spec, handlersFor(run));
    run.card.el.dataset.state = 'running';
  });
  pauseButton.disabled = false;
  resetButton.disabled = false;
  status.dataset.state = 'running';
  status.dataset.firstPointMs = '';
  status.dataset.totalMs = '';
  setStatus('running');  // first: relabelComparison() redraws the status it holds
  relabelComparison();
}

function handlersFor(run) {
  const mine = () => cmp && cmp.runs.includes(run);
  return {
    configured(m) {
      if (!mine()) return;
      cmp.timeline.configured ??= performance.now() - cmp.clickAt;
      run.columns = m.columns;
      for (const c of m.columns) run.data[c] ??= [];
      run.init = m.init;
      run.divisorValue = m.divisorValue;
      if (m.map) run.maps.push(m.map);
      renderInit();
      relabelRun(run);
      relabelCharts();
      scheduleRedraw();
    },
    rows(m) {
      if (!mine()) return;
      const cols = run.columns;
      const n = m.rows.length / cols.length;
      const first = run.data.step.length === 0 && n > 0;
      cmp.timeline.firstRows ??= performance.now() - cmp.clickAt;
      for (let i = 0; i < n; i++) for (let j = 0; j < cols.length; j++) run.data[cols[j]].push(m.rows[i * cols.length + j]);
      run.stepsDone = m.stepsDone;
      run.latest = m.latest;
      notePace(run, m.stepsDone);
      run.busyMs = m.busyMs;
      if (m.map) run.maps.push(m.map);
      if (first) renderInit();  // the logit spread of step 1, measured before its update
      scheduleRedraw(cmp.firstPointMs === null);
    },
    done(m) {
      if (!mine()) return;
      run.finished = true;
      run.eval = m.eval;
      run.stepsTo90 = m.stepsTo90;
      run.busyMs = m.busyMs;
      run.card.el.dataset.state = 'done';
      pausedAck(run);
      renderRun(run);
      if (cmp.runs.every((r) => r.finished || r.failed)) finishComparison();
      scheduleRedraw();
    },
    paused() {
      if (!mine()) return;
      pausedAck(run);
    },
    failed(m) {
      if (!mine()) return;
      run.failed = m.error;
      run.card.el.dataset.state = 'failed';
      pausedAck(run);
      run.card.error.textContent = t('lab.err.core', { message: m.error });
      if (cmp.runs.every((r) => r.finished || r.failed)) finishComparison();
      scheduleRedraw();
    },
  };
}

// Wall-clock steps per second over the last PACE_MS (runs sharing a worker
// share its time, so this is what the reader waits for, not the core's rate).
const PACE_MS = 3000;
function notePace(run, stepsDone) {
  const now = performance.now();
  run.pace.push([now, stepsDone]);
  while (run.pace.length > 2 && now - run.pace[1][0] > PACE_MS) run.pace.shift();
}

function paceOf(run) {
  if (run.pace.length < 2) return null;
  const [t0, s0] = run.pace[0], [t1, s1] = run.pace.at(-1);
  if (t1 - t0 < 200 || s1 <= s0) return null;
  const rate = (1000 * (s1 - s0)) / (t1 - t0);
  return { rate, left: (cmp.plan.steps - run.stepsDone) / rate };
}

function activeMs() {
  const now = performance.now();
  return now - cmp.clickAt - cmp.pausedMs - (cmp.pausedAt !== null ? now - cmp.pausedAt : 0);
}

function finishComparison() {
  cmp.totalMs = activeMs();
  status.dataset.totalMs = cmp.totalMs.toFixed(0);
  pauseButton.disabled = true;
  status.dataset.state = 'done';
  setStatus('done');
  syncStart();
  renderSummary();
}

// Pausing is asked of every worker; it is done when each has answered 'paused'
// after its last batch (so every row before it has arrived and is drawn).
function togglePause() {
  if (!cmp || cmp.totalMs !== null) return;
  cmp.paused = !cmp.paused;
  const live = cmp.runs.filter((r) => !r.finished && !r.failed);
  cmp.pausing = new Set(cmp.paused ? live : []);
  for (const r of live) (cmp.paused ? pool.pause : pool.resume).call(pool, r.runId);
  if (cmp.paused) cmp.pausedAt = performance.now();
  else {
    cmp.pausedMs += performance.now() - cmp.pausedAt;
    cmp.pausedAt = null;
  }
  for (const r of live) r.pace = [];  // a pause is no part of any run's pace
  syncStart();
  status.dataset.state = cmp.paused ? 'pausing' : 'running';
  relabelButtons();
  if (!cmp.paused) setStatus('running');
  else if (live.length === 0) pausedAck(null);
}

function pausedAck(run) {
  if (!cmp?.paused || !cmp.pausing) return;
  cmp.pausing.delete(run);
  if (cmp.pausing.size > 0 || status.dataset.state !== 'pausing') return;
  status.dataset.state = 'paused';
  setStatus('paused');
  redraw();
}

function stopComparison() {
  if (!cmp) return;
  for (const r of cmp.runs) {
    pool.drop(r.runId);
    r.untrack();
  }
  cmp.charts?.destroy();
  cmp = null;
}

function reset() {
  stopComparison();
  chartsHost.replaceChildren();
  runsHost.replaceChildren();
  initTable.replaceChildren();
  summary.replaceChildren();
  legend.replaceChildren();
  byId('lab-data-tables').replaceChildren();
  progress.textContent = '';
  pauseButton.disabled = true;
  resetButton.disabled = true;
  scrub.disabled = true;
  scrub.max = 0;
  scrub.value = 0;
  scrubOut.textContent = '';
  status.dataset.state = 'idle';
  relabelButtons();
  syncStart();
  setStatus('reset');
}

// The live region speaks only at milestones; the step counts change silently.
let statusKey = 'idle';
function setStatus(key) {
  statusKey = key;
  if (!cmp) {
    status.textContent = key === 'reset' ? t('lab.status.reset') : '';
    return;
  }
  const n = cmp.runs.length;
  const params = { n, workers: cmp.workers, steps: int(cmp.plan.steps) };
  if (key === 'done') {
    params.seconds = decimals(cmp.totalMs / 1000, 1);
    params.failed = cmp.runs.filter((r) => r.failed).length;
  }
  status.textContent = t(`lab.status.${key}`, params) + (key === 'done' && params.failed ? ' ' + t('lab.status.someFailed', params) : '');
}

// ---- drawing (coalesced to one frame; at most twice a second under reduced motion) ----
let redrawQueued = false;
let redrawTimer = 0;
let lastRedraw = 0;
// now: draw at the next frame even if a throttled redraw is waiting (the first points).
function scheduleRedraw(now = false) {
  if (redrawQueued && !(now && redrawTimer)) return;
  clearTimeout(redrawTimer);
  redrawTimer = 0;
  redrawQueued = true;
  const gap = reducedMotion() && !now ? 500 : 0;
  const wait = Math.max(0, lastRedraw + gap - performance.now());
  const go = () => {
    redrawTimer = 0;
    requestAnimationFrame(redraw);
  };
  if (wait > 0) redrawTimer = setTimeout(go, wait);
  else go();
}

// Timed as the performance measure 'lab:redraw', so the browser test can report the main thread's share.
function redraw() {
  const t0 = performance.now();
  try {
    drawNow();
  } finally {
    performance.measure('lab:redraw', { start: t0, end: performance.now() });
  }
}

function drawNow() {
  redrawQueued = false;
  lastRedraw = performance.now();
  if (!cmp) return;
  cmp.timeline.frame ??= lastRedraw - cmp.clickAt;
  const t0 = performance.now();
  cmp.charts.update();
  if (cmp.firstPointMs === null && cmp.runs.some((r) => r.data.step.length > 0)) {
    cmp.timeline.redrawStart = t0 - cmp.clickAt;
    cmp.firstPointMs = performance.now() - cmp.clickAt;
    status.dataset.firstPointMs = cmp.firstPointMs.toFixed(0);
    status.dataset.timeline = JSON.stringify({ ...cmp.timeline, drawn: cmp.firstPointMs }, (_k, x) => (typeof x === 'number' ? Math.round(x) : x));
  }
  const total = cmp.runs.reduce((a, r) => a + r.stepsDone, 0);
  progress.textContent = t('lab.progress', { done: int(total), total: int(cmp.plan.steps * cmp.runs.length),
    seconds: fixed(activeMs() / 1000, 1) });
  for (const r of cmp.runs) renderRun(r);
  updateScrub();
  if (dataDetails.open) renderDataTables();
  if (cmp.totalMs === null && cmp.runs.some((r) => r.finished)) renderSummary();
}

function col(run, name, i) {
  return run.data[name]?.[i];
}

function renderRun(run) {
  const c = run.card;
  c.bar.value = run.stepsDone;
  const pace = run.finished || run.failed || cmp.paused ? null : paceOf(run);
  c.stepText.textContent = t('lab.run.step', { done: int(run.stepsDone), total: int(cmp.plan.steps) }) +
    (pace ? ' · ' + t('lab.run.pace', { rate: int(Math.round(pace.rate)), left: int(Math.ceil(pace.left)) }) : '');
  const L = run.latest;
  if (L && run.columns) {
    const at = (name) => L[run.columns.indexOf(name)];
    c.readout.textContent = t('lab.run.readout', {
      step: int(at('step')), loss: num(at('loss'), 3), acc: fixed(100 * at('accuracy'), 1),
      entropy: num(at('attn_entropy'), 3), correct: fixed(100 * at('attn_correct'), 1),
    });
  }
  if (run.finished) {
    c.result.textContent = [
      run.stepsTo90 ? t('lab.run.reached', { step: int(run.stepsTo90) }) : t('lab.run.never', { steps: int(cmp.plan.steps) }),
      t('lab.run.eval', { acc: fixed(100 * run.eval.accuracy, 1), loss: num(run.eval.loss, 3), n: int(run.eval.samples) }),
      t('lab.run.time', { seconds: fixed(run.busyMs / 1000, 1), rate: fixed((1000 * run.stepsDone) / run.busyMs, 0) }),
    ].join(' ');
  }
}

// ---- heatmaps and the scrubber ----
let follow = true;
function updateScrub() {
  const captures = Math.max(0, ...cmp.runs.map((r) => r.maps.length));
  if (captures === 0) return;
  scrub.disabled = false;
  scrub.max = String(captures - 1);
  if (follow) scrub.value = String(captures - 1);
  drawHeatmaps();
}

function shownMap(run) {
  if (run.maps.length === 0) return null;
  return run.maps[Math.min(Number(scrub.value), run.maps.length - 1)];
}

function drawHeatmaps() {
  if (!cmp) return;
  let step = 0;
  for (const r of cmp.runs) {
    const map = shownMap(r);
    if (!map) continue;
    step = Math.max(step, map.step);
    if (r.heat.shown !== map) {
      r.heat.draw(map);
      r.heat.shown = map;
      r.heat.setName(t('lab.maps.name', { label: divisorLabel(r), step: int(map.step), n: Math.min(SHOWN_EXAMPLES, map.shape.examples) }));
      r.card.heatCaption.textContent = t('lab.maps.caption', { step: int(map.step) });
      renderHeatTable(r);
    }
  }
  scrubOut.textContent = t('lab.maps.stepOut', { step: int(step) });
}

scrub.addEventListener('input', () => {
  follow = Number(scrub.value) === Number(scrub.max);
  drawHeatmaps();
});

function renderHeatTable(run) {
  const d = run.card.heatDetails;
  d.querySelector('summary').textContent = t('lab.maps.table', { label: divisorLabel(run) });
  if (!d.open) return;
  const map = shownMap(run);
  if (!map) return;
  const { heads, seq } = map.shape;
  const examples = Math.min(SHOWN_EXAMPLES, map.shape.examples);
  const { target, answer, predicted } = mapLabels(map);
  const rows = [];
  for (let e = 0; e < examples; e++) {
    for (let hd = 0; hd < heads; hd++) {
      rows.push(h('tr', {},
        h('th', { scope: 'row', text: t('lab.maps.row', { e: e + 1, h: hd + 1 }) }),
        Array.from({ length: seq }, (_, t) => h('td', {
          class: t === answer[e] ? 'is-answer' : null, text: fixed(weightAt(map, e, hd, t), 2),
        })),
        h('td', { text: String(answer[e] + 1) }),
        h('td', { text: predicted[e] === target[e] ? t('lab.maps.right') : t('lab.maps.wrong') })));
    }
  }
  d.querySelector('.table-scroll').replaceChildren(h('table', { class: 'data-table lab-heat-table' },
    h('caption', { text: t('lab.maps.tableCaption', { label: divisorLabel(run), step: int(map.step) }) }),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: t('lab.maps.colRow') }),
      Array.from({ length: seq }, (_, t) => h('th', { scope: 'col', text: t === seq - 1 ? 'q' : int(t + 1) })),
      h('th', { scope: 'col', text: t('lab.maps.colAnswer') }), h('th', { scope: 'col', text: t('lab.maps.colPredicted') }))),
    h('tbody', {}, rows)));
}

// ---- the init checkpoint ----
const BAND = [0.5, 2];  // pass: within a factor of 2 of the unit-variance value
function mark(value, target) {
  const ok = value >= BAND[0] * target && value <= BAND[1] * target;
  return h('span', { class: `badge ${ok ? 'pass' : 'warn'}`, dataset: { verdict: ok ? 'pass' : 'warn' } },
    h('span', { 'aria-hidden': 'true', text: ok ? '✓' : '⚠' }),
    h('span', { class: 'visually-hidden', text: ok ? t('lab.init.pass') : t('lab.init.warn') }));
}

function renderInit() {
  if (!cmp) return;
  const dk = cmp.plan.config.dk;
  const head = h('tr', {}, ['colDivisor', 'colVarQ', 'colVarK', 'colVarQk', 'colVarLogit', 'colSpread', 'colEntropy', 'colMax']
    .map((k) => h('th', { scope: 'col', text: t(`lab.init.${k}`, { dk: int(dk) }) })));
  const body = cmp.runs.filter((r) => r.init).map((r) => {
    const i = r.init;
    const spread = col(r, 'logit_spread', 0);
    const cell = (value, target, sig = 3) => h('td', {}, num(value, sig), ' ', mark(value, target));
    return h('tr', { dataset: { option: r.option } },
      h('th', { scope: 'row' }, swatch(r), ' ', divisorLabel(r)),
      cell(i.varQ, 1), cell(i.varK, 1),
      h('td', {}, num(i.varQk, 4), ' ', mark(i.varQk, dk), h('span', { class: 'sub', text: t('lab.init.theory', { v: num(i.theoryVarQk, 4) }) })),
      cell(i.varLogit, 1),
      spread === undefined ? h('td', { text: '…' }) : cell(spread, 1),
      h('td', { text: num(i.attnEntropy, 3) }), h('td', { text: num(i.attnMax, 3) }));
  });
  initTable.replaceChildren(
    h('caption', { text: t('lab.init.caption', { n: int(cmp.runs.find((r) => r.init)?.init.samples ?? 0), dk: int(dk) }) }),
    h('thead', {}, head), h('tbody', {}, body));
}

// ---- the charts' data table: the last rows of each run ----
const TABLE_COLS = ['step', 'loss', 'accuracy', 'grad_wq', 'grad_wk', 'attn_entropy', 'logit_max_abs'];
function renderDataTables() {
  byId('lab-data-tables').replaceChildren(...cmp.runs.filter((r) => r.columns).map((r) => {
    const n = r.data.step.length;
    const from = Math.max(0, n - DATA_ROWS);
    return h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': divisorLabel(r) },
      h('table', { class: 'data-table', dataset: { option: r.option } },
        h('caption', { text: t('lab.data.caption', { label: divisorLabel(r), n: n - from }) }),
        h('thead', {}, h('tr', {}, TABLE_COLS.map((c) => h('th', { scope: 'col', text: t(`lab.col.${c}`) })))),
        h('tbody', {}, Array.from({ length: n - from }, (_, k) => h('tr', {},
          TABLE_COLS.map((c, j) => (j === 0
            ? h('th', { scope: 'row', text: int(r.data.step[from + k]) })
            : h('td', { text: num(r.data[c][from + k], 4) }))))))));
  }));
}
dataDetails.addEventListener('toggle', () => dataDetails.open && cmp && renderDataTables());

// ---- what the comparison shows, in words (numbers from the runs) ----
function renderSummary() {
  if (!cmp) return;
  const done = cmp.runs.filter((r) => r.finished);
  const ref = done.find((r) => r.option === 'sqrt');
  const lines = done.map((r) => {
    const acc = fixed(100 * r.eval.accuracy, 1);
    if (!r.stepsTo90) return t('lab.sum.never', { label: divisorLabel(r), steps: int(cmp.plan.steps), acc });
    if (ref && ref !== r && ref.stepsTo90)
      return t('lab.sum.reachedVs', { label: divisorLabel(r), step: int(r.stepsTo90), acc, ratio: decimals(r.stepsTo90 / ref.stepsTo90, 1) });
    return t('lab.sum.reached', { label: divisorLabel(r), step: int(r.stepsTo90), acc });
  });
  const c = cmp.plan.config;
  summary.replaceChildren(
    h('h3', { text: t('lab.sum.heading') }),
    h('p', { text: t('lab.sum.setting', { dk: int(c.dk), heads: int(c.heads), opt: t(`lab.opt.${c.optimizer}`), lr: num(c.lr, 3), steps: int(c.steps), seed: c.seed }) }),
    h('ul', {}, lines.map((t) => h('li', { text: t }))),
    ...(cmp.totalMs === null ? [h('p', { class: 'hint', text: t('lab.sum.partial') })] : [
      h('p', { class: 'lab-sum-time', text: t('lab.sum.time', {
        seconds: decimals(cmp.totalMs / 1000, 1), n: int(cmp.runs.length), workers: int(cmp.workers) }) }),
      h('p', { class: 'hint', text: t('lab.sum.note') })]));
}

// ---- exports ----
async function exportRun(run, kind) {
  const c = cmp.plan.config;
  const stem = fileStem(c, run.option);
  const note = run.card.exportStatus;
  note.textContent = '';
  if (!run.columns) return;
  if (kind === 'csv') return download(runCsv(run), `${stem}.csv`, 'text/csv');
  if (kind === 'json') return download(runJson(run, c), `${stem}.json`, 'application/json');
  note.textContent = t('lab.export.qkBusy');
  try {
    const snap = await pool.call('qk', [run.runId, SNAPSHOT_SAMPLES], run.worker);
    download(snapshotNpz(snap), `${stem}-step${snap.step}-qk.npz`, 'application/octet-stream');
    note.textContent = t('lab.export.qkDone', { step: int(snap.step), n: int(snap.samples) });
  } catch (e) {
    note.textContent = t('lab.err.core', { message: e.message });
  }
}

// ---- language ----
function relabelButtons() {
  startButton.textContent = t(cmp ? 'lab.btn.restart' : 'lab.btn.start');
  pauseButton.textContent = t(cmp?.paused ? 'lab.btn.resume' : 'lab.btn.pause');
  resetButton.textContent = t('lab.btn.reset');
}

function relabelRun(run) {
  const c = run.card;
  const label = divisorLabel(run);
  c.title.replaceChildren(swatch(run), ' ', label);
  c.barLabel.textContent = t('lab.run.progress', { label });
  c.csv.textContent = t('lab.export.csv');
  c.json.textContent = t('lab.export.json');
  c.npz.textContent = t('lab.export.npz');
  for (const b of [c.csv, c.json, c.npz]) b.setAttribute('aria-label', `${b.textContent} (${label})`);
  renderHeatTable(run);
  if (run.heat.shown) {
    run.heat.setName(t('lab.maps.name', { label, step: int(run.heat.shown.step), n: Math.min(SHOWN_EXAMPLES, run.heat.shown.shape.examples) }));
    c.heatCaption.textContent = t('lab.maps.caption', { step: int(run.heat.shown.step) });
  }
}

// The legend and the charts' names, which list the runs by label (√d_k = 16 once the core has said so).
function relabelCharts() {
  const names = cmp.runs.map((r) => `${divisorLabel(r)} (${t(`lab.color.${r.slot}`)})`).join('; ');
  legend.setAttribute('aria-label', t('lab.curves.legend'));
  legend.replaceChildren(...cmp.runs.map((r) => h('li', { class: `slot-${r.slot}` }, swatch(r), ' ',
    h('span', { text: divisorLabel(r) }), h('span', { class: 'visually-hidden', text: ` (${t(`lab.color.${r.slot}`)})` }))));
  cmp.charts.setLabels((spec) => [t(`lab.chart.${spec.key}`), t('lab.chart.name', { title: t(`lab.chart.${spec.key}`), runs: names })]);
}

function relabelComparison() {
  if (!cmp) return;
  relabelCharts();
  for (const r of cmp.runs) relabelRun(r);
  renderInit();
  if (cmp.runs.some((r) => r.finished)) renderSummary();
  if (dataDetails.open) renderDataTables();
  setStatus(statusKey);
  redraw();
}

function relabel() {
  byId('lab-title').textContent = t('lab.title');
  byId('lab-lede').textContent = t('lab.lede');
  for (const [el, key] of texts) el.textContent = t(key);
  for (const v of TASKS) F.task.input.querySelector(`option[value="${v}"]`).textContent = t(`lab.task.name.${v}`);
  for (const v of OPTIMIZERS) F.opt.input.querySelector(`option[value="${v}"]`).textContent = t(`lab.opt.${v}`);
  for (const p of PRESETS) presetBoxes[p].label.textContent = t(`lab.div.preset.${p}`);
  fixedNote.textContent = t('lab.fixed', { ...FIXED, init: 'LeCun', cores: CORES });
  byId('lab-data-summary').textContent = t('lab.data.summary');
  renderHints();
  showMessages();
  relabelButtons();
  relabelComparison();
  if (!cmp) setStatus(statusKey);
  footer();
}

let buildInfo = null;
let loadError = null;
function footer() {
  byId('lab-footer').textContent = loadError ? t('lab.footer.failed', { message: loadError })
    : buildInfo ? t('lab.footer.ready', { build: buildInfo.simd ? 'SIMD128' : t('lab.footer.scalar'), kernel: buildInfo.kernel, cores: CORES })
      : t('lab.footer.loading');
}

// ---- wiring ----
form.addEventListener('submit', (e) => {
  e.preventDefault();
  start(performance.now());
});
pauseButton.addEventListener('click', togglePause);
resetButton.addEventListener('click', reset);

applyDocument();
// Bad values need no notice: each reaches the core, whose message shows by its control.
const { values } = readState(FORM_PREFIX, FORM_STATE);
setForm(values);
const lang = langSwitch.mount(byId('lang-switch'));
const sweep = mountSweep(sweepSection, { formValues });
relabel();
sweep.relabel();
onLangChange(() => {
  lang.relabel();
  relabel();
  sweep.relabel();
});

// Warm the workers the default comparison needs, then check the URL's values.
pool.ensure(Math.min(CORES, Math.max(1, divisorOptions(...Object.values(splitDivisors(values.div))).length))).then(
  (info) => {
    buildInfo = info;
    footer();
    validate();
  },
  (e) => {
    loadError = e.message;
    footer();
  },
);
