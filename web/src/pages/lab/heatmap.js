// A run's attention heatmap: the query's attention row over the 17 positions
// for the first few fixed examples (the core's attentionMaps(): the same
// examples in every run and at every capture), one row per example and head.
// The answer's position is outlined; a mark at the row's end says whether
// the model's prediction was right at that step. Drawn on a canvas (colours
// from the stylesheet); its numbers are in a table beside it.
import { h } from '../../base/dom.js';
import { int } from '../../base/format.js';
import { onSchemeChange, readColors } from '../../base/colors.js';

export const SHOWN_EXAMPLES = 4;
const CELL = 14;
const LABEL_W = 40;
const MARK_W = 16;
const HEAD_H = 14;



// Any CSS colour as [r, g, b]: a 2D context normalises what it is given to #rrggbb.
const probe = document.createElement('canvas').getContext('2d');
function rgb(color) {
  probe.fillStyle = '#808080';
  probe.fillStyle = color;
  const m = /^#([0-9a-f]{6})$/i.exec(probe.fillStyle);
  if (!m) return [128, 128, 128];
  const n = parseInt(m[1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** Fields of a map's labels (Int32Array: tok_a, tok_b [S x T], target, answer, predicted [S]). */
export function mapLabels(map) {
  const { examples: S, seq: T } = map.shape;
  const L = map.labels;
  return {
    target: L.subarray(2 * S * T, 2 * S * T + S),
    answer: L.subarray(2 * S * T + S, 2 * S * T + 2 * S),
    predicted: L.subarray(2 * S * T + 2 * S, 2 * S * T + 3 * S),
  };
}

/** Weight of example e, head hd, position t. */
export function weightAt(map, e, hd, t) {
  const { heads, seq } = map.shape;
  return map.weights[(e * heads + hd) * seq + t];
}

export function createHeatmap(id) {
  const canvas = h('canvas', { class: 'lab-heatmap', id, role: 'img' });
  let last = null;
  let colors = null;

  function draw(map) {
    last = map;
    if (!map) return;
    const { heads, seq } = map.shape;
    const examples = Math.min(SHOWN_EXAMPLES, map.shape.examples);
    const rows = examples * heads;
    const w = LABEL_W + seq * CELL + MARK_W;
    const hgt = HEAD_H + rows * CELL + (examples - 1) * 4;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(hgt * dpr);
    canvas.style.aspectRatio = `${w} / ${hgt}`;
    canvas.style.maxWidth = `${w}px`;
    const ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    // Colours as they apply where the canvas is (a shadow root when embedded),
    // kept once read in place until the scheme changes: a read right after
    // the charts' SVG changed would make the browser restyle it there and then.
    const c = colors ?? readColors(canvas.parentNode ?? document.documentElement, ['bg', 'lab-heat', 'fg', 'muted', 'line']);
    if (canvas.isConnected) colors = c;
    const bg = rgb(c.bg);
    const hot = rgb(c['lab-heat']);
    const fg = c.fg;
    const muted = c.muted;
    ctx.clearRect(0, 0, w, hgt);
    ctx.font = '10px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = muted;
    ctx.textAlign = 'center';
    for (const t of [0, 7, 15]) ctx.fillText(int(t + 1), LABEL_W + (t + 0.5) * CELL, HEAD_H / 2);
    ctx.fillText('q', LABEL_W + (seq - 0.5) * CELL, HEAD_H / 2);
    const { target, answer, predicted } = mapLabels(map);
    // A faint grid behind the cells, so a weight of 0 still shows its cell.
    ctx.fillStyle = c.line;
    for (let e = 0; e < examples; e++)
      ctx.fillRect(LABEL_W - 1, HEAD_H + e * heads * CELL + e * 4 - 1, seq * CELL + 1, heads * CELL + 1);
    for (let e = 0; e < examples; e++) {
      for (let hd = 0; hd < heads; hd++) {
        const y = HEAD_H + (e * heads + hd) * CELL + e * 4;
        ctx.fillStyle = muted;
        ctx.textAlign = 'left';
        ctx.fillText(`${int(e + 1)}·h${int(hd + 1)}`, 2, y + CELL / 2);
        for (let t = 0; t < seq; t++) {
          const a = Math.min(1, Math.max(0, weightAt(map, e, hd, t)));
          const c = bg.map((b, i) => Math.round(b + (hot[i] - b) * a));
          ctx.fillStyle = `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
          ctx.fillRect(LABEL_W + t * CELL, y, CELL - 1, CELL - 1);
        }
        ctx.strokeStyle = fg;
        ctx.lineWidth = 1.5;
        ctx.strokeRect(LABEL_W + answer[e] * CELL + 0.75, y + 0.75, CELL - 2.5, CELL - 2.5);
      }
      const y = HEAD_H + e * heads * CELL + e * 4 + (heads * CELL) / 2;
      ctx.fillStyle = fg;
      ctx.textAlign = 'center';
      ctx.font = '12px system-ui, sans-serif';
      ctx.fillText(predicted[e] === target[e] ? '✓' : '✗', LABEL_W + seq * CELL + MARK_W / 2, y);
      ctx.font = '10px system-ui, sans-serif';
    }
  }

  return {
    el: canvas,
    draw,
    redraw: () => {
      colors = null;
      draw(last);
    },
    setName(name) {
      canvas.setAttribute('aria-label', name);
    },
  };
}

// Redraw every heatmap when the colour scheme changes.
const heatmaps = new Set();
// Held here: onSchemeChange keeps its callbacks weakly.
const redrawAll = () => {
  for (const m of heatmaps) m.redraw();
};
onSchemeChange(redrawAll);
export function track(m) {
  heatmaps.add(m);
  return () => heatmaps.delete(m);
}
