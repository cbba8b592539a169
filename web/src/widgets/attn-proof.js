// <attn-proof>: the proof that Var(q·k) = d_k, stepped. For d_k from 1 to 6,
// a d_k × d_k grid holds the terms q_i k_i q_j k_j of (q·k)²; each cell shows
// its running Monte Carlo mean (the core's QkSampler proof terms) as samples
// stream in. Next/Back buttons and the arrow keys (on those buttons or on the
// step panel) walk the seven steps; Play, Pause and Reset control the
// sampling, and once playing (pressed, or started on reaching the section
// when motion is allowed) a new d_k, Reset or New seed keeps streaming.
// Formulas are typeset at build time.
//
// Attributes (element.js options; a later change updates the widget): dk
// (1..6, default 3), step (1..7), seed; url-state (e.g. "proof"), id-prefix
// (default "proof").
import { t } from '../base/i18n.js';
import { DASH, int, num } from '../base/format.js';
import { h, reducedMotion, whenNear } from '../base/dom.js';
import { randomSeed, readState, writeState } from '../base/state.js';
import { AttnElement, coreMessage, define, timed } from './element.js';
import { mathEl } from '../math/math.js';
import { OPTIONS, SPECS, STEPS } from './proof-options.js';
import './proof-strings.js';
import styles from './proof.css?inline';

const MAX_SAMPLES = 1_000_000;
const PAUSE_MS = 90; // between batches while playing, so convergence can be watched


class AttnProof extends AttnElement {
  defaultIdPrefix = 'proof';

  static styles = styles;

  static options = OPTIONS;

  build() {
    const specs = Object.fromEntries(Object.entries(SPECS).map(([k, s]) => [k, { ...s, def: this.v[k] ?? s.def }]));
    const { values, notices } = readState(this.statePrefix, specs);
    this.v = values; // step is 1-based in the URL and on screen
    this.session = null;
    this.result = null;
    this.playing = false;
    // The reader's intent: stream samples. Set by Play (the reader's, or the
    // automatic start, never under reduced motion); cleared by Pause. A fresh
    // session (d_k, Reset, New seed) streams again while it is set, even after
    // the last one stopped at MAX_SAMPLES.
    this.wantPlay = false;
    this.gen = 0;

    const I = (s) => this.id_(s);
    this.dkRange = h('input', { type: 'range', id: I('dk'), min: 1, max: 6, step: 1 });
    this.dkLabel = h('label', { for: this.dkRange.id });
    this.dkOut = h('output', { id: I('dk-output'), for: this.dkRange.id });
    this.backBtn = h('button', { type: 'button', id: I('back') });
    this.nextBtn = h('button', { type: 'button', id: I('next') });
    this.playBtn = h('button', { type: 'button', id: I('play'), 'aria-pressed': 'false' });
    this.resetBtn = h('button', { type: 'button', id: I('reset') });
    this.seedBtn = h('button', { type: 'button', id: I('resample') });
    this.samplesEl = h('span', { class: 'seed', id: I('samples'), 'aria-live': 'off' });
    this.stepOf = h('p', { class: 'step-of', id: I('step-of') });
    this.stepText = h('p', { class: 'step-text', id: I('step-text') });
    this.formulas = Object.fromEntries(STEPS.map((k) => [k, mathEl(k, { display: true })]));
    this.formulaBox = h('div', { class: 'step-formula', id: I('formula') });
    this.keysNote = h('p', { class: 'note' });
    // The step panel is focusable and takes the arrow keys.
    this.panel = h('div', { class: 'step-panel', id: I('panel'), tabindex: 0, role: 'group', 'aria-labelledby': this.stepOf.id, 'aria-describedby': this.stepText.id },
      this.stepOf, this.stepText, this.formulaBox);
    this.live = h('p', { class: 'visually-hidden', 'aria-live': 'polite', id: I('live') });

    this.caption = h('caption');
    this.grid = h('table', { class: 'proof-grid', id: I('grid') });
    this.sums = h('p', { class: 'readout proof-sums', id: I('sums') });
    this.measured = h('p', { class: 'readout proof-measured', id: I('measured') });
    // What to look at in the grid, from its cells (renderData).
    this.look = h('p', { class: 'note look', id: I('look') });
    this.errorEl = h('p', { class: 'msg', role: 'alert' });

    // Controls and step panel share one container, which takes the arrow keys.
    this.stepper = h('div', { class: 'proof-stepper' },
      h('div', { class: 'controls' },
        h('div', { class: 'field field-range field-small' }, h('div', { class: 'range-head' }, this.dkLabel, this.dkOut), this.dkRange),
        h('div', { class: 'field field-seed' }, this.backBtn, this.nextBtn),
        h('div', { class: 'field field-seed' }, this.playBtn, this.resetBtn, this.seedBtn, this.samplesEl)),
      h('div', { class: 'proof-layout' },
        this.panel,
        h('div', { class: 'proof-data' }, h('div', { class: 'table-scroll' }, this.grid), this.look, this.sums, this.measured, this.errorEl)));
    this.root.append(this.noticeBox(notices), this.stepper, this.keysNote, this.live);

    this.dkRange.addEventListener('input', () => {
      this.v.dk = Number(this.dkRange.value);
      this.dkOut.textContent = int(this.v.dk);
      this.save();
      this.restart();
    });
    this.backBtn.addEventListener('click', () => this.go(this.v.step - 1));
    this.nextBtn.addEventListener('click', () => this.go(this.v.step + 1));
    // The arrow keys, Home and End step on the Back and Next buttons and on the
    // panel; the d_k slider keeps its own keys. Up/Down only on the panel, so
    // they still scroll the page from a button.
    this.stepper.addEventListener('keydown', (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const onPanel = this.panel.contains(e.target);
      if (!onPanel && e.target !== this.backBtn && e.target !== this.nextBtn) return;
      const keys = { ArrowRight: this.v.step + 1, ArrowLeft: this.v.step - 1, Home: 1, End: STEPS.length };
      if (onPanel) Object.assign(keys, { ArrowDown: this.v.step + 1, ArrowUp: this.v.step - 1 });
      const to = keys[e.key];
      if (to === undefined) return;
      e.preventDefault();
      this.go(to);
    });
    this.playBtn.addEventListener('click', () => {
      if (this.playing) {
        this.wantPlay = false;
        this.pause();
      } else this.play();
    });
    this.resetBtn.addEventListener('click', () => this.restart());
    this.seedBtn.addEventListener('click', () => {
      this.v.seed = randomSeed();
      this.save();
      this.restart();
    });

    this.dkRange.value = String(this.v.dk);
    this.buildGrid();
    this.restart();
    // Start sampling when the reader reaches the section (not under reduced motion:
    // then the reader presses Play).
    whenNear(this, () => {
      if (!reducedMotion()) this.play();
    }, '0px');
  }

  save() {
    writeState(this.statePrefix, this.v);
    this.announce(this.state());
  }

  // Left the document: sampling pauses (the session stays, so the means are
  // kept); back in it, the reader presses Play again.
  stopWork() {
    this.wantPlay = false;
    this.pause();
  }

  optionChanged(key) {
    if (key === 'step') {
      const s = this.v.step;
      this.v.step = 0;
      return this.go(s);
    }
    this.dkRange.value = String(this.v.dk);
    this.dkOut.textContent = int(this.v.dk);
    this.save();
    this.restart();
  }

  go(step) {
    const s = Math.min(STEPS.length, Math.max(1, step));
    if (s === this.v.step) return;
    // A focused Back or Next about to be disabled would drop focus to the page:
    // the step panel takes it (and the arrow keys go on working).
    const focused = [this.backBtn, this.nextBtn].find((b) => b.matches(':focus'));
    this.v.step = s;
    this.save();
    this.renderStep();
    if (focused?.disabled) this.panel.focus();
    this.live.textContent = `${this.stepOf.textContent}. ${this.stepText.textContent}`;
  }

  // A fresh session (d_k or seed changed, or Reset): the means start again from 0 samples.
  async restart() {
    const gen = ++this.gen;
    const old = this.session;
    this.session = null;
    this.result = null;
    if (old !== null) this.client.call('qkClose', [old]).catch(() => {});
    // Streaming goes on in the fresh session if the reader wants it (also after
    // the last session stopped at MAX_SAMPLES).
    if (this.wantPlay && !this.playing) {
      this.playing = true;
      this.renderButtons();
    }
    this.buildGrid();
    this.renderData();
    try {
      const c = await this.client.call('resolveDivisor', ['sqrt', this.v.dk]);
      const id = await this.client.call('qkOpen', [{ dk: this.v.dk, divisor: c.value, seed: this.v.seed, bins: 1 }]);
      if (gen !== this.gen) {
        this.client.call('qkClose', [id]).catch(() => {});
        return;
      }
      this.session = id;
      this.error = null;
      // A first small batch, so the grid has numbers before Play.
      await this.drawBatch(gen, 100);
      if (this.playing) this.loop(gen);
    } catch (e) {
      if (gen === this.gen) {
        this.error = e;
        this.renderData();
      }
    }
  }

  async drawBatch(gen, n) {
    const r = await this.client.call('qkDraw', [this.session, n]);
    if (gen !== this.gen) return false;
    this.result = r;
    timed('proof.render', () => this.renderData());
    return true;
  }

  play() {
    this.wantPlay = true;
    if (this.playing) return;
    this.playing = true;
    this.renderButtons();
    if (this.session !== null) this.loop(this.gen);
  }

  pause() {
    this.playing = false;
    this.renderButtons();
  }

  async loop(gen) {
    if (this.looping === gen) return;
    this.looping = gen;
    try {
      while (this.playing && gen === this.gen) {
        const have = this.result?.summary.samples ?? 0;
        if (have >= MAX_SAMPLES) break;
        // Batches grow with the total, so the running means move visibly at first
        // and each batch stays a few milliseconds of work.
        const n = Math.min(MAX_SAMPLES - have, Math.max(200, Math.round(have / 3)));
        if (!(await this.drawBatch(gen, n))) return;
        await new Promise((r) => setTimeout(r, PAUSE_MS));
      }
    } catch (e) {
      this.error = e;
      this.renderData();
    } finally {
      if (this.looping === gen) this.looping = null;
    }
    if (gen === this.gen && (this.result?.summary.samples ?? 0) >= MAX_SAMPLES) this.pause();
  }

  buildGrid() {
    const d = this.v.dk;
    this.cells = [];
    const head = h('tr', {}, h('td', { class: 'corner' }), Array.from({ length: d }, (_, j) => h('th', { scope: 'col', dataset: { j: j + 1 } })));
    const rows = Array.from({ length: d }, (_, i) => h('tr', {},
      h('th', { scope: 'row', dataset: { i: i + 1 } }),
      Array.from({ length: d }, (_, j) => {
        const td = h('td', { class: i === j ? 'cell diag' : 'cell off', dataset: { i: i + 1, j: j + 1 } });
        this.cells.push(td);
        return td;
      })));
    this.grid.replaceChildren(this.caption, h('thead', {}, head), h('tbody', {}, rows));
    this.grid.dataset.dk = String(d);
    this.renderStep();
  }

  renderButtons() {
    this.playBtn.textContent = t(this.playing ? 'proof.pause' : 'proof.play');
    this.playBtn.setAttribute('aria-pressed', String(this.playing));
    this.backBtn.disabled = this.v.step <= 1;
    this.nextBtn.disabled = this.v.step >= STEPS.length;
  }

  renderStep() {
    const key = STEPS[this.v.step - 1];
    this.stepOf.textContent = t('proof.stepOf', { i: int(this.v.step), n: int(STEPS.length) });
    this.stepText.textContent = t(`proof.step.${key}`, { cells: int(this.v.dk * this.v.dk) });
    this.formulaBox.replaceChildren(this.formulas[key]);
    this.box.dataset.step = String(this.v.step);
    this.grid.dataset.step = key; // CSS highlights the diagonal or the cross terms
    this.renderButtons();
  }

  renderData() {
    const r = this.result;
    const d = this.v.dk;
    const means = r?.proofMeans;
    let diag = 0;
    let off = 0;
    const diagonal = [];
    let cross = 0;
    this.cells.forEach((td, k) => {
      const x = means ? means[k] : NaN;
      td.textContent = means ? num(x, 3) : DASH;
      td.dataset.mean = means ? String(x) : '';
      if (means) {
        if (Math.floor(k / d) === k % d) {
          diag += x;
          diagonal.push(x);
        } else {
          off += x;
          if (Math.abs(x) > Math.abs(cross)) cross = x;
        }
      }
    });
    this.caption.textContent = t('proof.gridCaption', { dk: int(d) });
    for (const th of this.grid.querySelectorAll('thead th')) th.textContent = t('proof.colHead', { j: int(Number(th.dataset.j)) });
    for (const th of this.grid.querySelectorAll('tbody th')) th.textContent = t('proof.rowHead', { i: int(Number(th.dataset.i)) });
    this.sums.textContent = means
      ? t('proof.sums', { diag: num(diag, 4), off: num(off, 3), cells: int(d * d), total: num(diag + off, 4) })
      : DASH;
    if (means) this.look.textContent = t('proof.look', { d: int(d), lo: num(Math.min(...diagonal), 3), hi: num(Math.max(...diagonal), 3) })
      + (d > 1 ? t('proof.lookCross', { c: int(d * d - d), off: num(cross, 3) }) : '');
    this.sums.dataset.total = means ? String(diag + off) : '';
    this.measured.textContent = r ? t('proof.measured', { var: num(r.summary.var, 4), svar: num(r.summary.scaledVar, 4) }) : '';
    this.measured.dataset.var = r ? String(r.summary.var) : '';
    this.measured.dataset.scaledVar = r ? String(r.summary.scaledVar) : '';
    this.samplesEl.textContent = t('proof.samples', { n: int(r?.summary.samples ?? 0), seed: int(this.v.seed) });
    this.samplesEl.dataset.samples = String(r?.summary.samples ?? 0);
    this.errorEl.textContent = this.error ? coreMessage(this.error) : '';
  }

  relabel() {
    this.dkLabel.textContent = t('proof.dk');
    this.dkOut.textContent = int(this.v.dk);
    this.backBtn.textContent = t('proof.back');
    this.nextBtn.textContent = t('proof.next');
    this.resetBtn.textContent = t('proof.reset');
    this.seedBtn.textContent = t('proof.resample');
    this.keysNote.textContent = t('proof.keys');
    this.renderNotices();
    this.renderStep();
    this.renderData();
  }
}

define('attn-proof', AttnProof);
