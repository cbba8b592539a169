// The sweep's learning-rate axis: the list of rates the reader types
// (parseLrList) and the chart of final held-out loss against the rate, on a
// log axis, one line per divisor (lrChart). Every number the chart draws is
// also in the sweep's table, its text alternative. The rates' range is the
// core's to check (sweep.js asks it), so its own message reaches the reader.
import { h, svgEl } from '../../base/dom.js';
import { num } from '../../base/format.js';
import { numberText } from '../../base/number-text.js';

// A browser sweep trains each cell once per rate; a dozen rates is already
// several times the default grid.
export const MAX_LRS = 12;

/**
 * The rates of a list ("1e-3, 1e-2,0.1"): {lrs: null} when empty or "auto"
 * (each optimiser's reference rate, as before), {lrs: [numbers]}, or
 * {error: {key, params}} for an empty item, text that is not a number, a rate
 * given twice (compared as numbers: 0.01 and 1e-2 are the same), or more than
 * MAX_LRS items.
 */
export function parseLrList(text) {
  const s = String(text).trim();
  if (s === '' || s.toLowerCase() === 'auto') return { lrs: null };
  const items = s.split(',').map((x) => x.trim());
  if (items.length > MAX_LRS) return { error: { key: 'lab.sw.err.lrMany', params: { max: MAX_LRS, n: items.length } } };
  const lrs = [];
  for (const item of items) {
    if (item === '') return { error: { key: 'lab.sw.err.lrEmpty', params: {} } };
    const x = numberText(item);
    const shown = item.length > 40 ? `${item.slice(0, 40)}…` : item;
    if (!Number.isFinite(x)) return { error: { key: 'lab.sw.err.lrNumber', params: { item: shown } } };
    if (lrs.includes(x)) return { error: { key: 'lab.sw.err.lrTwice', params: { item: shown } } };
    lrs.push(x);
  }
  return { lrs };
}

const W = 480, H = 250;
const M = { left: 52, right: 14, top: 16, bottom: 46 };

/** Round-ish upper end of the loss axis and its tick step. */
function lossAxis(max) {
  const top = max > 0 ? max * 1.08 : 1;
  const raw = top / 4;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * p).find((s) => s >= raw);
  return { top: Math.ceil(top / step) * step, step };
}

/**
 * A figure: final loss against learning rate for one optimiser and d_k.
 * series: [{label, slot, dash, points: [{lr, loss (null if none), diverged (step or 0)}]}];
 * text: {title, x, y, diverged, summary(label, points) -> string}.
 * The plot is role="img", named by its title and a sentence per line; the
 * numbers are in the table `tableId`.
 */
export function lrChart({ lrs, series, text, tableId }) {
  const xs = [...lrs].sort((a, b) => a - b);
  const lx = (lr) => Math.log10(lr);
  const x0 = lx(xs[0]), x1 = lx(xs[xs.length - 1]);
  const pad = x1 > x0 ? (x1 - x0) * 0.06 : 0.5;
  const px = (lr) => M.left + ((lx(lr) - (x0 - pad)) / (x1 - x0 + 2 * pad)) * (W - M.left - M.right);
  const losses = series.flatMap((s) => s.points.map((p) => p.loss)).filter((v) => Number.isFinite(v));
  const { top, step } = lossAxis(Math.max(0, ...losses));
  const py = (v) => H - M.bottom - (v / top) * (H - M.top - M.bottom);
  const svg = svgEl('svg', { viewBox: `0 0 ${W} ${H}`, class: 'lab-lr-svg', 'aria-hidden': 'true' });
  const axis = svgEl('g', { class: 'lab-lr-axis' });
  axis.append(svgEl('path', { d: `M${M.left},${M.top}V${H - M.bottom}H${W - M.right}`, fill: 'none' }));
  for (let v = 0; v <= top + step / 2; v += step) {
    const y = py(v);
    axis.append(svgEl('path', { d: `M${M.left - 4},${y}H${W - M.right}`, class: 'grid' }));
    const label = svgEl('text', { x: M.left - 7, y: y + 4, 'text-anchor': 'end' });
    label.textContent = num(v, 3);
    axis.append(label);
  }
  for (const lr of xs) {
    const x = px(lr);
    axis.append(svgEl('path', { d: `M${x},${H - M.bottom}v4` }));
    const label = svgEl('text', { x, y: H - M.bottom + 16, 'text-anchor': 'middle' });
    label.textContent = num(lr, 3);
    axis.append(label);
  }
  const xTitle = svgEl('text', { x: (M.left + W - M.right) / 2, y: H - 6, 'text-anchor': 'middle', class: 'title' });
  xTitle.textContent = text.x;
  const yTitle = svgEl('text', { x: 12, y: (M.top + H - M.bottom) / 2, 'text-anchor': 'middle', class: 'title',
    transform: `rotate(-90 12 ${(M.top + H - M.bottom) / 2})` });
  yTitle.textContent = text.y;
  axis.append(xTitle, yTitle);
  svg.append(axis);
  series.forEach((s, si) => {
    const g = svgEl('g', { class: `lab-lr-line slot-${s.slot}` });
    const pts = [...s.points].sort((a, b) => a.lr - b.lr);
    // A line through consecutive rates that trained; a gap where one did not.
    let d = '';
    let pen = false;
    for (const p of pts) {
      if (Number.isFinite(p.loss)) {
        d += `${pen ? 'L' : 'M'}${px(p.lr).toFixed(1)},${py(p.loss).toFixed(1)}`;
        pen = true;
      } else pen = false;
    }
    if (d) g.append(svgEl('path', { d, fill: 'none', 'stroke-width': 2, ...(s.dash ? { 'stroke-dasharray': s.dash.join(' ') } : {}) }));
    for (const p of pts) {
      if (Number.isFinite(p.loss)) g.append(svgEl('circle', { cx: px(p.lr).toFixed(1), cy: py(p.loss).toFixed(1), r: 3.5 }));
      else if (p.diverged) {
        // A diverged cell has no held-out loss: an ✕ at the top of the plot, one row per divisor.
        const mark = svgEl('text', { x: px(p.lr).toFixed(1), y: M.top + 4 + 12 * si, 'text-anchor': 'middle', class: 'cross' });
        mark.textContent = '✕';
        g.append(mark);
      }
    }
    svg.append(g);
  });
  const name = [text.title, ...series.map((s) => text.summary(s.label, s.points))].join(' ');
  const plot = h('div', { class: 'lab-lr-plot', role: 'img', 'aria-label': name, 'aria-describedby': tableId }, svg);
  const legend = h('p', { class: 'lab-lr-legend' }, text.legend ?? '');
  return h('figure', { class: 'lab-lr-chart' }, h('figcaption', { text: text.title }), plot, legend);
}
