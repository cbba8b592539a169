// The benchmark page: runs the wasm columns of the benchmark table in the
// reader's own browser (in a worker) and fills the table as cells finish.
import '../style.css';
import '../page.css';
import './bench.css';
import { applyDocument, t } from '../i18n.js';
import { h } from '../dom.js';
import { connect } from '../core/rpc.js';
import { decimals, percentNumber } from '../format.js';
import { caseName, isTraining } from './measure.js';
import './strings.js';

// A spread in percent: whole above 1%, one decimal below ("±0.4%", not "±0%"
// on every quiet cell), and "<0.1" where it rounds to nothing.
const spreadText = (share) => (share < 0.0005 ? '<0.1' : percentNumber(share));

applyDocument();
const root = document.getElementById('bench');
const samples = h('input', { id: 'bench-samples', type: 'number', min: 3, max: 99, value: 9, inputmode: 'numeric' });
const runButton = h('button', { type: 'button', id: 'bench-run', text: t('bench.run') });
const status = h('p', { id: 'bench-status', role: 'status', 'aria-live': 'polite' });
const table = h('table', { id: 'bench-table', class: 'data-table' });
const peakNote = h('p', { id: 'bench-peak' });
root.replaceChildren(
  h('h1', { text: t('bench.title') }),
  h('p', { text: t('bench.lede') }),
  h('div', { class: 'controls' }, h('label', { for: samples.id, text: t('bench.samples') }), samples, runButton),
  status,
  h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-labelledby': 'bench-caption' }, table),
  peakNote,
  h('p', {}, h('a', { href: './index.html', text: t('bench.back') })),
);

function run() {
  const n = Math.min(99, Math.max(3, Math.round(Number(samples.value)) || 9));
  samples.value = n;
  runButton.disabled = true;
  let cases = [];
  let builds = [];
  let done = 0;
  let peak = null;
  const cells = new Map(); // `${build}:${index}` -> {median, spread}
  // SIMD cell / the SIMD build's multiply-add peak; the training steps (steps/s) have none.
  const fillOfPeak = (i) => {
    const b = cells.get(`simd:${i}`);
    if (!peak || !b) return;
    cellEl('peak', i).textContent = isTraining(cases[i]) ? '–' : `${decimals(100 * b.median / peak.median, 0)}%`;
  };
  const cellEl = (build, i) => table.querySelector(`[data-build="${build}"][data-row="${i}"]`);
  const onEvent = (data) => {
    if (data.event === 'plan') {
      ({ cases, builds } = data);
      const cols = ['scalar', 'simd'];
      table.replaceChildren(
        h('caption', { id: 'bench-caption', text: t('bench.caption') }),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: t('bench.work') }),
          cols.map((c) => h('th', { scope: 'col', text: t(`bench.${c}`) })), h('th', { scope: 'col', text: t('bench.ratio') }),
          h('th', { scope: 'col', text: t('bench.ofPeak') }))),
        h('tbody', {}, cases.map((c, i) => h('tr', {}, h('th', { scope: 'row', text: caseName(c) }),
          cols.map((b) => h('td', { dataset: { build: b, row: i }, text: '…' })),
          ['ratio', 'peak'].map((b) => h('td', { dataset: { build: b, row: i },
            text: builds.includes('simd') ? '…' : '–' }))))),
      );
      peakNote.textContent = '';
      if (!builds.includes('simd')) status.textContent = t('bench.noSimd');
    } else if (data.event === 'peak') {
      peak = data;
      peakNote.textContent = t('bench.peak', { rate: decimals(data.median, 2), spread: spreadText(data.spread) });
      cases.forEach((_, i) => fillOfPeak(i));
    } else if (data.event === 'cell') {
      done++;
      cells.set(`${data.build}:${data.index}`, data);
      cellEl(data.build, data.index).textContent = `${decimals(data.median, 2)} ±${spreadText(data.spread)}%`;
      const a = cells.get(`scalar:${data.index}`), b = cells.get(`simd:${data.index}`);
      if (a && b) cellEl('ratio', data.index).textContent = `${decimals(b.median / a.median, 1)}×`;
      fillOfPeak(data.index);
      status.textContent = t('bench.running', { done, total: cases.length * builds.length });
    }
  };
  const port = connect(new Worker(new URL('./worker.js', import.meta.url), { type: 'module' }), { onEvent });
  port.call('run', [n]).then(
    () => { status.textContent = t('bench.done', { total: done }); },
    (e) => { status.textContent = e.message; },
  ).finally(() => {
    runButton.disabled = false;
    port.close();
  });
}
runButton.addEventListener('click', run);
