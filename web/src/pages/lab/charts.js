// The comparison's line charts (the widgets' SVG charts, widgets/chart.js;
// linear step axis): one line per run, its colour and dash pattern those of
// its divisor (lab.css --slot-*), the same in every chart, and its short name
// at the end of its line (told apart without colour, in both schemes). Each
// chart is a figure whose plot has role="img" and an accessible name, and a
// line under it saying what to look for; the numbers are in the data table
// under the charts. A log chart's floor (logFloor) keeps single steps whose
// gradient happens to be tiny (10⁻²⁰ and below) from squashing the fall the
// chart is there to show; they are drawn at the floor, and the line under the
// chart says so. What only the lab draws (end labels, floors, thinning; the
// divergence marks are widgets/divergence-marks.js, as <attn-train-compare>'s)
// is here, not in chart.js, which every widget carries.
import { h, svgEl } from '../../base/dom.js';
import { fixed, num, powerOfTen } from '../../base/format.js';
import { createChart } from '../../widgets/chart.js';
import { divergenceMarks } from '../../widgets/divergence-marks.js';

// The metrics the charts show: core column, scale, fixed range (min0: from 0
// to just above the top, not to the next round step).
export const CHARTS = [
  { key: 'loss', column: 'loss', min0: true },
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

// The floor of a log chart (the exponent of a power of ten; the lines hold the
// values themselves): a decade under the lowest running median (9 logged rows)
// of any line, so the trend shows and lone spikes down are cut, and at most
// DECADES under the chart's top (an unscaled run's gradient swings between 1
// and 10⁻²⁰ from step to step: ten decades show its fall); null when no value
// lies under it.
const MEDIAN_WINDOW = 9;
const DECADES = 10;
export function logFloor(lines) {
  let low = Infinity;
  let min = Infinity;
  let max = -Infinity;
  for (const ys of lines) {
    let last = null;
    let full = false;
    slidingMedians(ys, (y, median, n) => {
      min = Math.min(min, y);
      max = Math.max(max, y);
      if (n === MEDIAN_WINDOW) low = Math.min(low, median);
      last = median;
      full ||= n === MEDIAN_WINDOW;
    });
    // A line of fewer values than the window: the median of all of them.
    if (last !== null && !full) low = Math.min(low, last);
  }
  const floor = Math.max(Math.floor(Math.log10(low)) - 1, Math.ceil(Math.log10(max)) - DECADES);
  return Number.isFinite(floor) && Math.log10(min) < floor ? floor : null;
}

// fn(value, median, n) for each value of ys (gaps skipped): the median of the
// last n ≤ MEDIAN_WINDOW values, from a window kept sorted as it slides (a
// sort at every point was a third of a redraw's work).
function slidingMedians(ys, fn) {
  const w = [];  // the window, oldest first
  const s = [];  // the same values, sorted
  for (const y of ys) {
    if (y === null) continue;
    w.push(y);
    if (w.length > MEDIAN_WINDOW) s.splice(s.indexOf(w.shift()), 1);
    let j = 0;
    while (j < s.length && s[j] < y) j++;
    s.splice(j, 0, y);
    fn(y, s[s.length >> 1], s.length);
  }
}

// A gradient of a saturated run swings by ten decades from one step to the
// next (a step whose batch has a row not yet frozen, then one without): its
// charts (spec.smooth) draw each point as the median of the last
// MEDIAN_WINDOW logged values (a gap stays a gap), which shows the fall.
export function trailingMedian(ys) {
  const medians = [];
  slidingMedians(ys, (_y, median) => medians.push(median));
  let k = 0;
  return ys.map((y) => (y === null ? null : medians[k++]));
}

// A line of more points than twice its plot's pixel columns (1500 logged steps
// in a 300 px chart, redrawn five times a second while the runs go) keeps, in each
// column, its lowest and highest value in their order (a spike stays a spike)
// at the column's first and last step; a column without a value is a gap.
function thin(xs, ys, cols) {
  const n = xs.length;
  if (n <= 2 * cols) return [xs, ...ys];
  const k = cols / (xs[n - 1] - xs[0] || 1);
  const tx = [];
  const ty = ys.map(() => []);
  for (let i = 0; i < n;) {
    const col = Math.floor((xs[i] - xs[0]) * k);
    let j = i + 1;
    while (j < n && Math.floor((xs[j] - xs[0]) * k) === col) j++;
    tx.push(xs[i], xs[j - 1]);
    ys.forEach((y, l) => {
      let lo = -1;
      let hi = -1;
      for (let m = i; m < j; m++) {
        if (y[m] === null) continue;
        if (lo < 0 || y[m] < y[lo]) lo = m;
        if (hi < 0 || y[m] > y[hi]) hi = m;
      }
      ty[l].push(lo < 0 ? null : y[Math.min(lo, hi)], lo < 0 ? null : y[Math.max(lo, hi)]);
    });
    i = j;
  }
  return [tx, ...ty];
}

const r1 = (v) => Math.round(v * 10) / 10;

// Each run's short name at the right end of its first line, in its colour on
// a halo of the background, pushed apart where lines end close together.
function drawEndLabels(g, f, ends, fig, labelOf) {
  const items = ends.filter(Boolean).map((e) => ({ ...e, text: labelOf(e.run), y: f.sy(e.y) }));
  fig.dataset.labels = items.map((it) => it.text).join(',');
  if (!items.length) return;
  const gap = 12;
  items.sort((a, b) => a.y - b.y);
  for (let i = 0; i < items.length; i++) items[i].y = Math.max(items[i].y, i ? items[i - 1].y + gap : f.y0 + gap / 2);
  // Pushed past the bottom: shift the stack up as one.
  const over = items[items.length - 1].y - (f.y1 - gap / 2);
  for (const it of items) {
    const text = svgEl('text', {
      x: Math.min(f.sx(it.x), f.x1) - 4, y: r1(it.y - Math.max(0, over) - 7), fill: f.palette[`slot-${it.run.slot}`],
      stroke: f.palette.bg, 'stroke-width': 3, 'stroke-linejoin': 'round', 'paint-order': 'stroke',
      'font-size': 11, 'font-weight': 700, 'text-anchor': 'end', 'dominant-baseline': 'middle',
    });
    text.textContent = it.text;
    g.append(text);
  }
}

// Log tick labels as powers of ten (10⁻³²: the gradients of a saturated run
// fall that far); linear ones as 8 × 10¹⁹ once the axis reaches 10⁵ (a loss on
// its way to diverging), which fits the axis.
const logTick = (v) => powerOfTen(Math.round(Math.log10(v)));
// The smallest normal double: a value under it (a subnormal) has no power of ten the axis can reach.
const TINY = 2 ** -1022;

function chart(spec, lines, labelOf) {
  let marks = [];  // [{step, slot, text, name}] of the diverged runs
  let ends = [];   // each run's first line's last point: {x, y, run}
  let name = '';
  let big = false;
  let shown = null;  // the data drawn last (thinned)
  const o = {
    height: 190,
    menu: false,  // each run card has its CSV and JSON
    yLog: spec.log,
    yRange: spec.range,
    yTick: logTick,
    yFormat: (v, digits) => (big ? num(v, 2) : fixed(v, digits)),
    series: lines.map(({ run: r, width }) => ({ color: `slot-${r.slot}`, dash: r.dash, width })),
    overlay: (g, f) => {
      divergenceMarks(g, f, marks.map((m) => ({ x: m.step, color: `slot-${m.slot}`, label: `✕ ${m.step}` })));
      drawEndLabels(g, f, ends, fig, labelOf);
    },
  };
  const c = createChart(o);
  // chart.js's figure, as the lab's: no legend (the page has one above the charts).
  const fig = c.el;
  fig.querySelector('.uchart-legend').remove();
  const title = fig.querySelector('.uchart-title');
  const plot = fig.querySelector('.uchart-plot');
  title.classList.add('lab-chart-title');
  title.id = `lab-chart-${spec.key}-title`;
  plot.classList.add('lab-chart-plot');
  plot.setAttribute('aria-describedby', 'lab-data-summary');
  const note = h('p', { class: spec.perHead ? 'lab-head-marks' : 'lab-chart-marks', hidden: true });
  const look = h('p', { class: 'lab-chart-look' });
  const floorNote = h('p', { class: 'lab-chart-floor', hidden: true });
  fig.classList.add(spec.perHead ? 'lab-head-chart' : 'lab-chart');
  fig.id = `lab-chart-${spec.key}`;
  fig.dataset.points = '0';
  fig.append(note, look, floorNote);
  // The plot's width in pixels, for thinning (read here, not in each redraw: no forced layout).
  let cols = 300;
  const ro = new ResizeObserver(() => {
    cols = Math.max(50, Math.floor(plot.clientWidth));
  });
  ro.observe(plot);
  let hasData = false;
  // Off screen while the runs go, a chart keeps its newest data and draws it
  // when it comes into view: drawing takes the main thread from the workers.
  let visible = true;
  let pending = null;
  const apply = (data) => {
    pending = null;
    const [xs, ...ys] = data;
    ends = lines.map((l, i) => {
      if (l.head > 0) return null;
      let j = ys[i].length - 1;
      while (j >= 0 && ys[i][j] === null) j--;
      return j < 0 ? null : { x: xs[j], y: ys[i][j], run: l.run };
    });
    let max = 0;
    for (const col of ys) for (const v of col) if (v !== null && Math.abs(v) > max) max = Math.abs(v);
    big = max >= 1e5;
    if (spec.min0) o.yRange = [0, max > 0 ? max * 1.05 : 1];  // chart.js reads o at each draw
    shown = thin(xs, ys, cols);
    c.setData(shown);
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
      // Set only when it changed: a new text node at every redraw is layout work.
      if (floorNote.textContent !== (floor === null ? '' : text)) floorNote.textContent = floor === null ? '' : text;
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
      if (hasData) c.setData(shown);
    },
    get hasData() {
      return hasData;
    },
    refreshColors: c.refreshColors,
    destroy() {
      ro.disconnect();
      io.disconnect();
      c.destroy();
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
  const charts = specs.map((spec) => chart(spec, linesOf(spec, runs, heads), lineLabel));
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
        // A log chart's values as they are (its axis takes their log): 1e-40 plots, 0 and subnormals are gaps.
        const ys = c.lines.map(({ run: r, column }) => {
          const col = r.data[column] ?? [];
          const out = new Array(xs.length);
          for (let i = 0; i < xs.length; i++) {
            const v = i < col.length ? col[i] : null;
            out[i] = v === null || !Number.isFinite(v) || (c.spec.log && !(v >= TINY)) ? null : v;
          }
          return out;
        });
        if (c.spec.smooth) for (let k = 0; k < ys.length; k++) ys[k] = trailingMedian(ys[k]);
        if (c.spec.log) {
          const floor = logFloor(ys);
          const at = 10 ** floor;  // (1 when floor is null: unused)
          if (floor !== null) for (const col of ys) for (let i = 0; i < col.length; i++) if (col[i] !== null && col[i] < at) col[i] = at;
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
