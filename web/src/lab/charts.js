// The comparison's line charts (uPlot, linear step axis): one line per run,
// its colour and dash pattern those of its divisor (lab.css --slot-*), the
// same in every chart. Each chart is a figure whose plot has role="img" and an
// accessible name; the numbers are in the data table under the charts.
import uPlot from 'uplot';
import { h } from '../dom.js';
import { powerOfTen } from '../format.js';
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

// Log charts plot log10 of the value on a linear axis, labelled in powers of
// ten: uPlot's own log axis cannot lay out ticks below about 1e-16, and the
// gradient norms of a saturated run go far lower (1e-32 at d_k = 256).
function logValues(_u, splits) {
  return (splits ?? []).map((v) => (v == null || !Number.isInteger(Math.round(v * 1e6) / 1e6) ? null : powerOfTen(Math.round(v))));
}

const NAMES = ['muted', 'line'];

function chart(spec, runs) {
  const title = h('figcaption', { class: 'lab-chart-title', id: `lab-chart-${spec.key}-title` });
  const plot = h('div', { class: 'lab-chart-plot', role: 'img', 'aria-describedby': 'lab-data-summary' });
  const fig = h('figure', { class: 'lab-chart', id: `lab-chart-${spec.key}`, dataset: { points: '0' } }, title, plot);
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
      { stroke: () => palette('muted'), font: FONT, size: 52, grid: { stroke: () => palette('line'), width: 1 },
        ticks: { stroke: () => palette('line') }, ...(spec.log ? { values: logValues, incrs: [1, 2, 3, 4, 5, 10, 20, 50] } : {}) },
    ],
    series: [{}, ...runs.map((r) => ({
      stroke: () => palette(`slot-${r.slot}`), width: 2, points: { show: false }, spanGaps: false,
      ...(r.dash ? { dash: r.dash } : {}),
    }))],
  };
  const u = new uPlot(opts, [[], ...runs.map(() => [])], plot);
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
    fig, spec,
    setData(data) {
      const n = data[0].length;
      fig.dataset.points = String(n);
      if (n === 0) return;
      // A log chart with no positive value yet has nothing to lay out: wait for one.
      if (spec.log && !data.slice(1).some((ys) => ys.some((y) => y !== null))) return;
      u.setData(data, true);
      hasData = true;
    },
    setLabels(text, name) {
      title.textContent = text;
      plot.setAttribute('aria-label', name);
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
 * The comparison's charts for `runs` ({slot, dash, data: {column: number[]}}).
 * @returns {{el, update(), setLabels(fn), destroy()}}
 */
export function createCharts(runs) {
  const charts = CHARTS.map((spec) => chart(spec, runs));
  const el = h('div', { class: 'lab-charts' }, charts.map((c) => c.fig));
  return {
    el,
    charts,
    /** Redraw from the runs' data: x is the longest run's logged steps (all runs log at the same steps). */
    update() {
      let longest = runs[0];
      for (const r of runs) if (r.data.step.length > longest.data.step.length) longest = r;
      const xs = longest.data.step;
      for (const c of charts) {
        const ys = runs.map((r) => {
          const col = r.data[c.spec.column] ?? [];
          const out = new Array(xs.length);
          for (let i = 0; i < xs.length; i++) {
            const v = i < col.length ? col[i] : null;
            out[i] = v === null || !Number.isFinite(v) || (c.spec.log && v <= 0) ? null : c.spec.log ? Math.log10(v) : v;
          }
          return out;
        });
        c.setData([xs.slice(), ...ys]);
      }
    },
    /** labels(spec) -> [title, accessible name] */
    setLabels(labels) {
      for (const c of charts) c.setLabels(...labels(c.spec));
    },
    destroy() {
      for (const c of charts) c.destroy();
    },
  };
}
