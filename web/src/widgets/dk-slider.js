// d_k slider: one sampled row of m scores q·k_j (random N(0,1) vectors in R^d_k)
// and its softmax unscaled and divided by √d_k, as two bar charts plus a data
// table. At large d_k the unscaled bars turn one-hot; the scaled ones do not.
//
// mount(element, client, {m, dk, seed, idPrefix}) -> {relabel()}. d_k and the seed are
// kept in the URL (?dk=4096&seed=1) so a view can be shared.
import { t } from '../i18n.js';
import { DASH, fixed, int, num, percent } from '../format.js';
import { h, setFieldError } from '../dom.js';
import { parseNumber } from '../parse.js';
import { getParam, setParam } from '../url.js';

const LOG2_MAX = 12; // the slider spans d_k = 2^0 .. 2^12 = 4096
export const DEFAULTS = { m: 16, dk: 64, seed: 1 };

function fromUrl(name, fallback, ok) {
  const text = getParam(name);
  const r = text === null ? { error: true } : parseNumber(text);
  return !r.error && ok(r.value) ? r.value : fallback;
}

function randomSeed() {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

export function mount(root, client, options = {}) {
  const m = options.m ?? DEFAULTS.m;
  const idPrefix = options.idPrefix ?? 'dk';
  const isInt = (x) => Number.isInteger(x) && x >= 0;
  let dk = options.dk ?? fromUrl('dk', DEFAULTS.dk, (x) => isInt(x) && x >= 1);
  let seed = options.seed ?? fromUrl('seed', DEFAULTS.seed, isInt);
  let gen = 0;
  let shown = null; // last good result, kept on screen while an edit is invalid
  let parseError = null; // the number field's text is not a number (checked in JS)
  let coreError = null; // the core rejected the last request (e.g. d_k out of range)

  const range = h('input', { id: `${idPrefix}-range`, type: 'range', min: 0, max: LOG2_MAX, step: 1 });
  const number = h('input', {
    id: `${idPrefix}-number`, type: 'text', inputmode: 'numeric', autocomplete: 'off', size: 6,
    'aria-describedby': `${idPrefix}-number-msg`,
  });
  const msg = h('p', { id: `${idPrefix}-number-msg`, class: 'msg', 'aria-live': 'polite' });
  const output = h('output', { id: `${idPrefix}-output`, for: `${range.id} ${number.id}` });
  const rangeLabel = h('label', { for: range.id });
  const numberLabel = h('label', { for: number.id });
  const resample = h('button', { type: 'button', id: `${idPrefix}-resample` });
  const seedText = h('span', { class: 'seed', id: `${idPrefix}-seed` });

  const charts = ['unscaled', 'scaled'].map((key) => {
    const bars = Array.from({ length: m }, () => h('span', { class: 'bar' }, h('span', { class: 'fill' })));
    const titleEl = h('span', { class: 'chart-title' });
    const statsEl = h('span', { class: 'chart-stats', dataset: { chart: key } });
    const plot = h('div', { class: 'bars', role: 'img' }, bars);
    const fig = h('figure', { class: `chart chart-${key}` }, h('figcaption', {}, titleEl, statsEl), plot);
    return { key, bars, titleEl, statsEl, plot, fig };
  });
  const axisNote = h('p', { class: 'axis-note' });
  const intro = h('p', { class: 'intro' });

  // The accessible (and testable) alternative to the charts.
  // The table's name sits outside its scroll box, so it never scrolls out of view.
  const tCaption = h('p', { id: `${idPrefix}-table-title`, class: 'table-title' });
  const tHead = ['table.key', 'table.score', 'table.scaledScore', 'table.pUnscaled', 'table.pScaled']
    .map((k) => h('th', { scope: 'col', dataset: { i18nCol: k } }));
  const tBody = h('tbody');
  const footRows = ['entropy', 'maxProb'].map((stat) => {
    const th = h('th', { scope: 'row', colspan: 3 });
    const u = h('td', { dataset: { col: 'unscaled' } });
    const s = h('td', { dataset: { col: 'scaled' } });
    return { stat, th, u, s, tr: h('tr', { dataset: { stat } }, th, u, s) };
  });
  const table = h('table', { id: `${idPrefix}-table`, class: 'data-table', 'aria-labelledby': tCaption.id },
    h('thead', {}, h('tr', {}, tHead)), tBody, h('tfoot', {}, footRows.map((r) => r.tr)));
  const summary = h('summary');
  const scroller = h('div', { class: 'table-scroll', tabindex: 0, role: 'region' }, table);
  const details = h('details', { class: 'data-details' }, summary, tCaption, scroller);

  root.replaceChildren(
    intro,
    h('div', { class: 'controls' },
      h('div', { class: 'field field-range' }, h('div', { class: 'range-head' }, rangeLabel, output), range),
      h('div', { class: 'field field-dk' }, numberLabel, number, msg),
      h('div', { class: 'field field-seed' }, resample, seedText)),
    h('div', { class: 'charts' }, charts.map((c) => c.fig)),
    axisNote,
    details);

  range.addEventListener('input', () => {
    dk = 2 ** Number(range.value);
    number.value = String(dk);
    parseError = null;
    update();
  });
  number.addEventListener('input', () => {
    const r = parseNumber(number.value);
    parseError = r.error ?? null;
    if (parseError) {
      render();
      return;
    }
    dk = r.value;
    update();
  });
  resample.addEventListener('click', () => {
    seed = randomSeed();
    update();
  });

  // The slider follows the d_k on show (nearest power of two), not a rejected one.
  function syncRange(value) {
    range.value = String(Math.min(LOG2_MAX, Math.max(0, Math.round(Math.log2(value)))));
  }

  // fromUser: write d_k and the seed to the URL (not on first load, so a plain
  // visit keeps a plain URL).
  async function update(fromUser = true) {
    const g = ++gen;
    const want = { dk, seed };
    let next = null;
    let error = null;
    try {
      const [divisor, scores] = await Promise.all([
        client.call('resolveDivisor', ['sqrt', want.dk]),
        client.call('sampleScoreRow', [want.dk, m, want.seed]),
      ]);
      const raw = Float64Array.from(scores);
      const [unscaled, scaled] = await Promise.all([
        client.call('softmaxStats', [raw, 1]),
        client.call('softmaxStats', [raw, divisor.value]),
      ]);
      next = { ...want, divisor, scores: raw, unscaled, scaled };
    } catch (e) {
      error = { core: e.message };
    }
    if (g !== gen) return;
    coreError = error;
    if (next) {
      shown = next;
      syncRange(next.dk);
      if (fromUser) {
        setParam('dk', next.dk);
        setParam('seed', next.seed);
      }
    }
    render();
  }

  function render() {
    intro.textContent = t('slider.intro', { m: int(m) });
    rangeLabel.textContent = t('slider.rangeLabel');
    numberLabel.textContent = t('slider.numberLabel');
    resample.textContent = t('slider.resample');
    range.setAttribute('aria-valuetext', t('slider.valuetext', { dk: int(2 ** Number(range.value)) }));
    const err = parseError ?? coreError;
    setFieldError(number, msg, !err ? '' : err.core !== undefined ? t('err.core', { message: err.core }) : t(err.key, err.params));
    axisNote.textContent = t('chart.axis');
    summary.textContent = t('table.summary');
    scroller.setAttribute('aria-label', t('table.scroll'));
    for (const th of tHead) th.textContent = t(th.dataset.i18nCol);
    footRows[0].th.textContent = t('table.entropy');
    footRows[1].th.textContent = t('table.maxProb');
    root.classList.toggle('is-stale', Boolean(err) && Boolean(shown));

    const s = shown;
    seedText.textContent = t('slider.seed', { seed: int(s ? s.seed : seed) });
    output.textContent = s ? t('slider.output', { dk: int(s.dk), sqrt: num(s.divisor.value, 6) }) : DASH;
    tCaption.textContent = s ? t('table.caption', { dk: int(s.dk), seed: int(s.seed) }) : '';
    for (const c of charts) {
      c.titleEl.textContent = t(`chart.${c.key}`);
      const st = s?.[c.key];
      c.statsEl.textContent = st
        ? t('chart.stats', { entropy: fixed(st.entropy, 3), maxProb: percent(st.maxProb) })
        : DASH;
      c.bars.forEach((bar, j) => {
        const p = st ? st.probs[j] : 0;
        // CSSOM, not a style attribute: allowed under style-src 'self'.
        bar.firstChild.style.height = `${(p * 100).toFixed(3)}%`;
      });
      c.plot.setAttribute('aria-label', `${t(`chart.${c.key}`)}: ${c.statsEl.textContent}`);
    }
    tBody.replaceChildren(...(s
      ? Array.from(s.scores, (x, j) => h('tr', {},
          h('th', { scope: 'row', text: int(j + 1) }),
          h('td', { text: num(x, 4) }),
          h('td', { text: num(x / s.divisor.value, 4) }),
          h('td', { text: percent(s.unscaled.probs[j]) }),
          h('td', { text: percent(s.scaled.probs[j]) })))
      : []));
    footRows.forEach((r) => {
      r.u.textContent = s ? (r.stat === 'entropy' ? fixed(s.unscaled.entropy, 3) : percent(s.unscaled.maxProb)) : DASH;
      r.s.textContent = s ? (r.stat === 'entropy' ? fixed(s.scaled.entropy, 3) : percent(s.scaled.maxProb)) : DASH;
    });
  }

  number.value = String(dk);
  syncRange(dk);
  render();
  update(false);
  return { relabel: render };
}
