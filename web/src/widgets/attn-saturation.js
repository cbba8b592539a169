// <attn-saturation>: where softmax saturates. Controls: d_k (log slider,
// 1..4096), the divisor (√d_k, 1, 2, d_k or a custom number) and the sequence
// length m (2..512). Shows one sampled row of m scores q·k_j and its softmax,
// unscaled and divided by the chosen divisor, as bars; and, against d_k, the
// expected largest probability, entropy and softmax Jacobian norm for every
// divisor (Monte Carlo in the core's saturation_point, one call per chunk of
// rows, streamed from the worker), with the current d_k marked. The mean hides
// the rows (issue 30): saturation-dist.js shows the distribution over rows
// (median norm, shares below a threshold, the norm against the scores' scale,
// a sentence at the reader's d_k) from a sweep of the same rows in the
// presets' module, loaded when its place nears the screen. The
// sequence-length view (n on the x axis, the log-n divisor) is
// saturation-length.js, loaded at the button's click.
//
// Attributes (element.js options; a later change updates the widget): dk,
// m, divisor (1, 2, sqrt, dk or a positive number), seed; url-state (URL
// prefix, e.g. "sat"), id-prefix (default "sat").
import { t } from '../base/i18n.js';
import { DASH, fixed, int, num, percent } from '../base/format.js';
import { dataTable, fillTable, h, setFieldError, whenNear } from '../base/dom.js';
import { parseNumber } from '../base/parse.js';
import { randomSeed, readState, writeState } from '../base/state.js';
import { AttnElement, coreMessage, define, timed } from './element.js';
import { createChart } from './chart.js';
import { SWEEP_DKS, curveDivisors, customDivisor, sweepPoints } from './saturation-sweep.js';
import { CURVES, DK_LOG2_MAX, OPTIONS, SPECS } from './saturation-options.js';
import './saturation-strings.js';

const M_LOG2 = [1, 9]; // m = 2 .. 512
const STATS = ['maxProb', 'entropy', 'jacobianNorm'];

const log2Clamp = (x, lo, hi) => String(Math.min(hi, Math.max(lo, Math.round(Math.log2(x)))));

// The curves' x axis, an option of the widget (this.axis): d_k at the reader's m
// here; saturation-length.js gives d_k or n, with one curve more. key: its
// table rows' data-<key>; text: its string keys, by the indices below.
const DK_AXIS = {
  key: 'dk', xs: SWEEP_DKS, curves: CURVES, point: (x, v) => ({ x, dk: x, m: v.m }), marker: (v) => v.dk,
  text: ['sat.chartName', 'sat.curvesNote', 'sat.curvesProgress', 'sat.curvesDone', 'sat.curveTable', 'sat.col.dk'],
};
const [NAME, NOTE, PROGRESS, DONE, TABLE] = [0, 1, 2, 3, 4];  // 5: the table's first column (saturation-curve-table.js)

class AttnSaturation extends AttnElement {
  defaultIdPrefix = 'sat';

  static options = OPTIONS;

  /** divisor="sqrt" -> {div: 'sqrt'}; divisor="3.5" -> {div: 'custom', c: 3.5}. */
  static divisorState(d) {
    return typeof d === 'number' ? { div: 'custom', c: d } : { div: d };
  }

  build() {
    const { divisor, ...init } = this.v;
    Object.assign(init, AttnSaturation.divisorState(divisor));
    const specs = Object.fromEntries(Object.entries(SPECS).map(([k, s]) => [k, { ...s, def: init[k] ?? s.def }]));
    const { values, notices } = readState(this.statePrefix, specs);
    this.v = values; // {dk, div, c, m, seed}: what the reader chose
    this.fieldErrors = {};
    this.row = null; // the row on show: {dk, m, seed, spec, div, divisor, scores, unscaled, scaled}
    this.rowBusy = false;
    this.rowDirty = false;
    this.sweep = new Map(); // `${dk}|${key}` -> {n, stats: {maxProb, ...}}
    this.sweepGen = 0;

    const I = (s) => this.id_(s);
    // ---- controls ----
    this.dkRange = h('input', { type: 'range', id: I('dk-range'), min: 0, max: DK_LOG2_MAX, step: 1 });
    this.dkNumber = h('input', { type: 'text', id: I('dk-number'), inputmode: 'numeric', autocomplete: 'off', size: 6, 'aria-describedby': I('dk-msg') });
    this.dkMsg = h('p', { id: I('dk-msg'), class: 'msg', 'aria-live': 'polite' });
    this.dkOutput = h('output', { id: I('dk-output'), for: `${I('dk-range')} ${I('dk-number')}` });
    this.mRange = h('input', { type: 'range', id: I('m-range'), min: M_LOG2[0], max: M_LOG2[1], step: 1 });
    this.mNumber = h('input', { type: 'text', id: I('m-number'), inputmode: 'numeric', autocomplete: 'off', size: 5, 'aria-describedby': I('m-msg') });
    this.mMsg = h('p', { id: I('m-msg'), class: 'msg', 'aria-live': 'polite' });
    this.radios = CURVES.map(([key]) => {
      const input = h('input', { type: 'radio', name: I('div'), id: I(`div-${key}`), value: key });
      const label = h('label', { for: input.id });
      return { key, input, label, wrap: h('span', { class: 'radio' }, input, label) };
    });
    this.legendEl = h('legend');
    this.custom = h('input', { type: 'text', id: I('custom'), inputmode: 'decimal', autocomplete: 'off', size: 7, 'aria-describedby': I('custom-msg') });
    this.customLabel = h('label', { for: this.custom.id, class: 'visually-hidden' });
    this.customMsg = h('p', { id: I('custom-msg'), class: 'msg', 'aria-live': 'polite' });
    this.resample = h('button', { type: 'button', id: I('resample') });
    this.seedText = h('span', { class: 'seed', id: I('seed') });
    this.labels = {
      dkRange: h('label', { for: this.dkRange.id }), dkNumber: h('label', { for: this.dkNumber.id }),
      mRange: h('label', { for: this.mRange.id }), mNumber: h('label', { for: this.mNumber.id }),
    };
    this.mOutput = h('output', { id: I('m-output'), for: `${I('m-range')} ${I('m-number')}` });

    const controls = h('div', { class: 'controls' },
      h('div', { class: 'field field-range' }, h('div', { class: 'range-head' }, this.labels.dkRange, this.dkOutput), this.dkRange),
      h('div', { class: 'field field-dk' }, this.labels.dkNumber, this.dkNumber, this.dkMsg),
      h('fieldset', { class: 'field field-divisor' }, this.legendEl,
        h('div', { class: 'radios' }, this.radios.map((r) => r.wrap), this.customLabel, this.custom), this.customMsg),
      h('div', { class: 'field field-range' }, h('div', { class: 'range-head' }, this.labels.mRange, this.mOutput), this.mRange),
      h('div', { class: 'field field-dk' }, this.labels.mNumber, this.mNumber, this.mMsg),
      h('div', { class: 'field field-seed' }, this.resample, this.seedText),
      this.lengthButton = h('button', { type: 'button', id: I('length') }));

    // ---- one sampled row: two bar charts ----
    this.rowHeading = h('h3', { class: 'widget-h' });
    this.barCharts = ['unscaled', 'scaled'].map((key) => {
      const title = h('span', { class: 'chart-title' });
      const stats = h('span', { class: 'chart-stats', dataset: { chart: key } });
      const plot = h('div', { class: 'bars', role: 'img' });
      const fig = h('figure', { class: `chart chart-${key}` }, h('figcaption', {}, title, stats), plot);
      return { key, title, stats, plot, fig, bars: [] };
    });
    // What to look at, from the numbers the figure shows (renderRow, renderCurves).
    this.rowLook = h('p', { class: 'note look', id: I('row-look') });
    this.curvesLook = h('p', { class: 'note look', id: I('curves-look') });
    this.rowTable = dataTable(I('row-table'));
    this.rowFoot = h('tfoot');
    this.rowTable.table.append(this.rowFoot);
    this.rowTable.details.addEventListener('toggle', () => this.renderRowTable());

    // ---- curves against d_k ----
    this.curvesHeading = h('h3', { class: 'widget-h' });
    this.curvesNote = h('p', { class: 'note curves-note', id: I('curves-note') });
    this.progress = h('p', { class: 'progress', id: I('progress'), role: 'status' });
    this.axis = DK_AXIS;
    this.chartBox = h('div', { class: 'curve-charts' });
    this.buildCharts();
    // The distribution view's place, its height kept while it loads (renderCurves).
    this.distSlot = h('div', { id: I('dist') });
    this.dist = null;
    this.curveTable = dataTable(I('curve-table'));
    this.curveTable.details.addEventListener('toggle', () => this.renderCurveTable());

    this.root.append(
      this.noticeBox(notices),
      controls,
      this.rowHeading,
      h('div', { class: 'charts' }, this.barCharts.map((c) => c.fig)),
      this.rowLook,
      this.rowTable.details,
      this.curvesHeading,
      this.curvesNote,
      this.progress,
      this.chartBox,
      this.curvesLook,
      this.curveTable.details,
      this.distSlot);

    // ---- events ----
    this.dkRange.addEventListener('input', () => timed('sat.input', () => {
      this.v.dk = 2 ** Number(this.dkRange.value);
      this.dkNumber.value = String(this.v.dk);
      this.fieldErrors.dk = null;
      this.changed({ row: true });
    }));
    this.dkNumber.addEventListener('input', () => timed('sat.input', () => {
      const r = this.parseInt(this.dkNumber.value, 1, 2 ** DK_LOG2_MAX, 'sat.err.dkRange');
      this.fieldErrors.dk = r.error ?? null;
      if (!r.error) {
        this.v.dk = r.value;
        this.dkRange.value = log2Clamp(r.value, 0, DK_LOG2_MAX);
      }
      this.changed({ row: !r.error });
    }));
    this.mRange.addEventListener('input', () => {
      this.v.m = 2 ** Number(this.mRange.value);
      this.mNumber.value = String(this.v.m);
      this.fieldErrors.m = null;
      this.changed({ row: true, sweep: true });
    });
    this.mNumber.addEventListener('input', () => {
      const r = this.parseInt(this.mNumber.value, 2, 512, 'sat.err.mRange');
      this.fieldErrors.m = r.error ?? null;
      if (!r.error) {
        this.v.m = r.value;
        this.mRange.value = log2Clamp(r.value, ...M_LOG2);
      }
      this.changed({ row: !r.error, sweep: !r.error });
    });
    for (const r of this.radios)
      r.input.addEventListener('change', () => {
        if (!r.input.checked) return;
        this.v.div = r.key;
        this.changed({ row: true, highlight: true });
      });
    this.custom.addEventListener('focus', () => {
      if (this.v.div !== 'custom') {
        this.v.div = 'custom';
        this.radios.find((r) => r.key === 'custom').input.checked = true;
        this.changed({ row: true, highlight: true });
      }
    });
    this.custom.addEventListener('input', () => {
      this.v.c = this.custom.value.trim();
      this.changed({ row: true, sweep: true });
    });
    this.lengthButton.onclick = () => this.loadLength();
    this.resample.addEventListener('click', () => {
      this.v.seed = randomSeed();
      this.changed({ row: true, sweep: true });
    });

    // ---- initial state ----
    this.syncControls();
    this.updateRow();
    this.runSweep(); // a link's sat.x=n opens the n view: the page's main.js asks for it
  }

  buildCharts() {
    for (const { c } of this.charts ?? []) c.destroy();
    this.charts = STATS.map((stat) => {
      const c = createChart({
        xLog: true, height: 200, xName: this.axis.key === 'n' ? 'n' : 'd_k',
        yRange: stat === 'maxProb' ? [0, 1] : undefined,
        series: this.axis.curves.map(([, , color, dash]) => ({ color, dash })),
      });
      c.el.id = this.id_(`chart-${stat}`);
      return { stat, c };
    });
    this.chartBox.replaceChildren(...this.charts.map((x) => x.c.el));
  }

  // Outside the first load (the embed's gzip budget), like the length view.
  loadDist() {
    return this.distLoading ??= import('./saturation-dist.js').then((m) => {
      this.dist = new m.SaturationDist(this, CURVES);
      this.distSlot.replaceChildren(this.dist.el);
      this.distSlot.style.minHeight = '';
      this.dist.relabel();
    });
  }

  /** The reader picked the distribution view's threshold, 10^-k. */
  distThreshold(k) {
    this.v.thr = k;
    this.changed({});
    this.dist?.relabel();
  }

  // Outside the first load (the embed's gzip budget): fetched when asked for.
  loadLength() {
    // The length view runs sweeps of its own, without the distribution.
    this.distSlot.hidden = true;
    this.dist?.stop();
    return import('./saturation-length.js').then((m) => m.lengthView(this, CURVES));
  }

  syncControls() {
    this.dkNumber.value = String(this.v.dk);
    this.dkRange.value = log2Clamp(this.v.dk, 0, DK_LOG2_MAX);
    this.mNumber.value = String(this.v.m);
    this.mRange.value = log2Clamp(this.v.m, ...M_LOG2);
    this.custom.value = String(this.v.c);
    this.radios.find((r) => r.key === this.v.div).input.checked = true;
    this.fieldErrors = {};
  }

  // An attribute the host changed (element.js): the same as the reader's control.
  optionChanged(key) {
    if (key === 'divisor') {
      Object.assign(this.v, AttnSaturation.divisorState(this.v.divisor));
      delete this.v.divisor;
    }
    this.syncControls();
    this.changed({ row: true, sweep: key === 'm' || key === 'seed' || (key === 'divisor' && this.v.div === 'custom'), highlight: key === 'divisor' });
  }

  // Left the document: the running sweep stops at its next chunk (and closes
  // its session); back in it, the sweep starts again.
  stopWork() {
    this.sweepGen++;
    this.dist?.stop();
  }

  resumeWork() {
    this.runSweep();
  }

  /** The state a host hears in the change event. */
  state() {
    return { dk: this.v.dk, m: this.v.m, divisor: this.v.div === 'custom' ? Number(this.v.c) : this.v.div, seed: this.v.seed };
  }

  parseInt(text, lo, hi, key) {
    const r = parseNumber(text);
    if (r.error) return r;
    if (!Number.isInteger(r.value) || r.value < lo || r.value > hi) return { error: { key } };
    return r;
  }

  /** The divisor spec the core resolves: 'sqrt', 'dk' or a number as text. */
  divisorSpec() {
    return this.v.div === 'custom' ? String(this.v.c) : this.v.div;
  }

  changed({ row = false, sweep = false, highlight = false }) {
    writeState(this.statePrefix, { dk: this.v.dk, div: this.v.div, c: this.v.c, m: this.v.m, seed: this.v.seed, thr: this.v.thr });
    this.announce(this.state());
    if (row) this.updateRow();
    if (sweep || this.axis.resweep?.(this.sweepMeta, this.v)) this.runSweep();
    if (highlight) {
      this.highlightCurves();
      this.renderCurves();
    }
    this.renderControls();
    for (const { c } of this.charts) c.setMarker(this.axis.marker(this.v));
    if (this.sweep) this.renderLook();
    this.dist?.update();
  }

  // ---- the sampled row: at most one request in flight; the latest state wins ----
  async updateRow() {
    if (this.rowBusy) {
      this.rowDirty = true;
      return;
    }
    this.rowBusy = true;
    do {
      this.rowDirty = false;
      const want = { dk: this.v.dk, m: this.v.m, seed: this.v.seed, spec: this.divisorSpec(), div: this.v.div };
      if (this.fieldErrors.dk || this.fieldErrors.m) break;
      try {
        const [divisor, scores] = await Promise.all([
          this.client.call('resolveDivisor', [want.spec, want.dk]).catch((e) => ({ error: e })),
          this.client.call('sampleScoreRow', [want.dk, want.m, want.seed]),
        ]);
        const raw = Float64Array.from(scores);
        const unscaled = await this.client.call('softmaxStats', [raw, 1]);
        let scaled = null;
        if (!divisor.error) scaled = await this.client.call('softmaxStats', [raw, divisor.value]);
        this.fieldErrors.custom = divisor.error ? { core: divisor.error } : null;
        this.row = { ...want, divisor: divisor.error ? null : divisor, scores: raw, unscaled, scaled };
        this.fieldErrors.core = null;
      } catch (e) {
        // A core that could not load is the footer's and the curves' news, not the d_k field's.
        this.fieldErrors.core = e.load ? null : { core: e };
      }
    } while (this.rowDirty);
    this.rowBusy = false;
    timed('sat.render', () => {
      this.renderControls();
      this.renderRow();
    });
  }

  // ---- the curves: a core session per d_k, drawn a chunk of rows a call; the
  //      running means and standard errors are the core's (SaturationSession) ----
  async runSweep() {
    const gen = ++this.sweepGen;
    const { m, dk, seed } = this.v;
    const a = this.axis;
    this.sweep = new Map();
    const meta = this.sweepMeta = { axis: a.key, m, dk, seed, rows: 0, custom: customDivisor(this.v.c), done: 0 };
    // The distribution view sweeps the d_k axis's points only (the length view hides it).
    if (a === DK_AXIS) this.dist?.restart();
    const stale = () => gen !== this.sweepGen;
    const divisorsAt = a.divisorsAt?.(meta, stale) ?? curveDivisors(this.client, CURVES, meta.custom);
    this.labelCharts();
    this.highlightCurves();
    this.renderCurves();
    try {
      await sweepPoints(this.client, {
        points: a.xs.map((x) => a.point(x, this.v)), seed, divisorsAt, stale,
        onChunk: (x, i, used, res) => {
          meta.rows += res.rows - (this.sweep.get(`${x}|1`)?.n ?? 0);
          res.stats.forEach((r, j) => {
            const stats = Object.fromEntries(STATS.map((st) => [st, r[st]]));
            this.sweep.set(`${x}|${used[j].key}`, { n: res.rows, divisor: r.divisor, stats });
          });
          meta.current = x;
          this.drawSeen(() => timed('sat.curves', () => this.renderCurves()));
        },
        onPoint: (i) => { this.sweepMeta.done = i + 1; },
      });
    } catch (e) {
      if (gen !== this.sweepGen) return;
      this.sweepError = e;
      this.renderCurves();
      return;
    }
    if (gen !== this.sweepGen) return;
    this.sweepError = null;
    this.renderCurves();
  }

  // ---- rendering ----
  renderControls() {
    const msg = (e) => (!e ? '' : e.core !== undefined ? coreMessage(e.core) : t(e.key, e.params));
    setFieldError(this.dkNumber, this.dkMsg, msg(this.fieldErrors.dk ?? this.fieldErrors.core));
    setFieldError(this.mNumber, this.mMsg, msg(this.fieldErrors.m));
    setFieldError(this.custom, this.customMsg, this.v.div === 'custom' ? msg(this.fieldErrors.custom) : '');
    this.dkOutput.textContent = t('sat.dkOutput', { dk: int(this.v.dk) });
    this.mOutput.textContent = `m = ${int(this.v.m)}`;
    this.dkRange.setAttribute('aria-valuetext', t('sat.dkOutput', { dk: int(2 ** Number(this.dkRange.value)) }));
    this.mRange.setAttribute('aria-valuetext', `m = ${int(2 ** Number(this.mRange.value))}`);
    this.seedText.textContent = t('sat.seed', { seed: int(this.v.seed) });
  }

  renderRow() {
    const r = this.row;
    const stale = !r || r.dk !== this.v.dk || r.m !== this.v.m || r.seed !== this.v.seed || !r.scaled;
    this.box.classList.toggle('row-stale', Boolean(stale && r));
    this.rowHeading.textContent = t('sat.rowHeading', { m: int(r ? r.m : this.v.m) });
    for (const c of this.barCharts) {
      const st = r?.[c.key];
      // The scaled row in its divisor's colour (style.css, data-div): the colour of its curve below.
      if (c.key === 'scaled') c.fig.dataset.div = r?.div ?? this.v.div;
      if (c.key === 'unscaled') c.title.textContent = t('sat.unscaled');
      else c.title.textContent = r?.divisor ? t('sat.scaled', { label: this.divisorLabel(r.divisor, r.dk), value: num(r.divisor.value, 6) }) : t('sat.scaled', { label: DASH, value: 'c' });
      c.stats.textContent = st
        ? t('sat.stats', { maxProb: percent(st.maxProb), entropy: fixed(st.entropy, 3), jac: num(st.jacobianNorm, 3) })
        : DASH;
      const m = r ? r.m : 0;
      while (c.bars.length < m) {
        const bar = h('span', { class: 'bar' }, h('span', { class: 'fill' }));
        c.bars.push(bar);
        c.plot.append(bar);
      }
      while (c.bars.length > m) c.bars.pop().remove();
      c.bars.forEach((bar, j) => {
        bar.firstChild.style.height = `${((st ? st.probs[j] : 0) * 100).toFixed(3)}%`;
      });
      c.plot.setAttribute('aria-label', `${c.title.textContent}: ${c.stats.textContent}`);
    }
    // A stale row keeps its line (nothing moves while the slider does).
    if (r?.scaled && !stale) this.rowLook.textContent = t('sat.look.row', {
      dk: int(r.dk), u: percent(r.unscaled.maxProb), c: this.divisorLabel(r.divisor, r.dk), s: percent(r.scaled.maxProb) });
    this.renderRowTable();
  }

  divisorLabel(divisor, dk) {
    if (this.v.div === 'sqrt') return `√${int(dk)}`;
    if (this.v.div === 'dk') return `dₖ = ${int(dk)}`;
    return num(divisor.value, 6);
  }

  renderRowTable() {
    const tb = this.rowTable;
    const r = this.row;
    tb.summary.textContent = t('widget.tableSummary');
    tb.title.textContent = r ? t('sat.rowTable', { dk: int(r.dk), m: int(r.m), value: r.divisor ? num(r.divisor.value, 6) : DASH, seed: int(r.seed) }) : '';
    if (!tb.details.open || !r) return; // a closed table costs nothing while the slider moves
    const c = r.divisor?.value;
    fillTable(tb, ['sat.col.key', 'sat.col.score', 'sat.col.scaledScore', 'sat.col.pUnscaled', 'sat.col.pScaled'].map((k) => t(k)),
      Array.from(r.scores, (x, j) => [int(j + 1), num(x, 4), c ? num(x / c, 4) : DASH, percent(r.unscaled.probs[j]), r.scaled ? percent(r.scaled.probs[j]) : DASH]));
    this.rowFoot.replaceChildren(...STATS.map((s) => h('tr', { dataset: { stat: s } },
      h('th', { scope: 'row', colspan: 3, text: t(`sat.col.${s}`) }),
      h('td', { dataset: { col: 'unscaled' }, text: fmtStat(s, r.unscaled[s]) }),
      h('td', { dataset: { col: 'scaled' }, text: r.scaled ? fmtStat(s, r.scaled[s]) : DASH }))));
  }

  labelCharts() {
    const meta = this.sweepMeta;
    const curveLabels = this.axis.curves.map(([key]) => this.axis.label?.(key, meta) ?? t(`sat.curveLabel.${key}`, { c: meta?.custom ? num(meta.custom, 6) : 'c' }));
    for (const { stat, c } of this.charts) {
      const title = t(`sat.chart.${stat}`);
      c.setLabels(title, t(this.axis.text[NAME], { title }), curveLabels);
    }
  }

  highlightCurves() {
    for (const { c } of this.charts) c.setWidths(this.axis.curves.map(([key]) => (key === this.v.div ? 3.5 : 1.75)));
  }

  renderCurves() {
    const meta = this.sweepMeta;
    const a = this.axis;
    if (!meta) return;
    const xs = a.xs.filter((x) => this.sweep.has(`${x}|1`));
    for (const { stat, c } of this.charts) {
      c.setData([xs, ...a.curves.map(([key]) => xs.map((x) => this.sweep.get(`${x}|${key}`)?.stats[stat].mean ?? null))]);
      // The custom curve only while the reader has chosen it; the axis's own (ssmax) once it has its divisor.
      c.show(CURVES.length, meta.custom !== null && this.v.div === 'custom');
      a.show?.(c, meta);
      c.setMarker(a.marker(this.v));
    }
    const p = { rows: int(meta.rows), m: int(meta.m), dk: int(meta.current ?? 1), n: int(meta.current ?? 2), done: int(meta.done + 1), total: int(a.xs.length) };
    this.curvesNote.textContent = t(a.text[NOTE], { ...p, dk: int(meta.dk) });
    this.progress.textContent = this.sweepError ? coreMessage(this.sweepError) : t(a.text[meta.done < a.xs.length ? PROGRESS : DONE], p);
    this.box.dataset.sweep = meta.done === a.xs.length ? 'done' : 'running';
    this.box.dataset.axis = a.key;
    this.renderLook();
    this.renderCurveTable();
    // Watched once the curves above it have their height (before, everything is near).
    if (!this.distWatched) {
      this.distWatched = true;
      // Its height, measured at 350-1000 px wide: its 4 charts in one column
      // on a phone (1900 px tall), else in 2 rows (1060); Chinese 12% less.
      // The window's width from a media query, not the slot's or innerWidth:
      // reading those here forces a layout of the whole page in this task (about
      // 100 ms of Lighthouse's TBT at 4x CPU); a media query needs none.
      this.distSlot.style.minHeight = `${(matchMedia('(max-width:600px)').matches ? 1900 : 1060) * (this.widgetLang === 'zh' ? 0.88 : 1)}px`;
      whenNear(this.distSlot, () => this.loadDist(), '0px');
    }
  }

  // On the d_k axis: the two curves at the dashed line (the computed d_k at or left of it; d_k 1 comes first).
  renderLook() {
    const x = this.axis.xs.findLast((x) => x <= this.v.dk && this.sweep.has(`${x}|1`));
    const mean = (key) => percent(this.sweep.get(`${x}|${key}`)?.stats.maxProb.mean);
    this.curvesLook.textContent = this.axis === DK_AXIS && x ? t('sat.look.curves', { dk: int(x), u: mean('1'), s: mean('sqrt') }) : '';
  }

  renderCurveTable() {
    const tb = this.curveTable;
    const meta = this.sweepMeta;
    tb.summary.textContent = t('widget.tableSummary');
    tb.title.textContent = meta ? t(this.axis.text[TABLE], { m: int(meta.m), dk: int(meta.dk), seed: int(meta.seed) }) : '';
    if (tb.details.open && meta) this.fillTable();
  }

  /** Fill the curves' table (saturation-curve-table.js, loaded when it is first opened). */
  fillTable() {
    if (this.tableCode) return this.tableCode.fill(this, STATS, fmtStat);
    this.tableLoading ??= import('./saturation-curve-table.js').then((m) => {
      this.tableCode = m;
      this.renderCurveTable();
    });
  }

  relabel() {
    this.labels.dkRange.textContent = t('sat.dkRange');
    this.labels.dkNumber.textContent = t('sat.dkNumber');
    this.labels.mRange.textContent = t('sat.mRange');
    this.labels.mNumber.textContent = t('sat.mNumber');
    this.legendEl.textContent = t('sat.divisor');
    for (const r of this.radios) r.label.textContent = t(`sat.div.${r.key}`);
    this.customLabel.textContent = t('sat.customLabel');
    this.custom.setAttribute('aria-label', t('sat.customLabel'));
    this.resample.textContent = t('sat.resample');
    this.lengthButton.textContent = t('sat.length');
    this.curvesHeading.textContent = t('sat.curvesHeading');
    this.axis.relabel?.();
    this.labelCharts();
    this.highlightCurves();
    this.renderNotices();
    this.renderControls();
    this.renderRow();
    this.renderCurves();
    this.dist?.relabel();
  }
}

function fmtStat(stat, x) {
  return stat === 'maxProb' ? percent(x) : stat === 'entropy' ? fixed(x, 3) : num(x, 4);
}

define('attn-saturation', AttnSaturation);
