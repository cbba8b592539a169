// The comparison's line charts (uPlot, linear step axis): one line per run,
// its colour and dash pattern those of its divisor (lab.css --slot-*), the
// same in every chart, and its short name at the end of its line (told apart
// without colour, in both schemes). Each chart is a figure whose plot has
// role="img" and an accessible name, and a line under it saying what to look
// for; the numbers are in the data table under the charts. A log chart's
// floor (logFloor) keeps single steps whose gradient happens to be tiny
// (10⁻²⁰ and below) from squashing the fall the chart is there to show; they
// are drawn at the floor, and the line under the chart says so.
import uPlot from 'uplot';
import { h } from '../../base/dom.js';
import { num, powerOfTen } from '../../base/format.js';
import { onSchemeChange, readColors } from '../../base/colors.js';

const FONT = '12px system-ui, sans-serif';
// The metrics the charts show: core column, scale, fixed range.
export const CHARTS = [
  { key: 'loss', column: 'loss' },
  { key: 'accuracy', column: 'accuracy', range: [0, 1] },
  { key: 'gradWq', column: 'grad_wq', log: true, smooth: true },
  { key: 'gradWk', column: 'grad_wk', log: true, smooth: true },
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
  { key: 'qkGradHeads', perHead: 'qk_grad_rel_h', log: true, smooth: true },
];

// The lines of a chart: one per run, or one per run and head.
function linesOf(spec, runs, heads) {
  if (!spec.perHead) return runs.map((run) => ({ run, column: spec.column, width: 2, head: 0 }));
  return runs.flatMap((run) => Array.from({ length: heads }, (_, hd) => ({ run, column: `${spec.perHead}${hd}`, width: hd === 0 ? 2 : 1, head: hd })));
}

// The floor of a log chart (log10 units): a decade under the lowest running
// median (9 logged rows) of any line, so the trend shows and lone spikes down
// are cut, and at most DECADES under the chart's top (an unscaled run's
// gradient swings between 1 and 10⁻²⁰ from step to step: ten decades show its
// fall); null when no value lies under it.
const MEDIAN_WINDOW = 9;
const DECADES = 10;
export function logFloor(lines) {
  let low = Infinity;
  let min = Infinity;
  let max = -Infinity;
  for (const ys of lines) {
    const w = [];
    for (const y of ys) {
      if (y === null) continue;
      min = Math.min(min, y);
      max = Math.max(max, y);
      w.push(y);
      if (w.length > MEDIAN_WINDOW) w.shift();
      if (w.length === MEDIAN_WINDOW) low = Math.min(low, [...w].sort((a, b) => a - b)[MEDIAN_WINDOW >> 1]);
    }
    if (w.length && w.length < MEDIAN_WINDOW) low = Math.min(low, [...w].sort((a, b) => a - b)[w.length >> 1]);
  }
  const floor = Math.max(Math.floor(low) - 1, Math.ceil(max) - DECADES);
  return Number.isFinite(floor) && min < floor ? floor : null;
}

// A gradient of a saturated run swings by ten decades from one step to the
// next (a step whose batch has a row not yet frozen, then one without): its
// charts (spec.smooth) draw each point as the median of the last
// MEDIAN_WINDOW logged values (log10; a gap stays a gap), which shows the fall.
export function trailingMedian(ys) {
  const out = new Array(ys.length);
  const w = [];
  for (let i = 0; i < ys.length; i++) {
    if (ys[i] !== null) {
      w.push(ys[i]);
      if (w.length > MEDIAN_WINDOW) w.shift();
    }
    out[i] = ys[i] === null ? null : [...w].sort((a, b) => a - b)[w.length >> 1];
  }
  return out;
}

// Each run's short name at the right end of its first line, in its colour on
// a halo of the background, pushed apart where lines end close together.
function drawEndLabels(u, lines, labelOf, palette) {
  const { ctx, bbox } = u;
  const px = devicePixelRatio || 1;
  const items = [];
  lines.forEach((l, i) => {
    if (l.head > 0) return;
    const ys = u.data[i + 1];
    let j = ys.length - 1;
    while (j >= 0 && ys[j] == null) j--;
    if (j < 0) return;
    items.push({ text: labelOf(l.run), color: palette(`slot-${l.run.slot}`), x: u.valToPos(u.data[0][j], 'x', true), y: u.valToPos(ys[j], 'y', true) });
  });
  u.root.closest('figure').dataset.labels = items.map((it) => it.text).join(',');
  if (!items.length) return;
  ctx.save();
  ctx.font = `bold ${11 * px}px system-ui, sans-serif`;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'right';
  ctx.lineJoin = 'round';
  ctx.lineWidth = 3 * px;
  ctx.strokeStyle = palette('bg');
  const gap = 12 * px;
  items.sort((a, b) => a.y - b.y);
  const top = bbox.top + gap / 2;
  const bottom = bbox.top + bbox.height - gap / 2;
  for (let i = 0; i < items.length; i++) items[i].y = Math.max(items[i].y, i ? items[i - 1].y + gap : top);
  // Pushed past the bottom: shift the stack up as one.
  const over = items[items.length - 1].y - bottom;
  if (over > 0) for (const it of items) it.y -= over;
  for (const it of items) {
    const x = Math.min(it.x, bbox.left + bbox.width) - 4 * px;
    ctx.strokeText(it.text, x, it.y - 7 * px);
    ctx.fillStyle = it.color;
    ctx.fillText(it.text, x, it.y - 7 * px);
  }
  ctx.restore();
}

// Log charts plot log10 of the value on a linear axis, labelled in powers of
// ten: uPlot's own log axis cannot lay out ticks below about 1e-16, and the
// gradient norms of a saturated run go far lower (1e-32 at d_k = 256).
function logValues(_u, splits) {
  return (splits ?? []).map((v) => (v == null || !Number.isInteger(Math.round(v * 1e6) / 1e6) ? null : powerOfTen(Math.round(v))));
}

const NAMES = ['muted', 'line', 'bg'];

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

function chart(spec, runs, lines, labelOf) {
  const title = h('figcaption', { class: 'lab-chart-title', id: `lab-chart-${spec.key}-title` });
  const plot = h('div', { class: 'lab-chart-plot', role: 'img', 'aria-describedby': 'lab-data-summary' });
  const note = h('p', { class: spec.perHead ? 'lab-head-marks' : 'lab-chart-marks', hidden: true });
  const look = h('p', { class: 'lab-chart-look' });
  const floorNote = h('p', { class: 'lab-chart-floor', hidden: true });
  const fig = h('figure', { class: spec.perHead ? 'lab-head-chart' : 'lab-chart', id: `lab-chart-${spec.key}`, dataset: { points: '0' } }, title, plot, note, look, floorNote);
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
    hooks: { draw: [(u) => drawMarks(u, marks, palette), (u) => drawEndLabels(u, lines, labelOf, palette)] },
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
  // Off screen while the runs go, a chart keeps its newest data and draws it
  // when it comes into view: drawing takes the main thread from the workers.
  let visible = true;
  let pending = null;
  const apply = (data) => {
    pending = null;
    u.setData(data, true);
    hasData = true;
  };
  const io = new IntersectionObserver((entries) => {
    visible = entries.some((e) => e.isIntersecting);
    if (visible && pending) apply(pending);
  });
  io.observe(fig);
  return {
    fig, spec, lines,
    /** all: draw even off screen (a finished or paused comparison, a relabel). */
    setData(data, all = true) {
      const n = data[0].length;
      fig.dataset.points = String(n);
      // The points each line draws (a NaN or a non-positive value on a log chart is a gap, never 0).
      fig.dataset.drawn = data.slice(1).map((ys) => ys.filter((y) => y !== null).length).join(',');
      if (n === 0) return;
      // A log chart with no positive value yet has nothing to lay out: wait for one.
      if (spec.log && !data.slice(1).some((ys) => ys.some((y) => y !== null))) return;
      if (!visible && !all) pending = data;
      else apply(data);
    },
    /** The floor of a log chart (log10), null when nothing is cut; text: the sentence for it. */
    setFloor(floor, text) {
      fig.dataset.floor = floor === null ? '' : String(floor);
      floorNote.hidden = floor === null;
      floorNote.textContent = floor === null ? '' : text;
    },
    /** The title, the accessible name and the line saying what to look for. */
    setLabels(text, accessibleName, lookText = '') {
      title.textContent = text;
      look.textContent = lookText;
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
      io.disconnect();
      offScheme();
      u.destroy();
    },
  };
}

/**
 * The comparison's charts for `runs` ({slot, dash, data: {column: number[]}});
 * heads > 0 adds the per-head charts (HEAD_CHARTS), a line per run and head.
 * lineLabel(run): the short name at the end of its line; floorText(floor): the
 * sentence under a log chart whose floor (log10) cuts values.
 * @returns {{el, update(all?), setLabels(fn), destroy()}}
 */
export function createCharts(runs, { markText = () => ({ text: '', name: '' }), heads = 0, lineLabel = (r) => r.option, floorText = () => '' } = {}) {
  const specs = heads > 0 ? [...CHARTS, ...HEAD_CHARTS] : CHARTS;
  const charts = specs.map((spec) => chart(spec, runs, linesOf(spec, runs, heads), lineLabel));
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
    /**
     * Redraw from the runs' data: x is the longest run's logged steps (all runs
     * log at the same steps). all = false: charts off screen wait until seen.
     */
    update(all = true) {
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
        if (c.spec.smooth) for (let k = 0; k < ys.length; k++) ys[k] = trailingMedian(ys[k]);
        if (c.spec.log) {
          const floor = logFloor(ys);
          if (floor !== null) for (const col of ys) for (let i = 0; i < col.length; i++) if (col[i] !== null && col[i] < floor) col[i] = floor;
          c.setFloor(floor, floor === null ? '' : floorText(floor));
        }
        c.setData([xs.slice(), ...ys], all);
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
