// A chart's export buttons, for readers who put it in a paper: PNG, SVG and
// CSV. The code that makes the files (chart-files.js) loads on the first
// click, so a page that never exports never downloads it. A failure is a
// short message next to the buttons, never a throw.
import { t } from '../base/i18n.js';
import { h } from '../base/dom.js';

let files = null;
const loadFiles = () => (files ??= import('./chart-files.js'));

/** The row of export buttons under a chart; relabel() in the widget's language (setLabels). */
export function exportRow({ fig, snapshot }) {
  const msg = h('span', { class: 'uchart-export-msg', role: 'status' });
  let failText = '{message}';
  const kinds = {
    png: async (f, s) => f.exportPng(f.exportSvg(s)),
    svg: async (f, s) => new Blob(['<?xml version="1.0" encoding="UTF-8"?>\n', new XMLSerializer().serializeToString(f.exportSvg(s))], { type: 'image/svg+xml' }),
    csv: async (f, s) => new Blob([f.toCsv(s.columns)], { type: 'text/csv' }),
  };
  const buttons = Object.entries(kinds).map(([kind, make]) => {
    const b = h('button', { type: 'button', class: 'uchart-export-button', dataset: { export: kind }, text: kind.toUpperCase() });
    b.addEventListener('click', async () => {
      msg.textContent = '';
      try {
        const f = await loadFiles();
        const s = snapshot();
        f.download(await make(f, s), `${f.fileBase(fig, s.title)}.${kind}`, fig);
      } catch (e) {
        msg.textContent = failText.replace('{message}', e?.message ?? String(e));
      }
    });
    return b;
  });
  return {
    el: h('div', { class: 'uchart-export' }, buttons, msg),
    relabel() {
      for (const b of buttons) b.setAttribute('aria-label', t(`widget.export.${b.dataset.export}`));
      failText = t('widget.exportFailed'); // its {message} is filled in when an export fails
    },
  };
}
