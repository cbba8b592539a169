// The saturation explorer's sequence-length view (issue 15.4), loaded only
// when the reader asks for it (the widget's "Sequence length" button, or
// ?sat.x=n in a link): an embedded widget's first load stays as it was
// (tests/browser/embed.test.mjs holds it to a gzip budget).
//
// It adds: the x-axis toggle, d_k (1..4096 at the chosen m) or the number of
// keys n (2..4096 at the chosen d_k); and a sixth curve, Scalable-Softmax's
// log-n divisor √d_k / (s·ln n) (Nakanishi 2025; s = 0.43 by default). That
// number is computed here, by the formula of the core's ssmax_divisor and with
// its range for s: a binding for it measured 1.1 kB gzip more wasm, which every
// embedded widget's first load would pay (saturation-ssmax.js;
// tests/node/saturation_length.test.mjs holds it equal to the CLI's). The core checks it as every divisor
// (SaturationSession), and the curves are its means and standard errors.
import { t } from '../base/i18n.js';
import { int, num } from '../base/format.js';
import { fillTable, h, setFieldError } from '../base/dom.js';
import { readState, writeState } from '../base/state.js';
import { coreMessage, timed } from './element.js';
import { createChart } from './chart.js';
import { parseS, ssmaxDivisor } from './saturation-ssmax.js';
import { SWEEP_DKS, customDivisor, sweepPoints } from './saturation-sweep.js';
import './saturation-length-strings.js';

const AXES = {
  dk: SWEEP_DKS, // d_k = 1 .. 4096, at the chosen m
  n: Array.from({ length: 12 }, (_, i) => 2 ** (i + 1)), // n = 2 .. 4096, at the chosen d_k
};
const STATS = ['maxProb', 'entropy', 'jacobianNorm'];
const SSMAX = ['ssmax', null, 'c-theory', [6, 2, 1, 2]];
const SPECS = {
  x: { type: 'enum', values: ['dk', 'n'], def: 'dk' },
  s: { type: 'text', max: 40, def: '0.43' },
};

/**
 * Turns the widget `w` (an <attn-saturation>) into its sequence-length view.
 * CURVES: its divisors' [key, spec, colour, dash]; fmtStat: its table's number format.
 */
export function extend(w, CURVES, fmtStat) {
  if (w.lengthView) return;
  const ALL = [...CURVES, SSMAX];
  const { values, notices } = readState(w.statePrefix, SPECS);
  w.notices?.push?.(...notices);
  const L = (w.lengthView = { x: values.x, s: values.s, error: null, dk: w.v.dk });
  const I = (s) => w.id_(s);

  // ---- controls: the axis toggle and s, where the button was ----
  const axisRadios = Object.keys(AXES).map((key) => {
    const input = h('input', { type: 'radio', name: I('x'), id: I(`x-${key}`), value: key });
    input.checked = key === L.x;
    input.addEventListener('change', () => {
      if (!input.checked) return;
      L.x = key;
      rebuildCharts();
      save();
      w.runSweep();
    });
    return { key, input, label: h('label', { for: input.id }) };
  });
  const legend = h('legend');
  const sInput = h('input', { type: 'text', id: I('ssmax-s'), inputmode: 'decimal', autocomplete: 'off', size: 6, 'aria-describedby': I('ssmax-msg') });
  sInput.value = L.s;
  const sLabel = h('label', { for: sInput.id });
  const sMsg = h('p', { id: I('ssmax-msg'), class: 'msg', 'aria-live': 'polite' });
  sInput.addEventListener('input', () => {
    L.s = sInput.value.trim();
    save();
    w.runSweep();
  });
  const box = h('fieldset', { class: 'field field-axis', id: I('length') }, legend,
    h('div', { class: 'radios' }, axisRadios.map((r) => h('span', { class: 'radio' }, r.input, r.label))),
    h('div', { class: 'field-s' }, sLabel, sInput), sMsg);
  w.lengthButton.replaceWith(box);

  const save = () => writeState(w.statePrefix, { x: L.x, s: L.s });

  // ---- the charts, one series more, their x axis the chosen one ----
  const holder = w.charts[0].c.el.parentNode;
  function rebuildCharts() {
    for (const { c } of w.charts) c.destroy();
    w.charts = STATS.map((stat) => {
      const c = createChart({
        xLog: true, height: 200, xName: L.x === 'n' ? 'n' : 'd_k',
        yRange: stat === 'maxProb' ? [0, 1] : undefined,
        series: ALL.map(([, , color, dash]) => ({ color, dash })),
      });
      c.el.id = I(`chart-${stat}`);
      return { stat, c };
    });
    holder.replaceChildren(...w.charts.map((x) => x.c.el));
    w.labelCharts();
    w.highlightCurves();
  }

  const marker = () => (L.x === 'n' ? w.v.m : w.v.dk);

  // A d_k change moves the n-axis curves (they are at the chosen d_k); on the
  // d_k axis an m change does, as before.
  const changed = w.changed.bind(w);
  w.changed = (o) => {
    const dkMoved = w.v.dk !== L.dk;
    L.dk = w.v.dk;
    changed({ ...o, sweep: o.sweep || (L.x === 'n' && dkMoved) });
    for (const { c } of w.charts) c.setMarker(marker());
  };

  w.labelCharts = () => {
    const meta = w.sweepMeta;
    for (const { stat, c } of w.charts) {
      const title = t(`sat.chart.${stat}`);
      c.setLabels(title, t(L.x === 'n' ? 'satlen.chartNameN' : 'sat.chartName', { title }),
        ALL.map(([key]) => (key === 'ssmax' ? t('satlen.curveLabel', { s: meta?.s ? num(meta.s, 6) : 's' })
          : t(`sat.curveLabel.${key}`, { c: meta?.custom ? num(meta.custom, 6) : 'c' }))));
    }
  };

  w.highlightCurves = () => {
    for (const { c } of w.charts) c.setWidths(ALL.map(([key]) => (key === w.v.div ? 3.5 : 1.75)));
  };

  // ---- the sweep: a core session per point, every divisor on the same rows ----
  w.runSweep = async () => {
    const gen = ++w.sweepGen;
    const { m, dk, seed } = w.v;
    const axis = L.x;
    const custom = customDivisor(w.v.c);
    const sParsed = parseS(L.s);
    w.sweep = new Map();
    w.sweepMeta = { axis, m, dk, seed, rows: 0, custom, s: null, done: 0 };
    L.error = sParsed.error ? { key: sParsed.error.key, params: sParsed.error.params } : null;
    w.labelCharts();
    w.highlightCurves();
    w.renderCurves();
    let failed = false;
    try {
      await sweepPoints(w.client, {
        points: AXES[axis].map((x) => ({ x, dk: axis === 'n' ? dk : x, m: axis === 'n' ? x : m })), seed,
        stale: () => gen !== w.sweepGen,
        divisorsAt: async (pdk, pm) => {
          let divisors;
          try {
            divisors = await Promise.all(ALL.map(([key, spec]) => {
              if (key === 'ssmax') return L.error ? null : ssmaxDivisor(pdk, pm, sParsed.value);
              if (key === 'custom') return custom !== null ? w.client.call('resolveDivisor', [String(w.v.c), pdk]) : null;
              return w.client.call('resolveDivisor', [spec, pdk]);
            }));
          } catch {
            failed = true;
            return null;
          }
          if (gen !== w.sweepGen) return null;
          if (divisors[ALL.length - 1] && w.sweepMeta.s === null) {
            w.sweepMeta.s = sParsed.value;
            w.labelCharts();
          }
          renderS();
          return ALL.map(([key], j) => ({ key, d: typeof divisors[j] === 'number' ? { value: divisors[j] } : divisors[j] }));
        },
        onChunk: (x, i, used, res) => {
          w.sweepMeta.rows += res.rows - (w.sweep.get(`${x}|${used[0].key}`)?.n ?? 0);
          res.stats.forEach((r, j) => {
            w.sweep.set(`${x}|${used[j].key}`, { n: res.rows, divisor: r.divisor, stats: Object.fromEntries(STATS.map((st) => [st, r[st]])) });
          });
          w.sweepMeta.current = x;
          timed('sat.curves', () => w.renderCurves());
        },
        onPoint: (i) => { w.sweepMeta.done = i + 1; },
      });
    } catch (e) {
      if (gen !== w.sweepGen) return;
      w.sweepError = e;
      w.renderCurves();
      return;
    }
    if (gen !== w.sweepGen || failed) return;
    w.sweepError = null;
    w.renderCurves();
  };

  function renderS() {
    const e = L.error;
    setFieldError(sInput, sMsg, e ? t(e.key, e.params) : '');
  }

  w.renderCurves = () => {
    const meta = w.sweepMeta;
    if (!meta?.axis) return; // the widget's own sweep, until this view's first starts
    const xsAll = AXES[meta.axis];
    const xs = xsAll.filter((x) => w.sweep.has(`${x}|1`));
    for (const { stat, c } of w.charts) {
      c.setData([xs, ...ALL.map(([key]) => xs.map((x) => w.sweep.get(`${x}|${key}`)?.stats[stat].mean ?? null))]);
      c.show(CURVES.length, meta.custom !== null && w.v.div === 'custom');
      c.show(ALL.length, meta.s !== null);
      c.setMarker(marker());
    }
    const n = meta.axis === 'n';
    w.curvesNote.textContent = n ? t('satlen.notesN', { rows: int(meta.rows), dk: int(meta.dk) })
      : t('sat.curvesNote', { rows: int(meta.rows), m: int(meta.m) });
    w.progress.textContent = w.sweepError ? coreMessage(w.sweepError)
      : meta.done < xsAll.length
        ? t(n ? 'satlen.progressN' : 'sat.curvesProgress', { dk: int(meta.current ?? 1), n: int(meta.current ?? 2), done: int(meta.done + 1), total: int(xsAll.length) })
        : t(n ? 'satlen.doneN' : 'sat.curvesDone');
    w.box.dataset.sweep = meta.done === xsAll.length ? 'done' : 'running';
    w.box.dataset.axis = meta.axis;
    w.renderCurveTable();
  };

  w.renderCurveTable = () => {
    const tb = w.curveTable;
    const meta = w.sweepMeta;
    tb.summary.textContent = t('widget.tableSummary');
    tb.title.textContent = !meta?.axis ? '' : meta.axis === 'n' ? t('satlen.tableN', { dk: int(meta.dk), seed: int(meta.seed) })
      : t('sat.curveTable', { m: int(meta.m), seed: int(meta.seed) });
    if (!tb.details.open || !meta?.axis) return;
    fillTable(tb, [meta.axis === 'n' ? 'satlen.colN' : 'sat.col.dk', 'sat.col.divisor', 'sat.col.rows', ...STATS.map((s) => `sat.col.${s}`)].map((k) => t(k)), []);
    const rows = [];
    for (const x of AXES[meta.axis])
      for (const [key] of ALL) {
        const p = w.sweep.get(`${x}|${key}`);
        if (!p) continue;
        rows.push(h('tr', { dataset: { [meta.axis]: x, div: key } },
          h('th', { scope: 'row', text: int(x) }),
          h('td', { text: num(p.divisor, 6) }),
          h('td', { text: int(p.n) }),
          ...STATS.map((s) => h('td', { dataset: { stat: s, mean: p.stats[s].mean }, text: `${fmtStat(s, p.stats[s].mean)} ± ${num(p.stats[s].se, 2)}` }))));
      }
    tb.body.replaceChildren(...rows);
  };

  const relabel = w.relabel.bind(w);
  w.relabel = () => {
    legend.textContent = t('satlen.axis');
    for (const r of axisRadios) r.label.textContent = t(`satlen.x.${r.key}`);
    sLabel.textContent = t('satlen.s');
    renderS();
    relabel();
  };

  rebuildCharts();
  w.relabel();
  save();
  w.runSweep();
}
