// The benchmark page: runs the wasm columns of the benchmark table in the
// reader's own browser (in a worker) and fills the table as cells finish.
import '../../base/style.css';
import '../site/page.css';
import '../site/nav-strings.js';
import './bench.css';
import { applyDocument, onLangChange, t } from '../../base/i18n.js';
import { h, setFieldError } from '../../base/dom.js';
import { loadErrorStrings, readerError } from '../../bridge/errors.js';
import { wholeText } from '../../base/number-text.js';
import { connect } from '../../bridge/rpc.js';
import { decimals, percentNumber } from '../../base/format.js';
import * as langSwitch from '../../widgets/lang-switch.js';
import { caseName, isTraining } from './measure.js';
import './strings.js';

// A spread in percent: whole above 1%, one decimal below ("±0.4%", not "±0%"
// on every quiet cell), and "<0.1" where it rounds to nothing.
const spreadText = (share) => (share < 0.0005 ? '<0.1' : percentNumber(share));

// Static text: [element, key] pairs, filled again on a language change (the
// title and lede are the header's data-i18n, which applyDocument fills).
const texts = [];
const txt = (tag, key, attrs = {}) => {
  const el = h(tag, attrs);
  texts.push([el, key]);
  return el;
};
// What the status line and the peak note say, as functions of the language.
let statusText = () => '';
let peakText = () => '';

const root = document.getElementById('bench');
const samplesMsg = h('p', { class: 'msg', id: 'bench-samples-msg', 'aria-live': 'polite' });
const samples = h('input', {
  id: 'bench-samples', type: 'number', min: 3, max: 99, value: 9, inputmode: 'numeric', 'aria-describedby': samplesMsg.id,
});
const runButton = txt('button', 'bench.run', { type: 'button', id: 'bench-run' });
const status = h('p', { id: 'bench-status', role: 'status', 'aria-live': 'polite' });
const table = h('table', { id: 'bench-table', class: 'data-table' });
const peakNote = h('p', { id: 'bench-peak' });
// What the "of peak" columns divide by, said before any run (en, zh).
const ceilings = h('section', { id: 'bench-ceilings', 'aria-labelledby': 'bench-ceilings-heading' },
  txt('h2', 'bench.ceilingsHeading', { id: 'bench-ceilings-heading' }),
  txt('p', 'bench.ceilingsWhat'),
  h('ul', {}, ['ceilingScalar', 'ceilingSimd', 'ceilingRelaxed'].map((k) => txt('li', `bench.${k}`))),
  txt('p', 'bench.ceilingsHow'),
  txt('p', 'bench.ceilingsBelow'),
  peakNote);
root.replaceChildren(
  h('div', { class: 'controls' }, txt('label', 'bench.samples', { for: samples.id }), samples, runButton),
  samplesMsg,
  status,
  h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-labelledby': 'bench-caption' }, table),
  ceilings,
  h('p', {}, txt('a', 'bench.back', { href: './index.html' })),
);

function relabel() {
  // A new run's table replaces the last one's caption and headers: drop those.
  texts.splice(0, texts.length, ...texts.filter(([el]) => el.isConnected));
  for (const [el, key] of texts) el.textContent = t(key);
  status.textContent = statusText();
  peakNote.textContent = peakText();
  setFieldError(samples, samplesMsg, samplesText());
}
// What the samples field says when its value cannot be used (a function of the language).
let samplesText = () => '';
const setStatus = (fn) => {
  statusText = fn;
  status.textContent = fn();
};
const setPeak = (fn) => {
  peakText = fn;
  peakNote.textContent = fn();
};

// The table's columns after the work's name: [data-build of its cells, header key], in order.
// A build's own cells, then its ratios; the relaxed-SIMD ones only where the browser runs that build.
const COLUMNS = {
  scalar: [['scalar', 'bench.scalar'], ['scalarPeak', 'bench.ofScalarPeak']],
  simd: [['simd', 'bench.simd'], ['ratio', 'bench.ratio'], ['peak', 'bench.ofPeak']],
  relaxed: [['relaxed', 'bench.relaxed'], ['relaxedRatio', 'bench.relaxedRatio'], ['fmaPeak', 'bench.ofFmaPeak']],
};
// Each "of peak" column: [its data-build, the build whose cells it divides].
const OF_PEAK = [['scalarPeak', 'scalar'], ['peak', 'simd'], ['fmaPeak', 'relaxed']];

function run() {
  // A whole number from 3 to 99, or a sentence next to the field and no run.
  const text = samples.value.trim();
  const n = wholeText(text);
  const ok = Number.isInteger(n) && n >= 3 && n <= 99;
  samplesText = ok ? () => '' : () => t('bench.samplesRange', { lo: 3, hi: 99 });
  setFieldError(samples, samplesMsg, samplesText());
  if (!ok) return samples.focus();
  runButton.disabled = true;
  let cases = [];
  let builds = [];
  let done = 0;
  let peaks = null;  // {scalar, simd?, relaxed?: {peak, kernel, median, samples}}, at the end of the run
  const cells = new Map(); // `${build}:${index}` -> {median, spread}
  // A cell / its build's ceiling (the fastest sample of the build's register-only
  // loops, sampled through the run); the training steps (steps/s) have none.
  const fillOfPeak = (i) => {
    for (const [col, build] of OF_PEAK) {
      const c = cells.get(`${build}:${i}`), el = cellEl(col, i);
      if (!el || !c || !peaks?.[build]) continue;
      el.textContent = isTraining(cases[i]) ? '–' : `${decimals(100 * c.median / peaks[build].peak, 0)}%`;
    }
  };
  // The ratios between builds: SIMD / scalar and relaxed / SIMD.
  const fillRatios = (i) => {
    const a = cells.get(`scalar:${i}`), b = cells.get(`simd:${i}`), r = cells.get(`relaxed:${i}`);
    if (a && b) cellEl('ratio', i).textContent = `${decimals(b.median / a.median, 1)}×`;
    if (r && b) cellEl('relaxedRatio', i).textContent = `${decimals(r.median / b.median, 2)}×`;
  };
  // The ceilings' sentence, once they have been measured.
  const peaksText = () => {
    if (!peaks) return '';
    const list = builds.filter((b) => peaks[b]).map((b) => t('bench.peakOf', {
      build: t(`bench.build_${b}`), rate: decimals(peaks[b].peak, 2), median: decimals(peaks[b].median, 2),
    }));
    return t('bench.peaks', { list: list.join(t('bench.listSep')), samples: peaks[builds[0]].samples });
  };
  const cellEl = (build, i) => table.querySelector(`[data-build="${build}"][data-row="${i}"]`);
  const onEvent = (data) => {
    if (data.event === 'plan') {
      ({ cases, builds } = data);
      const cols = builds.flatMap((b) => COLUMNS[b]);
      table.replaceChildren(
        txt('caption', 'bench.caption', { id: 'bench-caption' }),
        h('thead', {}, h('tr', {}, txt('th', 'bench.work', { scope: 'col' }),
          cols.map(([, key]) => txt('th', key, { scope: 'col' })))),
        h('tbody', {}, cases.map((c, i) => h('tr', {}, h('th', { scope: 'row', text: caseName(c) }),
          cols.map(([b]) => h('td', { dataset: { build: b, row: i }, text: '…' }))))),
      );
      relabel();
      setPeak(() => '');
      if (!builds.includes('simd')) setStatus(() => t('bench.noSimd'));
    } else if (data.event === 'peaks') {
      peaks = data;
      setPeak(peaksText);
      cases.forEach((_, i) => fillOfPeak(i));
    } else if (data.event === 'cell') {
      done++;
      cells.set(`${data.build}:${data.index}`, data);
      cellEl(data.build, data.index).textContent = `${decimals(data.median, 2)} ±${spreadText(data.spread)}%`;
      fillRatios(data.index);
      const now = done;
      setStatus(() => t('bench.running', { done: now, total: cases.length * builds.length }));
    }
  };
  const port = connect(new Worker(new URL('./worker.js', import.meta.url), { type: 'module' }), { onEvent });
  port.call('run', [n]).then(
    () => setStatus(() => t('bench.done', { total: done })),
    (e) => loadErrorStrings().then(() => setStatus(() => readerError(e))),
  ).finally(() => {
    runButton.disabled = false;
    port.close();
  });
}
runButton.addEventListener('click', run);

applyDocument();
const lang = langSwitch.mount(document.getElementById('lang-switch'));
relabel();
onLangChange(() => {
  lang.relabel();
  relabel();
});
