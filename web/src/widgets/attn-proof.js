// <attn-proof>: the proof that Var(q·k) = d_k, stepped. For d_k from 1 to 6,
// a d_k × d_k grid holds the terms q_i k_i q_j k_j of (q·k)²; each cell shows
// its running Monte Carlo mean (the core's QkSampler proof terms) as samples
// stream in. Next/Back buttons and the arrow keys walk the seven steps; Play,
// Pause and Reset control the sampling. Formulas are typeset at build time.
//
// Attributes: dk (1..6, default 3), step, seed, url-state (e.g. "proof"),
// id-prefix (default "proof").
import { defineStrings, t } from '../i18n.js';
import { DASH, int, num } from '../format.js';
import { h, reducedMotion, whenNear } from '../dom.js';
import { randomSeed, readState, writeState } from '../state.js';
import { AttnElement, coreMessage, define, timed } from './element.js';
import { mathEl } from '../math/math.js';

const STEPS = ['dot', 'square', 'diagonal', 'cross', 'sum', 'divide', 'choose'];
const MAX_SAMPLES = 1_000_000;
const PAUSE_MS = 90; // between batches while playing, so convergence can be watched

const SPECS = {
  dk: { type: 'int', min: 1, max: 6, def: 3 },
  step: { type: 'int', min: 1, max: STEPS.length, def: 1 },
  seed: { type: 'int', min: 0, max: 2 ** 32 - 1, def: 1 },
};

defineStrings({
  en: {
    'proof.dk': 'dₖ (1 to 6)',
    'proof.back': 'Back',
    'proof.next': 'Next',
    'proof.play': 'Play',
    'proof.pause': 'Pause',
    'proof.reset': 'Reset',
    'proof.resample': 'New seed',
    'proof.stepOf': 'Step {i} of {n}',
    'proof.keys': 'Keyboard: ← and → step, Home and End jump (focus the step text first).',
    'proof.samples': '{n} samples (seed {seed})',
    'proof.gridCaption': 'Running Monte Carlo means of the terms qᵢkᵢ qⱼkⱼ of (q·k)², dₖ = {dk}',
    'proof.rowHead': 'i = {i}',
    'proof.colHead': 'j = {j}',
    'proof.sums': 'Sum of the diagonal means {diag} · sum of the cross-term means {off} · all {cells} cells {total}',
    'proof.measured': 'Measured: Var(q·k) = {var}, Var(q·k / √dₖ) = {svar}.',
    'proof.step.dot': 'Write the dot product as a sum of dₖ products qᵢkᵢ, each of a query entry and a key entry with mean 0 and variance 1.',
    'proof.step.square': 'Square it: (q·k)² is a sum of dₖ × dₖ = {cells} terms, one per cell of the grid. Each cell shows the running mean of its term over the samples drawn so far.',
    'proof.step.diagonal': 'On the diagonal (i = j), qᵢ and kᵢ are independent, so the expectation factors into E[qᵢ²] E[kᵢ²] = 1. The diagonal cells settle near 1.',
    'proof.step.cross': 'Off the diagonal (i ≠ j), the four factors are independent with mean 0, so each cross term has expectation 0. Those cells settle near 0.',
    'proof.step.sum': 'Add the cells: dₖ ones and dₖ² − dₖ zeros make E[(q·k)²] = dₖ, and with E[q·k] = 0 that is the variance. So Var(q·k) = dₖ grows with the dimension.',
    'proof.step.divide': 'Divide every score by a constant c: the variance divides by c².',
    'proof.step.choose': 'The one choice that gives variance 1 at every dₖ is c = √dₖ. That is the √dₖ in softmax(QKᵀ / √dₖ) V.',
  },
  zh: {
    'proof.dk': 'dₖ（1 到 6）',
    'proof.back': '上一步',
    'proof.next': '下一步',
    'proof.play': '播放',
    'proof.pause': '暂停',
    'proof.reset': '重置',
    'proof.resample': '换随机种子',
    'proof.stepOf': '第 {i} 步，共 {n} 步',
    'proof.keys': '键盘：← 与 → 切换步骤，Home 与 End 跳到首尾（先让步骤文字获得焦点）。',
    'proof.samples': '{n} 个样本（随机种子 {seed}）',
    'proof.gridCaption': '(q·k)² 各项 qᵢkᵢ qⱼkⱼ 的蒙特卡洛滑动均值，dₖ = {dk}',
    'proof.rowHead': 'i = {i}',
    'proof.colHead': 'j = {j}',
    'proof.sums': '对角项均值之和 {diag} · 交叉项均值之和 {off} · 全部 {cells} 格之和 {total}',
    'proof.measured': '实测：Var(q·k) = {var}，Var(q·k / √dₖ) = {svar}。',
    'proof.step.dot': '把点积写成 dₖ 个乘积 qᵢkᵢ 之和；查询与键的每个分量均值为 0、方差为 1。',
    'proof.step.square': '平方：(q·k)² 是 dₖ × dₖ = {cells} 项之和，网格中每格一项。每格显示该项在目前已抽样本上的滑动均值。',
    'proof.step.diagonal': '对角线上（i = j），qᵢ 与 kᵢ 相互独立，期望可以拆成 E[qᵢ²] E[kᵢ²] = 1。对角格逐渐稳定在 1 附近。',
    'proof.step.cross': '对角线外（i ≠ j），四个因子相互独立且均值为 0，所以每个交叉项的期望为 0。这些格逐渐稳定在 0 附近。',
    'proof.step.sum': '把各格相加：dₖ 个 1 与 dₖ² − dₖ 个 0，得到 E[(q·k)²] = dₖ；又因 E[q·k] = 0，这就是方差。所以 Var(q·k) = dₖ，随维度增长。',
    'proof.step.divide': '把每个分数除以常数 c，方差就除以 c²。',
    'proof.step.choose': '使每个 dₖ 下方差都为 1 的唯一选择是 c = √dₖ。这就是 softmax(QKᵀ / √dₖ) V 中的 √dₖ。',
  },
});

class AttnProof extends AttnElement {
  defaultIdPrefix = 'proof';

  build() {
    const specs = { ...SPECS };
    for (const k of ['dk', 'step', 'seed']) if (this.hasAttribute(k)) specs[k] = { ...specs[k], def: Number(this.getAttribute(k)) };
    const { values, notices } = readState(this.statePrefix, specs);
    this.v = values; // step is 1-based in the URL and on screen
    this.session = null;
    this.result = null;
    this.playing = false;
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
    this.sums = h('p', { class: 'readout', id: I('sums') });
    this.measured = h('p', { class: 'readout', id: I('measured') });
    this.errorEl = h('p', { class: 'msg', role: 'alert' });

    this.append(this.noticeBox(notices),
      h('div', { class: 'controls' },
        h('div', { class: 'field field-range field-small' }, h('div', { class: 'range-head' }, this.dkLabel, this.dkOut), this.dkRange),
        h('div', { class: 'field field-seed' }, this.backBtn, this.nextBtn),
        h('div', { class: 'field field-seed' }, this.playBtn, this.resetBtn, this.seedBtn, this.samplesEl)),
      h('div', { class: 'proof-layout' },
        this.panel,
        h('div', { class: 'proof-data' }, h('div', { class: 'table-scroll' }, this.grid), this.sums, this.measured, this.errorEl)),
      this.keysNote, this.live);

    this.dkRange.addEventListener('input', () => {
      this.v.dk = Number(this.dkRange.value);
      this.dkOut.textContent = int(this.v.dk);
      this.save();
      this.restart();
    });
    this.backBtn.addEventListener('click', () => this.go(this.v.step - 1));
    this.nextBtn.addEventListener('click', () => this.go(this.v.step + 1));
    this.panel.addEventListener('keydown', (e) => {
      const to = { ArrowRight: this.v.step + 1, ArrowDown: this.v.step + 1, ArrowLeft: this.v.step - 1, ArrowUp: this.v.step - 1, Home: 1, End: STEPS.length }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      this.go(to);
    });
    this.playBtn.addEventListener('click', () => (this.playing ? this.pause() : this.play()));
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
  }

  go(step) {
    const s = Math.min(STEPS.length, Math.max(1, step));
    if (s === this.v.step) return;
    this.v.step = s;
    this.save();
    this.renderStep();
    this.live.textContent = `${this.stepOf.textContent}. ${this.stepText.textContent}`;
  }

  // A fresh session (d_k or seed changed, or Reset): the means start again from 0 samples.
  async restart() {
    const gen = ++this.gen;
    const old = this.session;
    this.session = null;
    this.result = null;
    if (old !== null) this.client.call('qkClose', [old]).catch(() => {});
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
        this.error = coreMessage(e);
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
      this.error = coreMessage(e);
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
    this.dataset.step = String(this.v.step);
    this.grid.dataset.step = key; // CSS highlights the diagonal or the cross terms
    this.renderButtons();
  }

  renderData() {
    const r = this.result;
    const d = this.v.dk;
    const means = r?.proofMeans;
    let diag = 0;
    let off = 0;
    this.cells.forEach((td, k) => {
      const x = means ? means[k] : NaN;
      td.textContent = means ? num(x, 3) : DASH;
      td.dataset.mean = means ? String(x) : '';
      if (means) {
        if (Math.floor(k / d) === k % d) diag += x;
        else off += x;
      }
    });
    this.caption.textContent = t('proof.gridCaption', { dk: int(d) });
    for (const th of this.grid.querySelectorAll('thead th')) th.textContent = t('proof.colHead', { j: int(Number(th.dataset.j)) });
    for (const th of this.grid.querySelectorAll('tbody th')) th.textContent = t('proof.rowHead', { i: int(Number(th.dataset.i)) });
    this.sums.textContent = means
      ? t('proof.sums', { diag: num(diag, 4), off: num(off, 3), cells: int(d * d), total: num(diag + off, 4) })
      : DASH;
    this.sums.dataset.total = means ? String(diag + off) : '';
    this.measured.textContent = r ? t('proof.measured', { var: num(r.summary.var, 4), svar: num(r.summary.scaledVar, 4) }) : '';
    this.measured.dataset.var = r ? String(r.summary.var) : '';
    this.measured.dataset.scaledVar = r ? String(r.summary.scaledVar) : '';
    this.samplesEl.textContent = t('proof.samples', { n: int(r?.summary.samples ?? 0), seed: int(this.v.seed) });
    this.samplesEl.dataset.samples = String(r?.summary.samples ?? 0);
    this.errorEl.textContent = this.error ?? '';
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
