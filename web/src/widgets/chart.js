// uPlot, set up once for the page's charts: colours from the stylesheet's
// custom properties (so light and dark schemes both work, and switch live),
// log axes, a vertical marker (the current d_k), and width that follows the
// container. The chart is a figure with role="img" and an accessible name;
// its numbers are in a data table next to it (see dom.js dataTable).
import uPlot from 'uplot';
import { h } from '../dom.js';
import { logTick } from '../format.js';
import { onSchemeChange, readColors } from '../colors.js';

const NAMES = ['fg', 'muted', 'line', 'bg', 'c-unscaled', 'c-two', 'c-sqrt', 'c-dk', 'c-custom', 'c-hist', 'c-theory', 'c-seed'];

const FONT = '12px system-ui, sans-serif';

/** Log-axis tick labels: 1, 4, 16, ..., 4096 (or 0.01, 1, 100 for log10). */
function logValues(_u, splits) {
  // uPlot's log filter leaves null where a tick gets no label.
  return (splits ?? []).map((v) => (v == null ? null : logTick(v)));
}

/**
 * @param {object} o
 * @param {{label: string, color: string, dash?: number[], kind?: 'line'|'points'|'bars', width?: number}[]} o.series
 *   color: a palette name ('c-sqrt', ...)
 * @param {boolean} [o.xLog] log2 x axis   @param {boolean|number} [o.yLog] log y axis (10 or 2)
 * @param {[number, number]} [o.yRange] fixed y range
 * @param {number} [o.height]
 * @param {(x: number) => string} [o.xFormat] tick labels for a linear x axis
 */
export function createChart(o) {
  // Colours as they apply where the chart is (read again when it is placed
  // and when the scheme or the widget's theme changes: refreshColors()).
  let palette = Object.fromEntries(NAMES.map((n) => [n, '#888888']));
  // The figure holds a visible title and legend; the plot itself is the image.
  const caption = h('figcaption', { class: 'uchart-title' });
  const plot = h('div', { class: 'uchart-plot', role: 'img' });
  const legend = h('ul', { class: 'uchart-legend', 'aria-hidden': 'true' });
  const fig = h('figure', { class: 'uchart' }, caption, plot, legend);
  let marker = null;
  let empty = true;

  const yLog = o.yLog === true ? 10 : o.yLog || 0;
  const opts = {
    width: 300,
    height: o.height ?? 220,
    legend: { show: false },
    cursor: { show: false },
    scales: {
      x: { time: false, ...(o.xLog ? { distr: 3, log: 2 } : {}), ...(o.xRange ? { range: o.xRange } : {}) },
      y: { ...(yLog ? { distr: 3, log: yLog } : {}), ...(o.yRange ? { range: o.yRange } : {}) },
    },
    axes: [
      {
        stroke: () => palette.muted, font: FONT, size: 34,
        grid: { stroke: () => palette.line, width: 1 }, ticks: { stroke: () => palette.line },
        ...(o.xLog ? { values: logValues } : o.xFormat ? { values: (_u, s) => (s ?? []).map((v) => (v == null ? null : o.xFormat(v))) } : {}),
      },
      {
        stroke: () => palette.muted, font: FONT, size: 62,
        grid: { stroke: () => palette.line, width: 1 }, ticks: { stroke: () => palette.line },
        ...(yLog ? { values: logValues } : {}),
      },
    ],
    series: [{}, ...o.series.map((s) => seriesOpts(s, () => palette))],
    hooks: {
      draw: [(u) => {
        if (marker === null || !Number.isFinite(marker)) return;
        const x = Math.round(u.valToPos(marker, 'x', true));
        const { top, height } = u.bbox;
        const ctx = u.ctx;
        ctx.save();
        ctx.strokeStyle = palette.fg;
        ctx.lineWidth = 1.5 * devicePixelRatio;
        ctx.setLineDash([4 * devicePixelRatio, 3 * devicePixelRatio]);
        ctx.beginPath();
        ctx.moveTo(x, top);
        ctx.lineTo(x, top + height);
        ctx.stroke();
        ctx.restore();
      }],
    },
  };
  const noData = [[], ...o.series.map(() => [])];
  const u = new uPlot(opts, noData, plot);
  const refreshColors = () => {
    if (!fig.isConnected) return;
    palette = readColors(fig, NAMES);
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

  return {
    el: fig,
    /** data: [xs, ys1, ys2, ...] (null for a gap) */
    setData(data) {
      // uPlot cannot lay out a log axis with no data: keep the last picture, dimmed.
      empty = data[0].length === 0;
      fig.classList.toggle('is-empty', empty);
      if (!empty) u.setData(data, true);
    },
    /** Draw a vertical dashed line at x (null: none). */
    setMarker(x) {
      marker = x;
      if (!empty) u.redraw(false, false);
    },
    /** Visible title, the plot's accessible name and the legend labels (after a language change). */
    setLabels(title, name, labels) {
      caption.textContent = title;
      plot.setAttribute('aria-label', name);
      legend.replaceChildren(...o.series.map((s, i) => h('li', { class: `key key-${s.kind ?? 'line'} ${s.color}${s.dash ? ' dashed' : ''}` },
        h('span', { class: 'swatch' }), labels[i])));
      legend.hidden = o.series.length < 2 && !o.legendAlways;
    },
    /** Line widths of the series, in CSS pixels (the chosen one drawn thicker). */
    setWidths(widths) {
      widths.forEach((w, i) => {
        const s = u.series[i + 1];
        s.width = w;
      });
      if (!empty) u.redraw(true, false);
    },
    /** Show or hide a series (1-based like uPlot, after the x values). */
    show(i, on) {
      u.setSeries(i, { show: on });
      legend.children[i - 1]?.classList.toggle('off', !on);
    },
    /** Read the colours again (the widget's theme changed). */
    refreshColors,
    /** The uPlot instance (exports read its canvas and data). */
    uplot: u,
    destroy() {
      ro.disconnect();
      offScheme();
      u.destroy();
    },
  };
}

function seriesOpts(s, palette) {
  const color = () => palette()[s.color];
  const base = { label: s.label ?? '', stroke: color, width: s.width ?? 2, spanGaps: false };
  if (s.dash) base.dash = s.dash;
  if (s.kind === 'points')
    return { ...base, paths: () => null, points: { show: true, size: 7, stroke: color, fill: color, width: 1 } };
  if (s.kind === 'bars')
    return {
      ...base, width: 0, fill: color, points: { show: false },
      paths: uPlot.paths.bars({ size: [1, Infinity], gap: 1, align: 0 }),
    };
  return { ...base, points: { show: false } };
}
