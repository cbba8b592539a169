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

/** Show an i18n or core message next to a field, and mark the field invalid. */
export function setFieldError(input, msgEl, text) {
  // The message element stays in the DOM (an aria-live region that is hidden
  // and shown again is not reliably announced); CSS collapses it when empty.
  msgEl.textContent = text ?? '';
  if (text) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
}
