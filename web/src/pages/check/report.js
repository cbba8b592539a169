// Draws a checker report (the JSON of cpp/core/checker/report.h, as `attnlab check`
// prints it): a summary line, a per-head bar chart of saturated rows at each
// divisor, the per-head table (the chart's text alternative), and its CSV.
import { h } from '../../base/dom.js';
import { t } from '../../base/i18n.js';
import { decimals, fixed, int, num, percentNumber, significant } from '../../base/format.js';
import './strings.js';

const SVG = 'http://www.w3.org/2000/svg';

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

/** A divisor as the page writes it: √dₖ = 8, dₖ = 64, 2. */
export function divisorText(d) {
  const v = significant(d.value);
  if (d.label === 'sqrt') return `√dₖ = ${v}`;
  if (d.label === 'dk') return `dₖ = ${v}`;
  return v;
}

// CSS class of a divisor's colour (style.css's --c-* palette).
function divisorClass(d) {
  return { sqrt: 'ck-d-sqrt', dk: 'ck-d-dk', 1: 'ck-d-one', 2: 'ck-d-two' }[d.label] ?? 'ck-d-custom';
}

/** The verdict's reason, in the page's language, from its code and the numbers. */
export function reasonText(head, model, from = 'init', keys = 0) {
  const d = head.divisors[model];
  const params = {
    pct: percentNumber(d.saturated_share),
    sharp: percentNumber(d.sharp_share),
    frozen: percentNumber(d.frozen_share),
    grad: num(d.grad_median, 2),  // 1.7 × 10⁻⁵, or 10⁻⁷⁶ when frozen
    rowStd: significant(d.row_logit_std),
    ent: significant(d.entropy_mean),
    n: String(keys),
    lnN: significant(Math.log(keys)),
    std: significant(d.logit_std),
    v: significant(head.reason_code === 'entry_var_k' ? head.k.var : head.q.var),
  };
  let text = t(`check.reason_${head.reason_code}`, params);
  // A divisor for variance 1 is advice for a fresh layer, not for one that learned to be sharp.
  if (from === 'init' && ['frozen_rows', 'logit_std', 'flat_logits'].includes(head.reason_code) && head.suggested_divisor)
    text += t('check.reasonFix', { d: significant(head.suggested_divisor) });
  return text;
}

/** A fitted or expected divisor as the CLI's sentence writes it (scale_fit.cpp num()): 8.0, 22.6, 64, 0.354. */
export function fitNumber(c) {
  if (c >= 10 && Math.abs(c - Math.round(c)) < 0.05) return int(c);
  if (c >= 1) return decimals(c, 1);
  return significant(c, 3);
}

/** The expected divisor as the CLI writes it (scale_fit.cpp expected_form): 8.0 = √64, 64 = dₖ, 12 = √144. */
function expectedText(report) {
  const e = report.scale_fit.expected;
  const { dk } = report.shape;
  const label = report.divisor.label;
  const sq = e * e, r = Math.round(sq);
  const form = label === 'sqrt' ? ` = √${dk}` : label === 'dk' ? ' = dₖ'
    : (report.preset || e !== Math.round(e)) && r >= 2 && Math.abs(sq - r) <= 1e-9 * r ? ` = √${r}` : '';
  return fitNumber(e) + form;
}

/**
 * The scale fit's sentence for a head (report.h's scale_fit), in the page's
 * language; '' without one. `presetLabel` names the preset the expectation came from.
 */
export function fitText(head, report, presetLabel = '') {
  const f = head.scale_fit;
  if (!f) return '';
  const dk = report.shape.dk;
  const c = Number.isFinite(f.c) ? f.c : NaN;
  const r = Math.round((c * c) / dk);
  const e = expectedText(report);
  const params = {
    c: Number.isFinite(c) ? fitNumber(c) : '—',
    res: Number.isFinite(f.residual) ? significant(f.residual, 2) : '—',
    spread: Number.isFinite(f.spread) ? significant(f.spread, 2) : '—',
    e: presetLabel ? t('check.fitPreset', { e, preset: presetLabel }) : e,
    dk: String(dk),
    sdk: fitNumber(Math.sqrt(dk)),
    r: String(r),
    w: String(r * dk),
    after: Number.isFinite(f.after_softmax) ? significant(f.after_softmax) : '',
    inv: Number.isFinite(f.after_softmax) ? fitNumber(1 / f.after_softmax) : '',
    masked: String(f.masked),
    capped: String(f.capped),
    cap: report.scale_fit.softcap ? significant(report.scale_fit.softcap) : '',
  };
  const key = f.verdict === 'expected' && report.scale_fit.expected === 1 ? 'fit_expectedNone' : `fit_${f.verdict}`;
  return t(`check.${key}`, params) + (report.scale_fit.softcap ? t('check.fitSoftcap', params) : '') +
    (f.masked ? t('check.fitMasked', params) : '') + (f.capped ? t('check.fitCapped', params) : '');
}

// The verdicts, most serious first.
const VERDICTS = ['frozen', 'sharp', 'at_risk', 'too_flat', 'fine'];

/** The heads per verdict, as "2 frozen, 1 at risk" (only the verdicts present). */
function countsText(report, from) {
  return VERDICTS.map((v) => [v, report.heads.filter((hd) => hd.verdict === v).length])
    .filter(([, n]) => n > 0)
    .map(([v, n]) => t(from === 'trained' && (v === 'at_risk' || v === 'fine') ? `check.countTrained_${v}` : `check.count_${v}`, { n }))
    .join(t('check.countSep'));
}

/** A verdict as the page words it: a trained model's peaked rows are no fault. */
export const verdictText = (verdict, from) => t(from === 'trained' ? `check.trained_${verdict}` : `check.${verdict}`);

/** Where the divisor the verdicts use came from, as a phrase after it ('' when the reader gave it). */
const sourceText = (report) => (['file', 'default'].includes(report.divisor.source) ? t(`check.source_${report.divisor.source}`) : '');

function summary(report, fileLabel, from, presetLabel) {
  const { heads, n_q: nq, dk, sequences: seqs, keys_per_query: nk } = report.shape;
  const fine = report.heads.filter((hd) => hd.verdict === 'fine').length;
  return [h('p', {
    id: 'check-summary',
    text: t(seqs > 1 ? 'check.summarySeq' : 'check.summary', {
      file: fileLabel, heads, seqs, nq: nq / seqs, nk, dk, format: report.format,
      divisor: divisorText(report.heads[0].divisors[report.divisor.index]) +
        (presetLabel ? t('check.summaryPreset', { preset: presetLabel }) : sourceText(report)),
      counts: countsText(report, from),
    }),
  }), (from === 'trained' || fine < heads) && h('p', {
    id: 'check-from-note', class: 'ck-from-note',
    text: t(from === 'trained' ? 'check.trainedNote' : 'check.initNote'),
  })].filter(Boolean);
}

// Grouped bars: one group per head, one bar per divisor, height = share of
// saturated rows; dashed lines at the at-risk (10%) and saturated (50%) shares.
// Drawn in a viewBox as wide as its box (at most 720 units), so its text keeps
// its size on a phone and many heads give thinner bars, not a wider chart.
function chart(report, boxWidth) {
  const divs = report.heads[0].divisors;
  const H = report.heads.length, D = divs.length;
  const width = Math.round(Math.min(720, Math.max(280, boxWidth || 720)));
  const left = 40, right = 8, top = 10, plotH = 170, bottom = 24;
  const slot = (width - left - right) / H;
  const groupGap = Math.min(16, slot * 0.25);
  const bar = Math.min(26, (slot - groupGap) / D);
  const groupW = bar * D;
  const y = (share) => top + plotH * (1 - share);
  const root = svg('svg', {
    viewBox: `0 0 ${width} ${top + plotH + bottom}`, class: 'check-chart', role: 'img',
    'aria-labelledby': 'check-chart-title', 'aria-describedby': 'check-chart-desc',
  });
  root.append(svg('title', { id: 'check-chart-title' }, t('check.chartTitle')),
    svg('desc', { id: 'check-chart-desc' }, t('check.chartAlt')));
  for (const share of [0, 0.5, 1])
    root.append(svg('text', { x: left - 6, y: y(share) + 4, class: 'ck-tick', 'text-anchor': 'end' }, `${share * 100}%`));
  root.append(svg('line', { x1: left, x2: width - right, y1: y(0), y2: y(0), class: 'ck-axis' }));
  const labelEvery = Math.ceil(H / Math.floor(width / 22));
  report.heads.forEach((hd, i) => {
    const x0 = left + i * slot + (slot - groupW) / 2;
    hd.divisors.forEach((d, j) => {
      const hgt = Math.max(plotH * d.saturated_share, d.saturated_share > 0 ? 1 : 0);
      root.append(svg('rect', {
        x: x0 + j * bar, y: y(0) - hgt, width: Math.max(bar - 1, 0.5), height: hgt,
        class: `ck-bar ${divisorClass(d)}${j === report.divisor.index ? ' ck-is-model' : ''}`,
      }, svg('title', {}, `${t('check.head')} ${hd.head}, ÷ ${divisorText(d)}: ${percentNumber(d.saturated_share)}%`)));
    });
    if (i % labelEvery === 0)
      root.append(svg('text', { x: x0 + groupW / 2, y: y(0) + 16, class: 'ck-tick', 'text-anchor': 'middle' }, String(hd.head)));
  });
  for (const [share, cls] of [[0.5, 'ck-line-sat'], [0.1, 'ck-line-risk']])
    root.append(svg('line', { x1: left, x2: width - right, y1: y(share), y2: y(share), class: `ck-threshold ${cls}` }));
  const legend = h('ul', { class: 'check-legend' },
    divs.map((d) => h('li', {}, h('span', { class: `ck-swatch ${divisorClass(d)}`, 'aria-hidden': 'true' }), `÷ ${divisorText(d)}`)),
    h('li', {}, h('span', { class: 'ck-swatch ck-line-sat', 'aria-hidden': 'true' }), t('check.chartLineSat')),
    h('li', {}, h('span', { class: 'ck-swatch ck-line-risk', 'aria-hidden': 'true' }), t('check.chartLineRisk')));
  return h('figure', { class: 'check-figure' }, h('figcaption', { text: t('check.chartTitle') }), root, legend);
}

// Two header rows: the entries, the logits' spread at every divisor, and the
// softmax rows at the model's divisor, each group under a heading. Each head
// is two rows: its numbers, then the verdict's reason across the table (so the
// table fits a laptop's width). Every cell carries its column's name
// (data-label), which a narrow screen shows as a card (check.css).
function table(report, from, presetLabel) {
  const model = report.divisor.index;
  const divs = report.heads[0].divisors;
  const md = divs[model];
  const col = (text, attrs = {}) => h('th', { scope: 'col', text, ...attrs });
  const single = (text) => col(text, { rowspan: 2 });
  const entries = [t('check.qMean'), t('check.qVar'), t('check.kMean'), t('check.kVar'), t('check.corr')];
  const rowsCols = [t('check.satRows'), t('check.maxProb'), t('check.entropy', { max: significant(Math.log(report.shape.keys_per_query)) })];
  const rowsGroup = t('check.rowsGroup', { divisor: divisorText(md) });
  const head1 = h('tr', {},
    single(t('check.head')), single(t('check.verdict')), entries.map(single),
    h('th', { scope: 'colgroup', colspan: divs.length, class: 'ck-group', text: t('check.stdGroup') }),
    h('th', { scope: 'colgroup', colspan: 3, class: 'ck-group', text: rowsGroup }),
    single(t('check.suggested')));
  const head2 = h('tr', {},
    divs.map((d, j) => col(`÷\u00a0${divisorText(d)}`, { class: j === model ? 'ck-is-model' : undefined })),
    rowsCols.map((c) => col(c)));
  const ncols = 8 + divs.length + 3;
  const num = (label, text, extra = '') => h('td', { class: `ck-num${extra}`, dataset: { label }, text });
  const rows = report.heads.flatMap((hd) => {
    const m = hd.divisors[model];
    return [h('tr', { dataset: { verdict: hd.verdict } },
      h('th', { scope: 'row', dataset: { label: t('check.head') }, text: String(hd.head) }),
      h('td', { class: `ck-verdict ck-v-${from === 'trained' && hd.verdict !== 'frozen' ? 'trained' : hd.verdict}`, dataset: { label: t('check.verdict') }, text: verdictText(hd.verdict, from) }),
      [hd.q.mean, hd.q.var, hd.k.mean, hd.k.var, hd.correlation].map((x, i) => num(entries[i], significant(x))),
      hd.divisors.map((d, j) => num(`${t('check.stdGroup')} ÷ ${divisorText(d)}`, significant(d.logit_std), j === model ? ' ck-is-model' : '')),
      [`${percentNumber(m.saturated_share)}%`, significant(m.max_prob_mean), fixed(m.entropy_mean)]
        .map((x, i) => num(`${rowsGroup}: ${rowsCols[i]}`, x)),
      num(t('check.suggested'), significant(hd.suggested_divisor))),
    h('tr', { class: 'ck-why-row' },
      h('td', { class: 'ck-why', colspan: ncols },
        h('span', { class: 'ck-why-label', text: t('check.whyLabel') }), ' ', reasonText(hd, model, from, report.shape.keys_per_query))),
    hd.scale_fit ? h('tr', { class: 'ck-why-row ck-fit-row' },
      h('td', { class: 'ck-why ck-fit', colspan: ncols, dataset: { fit: hd.scale_fit.verdict } },
        h('span', { class: 'ck-why-label', text: t('check.fitLabel', { input: report.scale_fit.input }) }), ' ', fitText(hd, report, presetLabel))) : null];
  });
  // The title sits outside the scrolling box, so a narrow screen shows all of it.
  return [
    h('p', { id: 'check-table-caption', class: 'ck-caption', text: t('check.tableCaption', { divisor: divisorText(md) }) }),
    h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-labelledby': 'check-table-caption' },
      h('table', { id: 'check-table', class: 'data-table', 'aria-labelledby': 'check-table-caption' },
        h('thead', {}, head1, head2),
        h('tbody', {}, rows))),
  ];
}

function csvField(v) {
  const t = v === null || v === undefined ? '' : String(v);
  return /[",\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

// The scale fit's columns (report.h's scale_fit), when the report has one.
const FIT_COLUMNS = ['verdict', 'c', 'residual', 'entries', 'masked', 'capped', 'row_sum_min', 'row_sum_max', 'after_softmax', 'sentence'];

/**
 * The per-head table as CSV (full precision, English column names, one row a
 * head); with the scale fit, its columns too (fit_input, fit_expected and the
 * preset repeat on every row).
 */
export function reportCsv(report) {
  const divs = report.heads[0].divisors;
  const fit = report.scale_fit;
  const header = ['head', 'verdict', 'reason_code', 'q_mean', 'q_var', 'k_mean', 'k_var', 'correlation',
    'logit_mean', 'logit_std', 'logit_row_std', 'suggested_divisor',
    ...divs.flatMap((d) => ['logit_std', 'saturated_share', 'max_prob_mean', 'entropy_mean',
      'sharp_share', 'frozen_share', 'grad_median', 'row_logit_std'].map((k) => `${k}_div_${d.label}`)),
    'divisor', 'divisor_source', 'reason',
    ...(fit ? ['preset', 'fit_input', 'fit_expected', 'fit_softcap', ...FIT_COLUMNS.map((k) => `fit_${k}`)] : [])];
  const lines = [header.join(',')];
  for (const hd of report.heads) {
    lines.push([hd.head, hd.verdict, hd.reason_code, hd.q.mean, hd.q.var, hd.k.mean, hd.k.var, hd.correlation,
      hd.logits.mean, hd.logits.std, hd.logits.row_std, hd.suggested_divisor,
      ...hd.divisors.flatMap((d) => [d.logit_std, d.saturated_share, d.max_prob_mean, d.entropy_mean,
        d.sharp_share, d.frozen_share, d.grad_median, d.row_logit_std]),
      report.divisor.value, report.divisor.source, hd.reason,
      ...(fit ? [report.preset, fit.input, fit.expected, fit.softcap, ...FIT_COLUMNS.map((k) => hd.scale_fit[k])] : []),
    ].map(csvField).join(','));
  }
  return lines.join('\n') + '\n';
}

/**
 * Fills `root` with the report. `fileLabel` names the file(s) in the summary;
 * `onExport()` is called by the CSV button; `from` ('init' | 'trained') is
 * where the reader says q and k come from, and words the verdicts;
 * `presetLabel` names the preset the divisor came from ('' for none).
 */
export function renderReport(root, report, fileLabel, onExport, from = 'init', presetLabel = '') {
  root.replaceChildren(
    h('h2', { id: 'check-result-heading', text: t('check.resultHeading') }),
    ...summary(report, fileLabel, from, presetLabel),
    chart(report, root.clientWidth),
    ...table(report, from, presetLabel),
    h('p', { class: 'note', text: t('check.rules') }),
    h('p', {}, h('button', { type: 'button', id: 'check-export', text: t('check.exportCsv'), onclick: onExport })),
  );
}
