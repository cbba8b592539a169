// Section 6 of the explainer: the last link of the chain ("the model cannot
// learn") run on the page. <attn-train-compare> (d_k 256, ÷1 and ÷√d_k) sits
// in index.html undefined: its code, and with it the lab's wasm module and
// worker, load only when the reader presses the section's Start button (the
// page's first load holds the explainer's module alone). When the comparison
// ends, a sentence under it says what the run gave, with the run's numbers.
import { t } from '../../base/i18n.js';
import { int, num, percent } from '../../base/format.js';
import { runMechanism } from '../../train/mechanism.js';

/** The lab's URL for the element's settings (the lab's form names: train/config.js FORM_STATE). */
export function labHref(el) {
  const order = ['sqrt', '2', '1', 'dk'];
  const divs = (el.getAttribute('divisors') ?? '1,sqrt').split(',').map((d) => d.trim());
  const q = new URLSearchParams();
  q.set('dk', el.getAttribute('dk') ?? '64');
  q.set('div', order.filter((d) => divs.includes(d)).join(','));
  if (el.hasAttribute('steps')) q.set('steps', el.getAttribute('steps'));
  if (el.hasAttribute('seed')) q.set('seed', el.getAttribute('seed'));
  if (el.hasAttribute('optimizer')) q.set('opt', el.getAttribute('optimizer'));
  if (el.hasAttribute('lr')) q.set('lr', el.getAttribute('lr'));
  return `lab.html?${q.toString().replace(/%2C/g, ',')}`;
}

/** The runs' outcome for the sentence, or null unless both ÷1 and ÷√d_k finished. */
function outcome(el) {
  const cmp = el.cmp;
  if (!cmp || el.dataset.run !== 'done') return null;
  const one = cmp.runs.find((r) => r.option === '1');
  const sqrt = cmp.runs.find((r) => r.option === 'sqrt');
  if (!one?.finished || !sqrt?.finished || one.failed || sqrt.failed || !one.eval || !sqrt.eval) return null;
  return { steps: cmp.plan.steps, dk: cmp.plan.config.dk, one, sqrt };
}

function sentence(o) {
  const p = {
    steps: int(o.steps), dk: int(o.dk), root: num(o.sqrt.divisorValue, 4),
    lossS: num(o.sqrt.eval.loss, 3), accS: percent(o.sqrt.eval.accuracy),
    lossU: num(o.one.eval.loss, 3), accU: percent(o.one.eval.accuracy),
  };
  const ahead = o.sqrt.eval.loss < o.one.eval.loss && o.sqrt.eval.accuracy >= o.one.eval.accuracy;
  const behind = o.sqrt.eval.loss > o.one.eval.loss && o.sqrt.eval.accuracy <= o.one.eval.accuracy;
  const key = ahead ? 'page.training.result.ahead' : behind ? 'page.training.result.behind' : 'page.training.result.mixed';
  let text = t(key, p);
  const s90 = o.sqrt.stepsTo90;
  const u90 = o.one.stepsTo90;
  if (s90 && u90) text += ' ' + t('page.training.result.both90', { s: int(s90), u: int(u90) });
  else if (s90) text += ' ' + t('page.training.result.only90', { s: int(s90) });
  const m = mechanism(o.one);
  if (m) text += ' ' + t('page.training.result.mechanism', m);
  return text;
}

/** The unscaled run's mechanism (train/mechanism.js), as the sentence's parameters; null without one. */
export function mechanism(run) {
  const m = runMechanism(run.data);
  if (!m) return null;
  return {
    max1: percent(m.max1), corr1: percent(m.corr1), step: int(m.step), l1: num(m.l1, 3), l2: num(m.l2, 3),
    frozen: percent(m.frozen), rels: m.rels.map((r) => num(r, 2)).join(t('page.training.result.listSep')),
  };
}

/** Wire section 6; returns {relabel} for the page's language switch. */
export function mount() {
  const el = document.getElementById('train-live');
  const startRow = document.getElementById('train-live-start-row');
  const start = document.getElementById('train-live-start');
  const result = document.getElementById('train-live-result');
  const link = document.getElementById('lab-link');
  if (!el || !start) return { relabel() {} };
  link.setAttribute('href', labHref(el));

  const render = () => {
    const o = outcome(el);
    result.hidden = !o;
    result.textContent = o ? sentence(o) : '';
    result.dataset.state = o ? 'done' : 'none';
  };
  // The widget shows its phase as data-run on itself (light DOM: the element is its box).
  new MutationObserver(render).observe(el, { attributes: true, attributeFilter: ['data-run'] });

  start.addEventListener('click', async () => {
    start.disabled = true;
    try {
      await import('../../widgets/attn-train-compare.js');
    } catch (e) {
      start.disabled = false;
      throw e;
    }
    startRow.hidden = true;
    el.start();
    el.querySelector(`#${el.getAttribute('id-prefix') ?? 'train'}-start`)?.focus();
  });
  return { relabel: render };
}
