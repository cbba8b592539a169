// The explainer's "What real models divide by" (index.html#presets): one row
// per preset of the core's table (base/presets.cpp, as `attnlab presets`
// prints it), with the numbers the core computes for that setting as for any
// other: the std of q·k / c for unit-variance q and k, and at N_KEYS keys the
// expected largest probability and entropy with the preset's divisor and
// soft-cap (`attnlab saturation --preset NAME --n 64 --samples 300 --seed 1`
// prints the same). main.js imports this module when the section nears the
// screen; it loads the presets' wasm module of its own (cpp/wasm/presets_bindings.cpp)
// on this thread, never the widgets' worker or the explainer's module, whose
// bytes an embedded widget's host pays.
import { detectBuild } from './core/detect.js';
import { t } from './i18n.js';
import { decimals, fixed, int, num, significant } from './format.js';
import { h } from './dom.js';
import { buildFromSearch } from './core/build.js';

// Saturation at N_KEYS keys over ROWS rows, logits over DRAWS draws, from SEED.
// Gemma 2's rows are 4.9 M normals, 0.1-0.4 s in one call, its logits 0.13 s
// (measured in Node on the loaded 2-core machine): drawn in batches, a task
// each (its 50 rows: 40 ms loaded), so the reader's clicks are never kept waiting.
export const N_KEYS = 64;
export const ROWS = 300;
const BATCH = 50;
const DRAW_BATCH = 1000; // Gemma 2: 0.5 M normals, 10-30 ms
export const DRAWS = 4000;
export const SEED = 1;

const MODULES = {
  relaxed: () => import('./wasm/attnlab_presets_relaxed.js'),
  simd: () => import('./wasm/attnlab_presets_simd.js'),
  scalar: () => import('./wasm/attnlab_presets_scalar.js'),
};
const nextTask = () => new Promise((done) => setTimeout(done));

/** The result, or a throw when it carries the core's error (the inputs here are fixed: a bug). */
function ok(r) {
  if (r.error) throw new Error(r.error);
  return r;
}

/** A core session's result after `total` in batches of `batch`, a task each; deleted after. */
async function drawn(session, configure, total, batch, read) {
  try {
    ok(configure(session));
    for (let done = 0; done < total; done += batch) {
      await nextTask();
      ok(session.draw(Math.min(batch, total - done)));
    }
    return ok(read(session));
  } finally {
    session.delete();
  }
}

/** Every preset with its computed numbers: {p, sat, logits, init (T5 only)}. */
export async function computeRows(M, onRow = () => {}) {
  const rows = [];
  const logitsAt = (p, atInit) => drawn(new M.PresetLogitsSession(), (s) => s.configure(p.name, SEED, atInit),
    DRAWS, DRAW_BATCH, (s) => s.summary());
  for (const p of M.presets()) {
    const sat = (await drawn(new M.PresetSaturationSession(), (s) => s.configure(p.name, N_KEYS, SEED),
      ROWS, BATCH, (s) => s.stats())).stats;
    const logits = (await logitsAt(p, false)).summary;
    // The preset's own initialisation, where it carries the scale (T5).
    const init = p.init ? await logitsAt(p, true) : null;
    rows.push({ p, sat, logits, init });
    onRow(rows);
  }
  return rows;
}

/** The divisor as the model's rule gives it, with its value: √144 = 12, √128 ≈ 11.31, dₖ = 64, 1. */
export function divisorText(p) {
  const c = p.divisor;
  if (c === 1) return t('page.presets.noDivision');
  if (c === p.dk) return `dₖ = ${int(c)}`;
  const r = Math.round(c * c);
  const exact = Number.isInteger(c);
  if (Math.sqrt(r) === c || Math.abs(Math.sqrt(r) - c) <= 1e-12 * c)
    return `√${int(r)} ${exact ? '=' : '≈'} ${exact ? int(c) : num(c, 4)}`;
  return num(c, 6);
}

/** Mean to `digits` decimals ± its standard error to one significant digit (0.021 ± 0.0003, never ± 0). */
const meanSe = (x, digits) => `${fixed(x.mean, digits)} ± ${significant(x.se, 1)}`;

/** The saturation explorer's attributes for a preset: √d_k, d_k and 1 by name, else the number. */
export function explorerDivisor(p) {
  if (p.divisor === Math.sqrt(p.dk)) return 'sqrt';
  if (p.divisor === p.dk) return 'dk';
  return String(p.divisor); // 1, 2 or a number: the attribute reads all three
}

/** The lab with the preset's settings, in the lab form's own address (its Preset select then shows it). */
export function labHref(p) {
  const q = new URLSearchParams();
  q.set('dk', String(p.dk));
  q.set('div', String(p.divisor)); // the core's number, exactly (the lab's presetDivisorText)
  if (p.softcap) q.set('cap', String(p.softcap));
  if (p.init) q.set('init', p.init);
  return `lab.html?${q}`;
}

/** Sets <attn-saturation> to the preset's d_k, divisor and N_KEYS keys, and scrolls to it. */
export function showInExplorer(el, p) {
  const attrs = { dk: String(p.dk), divisor: explorerDivisor(p), m: String(N_KEYS) };
  for (const [a, v] of Object.entries(attrs)) {
    // The reader may have moved the control since: the same attribute again would change nothing.
    if (el.getAttribute(a) === v) el.removeAttribute(a);
    el.setAttribute(a, v);
  }
  el.scrollIntoView({ block: 'start' });
}

/** Wire the section: compute the table, then keep it in the reader's language. Returns {relabel}. */
export function mount(section, explorer) {
  const status = section.querySelector('.presets-status');
  const wrap = section.querySelector('.presets-table');
  const how = section.querySelector('.presets-how');
  const t5Note = section.querySelector('.presets-t5');
  let rows = [];
  let failed = false; // the module did not load or the core refused: a sentence, not its English

  function render() {
    status.textContent = failed ? t('page.presets.failed')
      : rows.length ? '' : t('page.presets.loading');
    if (!rows.length) return;
    const cols = ['model', 'dk', 'divisor', 'cap', 'std', 'maxProb', 'entropy', 'source', 'try'];
    // A short caption: a long one is as wide as the table, which scrolls on a narrow screen.
    const caption = h('caption', { text: t('page.presets.caption') });
    how.textContent = t('page.presets.how', { n: int(N_KEYS), rows: int(ROWS), draws: int(DRAWS), seed: int(SEED) });
    const head = h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col', text: t(`page.presets.col.${c}`) }))));
    const body = h('tbody', {}, rows.map(({ p, sat, logits }) => {
      const show = h('button', { type: 'button', class: 'presets-show', 'data-preset': p.name, text: t('page.presets.show') });
      show.addEventListener('click', () => showInExplorer(explorer, p));
      return h('tr', { 'data-preset': p.name },
        h('th', { scope: 'row', text: p.label }),
        h('td', { 'data-col': 'dk', text: int(p.dk) }),
        h('td', { 'data-col': 'divisor', text: divisorText(p) }),
        h('td', { 'data-col': 'cap', text: p.softcap ? num(p.softcap, 6) : t('page.presets.none') }),
        h('td', { 'data-col': 'std', text: num(Math.sqrt(logits.scaledVar), 3) }),
        h('td', { 'data-col': 'maxProb', text: meanSe(sat.maxProb, 3) }),
        h('td', { 'data-col': 'entropy', text: meanSe(sat.entropy, 3) }),
        h('td', { 'data-col': 'source', class: 'presets-source', text: p.source }),
        h('td', { 'data-col': 'try' }, show, ' ', h('a', { href: labHref(p), text: t('page.presets.lab') })));
    }));
    // The scroll box is a region named by the caption (the section has the heading's name).
    caption.id = 'presets-caption';
    wrap.replaceChildren(h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-labelledby': caption.id },
      h('table', { class: 'data-table' }, caption, head, body)));
    const t5 = rows.find((r) => r.init);
    t5Note.textContent = t5 ? t('page.presets.t5', {
      label: t5.p.label, dk: int(t5.p.dk), sq: num(t5.init.sigmaQ, 4), draws: int(t5.init.summary.samples),
      // 1.004, not a rounded 1: the sample's own figure.
      v: decimals(t5.init.summary.scaledVar, 3), th: num(t5.init.summary.theoryScaledVar, 3),
      unit: num(Math.sqrt(t5.logits.scaledVar), 3),
    }) : '';
  }

  render();
  (async () => {
    const build = buildFromSearch();
    const variant = await detectBuild(build);
    const M = await (await MODULES[variant]()).default();
    await computeRows(M, (r) => { rows = r.slice(); render(); });
    section.dataset.ready = 'true';
  })().catch((e) => {
    console.error(e);
    failed = true;
    render();
  });
  return { relabel: render };
}
