// A diverged run's mark on a training chart (<attn-train-compare> and the
// lab's, pages/lab/charts.js), drawn through chart.js's overlay: a dashed rule
// in the run's colour at the step it diverged, and its label ("✕ 15") at the
// top, beside the rule on the side with room.
import { svgEl } from '../base/dom.js';

/** Clears g, then draws marks [{x, color, label}] (color: a palette name) in the overlay's frame f. */
export function divergenceMarks(g, f, marks) {
  g.replaceChildren();
  for (const m of marks) {
    if (!(m.x >= f.xLo && m.x <= f.xHi)) continue;
    const px = Math.round(f.sx(m.x)) + 0.5;
    const color = f.palette[m.color] ?? f.palette.fg;
    const right = px + 4 + 7.5 * m.label.length <= f.x1;  // about 7.5 px a character, bold at 12 px
    const text = svgEl('text', { x: right ? px + 4 : px - 4, y: f.y0 + 2, fill: color, 'font-weight': 700,
      'text-anchor': right ? 'start' : 'end', 'dominant-baseline': 'hanging' });
    text.textContent = m.label;
    g.append(svgEl('path', { d: `M${px},${f.y0}V${f.y1}`, fill: 'none', stroke: color, 'stroke-width': 1.5, 'stroke-dasharray': '4 3' }), text);
  }
}
