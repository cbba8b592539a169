// A chart's export files, loaded on the first click of an export button
// (chart-export.js): PNG and SVG of the picture (with its legend drawn in, on
// the page's background) and CSV of its numbers. The SVG is the chart's own,
// cloned; its colours are already concrete (chart.js writes resolved
// colours). The PNG paints that same SVG tree with Canvas 2D (Path2D takes
// SVG path data), not through an <img> of a blob: URL, which a host page's
// img-src may forbid. Files download through <a download> and a blob: URL.
import { h, svgEl } from '../base/dom.js';

const KEY_ROW = 20; // legend row height in the exported picture, px
const SCALE = 2; // PNG pixels per CSS pixel

/** CSV: the x column then one per series; empty cell for a gap; RFC 4180 quoting. */
export function toCsv(columns) {
  const cell = (v) => (typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '')
    : v === null || v === undefined ? '' : /[",\r\n]/.test(v) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
  const n = Math.max(0, ...columns.map((c) => c.values.length));
  const lines = [columns.map((c) => cell(c.name)).join(',')];
  for (let j = 0; j < n; j++) lines.push(columns.map((c) => cell(c.values[j])).join(','));
  return lines.join('\r\n') + '\r\n';
}

let measurer = null;
function textWidth(text, font) {
  measurer ??= document.createElement('canvas').getContext('2d');
  measurer.font = `12px ${font}`;
  return measurer.measureText(text).width;
}

/**
 * How far the chart's drawing reaches past its box on each side ({top, right,
 * bottom, left}, px): an axis label at the top edge (the variance chart's
 * "20,000") or the side. The page shows it (overflow: visible); a picture must
 * take it in. The live SVG's bounding box, when it has one.
 */
function overhang(s) {
  let b = null;
  try {
    b = s.svg.getBBox();
  } catch {
    /* not rendered: nothing to measure */
  }
  if (!b || !b.width) return { top: 0, right: 0, bottom: 0, left: 0 };
  const out = (v) => (v > 0 ? Math.ceil(v) + 2 : 0);
  return { top: out(-b.y), right: out(b.x + b.width - s.width), bottom: out(b.y + b.height - s.height), left: out(-b.x) };
}

/** The exported picture: background, the chart's SVG (with what reaches past its box), then its legend as rows of keys below it. */
export function exportSvg(s) {
  const o = overhang(s);
  const width = s.width + o.left + o.right;
  const chartBottom = s.height + o.bottom;
  const items = s.keys.map((k) => ({ ...k, w: 24 + textWidth(k.label, s.font) }));
  const rows = [];
  let x = 8;
  for (const it of items) {
    if (!rows.length || x + it.w > width - 8) {
      rows.push([]);
      x = 8;
    }
    it.x = x - o.left;
    it.y = chartBottom + 4 + (rows.length - 1) * KEY_ROW + KEY_ROW / 2;
    rows.at(-1).push(it);
    x += it.w + 16;
  }
  const height = o.top + chartBottom + (rows.length ? rows.length * KEY_ROW + 8 : 0);
  // The chart keeps its own coordinates: the picture starts left of and above them by the overhang.
  const out = svgEl('svg', { width, height, viewBox: `${-o.left} ${-o.top} ${width} ${height}`,
    'font-family': s.font, 'font-size': 12 });
  const title = svgEl('title');
  title.textContent = s.title;
  out.append(title, svgEl('rect', { x: -o.left, y: -o.top, width, height, fill: s.palette.bg }));
  for (const n of s.svg.children) if (n.getAttribute('display') !== 'none') out.append(n.cloneNode(true));
  const keys = svgEl('g', { fill: s.palette.fg });
  for (const it of items) {
    const sw = it.kind === 'bars' ? svgEl('path', { d: `M${it.x},${it.y - 5}h12v10h-12Z`, fill: it.color })
      : it.kind === 'points' ? svgEl('path', { d: `M${it.x + 2.5},${it.y}a3.5,3.5 0 1,0 7,0a3.5,3.5 0 1,0 -7,0`, fill: it.color })
        : svgEl('path', { d: `M${it.x},${it.y}h18`, fill: 'none', stroke: it.color, 'stroke-width': Math.min(it.width, 3), ...(it.dash ? { 'stroke-dasharray': it.dash.join(' ') } : {}) });
    const label = svgEl('text', { x: it.x + 24, y: it.y, 'dominant-baseline': 'middle' });
    label.textContent = it.label;
    keys.append(sw, label);
  }
  out.append(keys);
  return out;
}

const INHERITED = ['fill', 'stroke', 'stroke-width', 'stroke-dasharray', 'stroke-linejoin', 'stroke-linecap', 'font-size', 'font-family', 'text-anchor', 'dominant-baseline'];
const ALIGN = { start: 'left', middle: 'center', end: 'right' };
const BASELINE = { middle: 'middle', central: 'middle', hanging: 'hanging' };

/** Paint the SVG tree exportSvg makes (g, rect, path, text) with Canvas 2D. */
function paint(ctx, node, inherited) {
  for (const el of node.children) {
    if (el.getAttribute('display') === 'none') continue;
    const a = { ...inherited };
    for (const k of INHERITED) if (el.hasAttribute(k)) a[k] = el.getAttribute(k);
    const num = (k) => Number(el.getAttribute(k) ?? 0);
    if (el.localName === 'g') paint(ctx, el, a);
    else if (el.localName === 'rect' || el.localName === 'path') {
      const p = new Path2D();
      if (el.localName === 'rect') p.rect(num('x'), num('y'), num('width'), num('height'));
      else p.addPath(new Path2D(el.getAttribute('d') ?? ''));
      if (a.fill !== 'none') {
        ctx.fillStyle = a.fill;
        ctx.fill(p);
      }
      if (a.stroke && a.stroke !== 'none') {
        ctx.strokeStyle = a.stroke;
        ctx.lineWidth = Number(a['stroke-width'] ?? 1);
        ctx.lineJoin = a['stroke-linejoin'] ?? 'miter';
        ctx.lineCap = a['stroke-linecap'] ?? 'butt';
        ctx.setLineDash(a['stroke-dasharray'] ? a['stroke-dasharray'].split(/[\s,]+/).map(Number) : []);
        ctx.stroke(p);
      }
    } else if (el.localName === 'text') {
      ctx.fillStyle = a.fill;
      ctx.font = `${a['font-size']}px ${a['font-family']}`;
      ctx.textAlign = ALIGN[a['text-anchor']] ?? 'left';
      ctx.textBaseline = BASELINE[a['dominant-baseline']] ?? 'alphabetic';
      ctx.fillText(el.textContent, num('x'), num('y'));
    }
  }
}

/** The exported picture as a PNG blob, at SCALE× (rejects if the canvas cannot encode). */
export function exportPng(svg) {
  const w = Number(svg.getAttribute('width'));
  const hgt = Number(svg.getAttribute('height'));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(w * SCALE);
  canvas.height = Math.round(hgt * SCALE);
  const ctx = canvas.getContext('2d');
  if (!ctx) return Promise.reject(new Error('no 2D canvas'));
  ctx.scale(SCALE, SCALE);
  // The viewBox may start left of and above 0 (exportSvg's overhang).
  const [vx = 0, vy = 0] = (svg.getAttribute('viewBox') ?? '').split(/\s+/).map(Number);
  ctx.translate(-vx || 0, -vy || 0);
  paint(ctx, svg, { fill: '#000', 'font-size': svg.getAttribute('font-size'), 'font-family': svg.getAttribute('font-family') });
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the canvas gave no PNG'))), 'image/png'));
}

export function download(blob, name, where) {
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: name, hidden: true });
  where.append(a); // some browsers only download from a link in the document
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000); // not at once: the download may not have started
}

/** "attnlab-sat-chart-maxProb": the figure's id, else its title as a slug. */
export function fileBase(fig, title) {
  const slug = (fig.id || title).toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '').slice(0, 60);
  return `attnlab-${fig.id ? fig.id : slug || 'chart'}`;
}

