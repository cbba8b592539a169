// DOM helpers every page uses, below the custom elements: an element builder,
// field messages, a data table, "when near the viewport" and reduced motion.

// A tiny element builder: h('td', {class: 'x', dataset: {label: 'Scores'}}, 'text', child).
// Attributes only; inline styles are never set this way (the CSP forbids
// style attributes), widgets size bars through el.style instead.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'text') el.textContent = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  el.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

/** The same for SVG: svgEl('path', {d: 'M0,0H10', stroke: 'rgb(0, 0, 0)'}); presentation attributes, never style. */
export function svgEl(tag, attrs = {}) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

/** Show an i18n or core message next to a field, and mark the field invalid. */
export function setFieldError(input, msgEl, text) {
  // The message element stays in the DOM (an aria-live region that is hidden
  // and shown again is not reliably announced); CSS collapses it when empty.
  msgEl.textContent = text ?? '';
  if (text) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
}

/** A collapsible data table: the text alternative of a chart. */
export function dataTable(id) {
  const title = h('p', { class: 'table-title', id: `${id}-title` });
  const head = h('thead');
  const body = h('tbody');
  const table = h('table', { id, class: 'data-table', 'aria-labelledby': title.id }, head, body);
  const summary = h('summary');
  const scroller = h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-labelledby': title.id }, table);
  const details = h('details', { class: 'data-details' }, summary, title, scroller);
  return { details, summary, title, head, body, table };
}

/** Fill a dataTable's head and body: cols = [text], rows = [[cell text]] (first cell a row header). */
export function fillTable(tbl, cols, rows) {
  tbl.head.replaceChildren(h('tr', {}, cols.map((c) => h('th', { scope: 'col', text: c }))));
  tbl.body.replaceChildren(...rows.map((r) => h('tr', {}, r.map((c, i) =>
    i === 0 ? h('th', { scope: 'row', text: c }) : h('td', { text: c })))));
}

/** Run fn when `el` comes within `margin` of the viewport (once). */
export function whenNear(el, fn, margin = '400px') {
  if (!('IntersectionObserver' in window)) {
    fn();
    return;
  }
  const io = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) {
      io.disconnect();
      fn();
    }
  }, { rootMargin: margin });
  io.observe(el);
}

export const reducedMotion = () => matchMedia('(prefers-reduced-motion: reduce)').matches;
