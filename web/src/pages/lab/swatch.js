// A run's line sample, its colour and dash pattern (lab.css .slot-*), drawn
// beside its label wherever runs are listed: the form, the legend, the tables.
/** A small inline SVG line in the run's colour and dash: the legend's key. */
export function swatch(run) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('class', `swatch slot-${run.slot}`);
  svg.setAttribute('viewBox', '0 0 28 8');
  svg.setAttribute('width', '28');
  svg.setAttribute('height', '8');
  svg.setAttribute('aria-hidden', 'true');
  const line = document.createElementNS(ns, 'line');
  for (const [k, v] of Object.entries({ x1: 0, y1: 4, x2: 28, y2: 4, 'stroke-width': 3 })) line.setAttribute(k, v);
  if (run.dash) line.setAttribute('stroke-dasharray', run.dash.map((d) => d * 0.75).join(' '));
  svg.append(line);
  return svg;
}
