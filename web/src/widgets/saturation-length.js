// The saturation explorer's sequence-length view (issue 15.4), loaded only
// when the reader asks for it (the widget's "Sequence length" button, or
// ?sat.x=n in a link): an embedded widget's first load stays as it was
// (tests/browser/embed.test.mjs holds it to a gzip budget).
//
// It gives the widget another x axis (its axis option; the sweep, the
// charts and the table are the widget's own): d_k (1..4096 at the chosen m)
// or the number of keys n (2..4096 at the chosen d_k), with a sixth curve,
// Scalable-Softmax's log-n divisor √d_k / (s·ln n) (Nakanishi 2025; s = 0.43
// by default). That number is computed here, by the formula of the core's
// ssmax_divisor and with its range for s: a binding for it measured 1.1 kB
// gzip more wasm, which every embedded widget's first load would pay
// (saturation-ssmax.js; tests/node/saturation_length.test.mjs holds it equal
// to the CLI's). The core checks it as every divisor (SaturationSession).
import { t } from '../base/i18n.js';
import { int, num } from '../base/format.js';
import { h, setFieldError } from '../base/dom.js';
import { readState, writeState } from '../base/state.js';
import { parseS, ssmaxDivisor } from './saturation-ssmax.js';
import './saturation-length-strings.js';

const NS = Array.from({ length: 12 }, (_, i) => 2 ** (i + 1)); // n = 2 .. 4096, at the chosen d_k
const SSMAX = ['ssmax', null, 'c-theory', [6, 2, 1, 2]];
const SPECS = {
  x: { type: 'enum', values: ['dk', 'n'], def: 'dk' },
  s: { type: 'text', max: 40, def: '0.43' },
};
// The n axis's texts, in the order of the widget's axis.text.
const N_TEXT = ['satlen.chartNameN', 'satlen.notesN', 'satlen.progressN', 'satlen.doneN', 'satlen.tableN', 'satlen.colN'];

/**
 * Gives the widget `w` (an <attn-saturation>) its sequence-length view: the
 * axis toggle and s where its button was, and the axis (w.axis).
 * CURVES: its divisors' [key, spec, colour, dash].
 */
export function lengthView(w, CURVES) {
  if (w.lengthOpen) return;
  w.lengthOpen = true;
  const ALL = [...CURVES, SSMAX];
  const dkAxis = w.axis;  // the widget's own, before this view
  const { values, notices } = readState(w.statePrefix, SPECS);
  w.notices?.push?.(...notices);
  let x = values.x;
  let s = values.s;
  let sError = null;
  const I = (id) => w.id_(id);
  const save = () => writeState(w.statePrefix, { x, s });

  // ---- controls: the axis toggle and s, where the button was ----
  const axisRadios = ['dk', 'n'].map((key) => {
    const input = h('input', { type: 'radio', name: I('x'), id: I(`x-${key}`), value: key });
    input.checked = key === x;
    input.addEventListener('change', () => {
      if (!input.checked) return;
      x = key;
      save();
      setAxis();
    });
    return { key, input, label: h('label', { for: input.id }) };
  });
  const legend = h('legend');
  const sInput = h('input', { type: 'text', id: I('ssmax-s'), inputmode: 'decimal', autocomplete: 'off', size: 6, 'aria-describedby': I('ssmax-msg') });
  sInput.value = s;
  const sLabel = h('label', { for: sInput.id });
  const sMsg = h('p', { id: I('ssmax-msg'), class: 'msg', 'aria-live': 'polite' });
  sInput.addEventListener('input', () => {
    s = sInput.value.trim();
    save();
    w.runSweep();
  });
  w.lengthButton.replaceWith(h('fieldset', { class: 'field field-axis', id: I('length') }, legend,
    h('div', { class: 'radios' }, axisRadios.map((r) => h('span', { class: 'radio' }, r.input, r.label))),
    h('div', { class: 'field-s' }, sLabel, sInput), sMsg));
  const renderS = () => setFieldError(sInput, sMsg, sError ? t(sError.key, sError.params) : '');

  // The axis, with the log-n curve; on the n axis the curves are at the
  // chosen d_k, so a d_k change sweeps again (on the d_k axis, an m change does).
  const axis = () => ({
    ...dkAxis,
    ...(x === 'n' && { key: 'n', xs: NS, text: N_TEXT, point: (n, v) => ({ x: n, dk: v.dk, m: n }), marker: (v) => v.m }),
    curves: ALL,
    resweep: (meta, v) => x === 'n' && meta?.dk !== v.dk,
    label: (key, meta) => (key === 'ssmax' ? t('satlen.curveLabel', { s: meta?.s ? num(meta.s, 6) : 's' }) : undefined),
    show: (c, meta) => c.show(ALL.length, Boolean(meta.s)),
    // The core resolves every divisor but the log-n one (s checked here, as the core would).
    divisorsAt(meta, stale) {
      const parsed = parseS(s);
      sError = parsed.error ? { key: parsed.error.key, params: parsed.error.params } : null;
      meta.s = null;
      renderS();
      return async (dk, m) => {
        let ds;
        try {
          ds = await Promise.all(ALL.map(([key, spec]) => {
            if (key === 'ssmax') return sError ? null : ssmaxDivisor(dk, m, parsed.value);
            if (key === 'custom') return meta.custom !== null ? w.client.call('resolveDivisor', [String(meta.custom), dk]) : null;
            return w.client.call('resolveDivisor', [spec, dk]);
          }));
        } catch {
          return null;  // the row's message says why; the sweep stops
        }
        if (stale()) return null;
        if (ds[ALL.length - 1] && meta.s === null) {
          meta.s = parsed.value;
          w.labelCharts();
        }
        return ALL.map(([key], j) => ({ key, d: typeof ds[j] === 'number' ? { value: ds[j] } : ds[j] }));
      };
    },
    relabel() {
      legend.textContent = t('satlen.axis');
      for (const r of axisRadios) r.label.textContent = t(`satlen.x.${r.key}`);
      sLabel.textContent = t('satlen.s');
      renderS();
    },
  });

  // The widget's curves against this axis: new charts, a new sweep.
  function setAxis() {
    w.axis = axis();
    w.buildCharts();
    w.runSweep();  // labels and highlights the new charts
  }

  save();
  setAxis();
  w.relabel();
}
