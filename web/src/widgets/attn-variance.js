// <attn-variance>: why the dot product grows. A Monte Carlo histogram of q·k
// at the chosen d_k with the normal densities over it, and, against d_k on
// log–log axes, the measured Var(q·k) and Var(q·k / √d_k) with the lines
// Var = d_k and Var = 1; a second chart shows the typical size of the scaled
// score for c = √d_k and c = d_k. Sliders for σ_q, σ_k and the q–k
// correlation ρ show where the seed's assumption (mean 0, variance 1,
// independent) breaks. All sampling is the core's QkSampler, in the worker.
//
// Attributes (element.js options; a later change updates the widget): dk,
// sigma-q, sigma-k, rho, seed; url-state (e.g. "var"), id-prefix (default "var").
import { t } from '../base/i18n.js';
import { DASH, int, num } from '../base/format.js';
import { dataTable, fillTable, h, setFieldError } from '../base/dom.js';
import { mathNodes, setMath } from './math-text.js';
import { parseNumber } from '../base/parse.js';
import { randomSeed, readState, writeState } from '../base/state.js';
import { AttnElement, coreMessage, define, timed } from './element.js';
import { createChart } from './chart.js';
import { DK_LOG2_MAX, OPTIONS, SPECS } from './variance-options.js';
import './variance-strings.js';

// A legend's labels with their math (σ_q in the closed forms' keys); chart.js writes them as text.
const mathLegend = (c) => c.el.querySelectorAll('.uchart-legend li').forEach((li) => li.lastChild.replaceWith(...mathNodes(li.lastChild.data)));

const SWEEP_DKS = Array.from({ length: DK_LOG2_MAX + 1 }, (_, i) => 2 ** i);
const BINS = 48;
// Budgets in normal draws (2 per dimension per sample, about 20 ns each).
const BATCH = 2e6; // one histogram batch, ≲ 40 ms
const HIST_TOTAL = 3e7; // the histogram's whole run
const POINT = 4e6; // one d_k point of the variance sweep, ≲ 80 ms

const SLIDERS = [
  ['sq', 0.1, 3, 0.05],
  ['sk', 0.1, 3, 0.05],
  ['rho', -1, 1, 0.05],
];

const log2Clamp = (x) => String(Math.min(DK_LOG2_MAX, Math.max(0, Math.round(Math.log2(x)))));
const samplesFor = (budget, dk, lo, hi) => Math.max(lo, Math.min(hi, Math.round(budget / (2 * dk))));
/** E[X²] from a sample's mean and unbiased variance. */
const meanSquare = (mean, v, n) => v * (n - 1) / n + mean * mean;

class AttnVariance extends AttnElement {
  defaultIdPrefix = 'var';

  static options = OPTIONS;

  build() {
    const specs = Object.fromEntries(Object.entries(SPECS).map(([k, s]) => [k, { ...s, def: this.v[k] ?? s.def }]));
    const { values, notices } = readState(this.statePrefix, specs);
    this.v = values;
    this.hist = null;
    this.histGen = 0;
    this.sweepGen = 0;
    this.sweep = new Map();
    this.sessionId = null;

    const I = (s) => this.id_(s);
    this.dkRange = h('input', { type: 'range', id: I('dk-range'), min: 0, max: DK_LOG2_MAX, step: 1 });
    this.dkNumber = h('input', { type: 'text', id: I('dk-number'), inputmode: 'numeric', autocomplete: 'off', size: 6, 'aria-describedby': I('dk-msg') });
    this.dkMsg = h('p', { id: I('dk-msg'), class: 'msg', 'aria-live': 'polite' });
    this.dkOutput = h('output', { id: I('dk-output') });
    this.dkLabels = [h('label', { for: this.dkRange.id }), h('label', { for: this.dkNumber.id })];
    this.sliders = SLIDERS.map(([key, min, max, step]) => {
      const input = h('input', { type: 'range', id: I(key), min, max, step });
      const label = h('label', { for: input.id });
      const out = h('output', { id: I(`${key}-output`), for: input.id });
      input.addEventListener('input', () => {
        this.v[key] = Number(input.value);
        this.changed({ sweep: true });
      });
      return { key, input, label, out, wrap: h('div', { class: 'field field-range field-small' }, h('div', { class: 'range-head' }, label, out), input) };
    });
    this.resetBtn = h('button', { type: 'button', id: I('reset') });
    this.resample = h('button', { type: 'button', id: I('resample') });
    this.seedText = h('span', { class: 'seed', id: I('seed') });

    const controls = h('div', { class: 'controls' },
      h('div', { class: 'field field-range' }, h('div', { class: 'range-head' }, this.dkLabels[0], this.dkOutput), this.dkRange),
      h('div', { class: 'field field-dk' }, this.dkLabels[1], this.dkNumber, this.dkMsg),
      this.sliders.map((s) => s.wrap),
      h('div', { class: 'field field-seed' }, this.resetBtn, this.resample, this.seedText));

    this.histChart = createChart({
      height: 220, legendAlways: true, xName: 'q·k (bin centre)',
      xFormat: (x) => num(x, 3),
      series: [{ color: 'c-hist', kind: 'bars' }, { color: 'c-theory', width: 2.5 }, { color: 'c-seed', dash: [6, 4], width: 2 }],
    });
    this.histChart.el.id = I('hist-chart');
    this.readout = h('p', { class: 'readout var-readout', id: I('readout'), 'aria-live': 'off' });
    this.histNote = h('p', { class: 'note', id: I('hist-note'), hidden: true });
    // What to look at in each figure, from the numbers it shows (renderHist, renderSweep).
    this.histLook = h('p', { class: 'note look', id: I('hist-look') });
    this.sweepLook = h('p', { class: 'note look', id: I('sweep-look') });
    this.histTable = dataTable(I('hist-table'));
    this.histTable.details.addEventListener('toggle', () => this.renderHistTable());

    this.sweepChart = createChart({
      height: 240, xLog: true, yLog: 2, xName: 'd_k',
      series: [
        { color: 'c-unscaled', kind: 'points' }, { color: 'c-unscaled', dash: [2, 3], width: 1.5 },
        { color: 'c-theory', width: 1.5 }, { color: 'c-sqrt', kind: 'points' }, { color: 'c-sqrt', dash: [2, 3], width: 1.5 },
      ],
    });
    this.sweepChart.el.id = I('sweep-chart');
    this.sizeChart = createChart({
      height: 200, xLog: true, yLog: 2, xName: 'd_k',
      series: [{ color: 'c-sqrt', width: 2.5 }, { color: 'c-dk', dash: [8, 4], width: 2.5 }],
    });
    this.sizeChart.el.id = I('size-chart');
    this.sweepNote = h('p', { class: 'note' });
    this.sweepTable = dataTable(I('sweep-table'));
    this.sweepTable.details.addEventListener('toggle', () => this.renderSweepTable());
    this.progress = h('p', { class: 'progress', role: 'status', id: I('progress') });

    this.root.append(this.noticeBox(notices), controls,
      h('div', { class: 'charts charts-wide' },
        h('div', {}, this.histChart.el, this.histLook, this.readout, this.histNote, this.histTable.details),
        h('div', {}, this.sweepChart.el, this.sweepLook, this.sizeChart.el)),
      this.sweepNote, this.progress, this.sweepTable.details);

    this.dkRange.addEventListener('input', () => timed('var.input', () => {
      this.v.dk = 2 ** Number(this.dkRange.value);
      this.dkNumber.value = String(this.v.dk);
      this.dkError = null;
      this.changed({});
    }));
    this.dkNumber.addEventListener('input', () => {
      const r = parseNumber(this.dkNumber.value);
      this.dkError = r.error ?? (!Number.isInteger(r.value) || r.value < 1 || r.value > 4096 ? { key: 'var.err.dkRange' } : null);
      if (!this.dkError) {
        this.v.dk = r.value;
        this.dkRange.value = log2Clamp(r.value);
        this.changed({});
      } else this.renderControls();
    });
    this.resetBtn.addEventListener('click', () => {
      Object.assign(this.v, { sq: 1, sk: 1, rho: 0 });
      this.syncInputs();
      this.changed({ sweep: true });
    });
    this.resample.addEventListener('click', () => {
      this.v.seed = randomSeed();
      this.changed({ sweep: true });
    });

    this.syncInputs();
    this.runHist();
    this.runSweep();
  }

  syncInputs() {
    this.dkNumber.value = String(this.v.dk);
    this.dkRange.value = log2Clamp(this.v.dk);
    for (const s of this.sliders) s.input.value = String(this.v[s.key]);
  }

  optionChanged(key) {
    this.dkError = null;
    this.syncInputs();
    this.changed({ sweep: key !== 'dk' });
  }

  // Left the document: both Monte Carlo loops stop at their next batch and the
  // histogram's session is closed; back in it, they start again.
  stopWork() {
    this.histGen++;
    this.sweepGen++;
    if (this.sessionId !== null) this.client.call('qkClose', [this.sessionId]).catch(() => {});
    this.sessionId = null;
  }

  resumeWork() {
    this.runHist();
    this.runSweep();
  }

  state() {
    return { dk: this.v.dk, sigmaQ: this.v.sq, sigmaK: this.v.sk, rho: this.v.rho, seed: this.v.seed };
  }

  changed({ sweep = false }) {
    writeState(this.statePrefix, this.v);
    this.announce(this.state());
    this.renderControls();
    this.runHist();
    if (sweep) this.runSweep();
  }

  opts(dk) {
    return { dk, rho: this.v.rho, sigmaQ: this.v.sq, sigmaK: this.v.sk };
  }

  // The histogram: one QkSession, drawn in batches; each batch redraws.
  async runHist() {
    const gen = ++this.histGen;
    const dk = this.v.dk;
    const seed = this.v.seed;
    const old = this.sessionId;
    this.sessionId = null;
    if (old !== null) this.client.call('qkClose', [old]).catch(() => {});
    let id;
    try {
      const c = await this.client.call('resolveDivisor', ['sqrt', dk]);
      id = await this.client.call('qkOpen', [{ ...this.opts(dk), divisor: c.value, seed, bins: BINS }]);
    } catch (e) {
      if (gen === this.histGen) this.showError(e);
      return;
    }
    if (gen !== this.histGen) {
      this.client.call('qkClose', [id]).catch(() => {});
      return;
    }
    this.sessionId = id;
    const total = samplesFor(HIST_TOTAL, dk, 2000, 200000);
    const batch = Math.max(1, Math.floor(BATCH / (2 * dk)));
    let drawn = 0;
    while (drawn < total) {
      const n = Math.min(batch, total - drawn);
      let r;
      try {
        r = await this.client.call('qkDraw', [id, n]);
      } catch (e) {
        if (gen === this.histGen) this.showError(e);
        return;
      }
      if (gen !== this.histGen) return;
      drawn += n;
      this.hist = { dk, seed, ...this.paramsNow(), ...r };
      this.error = null;
      this.drawSeen(() => timed('var.render', () => this.renderHist()), drawn >= total);
    }
    this.box.dataset.hist = 'done';
  }

  paramsNow() {
    return { sq: this.v.sq, sk: this.v.sk, rho: this.v.rho };
  }

  // Var(q·k) against d_k: one coarse core call per point.
  async runSweep() {
    const gen = ++this.sweepGen;
    this.sweep = new Map();
    this.sweepMeta = { seed: this.v.seed, ...this.paramsNow(), done: 0 };
    this.box.dataset.sweep = 'running';
    for (const [i, dk] of SWEEP_DKS.entries()) {
      const n = samplesFor(POINT, dk, 400, 20000);
      let s;
      try {
        const c = await this.client.call('resolveDivisor', ['sqrt', dk]);
        s = await this.client.call('qkSummary', [{ ...this.opts(dk), divisor: c.value, seed: (this.v.seed * 8191 + i) % 2 ** 53 }, n]);
      } catch (e) {
        if (gen === this.sweepGen) this.showError(e);
        return;
      }
      if (gen !== this.sweepGen) return;
      this.sweep.set(dk, s);
      this.sweepMeta.done = i + 1;
      this.drawSeen(() => timed('var.render', () => this.renderSweep()), i === SWEEP_DKS.length - 1);
    }
    this.box.dataset.sweep = 'done';
  }

  showError(e) {
    this.error = e;
    this.renderControls();
  }

  renderControls() {
    const err = this.dkError ? t(this.dkError.key, this.dkError.params) : this.error ? coreMessage(this.error) : '';
    setFieldError(this.dkNumber, this.dkMsg, err);
    this.dkOutput.textContent = `dₖ = ${int(this.v.dk)}`;
    this.dkRange.setAttribute('aria-valuetext', `dₖ = ${int(2 ** Number(this.dkRange.value))}`);
    for (const s of this.sliders) {
      s.out.textContent = num(this.v[s.key], 3);
      s.input.setAttribute('aria-valuetext', `${s.key === 'rho' ? 'ρ' : s.key === 'sq' ? 'σ_q' : 'σ_k'} = ${num(this.v[s.key], 3)}`);
    }
    this.seedText.textContent = t('var.seed', { seed: int(this.v.seed) });
  }

  renderHist() {
    const r = this.hist;
    const c = this.histChart;
    c.setLabels(t('var.histTitle', { dk: int(r ? r.dk : this.v.dk) }),
      t('var.histName', { dk: int(r ? r.dk : this.v.dk), n: int(r ? r.summary.samples : 0) }),
      [t('var.key.hist'), t('var.key.theory'), t('var.key.seed')]);
    mathLegend(c);
    if (!r) return;
    const s = r.summary;
    const bins = r.histogram.length;
    const width = (s.histHi - s.histLo) / bins;
    // The seed's curve, N(0, d_k), is drawn whole: empty bins widen the axis to
    // ±3√d_k where the samples lie elsewhere (ρ near ±1, σ ≠ 1), rather than
    // show its tail as a spike at the edge; the note says why it is off.
    const sd = Math.sqrt(r.dk);
    const pad = (gap) => Math.min(2 * bins, Math.max(0, Math.ceil(gap / width)));
    const left = pad(s.histLo + 3 * sd);
    const xs = Array.from({ length: left + bins + pad(3 * sd - s.histHi) }, (_, b) => s.histLo + (b - left + 0.5) * width);
    const counts = xs.map((_, b) => r.histogram[b - left] ?? 0);
    // Densities scaled to expected counts per bin: N · width · pdf(x).
    const pdf = (x, mu, v) => Math.exp(-((x - mu) ** 2) / (2 * v)) / Math.sqrt(2 * Math.PI * v);
    const k = s.samples * width;
    c.setData([xs, counts, xs.map((x) => k * pdf(x, s.theoryMean, s.theoryVar)), xs.map((x) => k * pdf(x, 0, r.dk))]);
    const ratio = s.theoryVar / r.dk;
    this.histNote.hidden = Math.abs(s.theoryMean) <= 0.5 * sd && ratio >= 0.5 && ratio <= 2;
    setMath(this.histNote, this.histNote.hidden ? '' : t('var.offNote', { tmean: num(s.theoryMean, 3), tvar: num(s.theoryVar, 3), dk: int(r.dk) }));
    this.readout.textContent = t('var.readout', {
      n: int(s.samples), mean: num(s.mean, 4), tmean: num(s.theoryMean, 4), var: num(s.var, 4),
      se: num(s.varStderr, 2), tvar: num(s.theoryVar, 4), svar: num(s.scaledVar, 4),
    });
    this.histLook.textContent = t('var.look.hist', {
      dk: int(r.dk), lo: num(s.histLo, 3), hi: num(s.histHi, 3), sd: num(Math.sqrt(s.var), 3), root: num(sd, 3) });
    this.readout.dataset.var = s.var;
    this.readout.dataset.theoryVar = s.theoryVar;
    this.readout.dataset.mean = s.mean;
    this.readout.dataset.theoryMean = s.theoryMean;
    this.readout.dataset.samples = s.samples;
    this.renderHistTable();
  }

  renderHistTable() {
    const tb = this.histTable;
    const r = this.hist;
    tb.summary.textContent = t('widget.tableSummary');
    setMath(tb.title, r ? t('var.histTable', { dk: int(r.dk), sq: num(r.sq, 3), sk: num(r.sk, 3), rho: num(r.rho, 3), seed: int(r.seed) }) : '');
    if (!tb.details.open || !r) return;
    const s = r.summary;
    const w = (s.histHi - s.histLo) / r.histogram.length;
    fillTable(tb, [t('var.col.from'), t('var.col.to'), t('var.col.count')],
      Array.from(r.histogram, (cnt, b) => [num(s.histLo + b * w, 4), num(s.histLo + (b + 1) * w, 4), int(cnt)]));
  }

  renderSweep() {
    const xs = SWEEP_DKS.filter((dk) => this.sweep.has(dk));
    const col = (f) => xs.map((dk) => f(this.sweep.get(dk), dk));
    this.sweepChart.setData([xs, col((s) => s.var), col((_, dk) => dk), col((s) => s.theoryVar), col((s) => s.scaledVar), col(() => 1)]);
    this.sizeChart.setData([xs,
      col((s) => Math.sqrt(meanSquare(s.scaledMean, s.scaledVar, s.samples))),
      col((s, dk) => Math.sqrt(meanSquare(s.mean / dk, s.var / (dk * dk), s.samples)))]);
    // The variance's two ends so far, and the range of the scaled one.
    const v = col((s) => s.var);
    const sv = col((s) => s.scaledVar);
    if (xs.length > 1) this.sweepLook.textContent = t('var.look.sweep', { a: int(xs[0]), b: int(xs.at(-1)), va: num(v[0], 3), vb: num(v.at(-1), 3),
      lo: num(Math.min(...sv), 3), hi: num(Math.max(...sv), 3) });
    const m = this.sweepMeta;
    this.progress.textContent = m.done < SWEEP_DKS.length ? `${int(m.done)} / ${int(SWEEP_DKS.length)}` : '';
    this.renderSweepTable();
  }

  renderSweepTable() {
    const tb = this.sweepTable;
    const m = this.sweepMeta;
    tb.summary.textContent = t('widget.tableSummary');
    setMath(tb.title, m ? t('var.sweepTable', { sq: num(m.sq, 3), sk: num(m.sk, 3), rho: num(m.rho, 3), seed: int(m.seed) }) : '');
    if (!tb.details.open || !m) return;
    fillTable(tb, ['dk', 'samples', 'mean', 'var', 'theoryVar', 'svar', 'rmsSqrt', 'rmsDk'].map((k) => t(`var.col.${k}`)), []);
    tb.body.replaceChildren(...SWEEP_DKS.filter((dk) => this.sweep.has(dk)).map((dk) => {
      const s = this.sweep.get(dk);
      return h('tr', { dataset: { dk, var: s.var, scaledVar: s.scaledVar, theoryVar: s.theoryVar } },
        h('th', { scope: 'row', text: int(dk) }),
        ...[int(s.samples), num(s.mean, 4), `${num(s.var, 4)} ± ${num(s.varStderr, 2)}`, num(s.theoryVar, 4), num(s.scaledVar, 4),
          num(Math.sqrt(meanSquare(s.scaledMean, s.scaledVar, s.samples)), 4),
          num(Math.sqrt(meanSquare(s.mean / dk, s.var / (dk * dk), s.samples)), 4)].map((x) => h('td', { text: x })));
    }));
  }

  relabel() {
    this.dkLabels[0].textContent = t('var.dkRange');
    this.dkLabels[1].textContent = t('var.dkNumber');
    for (const s of this.sliders) setMath(s.label, t(`var.${s.key}`));
    this.resetBtn.textContent = t('var.reset');
    this.resample.textContent = t('var.resample');
    this.sweepChart.setLabels(t('var.sweepTitle'), t('var.sweepName'),
      ['var', 'lineDk', 'theoryVar', 'svar', 'line1'].map((k) => t(`var.key.${k}`)));
    mathLegend(this.sweepChart);
    this.sizeChart.setLabels(t('var.sizeTitle'), t('var.sizeName'), [t('var.key.sizeSqrt'), t('var.key.sizeDk')]);
    this.sweepNote.textContent = t('var.sweepNote', { samples: int(samplesFor(POINT, 1, 400, 20000)), few: int(samplesFor(POINT, 4096, 400, 20000)) });
    this.renderNotices();
    this.renderControls();
    this.renderHist();
    if (this.sweepMeta) this.renderSweep();
  }
}

define('attn-variance', AttnVariance);
