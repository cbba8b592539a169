// The saturation explorer's curves as a table (their table alternative): a
// row per point of the axis and divisor, each statistic's mean ± standard
// error. Filled only while open, by this module, which <attn-saturation>
// loads when the reader first opens the table (an embedded widget's first
// load stays within its gzip budget).
import { t } from '../base/i18n.js';
import { int, num } from '../base/format.js';
import { fillTable, h } from '../base/dom.js';

export function fill(w, STATS, fmtStat) {
  const tb = w.curveTable;
  const a = w.axis;
  fillTable(tb, [t(a.text[5]), ...['divisor', 'rows', ...STATS].map((s) => t(`sat.col.${s}`))], []);
  const rows = [];
  for (const x of a.xs)
    for (const [key] of a.curves) {
      const p = w.sweep.get(`${x}|${key}`);
      if (!p) continue;
      rows.push(h('tr', { dataset: { [a.key]: x, div: key } },
        h('th', { scope: 'row', text: int(x) }),
        h('td', { text: num(p.divisor, 6) }),
        h('td', { text: int(p.n) }),
        ...STATS.map((s) => h('td', { dataset: { stat: s, mean: p.stats[s].mean }, text: `${fmtStat(s, p.stats[s].mean)} ± ${num(p.stats[s].se, 2)}` }))));
    }
  tb.body.replaceChildren(...rows);
}
