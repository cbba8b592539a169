// A card per run of a comparison (comparison.js): its progress and pace, the
// latest logged row, what it reached, its attention heatmap at the capture the
// scrubber picks (with the numbers in a table), and its export buttons. The
// cards read the comparison's state; they hold only their elements.
import { t } from '../../base/i18n.js';
import { readerError } from '../../bridge/errors.js';
import { h } from '../../base/dom.js';
import { fixed, int, num } from '../../base/format.js';
import './strings.js';
import { createHeatmap, track, mapLabels, weightAt, SHOWN_EXAMPLES } from './heatmap.js';
import { swatch } from './swatch.js';

/** A run's divisor as the reader reads it (√d_k = 16 once the core has said so). */
export function divisorLabel(run) {
  const value = run.divisorValue;
  switch (run.option) {
    case 'sqrt': return value ? t('lab.div.sqrtValue', { value: num(value, 4) }) : t('lab.div.sqrt');
    case 'dk': return value ? t('lab.div.dkValue', { value: num(value, 6) }) : t('lab.div.dk');
    case 'qknorm': return t('lab.div.qknorm');
    case '1': return t('lab.div.one');
    default: return run.option;
  }
}

/** A run's name at the end of its lines in the charts: ÷√dₖ, ÷2, ÷1, ÷dₖ, QK-LN, ÷3.5. */
export function shortLabel(run) {
  const names = { sqrt: '÷√dₖ', 1: '÷1', 2: '÷2', dk: '÷dₖ', qknorm: 'QK-LN' };
  return names[run.option] ?? `÷${run.divisorValue ? num(run.divisorValue, 4) : run.option}`;
}

/** The stabilisers every run of a plan's config has, in words ('' when none). */
export function stabilisersText(c) {
  const parts = [];
  if (c.softcap > 0) parts.push(t('lab.stab.cap', { cap: num(c.softcap, 6) }));
  if (c.qkClip > 0) parts.push(t('lab.stab.clip', { tau: num(c.qkClip, 6) }));
  if (c.init === 't5') parts.push(t('lab.stab.t5'));
  return parts.join(t('lab.stab.sep'));
}

function buildCard(run, steps, onExport) {
  const id = `lab-run-${run.index}`;
  const heat = createHeatmap(`${id}-heatmap`);
  const c = {
    heat, untrack: track(heat), capture: 0,
    title: h('h3', { id: `${id}-title` }),
    bar: h('progress', { id: `${id}-progress`, max: steps, value: 0 }),
    barLabel: h('label', { for: `${id}-progress` }),
    stepText: h('span', { class: 'lab-run-step' }),
    stab: h('p', { class: 'lab-run-stab', hidden: true }),
    readout: h('p', { class: 'readout' }),
    result: h('p', { class: 'lab-run-result' }),
    error: h('p', { class: 'msg', role: 'alert' }),
    heatCaption: h('figcaption'),
    heatDetails: h('details', { class: 'data-details' }, h('summary'), h('div', { class: 'table-scroll', tabindex: 0 })),
    csv: h('button', { type: 'button', dataset: { export: 'csv' } }),
    json: h('button', { type: 'button', dataset: { export: 'json' } }),
    npz: h('button', { type: 'button', dataset: { export: 'npz' } }),
    exportStatus: h('span', { class: 'hint', role: 'status' }),
  };
  c.el = h('article', {
    class: `lab-run slot-${run.slot}`, id, 'aria-labelledby': c.title.id, dataset: { option: run.option, state: 'running' },
  },
  c.title, c.stab, h('p', { class: 'lab-run-bar' }, c.barLabel, c.bar, c.stepText), c.readout, c.result, c.error,
  h('figure', { class: 'lab-heat' }, heat.el, c.heatCaption), c.heatDetails,
  h('div', { class: 'lab-run-export' }, c.csv, c.json, c.npz, c.exportStatus));
  for (const kind of ['csv', 'json', 'npz']) c[kind].addEventListener('click', () => onExport(run, kind, c.exportStatus));
  return c;
}

function shownMap(run, capture) {
  if (run.maps.length === 0) return null;
  return run.maps[Math.min(capture, run.maps.length - 1)];
}

/** The cards of comparison cmp; onExport(run, kind, statusElement) saves a run's file. */
export class RunCards {
  constructor(cmp, { onExport }) {
    this.cmp = cmp;
    this.cards = new Map(cmp.runs.map((r) => [r, buildCard(r, cmp.plan.steps, onExport)]));
    for (const [run, c] of this.cards) c.heatDetails.addEventListener('toggle', () => this.renderHeatTable(run));
  }

  get els() {
    return [...this.cards.values()].map((c) => c.el);
  }

  /** A run's state as the card shows it ('running', 'done', 'failed'), and its error. */
  setState(run) {
    const c = this.cards.get(run);
    c.el.dataset.state = run.failed ? 'failed' : run.diverged ? 'diverged' : run.finished ? 'done' : 'running';
    if (run.diverged) c.el.dataset.diverged = String(run.diverged);
    if (run.failed) c.error.textContent = readerError(run.failedError ?? { message: run.failed });
  }

  render(run) {
    const c = this.cards.get(run);
    const steps = this.cmp.plan.steps;
    c.bar.value = run.stepsDone;
    const pace = this.cmp.paceOf(run);
    c.stepText.textContent = t('lab.run.step', { done: int(run.stepsDone), total: int(steps) }) +
      (pace ? ' · ' + t('lab.run.pace', { rate: int(Math.round(pace.rate)), left: int(Math.ceil(pace.left)) }) : '');
    // Soft-capped, clipped or T5-initialised: said on every card, with the clip's count once the run ends.
    const stab = stabilisersText(this.cmp.plan.config);
    c.stab.hidden = !stab;
    c.stab.textContent = stab ? t('lab.run.stab', { what: stab }) +
      (this.cmp.plan.config.qkClip > 0 && run.finished ? ' ' + t('lab.run.clips', { n: int(run.qkClips), steps: int(run.stepsDone) }) : '') : '';
    if (run.finished) c.el.dataset.qkClips = String(run.qkClips);
    const L = run.latest;
    if (run.diverged) {
      c.readout.textContent = t('lab.run.divergedReadout', { step: int(run.stepsDone) });
    } else if (L && run.columns) {
      const at = (name) => L[run.columns.indexOf(name)];
      c.readout.textContent = t('lab.run.readout', {
        step: int(at('step')), loss: num(at('loss'), 3), acc: fixed(100 * at('accuracy'), 1),
        entropy: num(at('attn_entropy'), 3), correct: fixed(100 * at('attn_correct'), 1),
      });
    }
    if (run.diverged) {
      // No evaluation (the weights are not finite): the step, why, and what may help.
      c.result.textContent = [
        t('lab.run.diverged', { step: int(run.diverged) }),
        t('lab.run.time', { seconds: fixed(run.busyMs / 1000, 1), rate: fixed((1000 * run.stepsDone) / run.busyMs, 0) }),
      ].join(' ');
    } else if (run.finished) {
      c.result.textContent = [
        run.stepsTo90 ? t('lab.run.reached', { step: int(run.stepsTo90) }) : t('lab.run.never', { steps: int(steps) }),
        t('lab.run.eval', { acc: fixed(100 * run.eval.accuracy, 1), loss: num(run.eval.loss, 3), n: int(run.eval.samples) }),
        t('lab.run.time', { seconds: fixed(run.busyMs / 1000, 1), rate: fixed((1000 * run.stepsDone) / run.busyMs, 0) }),
      ].join(' ');
    }
  }

  renderAll() {
    for (const r of this.cmp.runs) this.render(r);
  }

  /** Heatmap captures so far: the most any run holds. */
  captures() {
    return Math.max(0, ...this.cmp.runs.map((r) => r.maps.length));
  }

  /** Draw each run's map at capture index `capture` (or its last); returns the latest step shown. */
  drawMaps(capture) {
    let step = 0;
    for (const [r, c] of this.cards) {
      c.capture = capture;
      const map = shownMap(r, capture);
      if (!map) continue;
      step = Math.max(step, map.step);
      if (c.heat.shown !== map) {
        c.heat.draw(map);
        c.heat.shown = map;
        this.nameHeat(r);
        this.renderHeatTable(r);
      }
    }
    return step;
  }

  nameHeat(run) {
    const { heat, heatCaption } = this.cards.get(run);
    const map = heat.shown;
    if (!map) return;
    heat.setName(t('lab.maps.name', { label: divisorLabel(run), step: int(map.step), n: Math.min(SHOWN_EXAMPLES, map.shape.examples) }));
    heatCaption.textContent = t('lab.maps.caption', { step: int(map.step) });
  }

  renderHeatTable(run) {
    const d = this.cards.get(run).heatDetails;
    d.querySelector('summary').textContent = t('lab.maps.table', { label: divisorLabel(run) });
    if (!d.open) return;
    const map = shownMap(run, this.cards.get(run).capture);
    if (!map) return;
    const { heads, seq } = map.shape;
    const examples = Math.min(SHOWN_EXAMPLES, map.shape.examples);
    const { target, answer, predicted } = mapLabels(map);
    const rows = [];
    for (let e = 0; e < examples; e++) {
      for (let hd = 0; hd < heads; hd++) {
        rows.push(h('tr', {},
          h('th', { scope: 'row', text: t('lab.maps.row', { e: e + 1, h: hd + 1 }) }),
          Array.from({ length: seq }, (_, p) => h('td', {
            class: p === answer[e] ? 'is-answer' : null, text: fixed(weightAt(map, e, hd, p), 2),
          })),
          h('td', { text: String(answer[e] + 1) }),
          h('td', { text: predicted[e] === target[e] ? t('lab.maps.right') : t('lab.maps.wrong') })));
      }
    }
    d.querySelector('.table-scroll').replaceChildren(h('table', { class: 'data-table lab-heat-table' },
      h('caption', { text: t('lab.maps.tableCaption', { label: divisorLabel(run), step: int(map.step) }) }),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: t('lab.maps.colRow') }),
        Array.from({ length: seq }, (_, p) => h('th', { scope: 'col', text: p === seq - 1 ? 'q' : int(p + 1) })),
        h('th', { scope: 'col', text: t('lab.maps.colAnswer') }), h('th', { scope: 'col', text: t('lab.maps.colPredicted') }))),
      h('tbody', {}, rows)));
  }

  relabel(run) {
    const c = this.cards.get(run);
    const label = divisorLabel(run);
    c.title.replaceChildren(swatch(run), ' ', label);
    c.barLabel.textContent = t('lab.run.progress', { label });
    c.csv.textContent = t('lab.export.csv');
    c.json.textContent = t('lab.export.json');
    c.npz.textContent = t('lab.export.npz');
    for (const b of [c.csv, c.json, c.npz]) b.setAttribute('aria-label', `${b.textContent} (${label})`);
    this.renderHeatTable(run);
    this.nameHeat(run);
    if (run.failed) this.setState(run);  // the core's error, in the new language
  }

  relabelAll() {
    for (const r of this.cmp.runs) this.relabel(r);
  }

  destroy() {
    for (const c of this.cards.values()) c.untrack();
  }
}
