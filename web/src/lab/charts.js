// The comparison's line charts (uPlot, linear step axis): one line per run,
// its colour and dash pattern those of its divisor (lab.css --slot-*), the
// same in every chart. Each chart is a figure whose plot has role="img" and an
// accessible name; the numbers are in the data table under the charts.
import uPlot from 'uplot';
import { h } from '../dom.js';
import { num, powerOfTen } from '../format.js';
import { onSchemeChange, readColors } from '../colors.js';

const FONT = '12px system-ui, sans-serif';
// The metrics the charts show: core column, scale, fixed range.
export const CHARTS = [
  { key: 'loss', column: 'loss' },
  { key: 'accuracy', column: 'accuracy', range: [0, 1] },
  { key: 'gradWq', column: 'grad_wq', log: true },
  { key: 'gradWk', column: 'grad_wk', log: true },
  { key: 'entropy', column: 'attn_entropy', min0: true },
  { key: 'logitMax', column: 'logit_max_abs', log: true },
];
// Per-head traces (the core's max_logit_h0.., entropy_h0.. columns): a line per
// run and head, head 1 drawn wider. In their own grid, with their own class, so
// the six charts above stay what the page's tests count.
export const HEAD_CHARTS = [
  { key: 'logitHeads', perHead: 'max_logit_h', log: true },
  { key: 'entropyHeads', perHead: 'entropy_h', min0: true },
  // The mechanism of a run that cannot learn (trainer.h): where the weight
  // goes, which rows are frozen, and how far the Q/K gradient has fallen.
  { key: 'correctHeads', perHead: 'correct_h', range: [0, 1] },
  { key: 'frozenHeads', perHead: 'frozen_h', range: [0, 1] },
  { key: 'qkGradHeads', perHead: 'qk_grad_rel_h', log: true },
];

// The lines of a chart: one per run, or one per run and head.
function linesOf(spec, runs, heads) {
  if (!spec.perHead) return runs.map((run) => ({ run, column: spec.column, width: 2 }));
  return runs.flatMap((run) => Array.from({ length: heads }, (_, hd) => ({ run, column: `${spec.perHead}${hd}`, width: hd === 0 ? 2 : 1 })));
}

// Log charts plot log10 of the value on a linear axis, labelled in powers of
// ten: uPlot's own log axis cannot lay out ticks below about 1e-16, and the
// gradient norms of a saturated run go far lower (1e-32 at d_k = 256).
function logValues(_u, splits) {
  return (splits ?? []).map((v) => (v == null || !Number.isInteger(Math.round(v * 1e6) / 1e6) ? null : powerOfTen(Math.round(v))));
}

const NAMES = ['muted', 'line'];

// Linear tick labels as uPlot writes them, or as 8 × 10¹⁹ once they reach
// 10⁵ (a loss on its way to diverging), which fits the axis.
function linValues(_u, splits) {
  const big = (splits ?? []).some((v) => v != null && Math.abs(v) >= 1e5);
  return (splits ?? []).map((v) => (v == null ? null : big ? num(v, 2) : uPlot.fmtNum(v)));
}

// The y axis as wide as its longest label (at least 52 px): a run's loss
// before it diverges can reach 10⁶ and more, whose labels 52 px would cut.
function yAxisSize(u, values, axisIdx, cycleNum) {
  const axis = u.axes[axisIdx];
  if (cycleNum > 1) return axis._size;
  const longest = (values ?? []).reduce((a, v) => (v != null && String(v).length > a.length ? String(v) : a), '');
  u.ctx.font = axis.font?.[0] ?? FONT;
  return Math.max(52, Math.ceil(axis.ticks.size + axis.gap + u.ctx.measureText(longest).width / (devicePixelRatio || 1)));
}

// A diverged run's mark: a dashed vertical rule in its colour at the step it
// diverged, an ✕ and the step at its top; the sentence is under the plot.
function drawMarks(u, marks, palette) {
  const { ctx, bbox } = u;
  const px = devicePixelRatio || 1;
  ctx.save();
  ctx.font = `bold ${12 * px}px system-ui, sans-serif`;
  ctx.textBaseline = 'top';
  for (const m of marks) {
    const x = Math.round(u.valToPos(m.step, 'x', true));
    if (!(x >= bbox.left - 1 && x <= bbox.left + bbox.width + 1)) continue;
    const color = palette(`slot-${m.slot}`);
    ctx.strokeStyle = color;
    ctx.fillStyle = color;
    ctx.lineWidth = 1.5 * px;
    ctx.setLineDash([4 * px, 3 * px]);
    ctx.beginPath();
    ctx.moveTo(x, bbox.top);
    ctx.lineTo(x, bbox.top + bbox.height);
    ctx.stroke();
    const label = `✕ ${m.step}`;
    const w = ctx.measureText(label).width;
    // Beside the rule, on the side with room.
    ctx.fillText(label, x + 3 * px + w > bbox.left + bbox.width ? x - 3 * px - w : x + 3 * px, bbox.top + 2 * px);
  }
  ctx.restore();
}

function chart(spec, runs, lines) {
  const title = h('figcaption', { class: 'lab-chart-title', id: `lab-chart-${spec.key}-title` });
  const plot = h('div', { class: 'lab-chart-plot', role: 'img', 'aria-describedby': 'lab-data-summary' });
  const note = h('p', { class: spec.perHead ? 'lab-head-marks' : 'lab-chart-marks', hidden: true });
  const fig = h('figure', { class: spec.perHead ? 'lab-head-chart' : 'lab-chart', id: `lab-chart-${spec.key}`, dataset: { points: '0' } }, title, plot, note);
  let marks = [];  // [{step, slot, text}] of the diverged runs
  let name = '';
  // Colours as they apply where the chart is (a shadow root when embedded), read when placed.
  let colors = {};
  const palette = (name) => colors[name] ?? '#888888';
  const names = [...NAMES, ...runs.map((r) => `slot-${r.slot}`)];
  const opts = {
    width: 300,
    height: 190,
    legend: { show: false },
    cursor: { show: false },
    scales: {
      x: { time: false },
      y: spec.log ? { range: (_u, min, max) => [Math.floor(min), Math.max(Math.ceil(max), Math.floor(min) + 1)] }
        : spec.range ? { range: spec.range } : spec.min0
        ? { range: (_u, _min, max) => [0, max > 0 ? max * 1.05 : 1] } : {},
    },
    axes: [
      { stroke: () => palette('muted'), font: FONT, size: 30, grid: { stroke: () => palette('line'), width: 1 },
        ticks: { stroke: () => palette('line') } },
      { stroke: () => palette('muted'), font: FONT, size: yAxisSize, grid: { stroke: () => palette('line'), width: 1 },
        ticks: { stroke: () => palette('line') }, ...(spec.log ? { values: logValues, incrs: [1, 2, 3, 4, 5, 10, 20, 50] } : { values: linValues }) },
    ],
    hooks: { draw: [(u) => drawMarks(u, marks, palette)] },
    series: [{}, ...lines.map(({ run: r, width }) => ({
      stroke: () => palette(`slot-${r.slot}`), width, points: { show: false }, spanGaps: false,
      ...(r.dash ? { dash: r.dash } : {}),
    }))],
  };
  const u = new uPlot(opts, [[], ...lines.map(() => [])], plot);
  const refreshColors = () => {
    if (!fig.isConnected) return;
    colors = readColors(fig, names);
    u.redraw(false, true);
  };
  const offScheme = onSchemeChange(refreshColors);
  // A widget whose theme attribute changed asks its figures to recolour (element.js).
  fig.addEventListener('attn-recolor', refreshColors);
  let placed = false;
  const ro = new ResizeObserver(() => {
    if (!placed && fig.isConnected) {
      placed = true;
      refreshColors();
    }
    const w = Math.floor(plot.clientWidth);
    if (w > 0 && w !== u.width) u.setSize({ width: w, height: opts.height });
  });
  ro.observe(plot);
  let hasData = false;
  return {
    fig, spec, lines,
    setData(data) {
      const n = data[0].length;
      fig.dataset.points = String(n);
      // The points each line draws (a NaN or a non-positive value on a log chart is a gap, never 0).
      fig.dataset.drawn = data.slice(1).map((ys) => ys.filter((y) => y !== null).length).join(',');
      if (n === 0) return;
      // A log chart with no positive value yet has nothing to lay out: wait for one.
      if (spec.log && !data.slice(1).some((ys) => ys.some((y) => y !== null))) return;
      u.setData(data, true);
      hasData = true;
    },
    setLabels(text, accessibleName) {
      title.textContent = text;
      name = accessibleName;
      plot.setAttribute('aria-label', [name, ...marks.map((m) => m.name)].join(''));
    },
    /** The diverged runs' marks ([{step, slot, text, name}]); redrawn if they changed. */
    setMarks(next) {
      const key = (ms) => ms.map((m) => `${m.step}|${m.slot}|${m.text}`).join(',');
      if (key(next) === key(marks)) return;
      marks = next;
      fig.dataset.diverged = marks.map((m) => m.step).join(',');
      note.hidden = marks.length === 0;
      note.replaceChildren(...marks.map((m) => h('span', { class: `slot-${m.slot}`, text: m.text })));
      plot.setAttribute('aria-label', [name, ...marks.map((m) => m.name)].join(''));
      if (hasData) u.redraw(false, false);
    },
    get hasData() {
      return hasData;
    },
    refreshColors,
    uplot: u,
    destroy() {
      ro.disconnect();
      offScheme();
      u.destroy();
    },
  };
}

/**
 * The comparison's charts for `runs` ({slot, dash, data: {column: number[]}});
 * heads > 0 adds the per-head charts (HEAD_CHARTS), a line per run and head.
 * @returns {{el, update(), setLabels(fn), destroy()}}
 */
export function createCharts(runs, { markText = () => ({ text: '', name: '' }), heads = 0 } = {}) {
  const specs = heads > 0 ? [...CHARTS, ...HEAD_CHARTS] : CHARTS;
  const charts = specs.map((spec) => chart(spec, runs, linesOf(spec, runs, heads)));
  // markText(run) -> {text, name}: the sentence under each chart and in its accessible name.
  const setMarks = () => {
    const marks = runs.filter((r) => r.diverged).map((r) => ({ step: r.diverged, slot: r.slot, ...markText(r) }));
    for (const c of charts) c.setMarks(marks);
  };
  const el = h('div', {},
    h('div', { class: 'lab-charts' }, charts.filter((c) => !c.spec.perHead).map((c) => c.fig)),
    h('div', { class: 'lab-head-charts' }, charts.filter((c) => c.spec.perHead).map((c) => c.fig)));
  return {
    el,
    charts,
    /** Redraw from the runs' data: x is the longest run's logged steps (all runs log at the same steps). */
    update() {
      let longest = runs[0];
      for (const r of runs) if (r.data.step.length > longest.data.step.length) longest = r;
      const xs = longest.data.step;
      for (const c of charts) {
        const ys = c.lines.map(({ run: r, column }) => {
          const col = r.data[column] ?? [];
          const out = new Array(xs.length);
          for (let i = 0; i < xs.length; i++) {
            const v = i < col.length ? col[i] : null;
            out[i] = v === null || !Number.isFinite(v) || (c.spec.log && v <= 0) ? null : c.spec.log ? Math.log10(v) : v;
          }
          return out;
        });
        c.setData([xs.slice(), ...ys]);
      }
      setMarks();
    },
    /** labels(spec) -> [title, accessible name] */
    setLabels(labels) {
      setMarks();
      for (const c of charts) c.setLabels(...labels(c.spec));
    },
    destroy() {
      for (const c of charts) c.destroy();
    },
  };
}
