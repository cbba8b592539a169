// What a comparison (comparison.js) reads as, beside the charts: the init
// checkpoint table, the charts' legend and data tables, and the summary in
// words. Each function renders the comparison it is given into its element;
// every number comes from the runs.
import { t } from '../../base/i18n.js';
import { h } from '../../base/dom.js';
import { decimals, fixed, int, num, percent } from '../../base/format.js';
import './strings.js';
import { swatch } from './swatch.js';
import { divisorLabel, stabilisersText } from './run-cards.js';
import { lossSpike, runMechanism } from '../../train/mechanism.js';
import { flush } from '../../base/state.js';

const DATA_ROWS = 10;  // logged rows per run in the charts' data table
const TABLE_COLS = ['step', 'loss', 'accuracy', 'grad_wq', 'grad_wk', 'attn_entropy', 'logit_max_abs'];

// band: [low, high], the core's pass band as factors of the unit-variance value
// (trainLimits()); null until the core has said, and then no marks are shown.
function mark(value, target, band) {
  if (!band) return '';
  const ok = value >= band[0] * target && value <= band[1] * target;
  return h('span', { class: `badge ${ok ? 'pass' : 'warn'}`, dataset: { verdict: ok ? 'pass' : 'warn' } },
    h('span', { 'aria-hidden': 'true', text: ok ? '✓' : '⚠' }),
    h('span', { class: 'visually-hidden', text: ok ? t('lab.init.pass') : t('lab.init.warn') }));
}

/** The init checkpoint: Var(q), Var(k), Var(q·k), Var(logit), spread per run, marked against the band. */
export function renderInit(table, cmp, band) {
  const dk = cmp.plan.config.dk;
  const cols = ['colDivisor', 'colVarQ', 'colVarK', 'colVarQk', 'colVarLogit', 'colSpread', 'colEntropy', 'colMax']
    .map((k) => t(`lab.init.${k}`, { dk: int(dk) }));
  const head = h('tr', {}, cols.map((c) => h('th', { scope: 'col', text: c })));
  const body = cmp.runs.filter((r) => r.init).map((r) => {
    const i = r.init;
    const spread = r.data.logit_spread?.[0];
    // Each cell names its column (data-label), for the card layout of a narrow screen (lab.css).
    const td = (j, ...content) => h('td', { dataset: { label: cols[j] } }, h('span', {}, ...content));
    const cell = (j, value, target, sig = 3) => td(j, num(value, sig), ' ', mark(value, target, band));
    return h('tr', { dataset: { option: r.option } },
      h('th', { scope: 'row' }, swatch(r), ' ', divisorLabel(r)),
      cell(1, i.varQ, 1), cell(2, i.varK, 1),
      td(3, num(i.varQk, 4), ' ', mark(i.varQk, dk, band), h('span', { class: 'sub', text: t('lab.init.theory', { v: num(i.theoryVarQk, 4) }) })),
      cell(4, i.varLogit, 1),
      spread === undefined ? td(5, '…') : cell(5, spread, 1),
      td(6, num(i.attnEntropy, 3)), td(7, num(i.attnMax, 3)));
  });
  table.replaceChildren(
    h('caption', { text: t('lab.init.caption', { n: int(cmp.runs.find((r) => r.init)?.init.samples ?? 0), dk: int(dk) }) }),
    h('thead', {}, head), h('tbody', {}, body));
}

/** The charts' data tables: the last DATA_ROWS logged rows of each run. */
export function renderDataTables(host, cmp) {
  host.replaceChildren(...cmp.runs.filter((r) => r.columns).map((r) => {
    const n = r.data.step.length;
    const from = Math.max(0, n - DATA_ROWS);
    return h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': divisorLabel(r) },
      h('table', { class: 'data-table', dataset: { option: r.option } },
        h('caption', { text: t('lab.data.caption', { label: divisorLabel(r), n: n - from }) }),
        h('thead', {}, h('tr', {}, TABLE_COLS.map((c) => h('th', { scope: 'col', text: t(`lab.col.${c}`) })))),
        h('tbody', {}, Array.from({ length: n - from }, (_, k) => h('tr', {},
          TABLE_COLS.map((c, j) => (j === 0
            ? h('th', { scope: 'row', text: int(r.data.step[from + k]) })
            : h('td', { text: num(r.data[c][from + k], 4) }))))))));
  }));
}

/** The legend and the charts' names, which list the runs by label. */
export function renderLegend(legend, charts, cmp) {
  const names = cmp.runs.map((r) => `${divisorLabel(r)} (${t(`lab.color.${r.slot}`)})`).join('; ');
  legend.setAttribute('aria-label', t('lab.curves.legend'));
  legend.replaceChildren(...cmp.runs.map((r) => h('li', { class: `slot-${r.slot}` }, swatch(r), ' ',
    h('span', { text: divisorLabel(r) }), h('span', { class: 'visually-hidden', text: ` (${t(`lab.color.${r.slot}`)})` }))));
  charts.setLabels((spec) => [t(`lab.chart.${spec.key}`),
    t(spec.perHead ? 'lab.chart.nameHeads' : 'lab.chart.name', { title: t(`lab.chart.${spec.key}`), runs: names, heads: int(cmp.plan.config.heads) }),
    t(`lab.look.${spec.key}`)]);
}

/** What the comparison shows, in words: each finished run against √d_k, and the time taken. */
export function renderSummary(el, cmp) {
  const done = cmp.runs.filter((r) => r.finished);
  const ref = done.find((r) => r.option === 'sqrt' && !r.diverged);
  const lines = done.map((r) => {
    if (r.diverged) return t('lab.sum.diverged', { label: divisorLabel(r), step: int(r.diverged) });
    const acc = fixed(100 * r.eval.accuracy, 1);
    const clips = cmp.plan.config.qkClip > 0 ? ' ' + t('lab.run.clips', { n: int(r.qkClips), steps: int(r.stepsDone) }) : '';
    if (!r.stepsTo90) return t('lab.sum.never', { label: divisorLabel(r), steps: int(cmp.plan.steps), acc }) + clips;
    if (ref && ref !== r && ref.stepsTo90)
      return t('lab.sum.reachedVs', { label: divisorLabel(r), step: int(r.stepsTo90), acc, ratio: decimals(r.stepsTo90 / ref.stepsTo90, 1) }) + clips;
    return t('lab.sum.reached', { label: divisorLabel(r), step: int(r.stepsTo90), acc }) + clips;
  });
  const c = cmp.plan.config;
  el.replaceChildren(
    h('h3', { text: t('lab.sum.heading') }),
    h('p', { text: t('lab.sum.setting', { dk: int(c.dk), heads: int(c.heads), opt: t(`lab.opt.${c.optimizer}`), lr: num(c.lr, 3), steps: int(c.steps), seed: c.seed }) }),
    ...(stabilisersText(c) ? [h('p', { class: 'lab-sum-stab', text: t('lab.sum.stab', { what: stabilisersText(c) }) })] : []),
    h('ul', {}, lines.map((line) => h('li', { text: line }))),
    ...mechanismParts(done, c),
    ...spikeParts(done, cmp),
    ...(cmp.totalMs === null ? [h('p', { class: 'hint', text: t('lab.sum.partial') })] : [
      h('p', { class: 'lab-sum-time', text: t('lab.sum.time', {
        seconds: decimals(cmp.totalMs / 1000, 1), n: int(cmp.runs.length), workers: int(cmp.workers) }) }),
      h('p', { class: 'hint', text: t('lab.sum.note') })]));
}

// A run that learned and then lost it while its logits grew (the scaled run
// of the default comparison, near step 1360): said from its numbers, with
// links to the same comparison beside QK-LayerNorm and with a soft-cap.
function spikeParts(done, cmp) {
  const c = cmp.plan.config;
  const found = done.filter((r) => !r.diverged).map((r) => [r, lossSpike(r.data)]).filter(([, s]) => s);
  if (!found.length) return [];
  flush();  // the address holds the form as it is
  const here = new URL(location.href);
  const link = (key, param, value) => {
    const u = new URL(here);
    u.searchParams.set(param, value);
    return h('a', { href: `${u.pathname}${u.search.replace(/%2C/g, ',')}`, class: `lab-sum-try-${key}`, text: t(`lab.sum.try.${key}`) });
  };
  const offers = [];
  if (!cmp.runs.some((r) => r.option === 'qknorm')) offers.push(link('qknorm', 'div', [...new Set([...cmp.runs.map((r) => r.option), 'qknorm'])].join(',')));
  if (!(c.softcap > 0)) offers.push(link('cap', 'cap', '50'));
  return found.map(([r, s]) => h('p', { class: 'lab-sum-spike', dataset: { div: r.option, step: String(s.step) } },
    t('lab.sum.spike', {
      label: divisorLabel(r), low: num(s.low, 2), lowStep: int(s.lowStep), step: int(s.step), peak: num(s.peak, 3), peakStep: int(s.peakStep),
      g0: num(s.g0, 3), g1: num(s.g1, 3), g1Step: int(s.g1Step), ratio: decimals(s.ratio, 1),
    }),
    ...(offers.length ? [' ', t('lab.sum.try'), ' ', ...offers.flatMap((a, i) => (i ? [t('lab.sum.tryOr'), a] : [a])), t('lab.sum.tryEnd')] : [])));
}

// Each finished run's mechanism in its own numbers (train/mechanism.js), and,
// beside a √d_k run, why a run with a smaller divisor starts with a larger
// gradient and still does not learn (with Adam).
function mechanismParts(done, config) {
  const rows = done.filter((r) => !r.diverged).map((r) => [r, runMechanism(r.data)]).filter(([, m]) => m);
  if (!rows.length) return [];
  const items = rows.map(([r, m]) => h('li', { dataset: { div: r.option }, text: t('lab.sum.mechanism', {
    label: divisorLabel(r), max1: percent(m.max1), corr1: percent(m.corr1), step: int(m.step), l1: num(m.l1, 3),
    l2: num(m.l2, 3), frozen: percent(m.frozen), corr: percent(m.corr),
    rels: m.rels.map((x) => num(x, 2)).join(t('lab.sum.listSep')),
  }) }));
  const parts = [h('p', { class: 'lab-sum-mech-intro', text: t('lab.sum.mechIntro') }), h('ul', { class: 'lab-sum-mech' }, items)];
  const sqrt = rows.find(([r]) => r.option === 'sqrt');
  // The run with the smallest divisor below √d_k's, beside √d_k.
  const low = rows.filter(([r]) => r.divisorValue > 0 && sqrt && r.divisorValue < sqrt[0].divisorValue)
    .sort((a, b) => a[0].divisorValue - b[0].divisorValue)[0];
  // Said only where it is what happened: with Adam, √d_k reached 90% and the other run did not.
  if (sqrt && low && config.optimizer === 'adam' && sqrt[0].stepsTo90 > 0 && !low[0].stepsTo90) {
    const [r, m] = low;
    const cratio = sqrt[0].divisorValue / r.divisorValue;
    const larger = m.gradWq1 > sqrt[1].gradWq1;
    parts.push(h('p', { class: 'lab-sum-why', dataset: { larger: String(larger) }, text: t(larger ? 'lab.sum.why' : 'lab.sum.whySmaller', {
      label: divisorLabel(r), g1: num(m.gradWq1, 3), gs: num(sqrt[1].gradWq1, 3), ratio: decimals(m.gradWq1 / sqrt[1].gradWq1, 1),
      cratio: num(cratio, 3), root: num(sqrt[0].divisorValue, 4), div: num(r.divisorValue, 4),
    }) }));
  }
  return parts;
}
