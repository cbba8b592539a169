// The saturation explorer's distribution view (issue 30): the mean Jacobian
// norm hides the rows, so against d_k: the median norm, the shares of rows
// whose norm and whose gradient to a key taken as the answer, p(1 − p), are
// below a threshold the reader sets; the norm against the scores' scale
// √d_k / c (not monotone: where each divisor puts each d_k); and a sentence
// computed from those numbers at the reader's d_k. The numbers are the core's
// (SaturationSession's histograms), from a sweep of its own in the presets'
// module (cpp/wasm/saturation_js.h): the same seeds and rows as the curves
// above, so the same means. Module, strings and wasm load when this view
// nears the screen, so an embedded widget's first load stays within its gzip
// budget (tests/browser/embed.test.mjs).
import { t } from '../base/i18n.js';
import { int, logTick, num, percent, powerOfTen } from '../base/format.js';
import { dataTable, fillTable, h } from '../base/dom.js';
import { createChart } from './chart.js';
import { coreMessage, embedding, timed } from './element.js';
import styles from './saturation-dist.css?inline';
import { createClient } from '../bridge/client.js';
import { SWEEP_DKS, curveDivisors, customDivisor, sweepPoints } from './saturation-sweep.js';
import './saturation-dist-strings.js';

const DIST = ['jacobianMedian', 'jacobianBelow', 'targetBelow'];
// The norm against the scale: one marker shape per divisor, told apart
// without colour (chart.js draws series.mark; style.css gives the legend's
// swatch the shape named by series.shape).
const R = 3.5;
const MARKS = {
  circle: (x, y) => `M${x - R},${y}a${R},${R} 0 1,0 ${2 * R},0a${R},${R} 0 1,0 ${-2 * R},0`,
  square: (x, y) => `M${x - R * 0.9},${y - R * 0.9}h${R * 1.8}v${R * 1.8}h${-R * 1.8}Z`,
  diamond: (x, y) => `M${x},${y - R * 1.3}l${R * 1.3},${R * 1.3}l${-R * 1.3},${R * 1.3}l${-R * 1.3},${-R * 1.3}Z`,
  triangle: (x, y) => `M${x},${y - R * 1.3}l${R * 1.3},${R * 2.2}h${-R * 2.6}Z`,
  cross: (x, y) => `M${x - R},${y - R}l${2 * R},${2 * R}m0,${-2 * R}l${-2 * R},${2 * R}`,
};
const SHAPES = { 1: 'square', 2: 'triangle', sqrt: 'circle', dk: 'diamond', custom: 'cross' };
export const THRESHOLDS = [1, 2, 3, 4, 5, 6, 7, 8];

/** 10⁻ᵏ as the page writes it. */
const thrText = (k) => `10⁻${'¹²³⁴⁵⁶⁷⁸'[k - 1]}`;

const distValue = (p, stat, thr) => (stat === 'jacobianMedian'
  ? (p.dist.jacobianMedian.estimate > 0 ? p.dist.jacobianMedian.estimate : null)
  : p.dist[stat][thr - 1]);

// satDraw's dist: [median estimate, lo, hi, p(1 − p) mean, se, then per
// k = 1 .. 8 the shares below 10⁻ᵏ of the norm and of p(1 − p)] (saturation_js.h).
const readDist = (x) => ({
  jacobianMedian: { estimate: x[0], lo: x[1], hi: x[2] },
  targetGrad: { mean: x[3], se: x[4] },
  jacobianBelow: THRESHOLDS.map((k) => x[5 + 2 * (k - 1)]),
  targetBelow: THRESHOLDS.map((k) => x[6 + 2 * (k - 1)]),
});

let client = null; // one presets-module worker for every widget on the page
let sheet = null;

// This view's stylesheet, in the widget's shadow root (an embed) or the document.
function adoptStyles(w) {
  sheet ??= embedding.sheet?.(styles) ?? new CSSStyleSheet();
  if (!embedding.sheet && !sheet.cssRules.length) sheet.replaceSync(styles);
  const target = w.shadowRoot ?? document;
  if (!target.adoptedStyleSheets.includes(sheet)) target.adoptedStyleSheets = [...target.adoptedStyleSheets, sheet];
}

// The median spans 40 decades: its ticks as 10⁻⁶, not 0.000001.
const tenTick = (v) => {
  const e = Math.round(Math.log10(v));
  return e < -2 || e > 3 ? powerOfTen(e) : logTick(v);
};

export class SaturationDist {
  /**
   * @param {object} w  the <attn-saturation> it belongs to: reads w.v (dk, div, c, m, seed, thr)
   *   and w.id_(); calls w.distThreshold(k) when the reader picks a threshold
   * @param {Array} curves  attn-saturation.js's CURVES: [key, spec, colour, dash]
   */
  constructor(w, curves) {
    adoptStyles(w);
    this.w = w;
    this.curves = curves;
    this.dks = SWEEP_DKS;
    this.sweep = new Map(); // `${dk}|${key}` -> {n, divisor, stats, dist}
    this.meta = null;
    this.gen = 0;
    const I = (s) => w.id_(s);
    this.heading = h('h3', { class: 'widget-h' });
    this.thrSelect = h('select', { id: I('thr') }, THRESHOLDS.map((k) => h('option', { value: String(k), text: thrText(k) })));
    this.thrLabel = h('label', { for: this.thrSelect.id });
    this.charts = DIST.map((stat) => {
      const c = createChart({
        xLog: true, height: 200, xName: 'd_k',
        yLog: stat === 'jacobianMedian' ? 10 : 0,
        yTick: tenTick,
        yRange: stat === 'jacobianMedian' ? undefined : [0, 1],
        series: curves.map(([, , color, dash]) => ({ color, dash })),
      });
      c.el.id = I(`chart-${stat}`);
      return { stat, c };
    });
    this.scaleChart = createChart({
      xLog: true, height: 220, xName: 'sqrt(d_k)/c',
      series: curves.map(([key, , color]) => ({ color, kind: 'points', shape: SHAPES[key], mark: MARKS[SHAPES[key]] })),
    });
    this.scaleChart.el.id = I('chart-scale');
    this.note = h('p', { class: 'note grad-note', id: I('grad-note'), 'aria-live': 'polite' });
    // The sentence's room from the start: an unseen copy of its longest form
    // under it, so it does not grow by eight lines when its numbers arrive.
    this.noteGhost = h('p', { class: 'note', 'aria-hidden': 'true' });
    this.table = dataTable(I('dist-table'));
    this.table.details.addEventListener('toggle', () => this.renderTable());
    this.el = h('div', { class: 'sat-dist' },
      this.heading,
      h('div', { class: 'controls' }, h('div', { class: 'field' }, this.thrLabel, this.thrSelect)),
      h('div', { class: 'curve-charts' }, this.charts.map((x) => x.c.el), this.scaleChart.el),
      h('div', { class: 'room-stack' }, this.note, this.noteGhost),
      this.table.details);
    this.thrSelect.addEventListener('change', () => w.distThreshold(Number(this.thrSelect.value)));
    this.restart();
  }

  /** The reader's m, seed or custom divisor changed (or the view opened): sweep again. */
  async restart() {
    const gen = ++this.gen;
    const { m, seed } = this.w.v;
    this.sweep = new Map();
    this.meta = { m, seed, custom: customDivisor(this.w.v.c), done: false, error: null };
    this.render();
    client ??= createClient('presets');
    try {
      await sweepPoints(client, {
        points: SWEEP_DKS.map((dk) => ({ x: dk, dk, m })), seed,
        divisorsAt: curveDivisors(this.w.client, this.curves, this.meta.custom), stale: () => gen !== this.gen,
        onChunk: (dk, i, used, res) => {
          res.stats.forEach((r, j) => this.sweep.set(`${dk}|${used[j].key}`,
            { n: res.rows, divisor: r.divisor, stats: { jacobianNorm: r.jacobianNorm }, dist: readDist(r.dist) }));
          this.w.drawSeen(() => this.renderSoon());
        },
      });
      if (gen !== this.gen) return;
      this.meta.done = true;
    } catch (e) {
      if (gen !== this.gen) return;
      this.meta.error = e;
    }
    this.el.dataset.sweep = this.meta.error ? 'error' : 'done';
    this.render();
  }

  // Its four charts, the sentence and the table redrawn for every chunk of rows
  // made long tasks of the page's layout (140 ms on a loaded 2-core machine,
  // while the reader drags the d_k slider above): at most four draws a second
  // while the sweep runs; its end draws at once (render()).
  renderSoon() {
    this.soon ??= setTimeout(() => timed('sat.dist', () => this.render()), 250);
  }

  /** The widget left the document: the sweep stops at its next chunk. */
  stop() {
    this.gen++;
  }

  relabel() {
    this.heading.textContent = t('satdist.distHeading');
    this.thrLabel.textContent = t('satdist.thrLabel');
    this.thrSelect.value = String(this.w.v.thr);
    const meta = this.meta;
    const labels = this.curves.map(([key]) => t(`sat.curveLabel.${key}`, { c: meta?.custom ? num(meta.custom, 6) : 'c' }));
    const thr = thrText(this.w.v.thr);
    for (const { stat, c } of this.charts) {
      const title = t(`satdist.chart.${stat}`, { thr });
      c.setLabels(title, t('sat.chartName', { title }), labels);
    }
    // The ghost: the sentence with numbers as wide as real ones, and its longest verdict.
    const v = { dk: int(this.w.v.dk), m: int(this.w.v.m), thr, label: t('sat.div.sqrt'), mean1: '0.000', median1: '0.00', rows1: '00%', target1: '00%', mean2: '0.000', median2: '0.00', rows2: '00%', target2: '00%' };
    this.noteGhost.textContent = `${t('satdist.gradNote', v)} ${['rows', 'target', 'none'].map((k) => t(`satdist.verdict.${k}`, v)).sort((a, b) => b.length - a.length)[0]}`;
    const title = t('satdist.chart.scale');
    this.scaleChart.setLabels(title, t('satdist.scaleName', { title }), labels);
    this.render();
  }

  /** Redraw from the widget's sweep (every point so far). */
  render() {
    clearTimeout(this.soon);
    this.soon = null;
    const w = this.w;
    const meta = this.meta;
    if (!meta) return;
    const xs = this.dks.filter((dk) => this.sweep.has(`${dk}|1`));
    const customShown = meta.custom !== null && w.v.div === 'custom';
    for (const { stat, c } of this.charts) {
      c.setData([xs, ...this.curves.map(([key]) => xs.map((dk) => {
        const p = this.sweep.get(`${dk}|${key}`);
        return p ? distValue(p, stat, w.v.thr) : null;
      }))]);
      c.show(this.curves.length, customShown);
    }
    // Every (d_k, divisor) point at its scale √d_k / c, the scores' standard
    // deviation after the divisor (|q| ≈ √d_k): the divisors' points fall on one curve.
    const byX = new Map();
    this.curves.forEach(([key], i) => {
      for (const dk of xs) {
        const p = this.sweep.get(`${dk}|${key}`);
        if (!p) continue;
        const x = Math.sqrt(dk) / p.divisor;
        if (!byX.has(x)) byX.set(x, this.curves.map(() => null));
        byX.get(x)[i] = p.stats.jacobianNorm.mean;
      }
    });
    const sx = [...byX.keys()].sort((a, b) => a - b);
    this.scaleChart.setData([sx, ...this.curves.map((_, i) => sx.map((x) => byX.get(x)[i]))]);
    this.scaleChart.show(this.curves.length, customShown);
    this.update();
    this.renderTable();
  }

  /** The reader's d_k or divisor moved: the markers and the sentence. */
  update() {
    const w = this.w;
    for (const { c } of this.charts) c.setMarker(w.v.dk);
    const mine = this.sweep.get(`${w.v.dk}|${w.v.div}`);
    this.scaleChart.setMarker(mine ? Math.sqrt(w.v.dk) / mine.divisor : null);
    this.renderNote();
  }

  // The sentence under the charts, from the points at the reader's d_k:
  // unscaled against the chosen divisor (√d_k when that is 1).
  renderNote() {
    const w = this.w;
    if (!this.meta) return;
    const dk = w.v.dk;
    const other = w.v.div === '1' ? 'sqrt' : w.v.div;
    const a = this.sweep.get(`${dk}|1`);
    const b = this.sweep.get(`${dk}|${other}`);
    const k = w.v.thr;
    this.note.dataset.dk = String(dk);
    if (!a || !b) {
      this.note.textContent = this.meta.error ? coreMessage(this.meta.error)
        : this.dks.includes(dk) ? t('satdist.gradPending', { dk: int(dk) }) : t('satdist.gradOffGrid', { dk: int(dk) });
      delete this.note.dataset.state;
      return;
    }
    const thr = thrText(k);
    const part = (p) => ({
      mean: num(p.stats.jacobianNorm.mean, 3),
      median: p.dist.jacobianMedian.estimate > 0 ? num(p.dist.jacobianMedian.estimate, 2) : t('satdist.belowLowest'),
      rows: percent(p.dist.jacobianBelow[k - 1]),
      target: percent(p.dist.targetBelow[k - 1]),
    });
    const pa = part(a);
    const pb = part(b);
    const label = other === 'custom' ? num(b.divisor, 6) : t(`sat.div.${other}`);
    // What holds here, from the unscaled numbers: most rows pass almost nothing;
    // or most rows pass gradient but a key taken as the answer gets almost none; or neither.
    const verdict = a.dist.jacobianBelow[k - 1] > 0.5 ? 'rows' : a.dist.targetBelow[k - 1] > 0.5 ? 'target' : 'none';
    this.note.dataset.state = verdict;
    this.note.textContent = `${t('satdist.gradNote', {
      dk: int(dk), m: int(this.meta.m), thr, label,
      mean1: pa.mean, median1: pa.median, rows1: pa.rows, target1: pa.target,
      mean2: pb.mean, median2: pb.median, rows2: pb.rows, target2: pb.target,
    })} ${t(`satdist.verdict.${verdict}`, { thr, mean1: pa.mean })}`;
  }

  renderTable() {
    const tb = this.table;
    const w = this.w;
    const meta = this.meta;
    tb.summary.textContent = t('widget.tableSummary');
    tb.title.textContent = meta ? t('satdist.table', { m: int(meta.m), seed: int(meta.seed) }) : '';
    if (!tb.details.open || !meta) return;
    const thr = thrText(w.v.thr);
    fillTable(tb, ['sat.col.dk', 'sat.col.divisor', 'sat.col.rows', 'sat.col.jacobianNorm', ...DIST.map((s) => `satdist.col.${s}`)].map((key) => t(key, { thr })), []);
    const rows = [];
    for (const dk of this.dks)
      for (const [key] of this.curves) {
        const p = this.sweep.get(`${dk}|${key}`);
        if (!p) continue;
        rows.push(h('tr', { dataset: { dk, div: key } },
          h('th', { scope: 'row', text: int(dk) }),
          h('td', { text: num(p.divisor, 6) }),
          h('td', { text: int(p.n) }),
          h('td', { dataset: { stat: 'jacobianNorm', value: p.stats.jacobianNorm.mean }, text: num(p.stats.jacobianNorm.mean, 4) }),
          ...DIST.map((s) => {
            const v = distValue(p, s, w.v.thr);
            return h('td', { dataset: { stat: s, value: v ?? 0 }, text: s === 'jacobianMedian' ? (v === null ? t('satdist.belowLowest') : num(v, 2)) : percent(v) });
          })));
      }
    tb.body.replaceChildren(...rows);
  }
}
