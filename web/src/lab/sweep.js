// "Test the claim": a grid of runs (d_k × divisor × optimiser) trained in the
// background, one run per worker at a time, filling a table of final held-out
// accuracy and steps to 90% batch accuracy, and prose that reads the table as
// it stands. Task, heads and seed come from the comparison's form; the
// learning rate is the core's reference rate for each optimiser and d_k, or,
// with a list of rates (sweep-lr.js), each cell runs at every rate: the table
// gains a rate column, the final loss, largest |logit| and attention entropy
// per cell, and a chart per optimiser and d_k draws final loss against rate.
// Its own pool of workers, so it never waits for the comparison's.
import { h, setFieldError } from '../dom.js';
import { t } from '../i18n.js';
import { loadErrorStrings, readerError } from '../core/errors.js';
import { errorFields } from '../core/rpc.js';
import { readState, writeState } from '../state.js';
import { decimals, fixed, int, num } from '../format.js';
import './strings.js';
import {
  FIXED, EVAL_SAMPLES, MAX_STEPS, OPTIMIZERS, PRESETS, SWEEP_DKS, SWEEP_LR_STATE, SWEEP_PREFIX, SWEEP_STATE,
  divisorOptions, parseSteps, trainOptions,
} from '../train/config.js';
import { Pool, CORES } from '../train/pool.js';
import { swatch } from './swatch.js';
import { lrChart, parseLrList } from './sweep-lr.js';

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
  const charts = h('div', { id: 'lab-sw-charts', class: 'lab-lr-charts' });
  const startBtn = h('button', { type: 'button', id: 'lab-sw-start', class: 'primary' });
  const stopBtn = h('button', { type: 'button', id: 'lab-sw-stop', disabled: true });
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
      h('div', { class: 'field field-lrs' }, lrLabel, lrInput, lrHint, lrMsg)),
    text('note', 'p', { class: 'hint' }),
    h('div', { class: 'lab-buttons' }, startBtn, stopBtn), msg, status, progressEl, charts,
    // A group, not a region: the section is already the region of that name (axe landmark-unique).
    h('div', { class: 'table-scroll', tabindex: 0, role: 'group', 'aria-labelledby': 'lab-sweep-heading' }, table),
    prose);

  let sweep = null;

  function writeUrl() {
    // An empty rate list is no parameter: the links written before it existed stay as they were.
    writeState(SWEEP_PREFIX, { dk: G.dk.checked(), div: G.div.checked(), opt: G.opt.checked(), steps: steps.value.trim(),
      lr: lrInput.value.trim() || null });
  }
  section.addEventListener('change', writeUrl);

  async function start() {
    stop();
    msg.textContent = '';
    setFieldError(steps, stepsMsg, '');
    setFieldError(lrInput, lrMsg, '');
    const n = parseSteps(steps.value);
    if (n === null) return setFieldError(steps, stepsMsg, t('lab.err.steps', { max: int(MAX_STEPS) }));
    const lrList = parseLrList(lrInput.value);
    if (lrList.error) return setFieldError(lrInput, lrMsg, t(lrList.error.key, lrList.error.params));
    const dks = G.dk.checked().map(Number), divs = G.div.checked(), opts = G.opt.checked();
    if (!dks.length || !divs.length || !opts.length) return (msg.textContent = t('lab.sw.err.empty'));
    writeUrl();
    // Task, heads and seed from the setup (as its note says); not its soft-cap,
    // QK-clip or init: the sweep's cells and prose are about the divisors alone.
    const v = { ...formValues(), cap: '', clip: '', init: FIXED.init };
    status.dataset.state = 'checking';
    try {
      await pool.ensure(1);
      // The setup's task, heads and seed, checked by the core before any run.
      const [r] = await pool.call('validate', [[trainOptions({ ...v, dk: String(dks[0]) }, 'sqrt', 1e-3)]]);
      if (r.error) {
        status.dataset.state = 'invalid';
        await loadErrorStrings();
        return (msg.textContent = t('lab.sw.err.setup', { message: readerError(r) }));
      }
      const cells = [];
      const rates = lrList.lrs;
      if (rates) {
        // Each rate checked by the core (its range, its message), next to the list.
        const checks = await pool.call('validate', [rates.map((lr) => trainOptions({ ...v, dk: String(dks[0]) }, 'sqrt', lr))]);
        const bad = checks.find((c) => c.error);
        if (bad) {
          status.dataset.state = 'invalid';
          await loadErrorStrings();
          return setFieldError(lrInput, lrMsg, readerError(bad));
        }
        for (const o of opts) for (const dk of dks) for (const d of divs) for (const lr of rates) cells.push({ opt: o, dk, div: d, lr });
      } else {
        const lrs = {};
        for (const o of opts) for (const dk of dks) lrs[`${o}:${dk}`] = (await pool.call('referenceLr', [o, dk, FIXED.dModel])).lr;
        for (const o of opts) for (const dk of dks) for (const d of divs) cells.push({ opt: o, dk, div: d, lr: lrs[`${o}:${dk}`] });
      }
      // Cheap cells first: the table fills from the top while the big ones run.
      const queue = [...cells].sort((a, b) => a.dk - b.dk);
      sweep = { cells, queue, steps: n, v, dks, divs, opts, rates, workers: Math.min(CORES, cells.length), t0: performance.now(), runIds: new Set() };
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
    const options = { ...trainOptions(sw.v, cell.div, cell.lr), dk: cell.dk, optimizer: cell.opt };
    const runId = pool.run(worker, { options, steps: sw.steps, mapEvery: sw.steps + 1, evalSamples: EVAL_SAMPLES }, {
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
        Object.assign(cell, { done: true, state: m.diverged ? 'diverged' : 'done', stepsTo90: m.stepsTo90, eval: m.eval, diverged: m.diverged ?? 0 });
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

  const style = (d) => divisorOptions(new Set([d]), [])[0];

  function renderTable() {
    if (!sweep) return;
    const { divs, opts, dks, cells, rates } = sweep;
    // One row per optimiser and d_k (and rate, when the sweep has a list of them).
    const rowRates = rates ?? [null];
    const find = (o, dk, d, lr) => cells.find((c) => c.opt === o && c.dk === dk && c.div === d && (lr === null || c.lr === lr));
    table.replaceChildren(
      h('caption', { text: t(rates ? 'lab.sw.captionLr' : 'lab.sw.caption', { steps: int(sweep.steps), n: int(EVAL_SAMPLES), seed: sweep.v.seed }) }),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: t('lab.sw.colOpt') }), h('th', { scope: 'col', text: t('lab.sw.colDk') }),
        rates ? h('th', { scope: 'col', text: t('lab.sw.colLr') }) : null,
        divs.map((d) => h('th', { scope: 'col' }, swatch(style(d)), ' ', divHead(d))))),
      h('tbody', {}, opts.flatMap((o) => dks.flatMap((dk) => rowRates.map((lr) => h('tr', {},
        h('th', { scope: 'row', text: t(`lab.opt.${o}`) }), h('td', { text: int(dk) }),
        rates ? h('td', { text: num(lr, 3), dataset: { lr: String(lr) } }) : null,
        divs.map((d) => {
          const c = find(o, dk, d, lr);
          const trained = c.done && !c.diverged;
          return h('td', {
            dataset: {
              opt: o, dk: String(dk), div: d, state: c.state ?? 'queued',
              ...(rates ? { lr: String(c.lr) } : {}),
              ...(trained ? { acc: String(c.eval.accuracy), steps90: String(c.stepsTo90) } : {}),
              ...(trained && rates ? { loss: String(c.eval.loss), logit: String(c.logitMax), entropy: String(c.entropy) } : {}),
              ...(c.diverged ? { diverged: String(c.diverged) } : {}),
            },
            text: cellText(c),
          });
        })))))));
  }

  // Final held-out loss against the rate, one chart per optimiser and d_k, one line per divisor.
  function renderCharts() {
    const { divs, opts, dks, cells, rates } = sweep;
    if (!rates || rates.length < 2) return charts.replaceChildren();
    const figures = [];
    for (const o of opts)
      for (const dk of dks) {
        const series = divs.map((d) => ({
          label: divHead(d), ...style(d),
          points: rates.map((lr) => {
            const c = cells.find((x) => x.opt === o && x.dk === dk && x.div === d && x.lr === lr);
            return { lr, loss: c.done && !c.diverged ? c.eval.loss : null, diverged: c.diverged ?? 0 };
          }),
        }));
        const legend = h('span', {}, series.map((s, i) => h('span', { class: 'lab-lr-key' }, i ? ' ' : '', swatch(s), ' ', s.label)));
        const fig = lrChart({
          lrs: rates, series, tableId: table.id,
          text: {
            title: t('lab.sw.chart.title', { opt: t(`lab.opt.${o}`), dk: int(dk) }),
            x: t('lab.sw.chart.x'), y: t('lab.sw.chart.y'),
            summary: (label, pts) => {
              const ok = pts.filter((p) => Number.isFinite(p.loss));
              const div = pts.filter((p) => p.diverged).map((p) => num(p.lr, 3));
              const parts = ok.map((p) => `${num(p.lr, 3)}: ${num(p.loss, 3)}`);
              return t('lab.sw.chart.line', { label, points: parts.join(', ') || '—' }) +
                (div.length ? ' ' + t('lab.sw.chart.diverged', { lrs: div.join(', ') }) : '');
            },
          },
        });
        fig.querySelector('.lab-lr-legend').append(legend);
        figures.push(fig);
      }
    charts.replaceChildren(...figures);
  }

  // With a list of rates: per optimiser and d_k, each divisor's best rate and the rates it diverged at.
  function renderLrProse() {
    const { opts, dks, divs, cells, rates } = sweep;
    const paras = [];
    for (const o of opts)
      for (const dk of dks) {
        const parts = [];
        for (const d of divs) {
          const mine = rates.map((lr) => cells.find((c) => c.opt === o && c.dk === dk && c.div === d && c.lr === lr));
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
          parts.push(t('lab.sw.sum.div', { label: divHead(d), text: bits.join(t('lab.sw.sum.join')) }));
        }
        if (parts.length)
          paras.push(h('p', {}, h('strong', { text: t('lab.sw.lr.head', { opt: t(`lab.opt.${o}`), dk: int(dk) }) + t('lab.sw.sum.colon') }), parts.join(' ')));
      }
    prose.replaceChildren(
      ...(paras.length ? [h('h3', { text: t('lab.sw.sum.heading') }), ...paras,
        h('p', { class: 'hint', text: t('lab.sw.lr.scope', { steps: int(sweep.steps), seed: sweep.v.seed, n: int(EVAL_SAMPLES) }) })] : []),
      ...(sweep.totalMs ? [] : paras.length ? [h('p', { class: 'hint', text: t('lab.sw.sum.partial') })] : []));
  }

  // Sentences drawn from the finished cells only.
  function renderProse() {
    const { opts, dks, divs, cells } = sweep;
    const paras = [];
    for (const o of opts) {
      // Finished cells that trained to the end; a diverged cell is said apart (it neither reached nor missed 90%).
      const at = (dk, d) => cells.find((c) => c.opt === o && c.dk === dk && c.div === d && c.done && !c.diverged);
      const divergedAt = (d) => dks.filter((dk) => cells.some((c) => c.opt === o && c.dk === dk && c.div === d && c.diverged));
      const diverged = (d) => t('lab.sw.sum.diverged', { dks: dkList(divergedAt(d)) });
      const parts = [];
      if (divs.includes('sqrt')) {
        const reached = dks.filter((dk) => at(dk, 'sqrt')?.stepsTo90);
        const missed = dks.filter((dk) => at(dk, 'sqrt') && !at(dk, 'sqrt').stepsTo90);
        if (reached.length || missed.length)
          parts.push(t(!missed.length ? 'lab.sw.sum.refAll' : reached.length ? 'lab.sw.sum.refSome' : 'lab.sw.sum.refNone',
            { reached: dkList(reached), missed: dkList(missed) }));
        if (divergedAt('sqrt').length) parts.push(t('lab.sw.sum.div', { label: divHead('sqrt'), text: diverged('sqrt') }));
      }
      for (const d of divs.filter((x) => x !== 'sqrt')) {
        const reached = dks.filter((dk) => at(dk, d)?.stepsTo90);
        const missed = dks.filter((dk) => at(dk, d) && !at(dk, d).stepsTo90);
        if (!reached.length && !missed.length && !divergedAt(d).length) continue;
        const bits = [];
        if (reached.length) {
          const ratios = reached.filter((dk) => at(dk, 'sqrt')?.stepsTo90).map((dk) => at(dk, d).stepsTo90 / at(dk, 'sqrt').stepsTo90);
          bits.push(ratios.length
            ? t('lab.sw.sum.reachedRatio', { dks: dkList(reached), lo: decimals(Math.min(...ratios), 1), hi: decimals(Math.max(...ratios), 1) })
            : t('lab.sw.sum.reached', { dks: dkList(reached) }));
        }
        if (missed.length)
          bits.push(t('lab.sw.sum.missed', { dks: dkList(missed), accs: missed.map((dk) => `${fixed(100 * at(dk, d).eval.accuracy, 1)}%`).join(', ') }));
        if (divergedAt(d).length) bits.push(diverged(d));
        parts.push(t('lab.sw.sum.div', { label: divHead(d), text: bits.join(t('lab.sw.sum.join')) }));
      }
      if (parts.length) paras.push(h('p', {}, h('strong', { text: t(`lab.opt.${o}`) + t('lab.sw.sum.colon') }), parts.join(' ')));
    }
    prose.replaceChildren(
      ...(paras.length ? [h('h3', { text: t('lab.sw.sum.heading') }), ...paras,
        h('p', { class: 'hint', text: t('lab.sw.sum.scope', { steps: int(sweep.steps), seed: sweep.v.seed, n: int(EVAL_SAMPLES) }) })] : []),
      ...(sweep.totalMs ? [] : paras.length ? [h('p', { class: 'hint', text: t('lab.sw.sum.partial') })] : []));
  }

  const dkList = (xs) => xs.map((x) => int(x)).join(', ');

  startBtn.addEventListener('click', start);
  stopBtn.addEventListener('click', stop);

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
    if (sweep) {
      render();
      if (sweep.totalMs) status.textContent = t('lab.sw.done', { n: sweep.cells.length, seconds: fixed(sweep.totalMs / 1000, 1) });
    }
  }
  return { relabel };
}
