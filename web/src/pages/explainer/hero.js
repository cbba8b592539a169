// The explainer's first screen: one live figure, the whole argument at a
// glance. A d_k slider and two rows of bars, the softmax of a row of scores as
// they are and divided by √d_k. The row is the seed's 14, 10, 12, a typical
// row at d_k = 64 (q·k has standard deviation √64 = 8 there), grown by
// √(d_k / 64) as q·k grows with d_k: unscaled it turns one-hot, divided by
// √d_k it stays the same at every d_k. The core computes every probability.
//
// Its texts come from heroTexts(), one function for both times they are
// written: at build time (scripts/static-text.mjs, from the native core, so
// the first paint already holds the d_k = 64 figure and nothing moves when the
// wasm core answers) and in the page, from the wasm core, as d_k moves.
import { t } from '../../base/i18n.js';
import { int, num, percent } from '../../base/format.js';

export const SEED_SCORES = [14, 10, 12];
export const SEED_DK = 64;
const ROWS = ['unscaled', 'scaled'];

/** The seed's row as it would be at d_k: √(d_k / 64) times 14, 10, 12. */
export function rowAt(dk) {
  const f = Math.sqrt(dk / SEED_DK);
  return SEED_SCORES.map((s) => s * f);
}

/**
 * Every text of the figure for a computed state {dk, scores, root, unscaled,
 * scaled} (each row: the core's {probs, maxProb, jacobianNorm}), keyed as the
 * data-hero attributes of index.html: 'unscaled.p0', 'scaled.title', 'note', …
 */
export function heroTexts(s) {
  const out = {
    'unscaled.title': t('page.hero.unscaled'),
    'scaled.title': t('page.hero.scaled', { root: num(s.root, 4) }),
  };
  for (const key of ROWS) {
    const st = s[key];
    out[`${key}.stats`] = t('page.hero.stats', { p: percent(st.maxProb), j: num(st.jacobianNorm, 3) });
    SEED_SCORES.forEach((_, j) => {
      out[`${key}.p${j}`] = percent(st.probs[j]);
      out[`${key}.s${j}`] = num(key === 'scaled' ? s.scores[j] / s.root : s.scores[j], 3);
    });
  }
  // 86.68%, 1.59%, 11.73% in English; 86.68%、1.59%、11.73% in Chinese, as the seed's 14、10、12.
  const sep = t('page.hero.listSep');
  const p = (st) => Array.from(st.probs, percent).join(sep);
  out.note = s.dk === SEED_DK
    ? t('page.hero.noteSeed', { u: p(s.unscaled), s: p(s.scaled) })
    : t('page.hero.note', {
        dk: int(s.dk), f: num(Math.sqrt(s.dk / SEED_DK), 3), scores: s.scores.map((x) => num(x, 3)).join(sep),
        p: percent(s.unscaled.maxProb), root: num(s.root, 4),
      });
  return out;
}

/** The figure's state at d_k from a core: call(name, args) -> Promise (the worker client, or the CLI at build time). */
export async function heroState(call, dk) {
  const scores = rowAt(dk);
  const root = await call('resolveDivisor', ['sqrt', dk]);
  const [unscaled, scaled] = await Promise.all([call('softmaxStats', [scores, 1]), call('softmaxStats', [scores, root.value])]);
  return { dk, scores, root: root.value, unscaled, scaled };
}

/** Wire the figure in index.html (#hero) to the core; returns {relabel}. */
export function mount(fig, client) {
  if (!fig) return { relabel() {} };
  const range = fig.querySelector('#hero-dk');
  const output = fig.querySelector('#hero-dk-out');
  const slots = [...fig.querySelectorAll('[data-hero]')];
  const fills = Object.fromEntries(ROWS.map((key) => [key, [...fig.querySelectorAll(`[data-row="${key}"] .fill`)]]));
  const call = (name, args) => client.call(name, args);

  // The build's state at d_k = 64 (scripts/static-text.mjs), drawn now in the
  // page's language: a Chinese page does not change its words, and move what
  // follows, when the wasm core answers. The core computes it again.
  let state = null;
  try {
    state = JSON.parse(fig.dataset.heroState ?? 'null');
  } catch {
    /* a page built without the CLI: the core's answer fills the figure */
  }
  let busy = false;
  let dirty = false;

  async function update() {
    if (busy) return void (dirty = true);
    busy = true;
    do {
      dirty = false;
      try {
        state = await heroState(call, 2 ** Number(range.value));
      } catch {
        state = null; // the footer says the core could not load
      }
    } while (dirty);
    busy = false;
    render();
  }

  function render() {
    const dk = 2 ** Number(range.value);
    output.textContent = t('page.hero.dkValue', { dk: int(dk) });
    range.setAttribute('aria-valuetext', t('page.hero.dkValue', { dk: int(dk) }));
    // Stale (index.html starts so) until the core has computed this d_k.
    fig.classList.toggle('is-stale', !state || state.dk !== dk);
    if (!state) return;
    fig.dataset.dk = String(state.dk);
    const text = heroTexts(state);
    for (const el of slots) el.textContent = text[el.dataset.hero];
    for (const key of ROWS) {
      fills[key].forEach((f, j) => {
        f.style.transform = `scaleY(${state[key].probs[j].toFixed(5)})`;
      });
      const row = fig.querySelector(`[data-row="${key}"]`);
      row.querySelector('.hero-bars').setAttribute('aria-label',
        `${text[`${key}.title`]}: ${SEED_SCORES.map((_, j) => `${text[`${key}.s${j}`]} → ${text[`${key}.p${j}`]}`).join(t('page.hero.listSep'))}`);
    }
  }

  range.addEventListener('input', () => {
    render();
    update();
  });
  render();
  update();
  return { relabel: render };
}
