// The seed's worked example as a live table: for each example, softmax of the
// scores unscaled (divisor 1) and divided by √d_k, with entropy, largest
// probability and the softmax Jacobian norm. Every number comes from the core.
//
// mount(element, client, {examples, idPrefix, onRender, speak}) -> {relabel(), set(i, {scores, dk})}; the
// reader edits each example's scores and d_k, and only that example's rows are
// recomputed; onRender(i, [unscaled, scaled results]) follows each redraw.
import { t } from '../base/i18n.js';
import { DASH, fixed, int, list, num, percent } from '../base/format.js';
import { h, setFieldError } from '../base/dom.js';
import { parseNumber, parseScores } from '../base/parse.js';
import { readerError } from '../bridge/errors.js';
import { coreMessage } from './element.js';
import { EXAMPLES } from './seed-options.js';
import './seed-strings.js';


// Each example shows two rows: the divisor spec is resolved by the core.
const ROWS = [
  { key: 'unscaled', label: 'seed.row.unscaled', divisor: '1' },
  { key: 'scaled', label: 'seed.row.scaled', divisor: 'sqrt' },
];

const COLUMNS = [
  ['case', 'seed.col.case'],
  ['scores', 'seed.col.scores'],
  ['divisor', 'seed.col.divisor'],
  ['probs', 'seed.col.probs'],
  ['entropy', 'seed.col.entropy'],
  ['maxProb', 'seed.col.maxProb'],
  ['jacobian', 'seed.col.jacobian'],
];

/** A message for a field: {key, params} from the parser or {core: error} from the core. */
function messageText(m) {
  if (!m) return '';
  return m.core !== undefined ? readerError(m.core) : t(m.key, m.params);
}

export function mount(root, client, { examples = EXAMPLES, idPrefix = 'seed', onRender, speak = (fn) => fn() } = {}) {
  const headCells = COLUMNS.map(([key, label]) =>
    h('th', { scope: 'col', role: 'columnheader', class: `c-${key}`, dataset: { i18nCol: label } }));
  const caption = h('caption');
  const table = h('table', { class: 'seed-table', role: 'table' }, caption, h('thead', { role: 'rowgroup' }, h('tr', { role: 'row' }, headCells)));

  const state = examples.map((ex, i) => mountExample(ex, i));
  // A core that did not load: one message for the table (none when embedded:
  // the footer's), never under the reader's fields.
  const loadMsg = h('p', { class: 'msg', role: 'alert' });
  root.replaceChildren(h('div', { class: 'stack-table' }, table), loadMsg);

  function mountExample(ex, i) {
    const id = `${idPrefix}-ex${i}`;
    const scoresInput = h('input', {
      id: `${id}-scores`, type: 'text', value: ex.scores, autocomplete: 'off', spellcheck: 'false',
      'aria-describedby': `${id}-scores-msg`,
    });
    const dkInput = h('input', {
      id: `${id}-dk`, type: 'text', inputmode: 'numeric', value: ex.dk, autocomplete: 'off', size: 6,
      'aria-describedby': `${id}-dk-msg`,
    });
    const scoresMsg = h('p', { id: `${id}-scores-msg`, class: 'msg', 'aria-live': 'polite' });
    const dkMsg = h('p', { id: `${id}-dk-msg`, class: 'msg', 'aria-live': 'polite' });
    const title = h('span', { class: 'example-title', id: `${id}-title` });
    const scoresLabel = h('label', { for: scoresInput.id });
    const dkLabel = h('label', { for: dkInput.id });

    // role=group + the title: a screen reader says "Example 1" before each field's label.
    const head = h('tr', { class: 'example-head', role: 'row' },
      h('td', { colspan: COLUMNS.length, role: 'cell' },
        h('div', { class: 'example-fields', role: 'group', 'aria-labelledby': title.id },
          title,
          h('div', { class: 'field field-scores' }, scoresLabel, scoresInput, scoresMsg),
          h('div', { class: 'field field-dk' }, dkLabel, dkInput, dkMsg))));

    const rows = ROWS.map((spec) => {
      const cells = {};
      const tr = h('tr', { role: 'row', dataset: { row: `ex${i}-${spec.key}` } });
      for (const [key] of COLUMNS) {
        const cell = key === 'case'
          ? h('th', { scope: 'row', role: 'rowheader' })
          : h('td', { role: 'cell', class: `c-${key}` });
        cells[key] = cell;
        tr.append(cell);
      }
      return { spec, tr, cells, result: null };
    });
    table.append(h('tbody', { role: 'rowgroup', 'aria-labelledby': title.id }, head, rows.map((r) => r.tr)));

    const ex_ = { i, scoresInput, dkInput, scoresMsg, dkMsg, title, scoresLabel, dkLabel, rows,
      gen: 0, scoresError: null, dkError: null };
    scoresInput.addEventListener('input', () => update(ex_));
    dkInput.addEventListener('input', () => update(ex_));
    return ex_;
  }

  // Recompute one example: parse in JS, then ask the core (via the worker).
  async function update(ex) {
    const gen = ++ex.gen;
    const scores = parseScores(ex.scoresInput.value);
    const dk = parseNumber(ex.dkInput.value);
    ex.scoresError = scores.error ?? null;
    ex.dkError = dk.error ?? null;

    const results = await Promise.all(ex.rows.map(async (row) => {
      const usesDk = row.spec.divisor === 'sqrt' || row.spec.divisor === 'dk';
      if (scores.error || (usesDk && dk.error)) return { result: null };
      let divisor;
      try {
        divisor = await client.call('resolveDivisor', [row.spec.divisor, usesDk ? dk.value : 1]);
      } catch (e) {
        return e.load ? { result: null, loadError: e } : { result: null, dkError: { core: e } };
      }
      try {
        const stats = await client.call('softmaxStats', [scores.value, divisor.value]);
        return { result: { scores: scores.value, dk: dk.value, divisor, stats } };
      } catch (e) {
        return e.load ? { result: null, loadError: e } : { result: null, scoresError: { core: e } };
      }
    }));
    if (gen !== ex.gen) return; // a newer edit is on its way
    ex.loadError = results.find((r) => r.loadError)?.loadError ?? null;
    results.forEach((r, k) => {
      ex.rows[k].result = r.result;
      ex.scoresError ??= r.scoresError ?? null;
      ex.dkError ??= r.dkError ?? null;
    });
    // After an await: in the widget's language again (speak, from element.js).
    speak(() => renderExample(ex));
  }

  function renderRow(row) {
    const { cells, result, spec } = row;
    cells.case.textContent = t(spec.label);
    cells.scores.textContent = result ? list(result.stats.scaled) : DASH;
    cells.divisor.textContent = !result
      ? DASH
      : spec.divisor === 'sqrt'
        ? t('seed.divisor.sqrt', { dk: int(result.dk), value: num(result.divisor.value, 6) })
        : num(result.divisor.value, 6);
    // One wrapper, so the narrow layout's label/value grid keeps the list in one cell.
    cells.probs.replaceChildren(result
      ? h('span', { class: 'probs' }, Array.from(result.stats.probs, (p) => h('span', { class: 'prob', text: percent(p) })))
      : DASH);
    cells.entropy.textContent = result ? fixed(result.stats.entropy, 4) : DASH;
    cells.maxProb.textContent = result ? percent(result.stats.maxProb) : DASH;
    cells.jacobian.textContent = result ? num(result.stats.jacobianNorm, 4) : DASH;
    row.tr.classList.toggle('is-empty', !result);
  }

  function renderExample(ex) {
    ex.title.textContent = t('seed.example', { n: ex.i + 1 });
    ex.scoresLabel.textContent = t('seed.scoresLabel');
    ex.dkLabel.textContent = t('seed.dkLabel');
    setFieldError(ex.scoresInput, ex.scoresMsg, messageText(ex.scoresError));
    setFieldError(ex.dkInput, ex.dkMsg, messageText(ex.dkError));
    ex.rows.forEach(renderRow);
    const load = state.find((x) => x.loadError)?.loadError;
    loadMsg.textContent = load ? coreMessage(load) : '';
    onRender?.(ex.i, ex.rows.map((r) => r.result));
  }

  function relabel() {
    caption.textContent = t('seed.caption');
    for (const th of headCells) th.textContent = t(th.dataset.i18nCol);
    // Labels for the stacked (narrow-screen) layout, where the header row is hidden.
    for (const ex of state)
      for (const row of ex.rows)
        for (const [key, label] of COLUMNS) row.cells[key].dataset.label = t(label);
    state.forEach(renderExample);
  }

  relabel();
  state.forEach(update);
  return {
    relabel,
    /** Set example i's fields (an attribute changed) and recompute it. */
    set(i, { scores, dk }) {
      const ex = state[i];
      if (!ex) return;
      if (scores !== undefined) ex.scoresInput.value = scores;
      if (dk !== undefined) ex.dkInput.value = dk;
      update(ex);
    },
  };
}
