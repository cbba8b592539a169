// The explainer's first screen: one live figure, the whole argument at a
// glance. A d_k slider and two rows of bars, the softmax of a row of scores as
// they are and divided by √d_k. The row is the seed's 14, 10, 12, a typical
// row at d_k = 64 (q·k has standard deviation √64 = 8 there), grown by
// √(d_k / 64) as q·k grows with d_k: unscaled it turns one-hot, divided by
// √d_k it stays the same at every d_k. The core computes every probability.
import { t } from './i18n.js';
import { int, num, percent } from './format.js';
import { h } from './dom.js';

export const SEED_SCORES = [14, 10, 12];
export const SEED_DK = 64;
const DK_LOG2_MAX = 12;

/** The seed's row as it would be at d_k: √(d_k / 64) times 14, 10, 12. */
export function rowAt(dk) {
  const f = Math.sqrt(dk / SEED_DK);
  return SEED_SCORES.map((s) => s * f);
}

/** Wire the figure in index.html (#hero); returns {relabel}. */
export function mount(fig, client) {
  if (!fig) return { relabel() {} };
  const range = fig.querySelector('#hero-dk');
  const output = fig.querySelector('#hero-dk-out');
  const note = fig.querySelector('#hero-note');
  const rows = ['unscaled', 'scaled'].map((key) => {
    const panel = fig.querySelector(`[data-row="${key}"]`);
    const bars = SEED_SCORES.map(() => {
      const value = h('span', { class: 'hero-p' });
      const fill = h('span', { class: 'fill' });
      const score = h('span', { class: 'hero-s' });
      const col = h('span', { class: 'hero-col' }, value, h('span', { class: 'bar' }, fill), score);
      return { value, fill, score, col };
    });
    panel.querySelector('.hero-bars').replaceChildren(...bars.map((b) => b.col));
    return { key, panel, title: panel.querySelector('.chart-title'), stats: panel.querySelector('.chart-stats'), bars };
  });

  let state = null; // {dk, scores, root, unscaled, scaled}
  let busy = false;
  let dirty = false;

  async function update() {
    if (busy) return void (dirty = true);
    busy = true;
    do {
      dirty = false;
      const dk = 2 ** Number(range.value);
      const scores = rowAt(dk);
      try {
        const root = await client.call('resolveDivisor', ['sqrt', dk]);
        const [unscaled, scaled] = await Promise.all([
          client.call('softmaxStats', [scores, 1]),
          client.call('softmaxStats', [scores, root.value]),
        ]);
        state = { dk, scores, root: root.value, unscaled, scaled };
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
    fig.classList.toggle('is-stale', !state || state.dk !== dk);
    if (!state) return;
    const s = state;
    rows[0].title.textContent = t('page.hero.unscaled');
    rows[1].title.textContent = t('page.hero.scaled', { root: num(s.root, 4) });
    for (const r of rows) {
      const st = s[r.key];
      r.stats.textContent = t('page.hero.stats', { p: percent(st.maxProb), j: num(st.jacobianNorm, 3) });
      r.bars.forEach((b, j) => {
        b.fill.style.height = `${(st.probs[j] * 100).toFixed(3)}%`;
        b.value.textContent = percent(st.probs[j]);
        b.score.textContent = num(r.key === 'scaled' ? s.scores[j] / s.root : s.scores[j], 3);
      });
      r.panel.querySelector('.hero-bars').setAttribute('aria-label',
        `${r.title.textContent}: ${r.bars.map((b) => `${b.score.textContent} → ${b.value.textContent}`).join(', ')}`);
    }
    const p = (st) => Array.from(st.probs, percent).join(', ');
    note.textContent = s.dk === SEED_DK
      ? t('page.hero.noteSeed', { u: p(s.unscaled), s: p(s.scaled) })
      : t('page.hero.note', {
          dk: int(s.dk), f: num(Math.sqrt(s.dk / SEED_DK), 3), scores: s.scores.map((x) => num(x, 3)).join(', '),
          p: percent(s.unscaled.maxProb), root: num(s.root, 4),
        });
  }

  range.max = String(DK_LOG2_MAX);
  range.addEventListener('input', () => {
    render();
    update();
  });
  update();
  return { relabel: render };
}
