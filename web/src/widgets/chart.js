// The project's one chart module, SVG (the widgets' and the training lab's,
// pages/lab/charts.js): log and linear axes, lines, points and bars, a dashed
// vertical marker (the current d_k), and width that follows the container.
// Colours are the stylesheet's custom properties as they resolve where the
// chart is (readColors: light, dark, a host's theme), written as presentation
// attributes: the CSP forbids style attributes, and an export needs concrete
// colours anyway. The plot has role="img" and an accessible name; its numbers
// are in a data table next to it (dom.js dataTable) and in the CSV, SVG and
// PNG exports (its menu, fig-menu.js).
import { h, svgEl } from '../base/dom.js';
import { fixed, logTick } from '../base/format.js';
import { onSchemeChange, readColors } from '../base/colors.js';
import { figMenu } from './fig-menu.js';

// The colours read: these, and each series' own (any custom property: 'c-sqrt', the lab's 'slot-one').
const NAMES = ['fg', 'muted', 'line', 'bg'];
const PAD_TOP = 8;
const PAD_RIGHT = 16;
const X_AXIS = 24; // below the plot: the x labels
const X_GAP = 38; // least space between log x labels ("4096" is 28 px wide), px
const X_GAP_LIN = 52;
const Y_GAP = 26;
const POINT_R = 3.5;

// A points series' marker, centred on (x, y): a circle unless the series
// brings its own (series.mark, e.g. saturation-dist.js's shapes).
const circle = (x, y) => `M${x - POINT_R},${y}a${POINT_R},${POINT_R} 0 1,0 ${2 * POINT_R},0a${POINT_R},${POINT_R} 0 1,0 ${-2 * POINT_R},0`;
const r1 = (v) => Math.round(v * 10) / 10; // path coordinates to 0.1 px: short strings
const finite = (v) => v !== null && v !== undefined && Number.isFinite(v);

/** [lo, hi] -> [a, b] pixels, linear or logarithmic (any base: the ratio is the same). */
function scale(lo, hi, a, b, log) {
  const f = log ? Math.log : (v) => v;
  const l = f(lo);
  const k = (b - a) / (f(hi) - l || 1);
  return (v) => a + (f(v) - l) * k;
}

/** Whole powers of `base` around [lo, hi]; labels every k-th power, k such that labels are `gap` px apart. */
function logAxis(lo, hi, base, px, gap, tick = logTick) {
  const lb = Math.log(base);
  const a = Math.floor(Math.log(lo) / lb + 1e-9);
  let b = Math.ceil(Math.log(hi) / lb - 1e-9);
  if (b <= a) b = a + 1;
  const per = px / (b - a);
  const k = [1, 2, 4, 6, 12, 24].find((s) => s * per >= gap) ?? b - a;
  const ticks = [];
  for (let e = a; e <= b; e++) ticks.push({ v: base ** e, label: e % k === 0 ? tick(base ** e) : null });
  return { lo: base ** a, hi: base ** b, ticks };
}

/** Nice ticks (1, 2, 2.5, 5 × 10ⁿ) for [lo, hi] over px pixels; `snap` widens the range to whole steps. */
function linAxis(lo, hi, px, gap, snap, fmt) {
  if (lo === hi) [lo, hi] = lo === 0 ? [0, 1] : [lo - Math.abs(lo) / 2, hi + Math.abs(hi) / 2];
  const raw = (hi - lo) / Math.max(1, Math.floor(px / gap));
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].find((m) => m * mag >= raw * (1 - 1e-9)) * mag;
  if (snap) [lo, hi] = [Math.floor(lo / step + 1e-9) * step, Math.ceil(hi / step - 1e-9) * step];
  const digits = Math.max(0, -Math.floor(Math.log10(step) + 1e-9) + (step / mag === 2.5 ? 1 : 0));
  const ticks = [];
  for (let i = Math.ceil(lo / step - 1e-9); i * step <= hi * (1 + 1e-12) + 1e-12; i++) {
    const v = +(i * step).toPrecision(12);
    ticks.push({ v, label: (fmt ?? fixed)(v, digits) });
  }
  return { lo, hi, ticks };
}

/** Smallest and largest finite value of the arrays (above 0 on a log axis). */
function extent(arrays, log) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const arr of arrays)
    for (const v of arr)
      if (finite(v) && (!log || v > 0)) {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
  return lo <= hi ? [lo, hi] : null;
}

/**
 * @param {object} o
 * @param {{label?: string, color: string, dash?: number[], kind?: 'line'|'points'|'bars', width?: number,
 *   shape?: string, mark?: (x: number, y: number) => string}[]} o.series
 *   color: a custom property's name ('c-sqrt', ...), read into the palette
 * @param {boolean} [o.xLog] log2 x axis   @param {boolean|number} [o.yLog] log y axis (10 or 2)
 * @param {[number, number]} [o.yRange] fixed y range   @param {[number, number]} [o.xRange] fixed x range
 * @param {number} [o.height]
 * @param {(v: number, digits: number) => string} [o.xFormat] tick labels for a linear x axis   @param [o.yFormat] for a linear y axis
 * @param {string} [o.xName] the x column's name in the CSV export (default "x")   @param {boolean} [o.menu] false: no ⋯ menu
 * @param {(g: SVGGElement, f: {x0, x1, y0, y1, xLo, xHi, sx, sy, palette}) => void} [o.overlay] draws into g after each draw
 */
export function createChart(o) {
  const H = o.height ?? 220;
  const yLog = o.yLog === true ? 10 : o.yLog || 0;
  // Colours as they apply where the chart is (read again when it is placed
  // and when the scheme or the widget's theme changes: refreshColors()).
  const names = NAMES.concat(o.series.map((s) => s.color));
  let palette = Object.fromEntries(names.map((n) => [n, '#888888']));
  let font = 'system-ui, sans-serif';
  // The figure holds a visible title and legend; the plot itself is the image.
  const caption = h('figcaption', { class: 'uchart-title' });
  const plot = h('div', { class: 'uchart-plot', role: 'img' });
  const legend = h('ul', { class: 'uchart-legend', 'aria-hidden': 'true' });
  const fig = h('figure', { class: 'uchart is-empty' }, caption, plot, legend);

  const root = svgEl('svg', { class: 'uchart-svg', height: H, 'font-size': 12, 'aria-hidden': 'true' });
  const grid = svgEl('path', { fill: 'none', 'stroke-width': 1 });
  const labels = svgEl('g');
  const paths = o.series.map((s) => {
    const kind = s.kind ?? 'line';
    // Square (default) caps: a dash pattern such as ÷1's [2, 4] stays dotted (round caps lengthen every dash).
    const p = svgEl('path', kind === 'line' ? { fill: 'none', 'stroke-linejoin': 'round' } : {});
    if (s.dash) p.setAttribute('stroke-dasharray', s.dash.join(' '));
    return p;
  });
  const markerPath = svgEl('path', { fill: 'none', 'stroke-width': 1.5, 'stroke-dasharray': '4 3' });
  // What a widget draws over the plot itself (o.overlay: the training comparison's divergence marks).
  const overlay = svgEl('g');
  root.append(grid, labels, ...paths, markerPath, overlay);
  plot.append(root);

  const widths = o.series.map((s) => s.width ?? 2);
  const shown = o.series.map(() => true);
  let legendLabels = o.series.map((s) => s.label ?? '');
  let data = null; // the last non-empty [xs, ...ys]
  let marker = null;
  let W = 0;
  let xs = null; // the current x scale (the marker reuses it)
  let frame = null; // {x0, x1, y0, y1, xLo, xHi}
  let axesKey = '';

  function draw() {
    if (!data || W <= 0) return;
    const [x, ...ys] = data;
    const visible = ys.filter((_, i) => shown[i]);
    const bars = o.series.some((s, i) => s.kind === 'bars' && shown[i]);
    const y0 = PAD_TOP;
    const y1 = H - X_AXIS;
    // y: fixed, or the visible series' extent (bars from 0)
    let ye = o.yRange ?? extent(visible, yLog) ?? [yLog ? 1 : 0, 1];
    if (bars && !yLog) ye = [Math.min(0, ye[0]), Math.max(0, ye[1])];
    const ya = yLog ? logAxis(ye[0], ye[1], yLog, y1 - y0, Y_GAP, o.yTick) : linAxis(ye[0], ye[1], y1 - y0, Y_GAP * 1.5, !o.yRange, o.yFormat);
    // The y labels' width sets the left margin (7 px a character is enough at 12 px).
    const x0 = Math.max(28, 10 + 7 * Math.max(0, ...ya.ticks.map((t) => (t.label ?? '').length)));
    const x1 = W - PAD_RIGHT;
    // x: fixed, or the data's extent; bars get half a bin either side
    let xe = o.xRange ?? extent([x], o.xLog) ?? [1, 2];
    let bin = 0;
    if (bars && x.length > 1) {
      bin = (x[x.length - 1] - x[0]) / (x.length - 1);
      if (!o.xRange) xe = [xe[0] - bin / 2, xe[1] + bin / 2];
    }
    const xa = o.xLog ? logAxis(xe[0], xe[1], 2, x1 - x0, X_GAP) : linAxis(xe[0], xe[1], x1 - x0, X_GAP_LIN, false, o.xFormat);
    const sx = scale(xa.lo, xa.hi, x0, x1, o.xLog);
    const sy = scale(ya.lo, ya.hi, y1, y0, yLog);
    xs = sx;
    frame = { x0, x1, y0, y1, xLo: Math.min(xa.lo, xa.hi), xHi: Math.max(xa.lo, xa.hi) };

    // Grid and labels change only with the scales: rebuilt then, not on every update.
    const key = [W, H, palette.line, palette.muted, xa.lo, xa.hi, ya.lo, ya.hi, ...xa.ticks.map((t) => t.label), ...ya.ticks.map((t) => t.label)].join('|');
    if (key !== axesKey) {
      axesKey = key;
      let d = '';
      const texts = [];
      const text = (label, attrs) => {
        const el = svgEl('text', attrs);
        el.textContent = label;
        texts.push(el);
      };
      for (const t of xa.ticks) {
        const px = Math.round(sx(t.v)) + 0.5;
        if (px < x0 - 1 || px > x1 + 1) continue;
        d += `M${px},${y0}V${y1 + (t.label === null ? 0 : 4)}`;
        if (t.label !== null) text(t.label, { x: px, y: y1 + 7, 'text-anchor': 'middle', 'dominant-baseline': 'hanging' });
      }
      for (const t of ya.ticks) {
        const py = Math.round(sy(t.v)) + 0.5;
        if (py < y0 - 1 || py > y1 + 1) continue;
        d += `M${x0 - (t.label === null ? 0 : 4)},${py}H${x1}`;
        if (t.label !== null) text(t.label, { x: x0 - 7, y: py, 'text-anchor': 'end', 'dominant-baseline': 'middle' });
      }
      grid.setAttribute('d', d);
      grid.setAttribute('stroke', palette.line);
      labels.setAttribute('fill', palette.muted);
      labels.replaceChildren(...texts);
    }

    ys.forEach((col, i) => {
      const s = o.series[i];
      const p = paths[i];
      const color = palette[s.color];
      if (!shown[i]) {
        p.setAttribute('display', 'none');
        return;
      }
      p.removeAttribute('display');
      let d = '';
      if (s.kind === 'bars') {
        const w = Math.max(1, Math.abs(sx(x[0] + bin) - sx(x[0])) - 1);
        const base = yLog ? y1 : sy(0);
        col.forEach((v, j) => {
          if (finite(v)) d += `M${r1(sx(x[j]) - w / 2)},${r1(sy(v))}h${r1(w)}V${r1(base)}h${r1(-w)}Z`;
        });
        p.setAttribute('fill', color);
      } else if (s.kind === 'points') {
        const mark = s.mark ?? circle;
        col.forEach((v, j) => {
          if (finite(v) && (!yLog || v > 0)) d += mark(r1(sx(x[j])), r1(sy(v)));
        });
        p.setAttribute('fill', color);
        p.setAttribute('stroke', color);
        p.setAttribute('stroke-width', 1);
      } else {
        let pen = 'M';
        col.forEach((v, j) => {
          if (finite(v) && (!yLog || v > 0)) {
            d += `${pen}${r1(sx(x[j]))},${r1(sy(v))}`;
            pen = 'L';
          } else pen = 'M'; // a gap
        });
        p.setAttribute('stroke', color);
        p.setAttribute('stroke-width', widths[i]);
      }
      p.setAttribute('d', d);
    });
    drawMarker();
    o.overlay?.(overlay, { ...frame, sx, sy, palette });
  }

  function drawMarker() {
    const f = frame;
    if (!f || !finite(marker) || marker < f.xLo || marker > f.xHi) {
      markerPath.setAttribute('display', 'none');
      return;
    }
    markerPath.removeAttribute('display');
    markerPath.setAttribute('d', `M${Math.round(xs(marker))},${f.y0}V${f.y1}`);
    markerPath.setAttribute('stroke', palette.fg);
  }

  const refreshColors = () => {
    if (!fig.isConnected) return;
    palette = readColors(fig, names);
    font = getComputedStyle(fig).fontFamily || font;
    root.setAttribute('font-family', font);
    draw();
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
    if (w > 0 && w !== W) {
      W = w;
      root.setAttribute('width', W);
      root.setAttribute('viewBox', `0 0 ${W} ${H}`);
      draw();
    }
  });
  ro.observe(plot);

  // What an export draws and writes, read when the reader asks.
  const exporter = figMenu(fig, () => ({
    svg: root, width: W, height: H, palette, font,
    title: caption.textContent,
    keys: legend.hidden ? [] : o.series.map((s, i) => ({
      label: legendLabels[i], color: palette[s.color], kind: s.kind ?? 'line', dash: s.dash, width: widths[i],
    })).filter((_, i) => shown[i]),
    columns: data ? [{ name: o.xName ?? 'x', values: data[0] },
      ...data.slice(1).map((values, i) => ({ name: legendLabels[i], values })).filter((_, i) => shown[i])] : [],
  }));
  // menu: false, a page with its own exports (the lab's run cards).
  if (o.menu !== false) fig.append(exporter.el);

  return {
    el: fig,
    /** data: [xs, ys1, ys2, ...] (null for a gap) */
    setData(next) {
      // No data (a new sweep starting): keep the last picture, dimmed.
      const empty = next[0].length === 0;
      fig.classList.toggle('is-empty', empty);
      if (!empty) {
        data = next;
        draw();
      }
    },
    /** Draw a vertical dashed line at x (null: none). */
    setMarker(x) {
      marker = x;
      drawMarker();
    },
    /** Visible title, the plot's accessible name and the legend labels (after a language change). */
    setLabels(title, name, labels) {
      caption.textContent = title;
      plot.setAttribute('aria-label', name);
      legendLabels = labels;
      legend.replaceChildren(...o.series.map((s, i) => h('li', { class: `key key-${s.kind ?? 'line'} ${s.color}${s.dash ? ' dashed' : ''}${s.shape ? ` shape-${s.shape}` : ''}${shown[i] ? '' : ' off'}` },
        h('span', { class: 'swatch' }), labels[i])));
      legend.hidden = o.series.length < 2 && !o.legendAlways;
      exporter.relabel();
    },
    /** Line widths of the series, in CSS pixels (the chosen one drawn thicker). */
    setWidths(next) {
      next.forEach((w, i) => (widths[i] = w));
      draw();
    },
    /** Show or hide a series (1-based, after the x values). */
    show(i, on) {
      if (shown[i - 1] === on) return;
      shown[i - 1] = on;
      legend.children[i - 1]?.classList.toggle('off', !on);
      draw();
    },
    /** Read the colours again (the widget's theme changed). */
    refreshColors,
    destroy() {
      ro.disconnect();
      offScheme();
    },
  };
}
