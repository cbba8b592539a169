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
import { loadModule } from '../../bridge/loader.js';
import { check } from '../../bridge/wasm-call.js';
import { nextTask } from '../../bridge/rpc.js';
import { getLang, t } from '../../base/i18n.js';
import './presets-strings.js';
import { decimals, fixed, int, num, significant } from '../../base/format.js';
import { h } from '../../base/dom.js';
import { mathNodes } from '../../widgets/math-text.js';
import { buildFromSearch } from '../../bridge/build.js';

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


/** A core session's result after `total` in batches of `batch`, a task each; deleted after. */
async function drawn(session, configure, total, batch, read) {
  try {
    check(configure(session));
    for (let done = 0; done < total; done += batch) {
      await nextTask();
      check(session.draw(Math.min(batch, total - done)));
    }
    return check(read(session));
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

/** The source line in the reader's language (presets-strings.js), or the core's English: {text, lang}. */
function sourceText(p) {
  try {
    return { text: t(`page.presets.source.${p.name}`) };
  } catch {
    return { text: p.source, lang: getLang() === 'en' ? null : 'en' };
  }
}

// Numbers not computed yet: a slot about as wide as the number to come, so
// the sentence around it wraps now as it will then (issue 33: nothing jumps).
const slot = () => h('span', { class: 'presets-slot', text: '…' });

/** Fill el with t(key, params), where a param that is an element goes in as that element. */
function fillText(el, key, params) {
  const nodes = {};
  const plain = {};
  for (const [k, v] of Object.entries(params)) {
    if (v instanceof Node) (nodes[k] = v), (plain[k] = `\u0000${k}\u0000`);
    else plain[k] = v;
  }
  // The text between the elements with its math (W_Q, d_{kv}) as sub- and superscripts.
  el.replaceChildren(...t(key, plain).split('\u0000').flatMap((part, i) => (i % 2 ? [nodes[part]] : mathNodes(part))));
}

/**
 * Wire the section: the table's rows as soon as the module is here (each
 * preset's settings and source), its numbers as the core computes them, in
 * place: the table has its final size from the start. Returns {relabel}.
 */
export function mount(section, explorer) {
  const status = section.querySelector('.presets-status');
  const wrap = section.querySelector('.presets-table');
  const how = section.querySelector('.presets-how');
  const t5Note = section.querySelector('.presets-t5');
  let presets = null; // the core's presets, once its module is here
  const results = new Map(); // name -> {sat, logits, init}
  let failed = false; // the module did not load or the core refused: a sentence, not its English
  let cells = new Map(); // name -> {std, maxProb, entropy}: the cells a result fills

  const cols = ['model', 'dk', 'divisor', 'cap', 'std', 'maxProb', 'entropy'];

  function render() {
    status.textContent = failed ? t('page.presets.failed')
      : presets && results.size === presets.length ? '' : t('page.presets.loading');
    how.textContent = t('page.presets.how', { n: int(N_KEYS), rows: int(ROWS), draws: int(DRAWS), seed: int(SEED) });
    if (!presets) return;
    const label = Object.fromEntries(cols.map((c) => [c, t(`page.presets.col.${c}`)]));
    // A short caption: a long one is as wide as the table, which scrolls on a narrow screen.
    const caption = h('caption', { id: 'presets-caption', text: t('page.presets.caption') });
    const head = h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col', text: label[c] }))));
    cells = new Map();
    // One body per preset: its numbers in a row, its source and links in the row under it
    // (a column of their own made every row four lines tall). On a phone each body is a card.
    const bodies = presets.map((p) => {
      const show = h('button', { type: 'button', class: 'presets-show', 'data-preset': p.name, text: t('page.presets.show') });
      show.addEventListener('click', () => showInExplorer(explorer, p));
      const c = Object.fromEntries(['std', 'maxProb', 'entropy'].map((k) => [k, h('td', { 'data-col': k, 'data-label': label[k] })]));
      cells.set(p.name, c);
      return h('tbody', { 'data-preset': p.name },
        h('tr', { class: 'presets-row', 'data-preset': p.name },
          h('th', { scope: 'row', text: p.label }),
          h('td', { 'data-col': 'dk', 'data-label': label.dk, text: int(p.dk) }),
          h('td', { 'data-col': 'divisor', 'data-label': label.divisor, text: divisorText(p) }),
          h('td', { 'data-col': 'cap', 'data-label': label.cap, text: p.softcap ? num(p.softcap, 6) : t('page.presets.none') }),
          c.std, c.maxProb, c.entropy),
        h('tr', { class: 'presets-more' },
          h('td', { colspan: cols.length }, h('div', { class: 'presets-more-box' },
            h('span', { class: 'presets-source' }, h('span', { class: 'presets-source-label', text: t('page.presets.col.source') }),
              h('span', { 'data-col': 'source', lang: sourceText(p).lang, text: sourceText(p).text })),
            h('span', { class: 'presets-try' }, show, h('a', { href: labHref(p), text: t('page.presets.lab') }))))));
    });
    // The scroll box is a region named by the caption (the section has the heading's name).
    wrap.replaceChildren(h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-labelledby': caption.id },
      h('table', { class: 'data-table presets-grid' }, caption, head, ...bodies)));
    fill();
  }

  /** The computed numbers into their cells, and the T5 note. */
  function fill() {
    for (const [name, c] of cells) {
      const r = results.get(name);
      c.std.textContent = r ? num(Math.sqrt(r.logits.scaledVar), 3) : '…';
      c.maxProb.textContent = r ? meanSe(r.sat.maxProb, 3) : '…';
      c.entropy.textContent = r ? meanSe(r.sat.entropy, 3) : '…';
    }
    const p = presets?.find((x) => x.init);
    if (!p) return void t5Note.replaceChildren();
    const r = results.get(p.name);
    fillText(t5Note, 'page.presets.t5', r ? {
      label: p.label, dk: int(p.dk), sq: num(r.init.sigmaQ, 4), draws: int(r.init.summary.samples),
      // 1.004, not a rounded 1: the sample's own figure.
      v: decimals(r.init.summary.scaledVar, 3), th: num(r.init.summary.theoryScaledVar, 3),
      unit: num(Math.sqrt(r.logits.scaledVar), 3),
    } : { label: p.label, dk: int(p.dk), sq: slot(), draws: int(DRAWS), v: slot(), th: slot(), unit: slot() });
  }

  render();
  (async () => {
    // The presets' module on the main thread (its batches are a task each), through the one loader.
    const M = await loadModule('presets', buildFromSearch());
    presets = M.presets();
    render();
    await computeRows(M, (rows) => {
      const { p, ...r } = rows[rows.length - 1];
      results.set(p.name, r);
      if (results.size === presets.length) status.textContent = '';
      fill();
    });
    section.dataset.ready = 'true';
  })().catch((e) => {
    console.error(e);
    failed = true;
    render();
  });
  return { relabel: render };
}
