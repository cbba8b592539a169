// <attn-train-compare>: the lab's experiment in small, as an element. One
// TrainSession per divisor (1, 2, √d_k, d_k) trains the same model on the
// same data from the same initial weights (train/comparison.js); the widget
// draws each run's training loss and accuracy against the step as they
// stream in, its progress and pace, and at the end the core's held-out loss
// and accuracy and the steps each run took to reach 90%.
//
// The runs are the lab's: its wasm module (loaded only when this element is
// on the page) in ONE worker shared by every <attn-train-compare> of the page
// (a Pool of one, train/pool.js); where the host's CSP allows no worker, the same
// ops run on the main thread in short slices (the footer says which).
//
// Attributes (element.js options; a later change applies at the next Start):
// dk (1..1024, the core's), divisors ("1,sqrt"; items 1, 2, sqrt, dk), steps,
// seed (the core's range), optimizer (adam|sgd), lr (in the core's range;
// empty: the core's reference rate); autostart (start when connected); controls="none" hides
// the controls, a host still starts with el.start() and stops with el.stop().
import { t } from '../base/i18n.js';
import { DASH, decimals, fixed, int, num, percent } from '../base/format.js';
import { dataTable, h, setFieldError } from '../base/dom.js';
import { AttnElement, coreMessage, define, timed } from './element.js';
import { loadErrorStrings } from '../bridge/errors.js';
import { createChart } from './chart.js';
import { divergenceMarks } from './divergence-marks.js';
import { Pool } from '../train/pool.js';
import { Comparison } from '../train/comparison.js';
import { CORE_OPTIONS, EVAL_SAMPLES, FIXED, PROBE, fieldOfArgument, number } from '../train/config.js';
import { DIVISORS, MAX_STEPS, OPTIONS } from './compare-options.js';
import './compare-strings.js';
import styles from './train-compare.css?inline';

// A failed run's error: the fields the core sent, or its message alone.
const runError = (run) => run.failedError ?? { message: run.failed };

// The model's facts are the core's (train/config.js CORE_OPTIONS); the
// options' ranges and defaults are in compare-options.js.
const OPTIMIZERS = CORE_OPTIONS.optimizer.choices;
const HEADS = CORE_OPTIONS.heads.def;
const TASK = CORE_OPTIONS.task.def;
const CHARTS = [
  { key: 'loss', column: 'loss' },
  { key: 'accuracy', column: 'accuracy', yRange: [0, 1] },
];

// The control of each TrainOptions field this widget has (the others' verdicts go under its buttons).
const CONTROLS = { dk: 'dk', optimizer: 'optimizer', lr: 'lr', seed: 'seed', divisor: 'divisors' };

// One worker (one wasm instance) for every widget of the page, started when the first one connects.
let sharedPool = null;
const pool = () => (sharedPool ??= new Pool('widget', 1));

class AttnTrainCompare extends AttnElement {
  defaultIdPrefix = 'train';

  static options = OPTIONS;

  static styles = styles;
  static extraAttributes = ['autostart'];

  /** The footer's core: the shared pool's worker (or the main thread). */
  coreClient() {
    return {
      call: (op) => (op === 'buildInfo'
        ? pool().ensure(1).then((info) => ({ simd: info.simd, build: info.build, dotKernel: info.kernel, wasmRefetched: info.wasmRefetched }))
        : Promise.reject(new Error(`unknown op "${op}"`))),
      mode: () => pool().mode(),
    };
  }

  build() {
    this.pool = pool();
    this.cmp = null;       // the comparison on show (running, done or stopped)
    this.phase = 'idle';   // idle | checking | invalid | running | done | stopped | failed
    this.fieldErrors = {}; // field -> {key, params} | {core: message}
    this.startTicket = 0;
    const I = (s) => this.id_(s);

    // ---- controls ----
    const text = (key, size, inputmode = 'numeric') => {
      const input = h('input', {
        type: 'text', id: I(key), inputmode, autocomplete: 'off', spellcheck: 'false', size,
        'aria-describedby': [key === 'lr' ? I('lr-hint') : null, I(`${key}-msg`)].filter(Boolean).join(' '),
      });
      const label = h('label', { for: input.id });
      const msg = h('p', { id: I(`${key}-msg`), class: 'msg', 'aria-live': 'polite' });
      return { input, label, msg, wrap: h('div', { class: `field field-${key}` }, label, input, msg) };
    };
    this.f = {
      dk: text('dk', 6),
      steps: text('steps', 6),
      lr: text('lr', 8, 'decimal'),
      seed: text('seed', 10),
    };
    this.lrHint = h('p', { class: 'hint', id: I('lr-hint') });
    this.f.lr.wrap.insertBefore(this.lrHint, this.f.lr.msg);
    const optInput = h('select', { id: I('optimizer'), 'aria-describedby': I('optimizer-msg') },
      OPTIMIZERS.map((o) => h('option', { value: o })));
    this.f.optimizer = {
      input: optInput, label: h('label', { for: optInput.id }),
      msg: h('p', { id: I('optimizer-msg'), class: 'msg', 'aria-live': 'polite' }),
    };
    this.f.optimizer.wrap = h('div', { class: 'field field-optimizer' }, this.f.optimizer.label, optInput, this.f.optimizer.msg);
    this.checks = DIVISORS.map(([key, color, dash]) => {
      const input = h('input', { type: 'checkbox', id: I(`div-${key}`), value: key, 'aria-describedby': I('divisors-msg') });
      const label = h('label', { for: input.id });
      return { key, input, label, wrap: h('span', { class: 'radio' }, input, keySwatch(color, dash), label) };
    });
    this.divLegend = h('legend');
    this.divMsg = h('p', { id: I('divisors-msg'), class: 'msg', 'aria-live': 'polite' });
    this.f.divisors = { input: this.checks[0].input, msg: this.divMsg };
    this.startButton = h('button', { type: 'button', id: I('start'), class: 'primary' });
    this.formMsg = h('p', { class: 'msg', id: I('form-msg'), role: 'alert' });
    const controls = h('div', { class: 'controls train-controls' },
      this.f.dk.wrap, this.f.steps.wrap, this.f.optimizer.wrap, this.f.lr.wrap, this.f.seed.wrap,
      h('fieldset', { class: 'field field-divisors' }, this.divLegend,
        h('div', { class: 'radios' }, this.checks.map((c) => c.wrap)), this.divMsg),
      h('div', { class: 'field train-buttons' }, this.startButton, this.formMsg));

    // ---- status, runs, charts, table ----
    this.heading = h('h3', { class: 'widget-h' });
    this.intro = h('p', { class: 'note' });
    this.fixedNote = h('p', { class: 'note' });
    this.status = h('p', { class: 'train-status', id: I('status'), role: 'status', dataset: { state: 'idle' } });
    this.runList = h('ul', { class: 'train-runs', id: I('runs') });
    this.charts = CHARTS.map((spec) => {
      const marks = [];  // the diverged runs' [{x, color, label}], drawn by divergenceMarks
      const c = createChart({
        height: 190, yRange: spec.yRange,
        series: DIVISORS.map(([, color, dash]) => ({ color, dash })),
        overlay: (g, f) => divergenceMarks(g, f, marks),
      });
      c.marks = marks;
      c.el.id = I(`chart-${spec.key}`);
      return { ...spec, c };
    });
    this.axisNote = h('p', { class: 'axis-note' });
    this.divergedNote = h('p', { class: 'axis-note train-diverged', hidden: true });
    this.table = dataTable(I('table'));
    this.table.details.addEventListener('toggle', () => this.renderTable());

    this.root.append(
      this.noticeBox([]),
      this.heading, this.intro,
      controls, this.fixedNote,
      this.status, this.runList,
      h('div', { class: 'charts train-charts' }, this.charts.map((x) => x.c.el)),
      this.axisNote, this.divergedNote,
      this.table.details);

    // ---- events ----
    for (const key of ['dk', 'steps', 'lr', 'seed']) this.f[key].input.addEventListener('input', () => this.readControls(key));
    optInput.addEventListener('change', () => this.readControls('optimizer'));
    for (const c of this.checks) c.input.addEventListener('change', () => this.readControls('divisors'));
    this.startButton.addEventListener('click', () => (this.phase === 'running' || this.phase === 'checking' ? this.stop() : this.start()));

    this.syncControls();
    this.renderRuns();
    // Warm the shared worker (its core loads once for the page); a failure shows at Start.
    this.pool.ensure(1).catch(() => {});
    if (this.hasAttribute('autostart')) queueMicrotask(() => this.start());
  }

  // ---- the controls and the values they hold ----
  syncControls() {
    this.f.dk.input.value = String(this.v.dk);
    this.f.steps.input.value = String(this.v.steps);
    this.f.lr.input.value = this.v.lr === null ? '' : String(this.v.lr);
    this.f.seed.input.value = String(this.v.seed);
    this.f.optimizer.input.value = this.v.optimizer;
    for (const c of this.checks) c.input.checked = this.v.divisors.includes(c.key);
  }

  /** The controls' texts (what the reader typed), checked at Start. */
  controlTexts() {
    return {
      dk: this.f.dk.input.value.trim(), steps: this.f.steps.input.value.trim(), lr: this.f.lr.input.value.trim(),
      seed: this.f.seed.input.value.trim(), optimizer: this.f.optimizer.input.value,
      divisors: this.checks.filter((c) => c.input.checked).map((c) => c.key),
    };
  }

  // The reader changed a control: the values that parse become the state the host hears.
  readControls(key) {
    const x = this.controlTexts();
    delete this.fieldErrors[key];
    if (key === 'divisors') this.v.divisors = x.divisors;
    else if (key === 'optimizer') this.v.optimizer = x.optimizer;
    else if (key === 'lr') this.v.lr = x.lr === '' || x.lr.toLowerCase() === 'auto' ? null : number(x.lr);
    else if (Number.isInteger(number(x[key]))) this.v[key] = number(x[key]);
    this.renderControls();
    this.announce(this.state());
  }

  /** An attribute the host changed: the control shows it; it applies at the next Start. */
  optionChanged(key) {
    this.syncControls();
    delete this.fieldErrors[key];
    this.renderControls();
    this.renderRuns();
    this.announce(this.state());
  }

  state() {
    return { ...this.v, divisors: [...this.v.divisors].join(',') };
  }

  // ---- checking the settings: the widget's own checks, then the core's verdicts ----
  async check(x) {
    const msgs = {};
    for (const f of ['dk', 'steps', 'seed']) if (x[f] === '') msgs[f] = { key: 'compare.err.empty' };
    const steps = number(x.steps);
    if (!msgs.steps && !(Number.isInteger(steps) && steps >= 1 && steps <= MAX_STEPS))
      msgs.steps = { key: 'compare.err.steps', params: { max: int(MAX_STEPS) } };
    if (x.divisors.length === 0) msgs.divisors = { key: 'compare.err.noDivisor' };
    const auto = x.lr === '' || x.lr.toLowerCase() === 'auto';
    const probes = [['dk', 'dk', number(x.dk)], ['optimizer', 'optimizer', x.optimizer], ['seed', 'seed', number(x.seed)],
      ...(auto ? [] : [['lr', 'lr', number(x.lr)]])].filter(([f]) => !msgs[f]);
    let lr = auto ? null : number(x.lr);
    const ask = (op, args) => this.pool.call(op, args);
    try {
      const verdicts = await ask('validate', [probes.map(([, option, value]) => ({ ...PROBE, [option]: value }))]);
      verdicts.forEach((r, i) => {
        if (r.error) msgs[probes[i][0]] ??= { core: r };
      });
      if (auto && !msgs.dk && !msgs.optimizer) {
        const r = await ask('referenceLr', [x.optimizer, number(x.dk), FIXED.dModel]);
        if (r.error) msgs.lr = { core: r };
        else lr = r.lr;
      }
      if (Object.keys(msgs).length === 0) {
        const [r] = await ask('validate', [[this.options(x, 'sqrt', lr)]]);
        if (r.error) msgs[fieldOfArgument(r.argument, CONTROLS)] = { core: r };
      }
    } catch (e) {
      msgs.form = { core: e };
    }
    if (Object.values(msgs).some((m) => m.core)) await loadErrorStrings();
    return { msgs, lr, auto, steps };
  }

  /** TrainOptions for the core (the lab's fixed model, this widget's choices). */
  options(x, divisor, lr) {
    return { ...FIXED, task: TASK, dk: number(x.dk), heads: HEADS, divisor, optimizer: x.optimizer, lr, seed: number(x.seed) };
  }

  // ---- running ----
  /** Start a comparison with the controls' values (the host may call it; autostart does). */
  async start() {
    // Called before the element was defined or connected: start once it is built.
    if (!this.built) {
      this.setAttribute('autostart', '');
      return false;
    }
    if (this.phase === 'running' || this.phase === 'checking') return false;
    const ticket = ++this.startTicket;
    const clickAt = performance.now();
    const x = this.controlTexts();
    this.setPhase('checking');
    const { msgs, lr, auto, steps } = await this.check(x);
    if (ticket !== this.startTicket) return false;
    this.fieldErrors = msgs;
    this.renderControls();
    if (Object.keys(msgs).length) {
      this.setPhase('invalid');
      for (const [field, m] of Object.entries(msgs)) {
        const message = this.messageText(m);
        if (m.core !== undefined) this.fail('core', message, { field, argument: m.argument ?? field });
        else this.fail('input', message, { field });
      }
      return false;
    }
    this.cmp?.stop();
    const divisors = DIVISORS.filter(([key]) => x.divisors.includes(key))
      .map(([option, color, dash]) => ({ option, color, dash, slot: option }));
    const plan = {
      values: { task: TASK, dk: x.dk, heads: String(HEADS), opt: x.optimizer, seed: x.seed },
      steps, lr, auto, divisors,
      config: { ...FIXED, task: TASK, dk: number(x.dk), heads: HEADS, optimizer: x.optimizer, lr, steps, seed: number(x.seed) },
    };
    const cmp = new Comparison(plan, this.pool, { workers: 1, clickAt });
    cmp.mapEvery = steps + 1;  // no attention-map captures: this widget draws none
    this.cmp = cmp;
    cmp.on((type, detail) => this.onComparison(cmp, type, detail));
    this.setPhase('running');
    cmp.start();
    this.renderAll();
    return true;
  }

  /** Stop the comparison: its runs are dropped, what they drew stays. */
  stop() {
    if (!this.built) return this.removeAttribute('autostart');
    this.startTicket++;
    if (this.phase === 'checking') return this.setPhase(this.cmp ? 'stopped' : 'idle');
    if (this.phase !== 'running') return;
    this.cmp.stop();
    this.setPhase('stopped');
    this.renderAll();
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    // A widget taken off the page leaves the shared worker to the others.
    if (this.phase === 'running' || this.phase === 'checking') this.stop();
  }

  onComparison(cmp, type, { run } = {}) {
    if (cmp !== this.cmp) return;
    // A run the core refused after the checks passed: its message shows in its line of the run list.
    // Its sentence needs the error strings (loaded on the first error): the run's line is drawn again once they are.
    if (type === 'failed') loadErrorStrings().then(() => this.runFailed(run));
    if (type === 'finished') {
      this.setPhase(cmp.runs.every((r) => r.failed) ? 'failed' : 'done');
      this.box.dataset.totalMs = cmp.totalMs.toFixed(0);
      this.renderAll();
      return;
    }
    this.scheduleRender();
  }

  /** A run the core refused: the host hears the reader's sentence; its line says it too. */
  runFailed(run) {
    this.fail('core', coreMessage(runError(run)), { divisor: run.option });
    this.scheduleRender();
  }

  setPhase(phase) {
    this.phase = phase;
    this.box.dataset.run = phase;
    this.status.dataset.state = phase;
    this.renderButton();
    this.renderStatus();
  }

  // ---- drawing: coalesced to one frame ----
  scheduleRender() {
    if (this.renderQueued) return;
    this.renderQueued = true;
    requestAnimationFrame(() => {
      this.renderQueued = false;
      this.renderAll();
    });
  }

  renderAll() {
    timed('compare.render', () => {
      this.renderStatus();
      this.renderRuns();
      this.renderCharts();
      this.renderTable();
    });
  }

  messageText(m) {
    if (!m) return '';
    return m.core !== undefined ? coreMessage(m.core) : t(m.key, m.params);
  }

  renderControls() {
    for (const key of ['dk', 'steps', 'lr', 'seed', 'optimizer', 'divisors'])
      setFieldError(this.f[key].input, this.f[key].msg, this.messageText(this.fieldErrors[key]));
    this.formMsg.textContent = this.messageText(this.fieldErrors.form);
  }

  renderButton() {
    const busy = this.phase === 'running' || this.phase === 'checking';
    this.startButton.textContent = t(busy ? 'compare.stop' : this.cmp ? 'compare.restart' : 'compare.start');
    this.startButton.setAttribute('aria-pressed', String(busy));
  }

  renderStatus() {
    const cmp = this.cmp;
    const lr = cmp ? cmp.plan.auto ? t('compare.lrIsAuto', { lr: num(cmp.plan.lr, 3) }) : num(cmp.plan.lr, 3) : '';
    const params = cmp ? { n: cmp.runs.length, steps: int(cmp.plan.steps), lr } : {};
    const diverged = cmp ? cmp.runs.filter((r) => r.diverged).length : 0;
    const p = this.phase;
    this.status.textContent = p === 'running' && cmp ? t('compare.status.running', params)
      : p === 'done' ? t('compare.status.done', { ...params, seconds: decimals(cmp.totalMs / 1000, 1) })
        + (diverged ? t('compare.status.someDiverged', { diverged }) : '')
        : t(`compare.status.${p === 'running' ? 'idle' : p}`);
  }

  /** A run's label: "÷ √d_k = 8". */
  runLabel(run) {
    const label = t(`compare.div.${run.option}`);
    return run.divisorValue && run.option !== '1' && run.option !== '2'
      ? t('compare.run.labelValue', { label, value: num(run.divisorValue, 4) }) : t('compare.run.label', { label });
  }

  renderRuns() {
    const cmp = this.cmp;
    if (!cmp) return this.runList.replaceChildren();
    this.runList.replaceChildren(...cmp.runs.map((run) => {
      let text;
      if (run.failed) text = t('compare.run.failed', { message: coreMessage(runError(run)) });
      else if (run.diverged) text = t('compare.run.diverged', { step: int(run.diverged) });
      else if (run.finished) text = t('compare.run.done', { loss: num(run.eval.loss, 3), acc: percent(run.eval.accuracy) });
      else if (!run.stepsDone) text = t('compare.run.waiting');
      else {
        const pace = this.phase === 'running' ? cmp.paceOf(run) : null;
        const total = int(cmp.plan.steps);
        text = pace ? t('compare.run.pace', { done: int(run.stepsDone), total, rate: int(Math.round(pace.rate)), left: int(Math.ceil(pace.left)) })
          : t('compare.run.running', { done: int(run.stepsDone), total });
      }
      const bar = h('progress', { class: run.color, max: cmp.plan.steps, value: run.stepsDone, 'aria-hidden': 'true' });
      return h('li', { dataset: { div: run.option, steps: run.stepsDone, state: runState(run) } },
        keySwatch(run.color, run.dash), h('span', { class: 'run-label', text: this.runLabel(run) }), bar,
        h('span', { class: 'run-text', text }));
    }));
  }

  renderCharts() {
    const cmp = this.cmp;
    const diverged = cmp ? cmp.runs.filter((r) => r.diverged) : [];
    if (!cmp) for (const { c } of this.charts) c.marks.length = 0;
    const labels = DIVISORS.map(([key]) => {
      const run = cmp?.runs.find((r) => r.option === key);
      return run ? this.runLabel(run) : t('compare.run.label', { label: t(`compare.div.${key}`) });
    });
    for (const { key, column, c } of this.charts) {
      const title = t(`compare.chart.${key}`);
      c.setLabels(title, t('compare.chartName', { title }), labels);
      if (!cmp) {
        c.setData([[], ...DIVISORS.map(() => [])]);
        DIVISORS.forEach(([k], i) => c.show(i + 1, this.v.divisors.includes(k)));
        continue;
      }
      // Every run logs at the same steps: the longest run's steps are the x values.
      const longest = cmp.runs.reduce((a, r) => (r.data.step.length > a.data.step.length ? r : a), cmp.runs[0]);
      const xs = longest.data.step.slice();
      const ys = DIVISORS.map(([k]) => {
        const run = cmp.runs.find((r) => r.option === k);
        const col = run?.data[column];
        return xs.map((_, i) => (col && i < col.length ? col[i] : null));
      });
      // A diverged run: a rule and an ✕ at its step, in its colour (its curve has gaps from there: NaN is never drawn).
      c.marks.splice(0, Infinity, ...diverged.map((r) => ({ x: r.diverged, color: r.color, label: `✕ ${int(r.diverged)}` })));
      c.el.dataset.marks = c.marks.map((m) => m.x).join(',');
      c.setData([xs, ...ys]);
      DIVISORS.forEach(([k], i) => c.show(i + 1, cmp.runs.some((r) => r.option === k)));
    }
    this.axisNote.textContent = t('compare.axis');
    this.divergedNote.hidden = diverged.length === 0;
    this.divergedNote.textContent = diverged.map((r) => t('compare.chart.diverged', { label: this.runLabel(r), step: int(r.diverged) })).join(' ');
  }

  renderTable() {
    const tb = this.table;
    tb.summary.textContent = t('widget.tableSummary');
    tb.title.textContent = t('compare.tableTitle', { samples: int(EVAL_SAMPLES) });
    const cmp = this.cmp;
    const cols = ['divisor', 'value', 'initLoss', 'loss', 'accuracy', 'stepsTo90', 'steps'];
    tb.head.replaceChildren(h('tr', {}, cols.map((c) => h('th', { scope: 'col', text: t(`compare.col.${c}`) }))));
    if (!cmp) return tb.body.replaceChildren();
    tb.body.replaceChildren(...cmp.runs.map((run) => {
      const ev = run.eval;
      const cell = (key, text, raw) => h('td', { dataset: { col: key, ...(raw !== undefined && raw !== null ? { value: String(raw) } : {}) }, text });
      return h('tr', { dataset: { div: run.option, state: runState(run), ...(run.diverged ? { diverged: String(run.diverged) } : {}) } },
        h('th', { scope: 'row', text: this.runLabel(run) }),
        cell('value', run.divisorValue ? num(run.divisorValue, 6) : DASH, run.divisorValue || null),
        cell('initLoss', run.init ? fixed(run.init.loss, 4) : DASH, run.init?.loss),
        cell('loss', ev ? fixed(ev.loss, 4) : DASH, ev?.loss),
        cell('accuracy', ev ? percent(ev.accuracy) : DASH, ev?.accuracy),
        cell('stepsTo90', !run.finished ? DASH : run.diverged ? t('compare.diverged', { step: int(run.diverged) })
          : run.stepsTo90 ? int(run.stepsTo90) : t('compare.never'), run.finished && !run.diverged ? run.stepsTo90 : null),
        cell('steps', int(run.stepsDone), run.stepsDone));
    }));
  }

  relabel() {
    this.heading.textContent = t('compare.heading');
    this.intro.textContent = t('compare.intro');
    this.fixedNote.textContent = t('compare.fixed', { ...FIXED, heads: HEADS });
    for (const key of ['dk', 'steps', 'lr', 'seed', 'optimizer']) this.f[key].label.textContent = t(`compare.${key}`);
    this.f.lr.input.placeholder = t('compare.lrAuto');
    this.lrHint.textContent = t('compare.lrHint');
    for (const o of OPTIMIZERS) this.f.optimizer.input.querySelector(`option[value="${o}"]`).textContent = t(`compare.opt.${o}`);
    this.divLegend.textContent = t('compare.divisors');
    for (const c of this.checks) c.label.textContent = t(`compare.div.${c.key}`);
    this.renderControls();
    this.renderButton();
    this.renderAll();
  }
}

/** A run's state for data-state: 'failed', 'diverged', 'done' or 'running'. */
const runState = (run) => (run.failed ? 'failed' : run.diverged ? 'diverged' : run.finished ? 'done' : 'running');

/** The legend's key: a short line in the divisor's colour (dashed like its curve). */
function keySwatch(color, dash) {
  return h('span', { class: `key ${color}${dash ? ' dashed' : ''}`, 'aria-hidden': 'true' }, h('span', { class: 'swatch' }));
}

define('attn-train-compare', AttnTrainCompare);
