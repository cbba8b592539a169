// "Test the claim": a grid of runs (d_k × divisor × optimiser) trained in the
// background, one run per worker at a time, filling a table of final held-out
// accuracy and steps to 90% batch accuracy, and prose that reads the table as
// it stands. Task, heads and seed come from the comparison's form; the
// learning rate is the core's reference rate for each optimiser and d_k, or,
// with a list of rates (sweep-lr.js), each cell runs at every rate: the table
// gains a rate column, the final loss, largest |logit| and attention entropy
// per cell, and a chart per optimiser and d_k draws final loss against rate.
// The columns (and lines) are series (sweep-series.js): the divisors, plus
// optional stabiliser series; every cell carries the setup's soft-cap,
// QK-clip and init as the CLI's sweep does with --softcap, --qk-clip, --init.
// Its own pool of workers, so it never waits for the comparison's.
import { h, setFieldError } from '../../base/dom.js';
import { t } from '../../base/i18n.js';
import { loadErrorStrings, readerError } from '../../bridge/errors.js';
import { errorFields } from '../../bridge/rpc.js';
import { readState, writeState } from '../../base/state.js';
import { decimals, fixed, int, num } from '../../base/format.js';
import './strings.js';
import {
  FIXED, EVAL_SAMPLES, MAX_STEPS, OPTIMIZERS, PRESETS, SWEEP_DKS, SWEEP_LR_STATE, SWEEP_PREFIX, SWEEP_STATE,
  capNumber, parseSteps, trainOptions,
} from '../../train/config.js';
import { Pool, CORES } from '../../train/pool.js';
import { swatch } from './swatch.js';
import { lrChart, parseLrList } from './sweep-lr.js';
import { STAB_SERIES, SWEEP_STAB_STATE, cellOptions, sweepSeries } from './sweep-series.js';
import { sweepCsv, sweepJson } from './sweep-export.js';
import { download } from './export.js';

export function mountSweep(section, { formValues }) {
  const pool = new Pool('sweep');
  const group = (name, values, checked) => {
    const boxes = values.map((v) => {
      const input = h('input', { type: 'checkbox', id: `lab-sw-${name}-${v}`, value: String(v) });
      input.checked = checked.includes(String(v));
      return { v: String(v), input, label: h('label', { for: input.id }) };
    });
    const legend = h('legend');
    const el = h('fieldset', { class: 'field', id: `lab-sw-${name}` }, legend,
      h('div', { class: 'checks' }, boxes.map((b) => h('span', { class: 'check' }, b.input, b.label))));
    return { boxes, legend, el, checked: () => boxes.filter((b) => b.input.checked).map((b) => b.v) };
  };
  // Unknown items in a link are dropped without a notice: the boxes show what was kept.
  const { values: fromUrl } = readState(SWEEP_PREFIX, SWEEP_STATE);
  const { values: lrFromUrl } = readState(SWEEP_PREFIX, SWEEP_LR_STATE);
  const { values: stabFromUrl } = readState(SWEEP_PREFIX, SWEEP_STAB_STATE);
  const G = {
    dk: group('dk', SWEEP_DKS, fromUrl.dk), div: group('div', PRESETS, fromUrl.div), opt: group('opt', OPTIMIZERS, fromUrl.opt),
  };
  const steps = h('input', {
    type: 'text', id: 'lab-sw-steps', inputmode: 'numeric', value: fromUrl.steps, autocomplete: 'off',
    'aria-describedby': 'lab-sw-steps-msg',
  });
  const stepsLabel = h('label', { for: steps.id });
  const stepsMsg = h('p', { class: 'msg', id: 'lab-sw-steps-msg', 'aria-live': 'polite' });
  const lrInput = h('input', {
    type: 'text', id: 'lab-sw-lr', inputmode: 'decimal', value: lrFromUrl.lr, autocomplete: 'off', placeholder: 'auto',
    'aria-describedby': 'lab-sw-lr-hint lab-sw-lr-msg',
  });
  const lrLabel = h('label', { for: lrInput.id });
  const lrHint = h('p', { class: 'hint', id: 'lab-sw-lr-hint' });
  const lrMsg = h('p', { class: 'msg', id: 'lab-sw-lr-msg', 'aria-live': 'polite' });
  // The stabiliser series: a box each, and for soft-cap and QK-clip the value, its message beside it.
  const S = STAB_SERIES.map((s) => {
    const box = h('input', { type: 'checkbox', id: `lab-sw-stab-${s.key}`, value: s.key });
    box.checked = stabFromUrl.stab.includes(s.key);
    const label = h('label', { for: box.id });
    const input = s.field ? h('input', {
      type: 'text', id: `lab-sw-${s.key}`, inputmode: 'decimal', value: stabFromUrl[s.key], autocomplete: 'off',
      'aria-describedby': `lab-sw-${s.key}-msg`,
    }) : null;
    const valueLabel = input ? h('label', { for: input.id, class: 'visually-hidden' }) : null;
    const msgEl = input ? h('p', { class: 'msg', id: `lab-sw-${s.key}-msg`, 'aria-live': 'polite' }) : null;
    const el = h('div', { class: 'lab-sw-stab' }, h('span', { class: 'check' }, box, label), valueLabel, input, msgEl);
    return { ...s, box, label, input, valueLabel, msgEl, el };
  });
  const stabLegend = h('legend');
  const stabHint = h('p', { class: 'hint', id: 'lab-sw-stab-hint' });
  const stabSet = h('fieldset', { class: 'field', id: 'lab-sw-stab', 'aria-describedby': stabHint.id }, stabLegend,
    S.map((x) => x.el), stabHint);
  const charts = h('div', { id: 'lab-sw-charts', class: 'lab-lr-charts' });
  const startBtn = h('button', { type: 'button', id: 'lab-sw-start', class: 'primary' });
  const stopBtn = h('button', { type: 'button', id: 'lab-sw-stop', disabled: true });
  const csvBtn = h('button', { type: 'button', id: 'lab-sw-csv', disabled: true });
  const jsonBtn = h('button', { type: 'button', id: 'lab-sw-json', disabled: true });
  const msg = h('p', { class: 'msg', id: 'lab-sw-msg', role: 'alert' });
  const status = h('p', { id: 'lab-sw-status', role: 'status', 'aria-live': 'polite', dataset: { state: 'idle' } });
  const progressEl = h('p', { class: 'progress', id: 'lab-sw-progress' });
  const table = h('table', { id: 'lab-sw-table', class: 'data-table lab-sweep-table' });
  const prose = h('div', { id: 'lab-sw-prose', class: 'lab-summary' });
  const T = {};
  const text = (key, tag = 'p', attrs = {}) => (T[key] = h(tag, attrs));
  section.replaceChildren(
    text('heading', 'h2', { id: 'lab-sweep-heading' }), text('intro'),
    h('div', { class: 'controls' }, G.dk.el, G.div.el, G.opt.el,
      h('div', { class: 'field field-steps' }, stepsLabel, steps, stepsMsg),
      h('div', { class: 'field field-lrs' }, lrLabel, lrInput, lrHint, lrMsg), stabSet),
    text('note', 'p', { class: 'hint' }),
    h('div', { class: 'lab-buttons' }, startBtn, stopBtn, csvBtn, jsonBtn), msg, status, progressEl, charts,
    // A group, not a region: the section is already the region of that name (axe landmark-unique).
    h('div', { class: 'table-scroll', tabindex: 0, role: 'group', 'aria-labelledby': 'lab-sweep-heading' }, table),
    prose);

  let sweep = null;
  let last = null;  // the sweep the table shows (kept after Stop, for the exports)

  function writeUrl() {
    // An empty rate list is no parameter: the links written before it existed stay as they were.
    writeState(SWEEP_PREFIX, { dk: G.dk.checked(), div: G.div.checked(), opt: G.opt.checked(), steps: steps.value.trim(),
      lr: lrInput.value.trim() || null, stab: S.some((x) => x.box.checked) ? S.filter((x) => x.box.checked).map((x) => x.key) : null,
      // A value at its default is left out, so a link without stabiliser series reads as before.
      ...Object.fromEntries(S.filter((x) => x.input).map((x) => [x.key, x.input.value.trim() === x.def ? null : x.input.value.trim()])) });
  }
  section.addEventListener('change', writeUrl);

  async function start() {
    stop();
    msg.textContent = '';
    setFieldError(steps, stepsMsg, '');
    setFieldError(lrInput, lrMsg, '');
    for (const x of S) if (x.input) setFieldError(x.input, x.msgEl, '');
    const n = parseSteps(steps.value);
    if (n === null) return setFieldError(steps, stepsMsg, t('lab.err.steps', { max: int(MAX_STEPS) }));
    const lrList = parseLrList(lrInput.value);
    if (lrList.error) return setFieldError(lrInput, lrMsg, t(lrList.error.key, lrList.error.params));
    const dks = G.dk.checked().map(Number), divs = G.div.checked(), opts = G.opt.checked();
    const stabs = S.filter((x) => x.box.checked);
    if (!dks.length || !(divs.length || stabs.length) || !opts.length) return (msg.textContent = t('lab.sw.err.empty'));
    writeUrl();
    // Task, heads, seed and the stabilisers (soft-cap, QK-clip, init) from the setup, for every cell.
    const v = formValues();
    status.dataset.state = 'checking';
    try {
      await pool.ensure(1);
      // The setup's task, heads, seed and stabilisers, checked by the core before any run.
      const [r] = await pool.call('validate', [[trainOptions({ ...v, dk: String(dks[0]) }, 'sqrt', 1e-3)]]);
      if (r.error) {
        status.dataset.state = 'invalid';
        await loadErrorStrings();
        return (msg.textContent = t('lab.sw.err.setup', { message: readerError(r) }));
      }
      const base = trainOptions(v, 'sqrt', 1e-3);
      // Each stabiliser series' value: 0 or empty would be the √dₖ series again
      // (the core reads 0 as off), so the page refuses it in the core's range;
      // any other value is the core's to check, its message next to the field.
      const values = {};
      let bad = false;
      for (const x of stabs.filter((y) => y.input)) {
        const c = capNumber(x.input.value);
        values[x.key] = c;
        if (c === 0) {
          const L = await pool.call('limits');
          setFieldError(x.input, x.msgEl, t(`lab.sw.err.${x.key}Off`, { lo: num(L.minCap, 3), hi: num(L.maxCap, 6) }));
          bad = true;
          continue;
        }
        const [check] = await pool.call('validate', [[{ ...base, dk: dks[0], [x.field]: c }]]);
        if (check.error) {
          await loadErrorStrings();
          setFieldError(x.input, x.msgEl, readerError(check));
          bad = true;
        }
      }
      if (bad) return (status.dataset.state = 'invalid');
      const series = sweepSeries(divs, stabs.map((x) => x.key), values);
      const cells = [];
      const rates = lrList.lrs;
      const add = (o, dk, lr) => {
        for (const s of series) cells.push({ opt: o, dk, series: s.key, div: s.div, lr, options: cellOptions(base, s, dk, o, lr) });
      };
      if (rates) {
        // Each rate checked by the core (its range, its message), next to the list.
        const checks = await pool.call('validate', [rates.map((lr) => trainOptions({ ...v, dk: String(dks[0]) }, 'sqrt', lr))]);
        const badLr = checks.find((c) => c.error);
        if (badLr) {
          status.dataset.state = 'invalid';
          await loadErrorStrings();
          return setFieldError(lrInput, lrMsg, readerError(badLr));
        }
        for (const o of opts) for (const dk of dks) for (const lr of rates) add(o, dk, lr);
      } else {
        const lrs = {};
        for (const o of opts) for (const dk of dks) lrs[`${o}:${dk}`] = (await pool.call('referenceLr', [o, dk, FIXED.dModel])).lr;
        for (const o of opts) for (const dk of dks) add(o, dk, lrs[`${o}:${dk}`]);
      }
      // Cheap cells first: the table fills from the top while the big ones run.
      const queue = [...cells].sort((a, b) => a.dk - b.dk);
      sweep = { cells, queue, steps: n, evalSamples: EVAL_SAMPLES, v, base, dks, series, opts, rates,
        workers: Math.min(CORES, cells.length), t0: performance.now(), runIds: new Set() };
      last = sweep;
      csvBtn.disabled = jsonBtn.disabled = false;
      renderTable();
      status.dataset.state = 'running';
      status.textContent = t('lab.sw.running', { n: cells.length, workers: sweep.workers });
      stopBtn.disabled = false;
      pool.ensure(sweep.workers);
      for (let i = 0; i < sweep.workers; i++) next(sweep, i);
    } catch (e) {
      status.dataset.state = 'invalid';
      await loadErrorStrings();
      msg.textContent = readerError(e);
    }
  }

  function next(sw, worker) {
    if (sweep !== sw) return;
    const cell = sw.queue.shift();
    if (!cell) {
      if (sw.cells.every((c) => c.done || c.error)) finish(sw);
      return;
    }
    cell.state = 'running';
    const runId = pool.run(worker, { options: cell.options, steps: sw.steps, mapEvery: sw.steps + 1, evalSamples: EVAL_SAMPLES }, {
      configured: (m) => {
        cell.columns = m.columns;
      },
      rows: (m) => {
        cell.stepsDone = m.stepsDone;
        // The last step's attention entropy and largest |logit|, by the core's column names.
        const col = (name) => m.latest[cell.columns?.indexOf(name) ?? -1];
        cell.entropy = col('attn_entropy');
        cell.logitMax = col('logit_max_abs');
        scheduleRender();
      },
      done: (m) => {
        sw.runIds.delete(runId);
        // A diverged run stops at that step and has no evaluation (eval null).
        Object.assign(cell, { done: true, state: m.diverged ? 'diverged' : 'done', stepsTo90: m.stepsTo90, eval: m.eval, diverged: m.diverged ?? 0,
          qkClips: m.qkClips });
        scheduleRender();
        next(sw, worker);
      },
      failed: (m) => {
        sw.runIds.delete(runId);
        Object.assign(cell, { error: m.error, errorFields: errorFields(m), state: 'failed' });
        loadErrorStrings().then(scheduleRender);
        next(sw, worker);
      },
    }, false);
    sw.runIds.add(runId);
  }

  function finish(sw) {
    sw.totalMs = performance.now() - sw.t0;
    status.dataset.state = 'done';
    status.textContent = t('lab.sw.done', { n: sw.cells.length, seconds: fixed(sw.totalMs / 1000, 1) });
    stopBtn.disabled = true;
    render();
  }

  function stop() {
    if (!sweep) return;
    for (const id of sweep.runIds) pool.drop(id);
    const sw = sweep;
    sweep = null;
    stopBtn.disabled = true;
    if (!sw.totalMs) {
      status.dataset.state = 'stopped';
      status.textContent = t('lab.sw.stopped');
    }
  }

  let pending = false;
  function scheduleRender() {
    if (pending) return;
    pending = true;
    setTimeout(() => {
      pending = false;
      render();
    }, 250);
  }

  function render() {
    if (!sweep) return;
    const done = sweep.cells.filter((c) => c.done || c.error).length;
    progressEl.textContent = t('lab.sw.progress', { done, n: sweep.cells.length, seconds: fixed((performance.now() - sweep.t0) / 1000, 0) });
    renderTable();
    renderCharts();
    if (sweep.rates) renderLrProse();
    else renderProse();
  }

  const divHead = (d) => t(`lab.div.preset.${d}`);
  // A series' name: its divisor's, or the stabiliser series' own with its value.
  const label = (s) => (s.stab ? t(`lab.sw.series.${s.stab}`, { value: num(s.value, 6) }) : divHead(s.div));
  // The prose's sentence for a series: "Divisor 2 …" for a divisor, "√dₖ + soft-cap 50 …" for a stabiliser series.
  const sumKey = (s) => (s.stab ? 'lab.sw.sum.series' : 'lab.sw.sum.div');

  // The setup's stabilisers, which every cell has unless its series sets its own (caption and prose).
  function stabText(sw) {
    const b = sw.base;
    return t('lab.sw.stabUsed', {
      cap: b.softcap > 0 ? t('lab.sw.stab.cap', { value: num(b.softcap, 6) }) : t('lab.sw.stab.capOff'),
      clip: b.qkClip > 0 ? t('lab.sw.stab.clip', { value: num(b.qkClip, 6) }) : t('lab.sw.stab.clipOff'),
      init: t(`lab.initKind.${b.init}`),
    });
  }

  function cellText(c) {
    if (c.error) return t('lab.sw.cell.failed', { message: readerError(c.errorFields ?? { message: c.error }) });
    if (!c.done) return c.state === 'running' ? t('lab.sw.cell.running', { pct: fixed((100 * (c.stepsDone ?? 0)) / sweep.steps, 0) }) : '…';
    if (c.diverged) return t('lab.sw.cell.diverged', { step: int(c.diverged) });
    if (sweep.rates)
      return t('lab.sw.cell.lr', { acc: fixed(100 * c.eval.accuracy, 1), loss: num(c.eval.loss, 3), logit: num(c.logitMax, 3), entropy: num(c.entropy, 3) });
    return t('lab.sw.cell', {
      acc: fixed(100 * c.eval.accuracy, 1),
      steps90: c.stepsTo90 ? t('lab.sw.cell.at', { step: int(c.stepsTo90) }) : t('lab.sw.cell.never'),
    });
  }

  const cellOf = (o, dk, key, lr) => sweep.cells.find((c) => c.opt === o && c.dk === dk && c.series === key && (lr === null || c.lr === lr));

  function renderTable() {
    if (!sweep) return;
    const { series, opts, dks, rates } = sweep;
    // One row per optimiser and d_k (and rate, when the sweep has a list of them).
    const rowRates = rates ?? [null];
    table.replaceChildren(
      h('caption', { text: t(rates ? 'lab.sw.captionLr' : 'lab.sw.caption', { steps: int(sweep.steps), n: int(EVAL_SAMPLES), seed: sweep.v.seed }) +
        ' ' + stabText(sweep) }),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: t('lab.sw.colOpt') }), h('th', { scope: 'col', text: t('lab.sw.colDk') }),
        rates ? h('th', { scope: 'col', text: t('lab.sw.colLr') }) : null,
        series.map((s) => h('th', { scope: 'col', dataset: { series: s.key } }, swatch(s), ' ', label(s))))),
      h('tbody', {}, opts.flatMap((o) => dks.flatMap((dk) => rowRates.map((lr) => h('tr', {},
        h('th', { scope: 'row', text: t(`lab.opt.${o}`) }), h('td', { text: int(dk) }),
        rates ? h('td', { text: num(lr, 3), dataset: { lr: String(lr) } }) : null,
        series.map((s) => {
          const c = cellOf(o, dk, s.key, lr);
          const trained = c.done && !c.diverged;
          return h('td', {
            dataset: {
              opt: o, dk: String(dk), div: c.div, series: s.key, state: c.state ?? 'queued',
              ...(rates ? { lr: String(c.lr) } : {}),
              ...(trained ? { acc: String(c.eval.accuracy), steps90: String(c.stepsTo90) } : {}),
              ...(trained && rates ? { loss: String(c.eval.loss), logit: String(c.logitMax), entropy: String(c.entropy) } : {}),
              ...(c.done && c.options.qkClip > 0 ? { qkClips: String(c.qkClips) } : {}),
              ...(c.diverged ? { diverged: String(c.diverged) } : {}),
            },
            text: cellText(c),
          });
        })))))));
  }

  // Final held-out loss against the rate, one chart per optimiser and d_k, one line per series.
  function renderCharts() {
    const { series, opts, dks, rates } = sweep;
    if (!rates || rates.length < 2) return charts.replaceChildren();
    const figures = [];
    for (const o of opts)
      for (const dk of dks) {
        const lines = series.map((s) => ({
          label: label(s), slot: s.slot, dash: s.dash,
          points: rates.map((lr) => {
            const c = cellOf(o, dk, s.key, lr);
            return { lr, loss: c.done && !c.diverged ? c.eval.loss : null, diverged: c.diverged ?? 0 };
          }),
        }));
        const legend = h('span', {}, lines.map((s, i) => h('span', { class: 'lab-lr-key' }, i ? ' ' : '', swatch(s), ' ', s.label)));
        const fig = lrChart({
          lrs: rates, series: lines, tableId: table.id,
          text: {
            title: t('lab.sw.chart.title', { opt: t(`lab.opt.${o}`), dk: int(dk) }),
            x: t('lab.sw.chart.x'), y: t('lab.sw.chart.y'),
            summary: (name, pts) => {
              const ok = pts.filter((p) => Number.isFinite(p.loss));
              const div = pts.filter((p) => p.diverged).map((p) => num(p.lr, 3));
              const parts = ok.map((p) => `${num(p.lr, 3)}: ${num(p.loss, 3)}`);
              return t('lab.sw.chart.line', { label: name, points: parts.join(', ') || '—' }) +
                (div.length ? ' ' + t('lab.sw.chart.diverged', { lrs: div.join(', ') }) : '');
            },
          },
        });
        fig.querySelector('.lab-lr-legend').append(legend);
        figures.push(fig);
      }
    charts.replaceChildren(...figures);
  }

  // With a list of rates: per optimiser and d_k, each series' best rate and the rates it diverged at.
  function renderLrProse() {
    const { opts, dks, series, rates } = sweep;
    const paras = [];
    for (const o of opts)
      for (const dk of dks) {
        const parts = [];
        for (const s of series) {
          const mine = rates.map((lr) => cellOf(o, dk, s.key, lr));
          const trained = mine.filter((c) => c.done && !c.diverged);
          const diverged = mine.filter((c) => c.diverged);
          if (!trained.length && !diverged.length) continue;
          const bits = [];
          if (trained.length) {
            const best = trained.reduce((a, c) => (c.eval.loss < a.eval.loss ? c : a));
            const over90 = trained.filter((c) => c.eval.accuracy >= 0.9).map((c) => num(c.lr, 3));
            bits.push(t('lab.sw.lr.best', { lr: num(best.lr, 3), loss: num(best.eval.loss, 3), logit: num(best.logitMax, 3), entropy: num(best.entropy, 3) }));
            bits.push(over90.length ? t('lab.sw.lr.over90', { lrs: over90.join(', ') }) : t('lab.sw.lr.none90'));
          }
          if (diverged.length) bits.push(t('lab.sw.lr.diverged', { lrs: diverged.map((c) => num(c.lr, 3)).join(', ') }));
          parts.push(t(sumKey(s), { label: label(s), text: bits.join(t('lab.sw.sum.join')) }));
        }
        if (parts.length)
          paras.push(h('p', {}, h('strong', { text: t('lab.sw.lr.head', { opt: t(`lab.opt.${o}`), dk: int(dk) }) + t('lab.sw.sum.colon') }), parts.join(' ')));
      }
    prose.replaceChildren(
      ...(paras.length ? [h('h3', { text: t('lab.sw.sum.heading') }), ...paras,
        h('p', { class: 'hint', text: t('lab.sw.lr.scope', { steps: int(sweep.steps), seed: sweep.v.seed, n: int(EVAL_SAMPLES) }) + ' ' + stabText(sweep) })] : []),
      ...(sweep.totalMs ? [] : paras.length ? [h('p', { class: 'hint', text: t('lab.sw.sum.partial') })] : []));
  }

  // Sentences drawn from the finished cells only.
  function renderProse() {
    const { opts, dks, series, cells } = sweep;
    const paras = [];
    for (const o of opts) {
      // Finished cells that trained to the end; a diverged cell is said apart (it neither reached nor missed 90%).
      const at = (dk, key) => cells.find((c) => c.opt === o && c.dk === dk && c.series === key && c.done && !c.diverged);
      const divergedAt = (key) => dks.filter((dk) => cells.some((c) => c.opt === o && c.dk === dk && c.series === key && c.diverged));
      const diverged = (key) => t('lab.sw.sum.diverged', { dks: dkList(divergedAt(key)) });
      const parts = [];
      const ref = series.find((s) => s.key === 'sqrt');
      if (ref) {
        const reached = dks.filter((dk) => at(dk, 'sqrt')?.stepsTo90);
        const missed = dks.filter((dk) => at(dk, 'sqrt') && !at(dk, 'sqrt').stepsTo90);
        if (reached.length || missed.length)
          parts.push(t(!missed.length ? 'lab.sw.sum.refAll' : reached.length ? 'lab.sw.sum.refSome' : 'lab.sw.sum.refNone',
            { reached: dkList(reached), missed: dkList(missed) }));
        if (divergedAt('sqrt').length) parts.push(t('lab.sw.sum.div', { label: label(ref), text: diverged('sqrt') }));
      }
      for (const s of series.filter((x) => x.key !== 'sqrt')) {
        const reached = dks.filter((dk) => at(dk, s.key)?.stepsTo90);
        const missed = dks.filter((dk) => at(dk, s.key) && !at(dk, s.key).stepsTo90);
        if (!reached.length && !missed.length && !divergedAt(s.key).length) continue;
        const bits = [];
        if (reached.length) {
          const ratios = reached.filter((dk) => at(dk, 'sqrt')?.stepsTo90).map((dk) => at(dk, s.key).stepsTo90 / at(dk, 'sqrt').stepsTo90);
          bits.push(ratios.length
            ? t('lab.sw.sum.reachedRatio', { dks: dkList(reached), lo: decimals(Math.min(...ratios), 1), hi: decimals(Math.max(...ratios), 1) })
            : t('lab.sw.sum.reached', { dks: dkList(reached) }));
        }
        if (missed.length)
          bits.push(t('lab.sw.sum.missed', { dks: dkList(missed), accs: missed.map((dk) => `${fixed(100 * at(dk, s.key).eval.accuracy, 1)}%`).join(', ') }));
        if (divergedAt(s.key).length) bits.push(diverged(s.key));
        parts.push(t(sumKey(s), { label: label(s), text: bits.join(t('lab.sw.sum.join')) }));
      }
      if (parts.length) paras.push(h('p', {}, h('strong', { text: t(`lab.opt.${o}`) + t('lab.sw.sum.colon') }), parts.join(' ')));
    }
    prose.replaceChildren(
      ...(paras.length ? [h('h3', { text: t('lab.sw.sum.heading') }), ...paras,
        h('p', { class: 'hint', text: t('lab.sw.sum.scope', { steps: int(sweep.steps), seed: sweep.v.seed, n: int(EVAL_SAMPLES) }) + ' ' + stabText(sweep) })] : []),
      ...(sweep.totalMs ? [] : paras.length ? [h('p', { class: 'hint', text: t('lab.sw.sum.partial') })] : []));
  }

  const dkList = (xs) => xs.map((x) => int(x)).join(', ');

  startBtn.addEventListener('click', start);
  stopBtn.addEventListener('click', stop);
  // The cells as they stand (a queued or running cell says so in its state column).
  const stem = (sw) => {
    const b = sw.base;
    const stab = (b.softcap > 0 ? `-cap${b.softcap}` : '') + (b.qkClip > 0 ? `-clip${b.qkClip}` : '') + (b.init !== FIXED.init ? `-${b.init}` : '');
    return `attnlab-sweep-${b.task}-h${b.heads}-seed${b.seed}-steps${sw.steps}${stab}`.replace(/[^\w.+-]+/g, '_');
  };
  csvBtn.addEventListener('click', () => last && download(sweepCsv(last), `${stem(last)}.csv`, 'text/csv'));
  jsonBtn.addEventListener('click', () => last && download(sweepJson(last), `${stem(last)}.json`, 'application/json'));

  function relabel() {
    T.heading.textContent = t('lab.sw.heading');
    T.intro.textContent = t('lab.sw.intro');
    T.note.textContent = t('lab.sw.note', { cores: CORES });
    G.dk.legend.textContent = t('lab.sw.dks');
    G.div.legend.textContent = t('lab.sw.divs');
    G.opt.legend.textContent = t('lab.sw.opts');
    for (const b of G.dk.boxes) b.label.textContent = b.v;
    for (const b of G.div.boxes) b.label.textContent = divHead(b.v);
    for (const b of G.opt.boxes) b.label.textContent = t(`lab.opt.${b.v}`);
    stepsLabel.textContent = t('lab.sw.steps');
    lrLabel.textContent = t('lab.sw.lrs');
    lrHint.textContent = t('lab.sw.lrsHint');
    startBtn.textContent = t('lab.sw.start');
    stopBtn.textContent = t('lab.sw.stop');
    csvBtn.textContent = t('lab.sw.csv');
    jsonBtn.textContent = t('lab.sw.json');
    stabLegend.textContent = t('lab.sw.stabs');
    stabHint.textContent = t('lab.sw.stabsHint');
    for (const x of S) {
      x.label.textContent = t(`lab.sw.stabBox.${x.key}`);
      if (x.valueLabel) x.valueLabel.textContent = t(`lab.sw.stabValue.${x.key}`);
    }
    if (sweep) {
      render();
      if (sweep.totalMs) status.textContent = t('lab.sw.done', { n: sweep.cells.length, seconds: fixed(sweep.totalMs / 1000, 1) });
    }
  }
  return { relabel };
}
