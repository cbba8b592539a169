// <attn-softmax-table>: the seed's worked table, live and editable (the table
// itself is seed-table.js): [14, 10, 12] unscaled and divided by √64 = 8, and
// the small case d_k = 4, [1, 0.5, 0.8]. Each row shows the probabilities,
// entropy, largest probability and softmax Jacobian norm, from the core.
//
// Attributes (element.js options; a later change updates the widget):
// scores and dk (the first example), scores2 and dk2 (the second); the table
// shows its own message for scores it cannot read. url-state (e.g. "sm": the
// scores and d_k of each example go to sm.s0, sm.dk0, sm.s1, sm.dk1),
// id-prefix (default "seed").
import { inLang, t } from '../base/i18n.js';
import { percent } from '../base/format.js';
import { h } from '../base/dom.js';
import { readState, writeState } from '../base/state.js';
import { parseScores } from '../base/parse.js';
import { AttnElement, define } from './element.js';
import * as seedTable from './seed-table.js';
import { EXAMPLES, OPTIONS } from './seed-options.js';
import styles from './seed-table.css?inline';

class AttnSoftmaxTable extends AttnElement {
  defaultIdPrefix = 'seed';

  static styles = styles;

  static options = OPTIONS;

  build() {
    const specs = {};
    EXAMPLES.forEach((ex, i) => {
      specs[`s${i}`] = { type: 'text', max: 400, def: ex.scores };
      specs[`dk${i}`] = { type: 'text', max: 20, def: ex.dk };
    });
    for (const [k, x] of Object.entries(this.v)) if (specs[k] && x !== undefined) specs[k].def = String(x);
    const { values, notices } = readState(this.statePrefix, specs);
    const examples = EXAMPLES.map((_, i) => ({ scores: values[`s${i}`], dk: values[`dk${i}`] }));
    const box = document.createElement('div');
    // Written from the core's result for example 1, not typed in.
    this.noteEl = h('p', { class: 'note not-one-hot', id: this.id_('not-one-hot') });
    this.root.append(this.noticeBox(notices), box, this.noteEl);
    this.table = seedTable.mount(box, this.client, {
      examples, idPrefix: this.getAttribute('id-prefix') ?? 'seed',
      speak: (fn) => inLang(this.widgetLang, fn),
      onRender: (i, results) => {
        if (i !== 0) return;
        this.unscaled0 = results[0];
        this.renderNote();
      },
    });
    // Keep what the reader types in the URL (bad input too: the table shows its message).
    this.root.addEventListener('input', () => {
      const st = this.state();
      writeState(this.statePrefix, { s0: st.scores, dk0: st.dk, s1: st.scores2, dk1: st.dk2 });
      this.announce(st);
    });
    for (const attr of Object.keys(AttnSoftmaxTable.options)) this.checkAttribute(attr);
  }

  // The table reads any scores (it shows its own message for bad ones); the
  // host also hears of them, as of any bad attribute. (dk is checked as an
  // option: a bad one keeps the default, like every widget's.)
  checkAttribute(attr) {
    const text = this.getAttribute(attr);
    if (text === null || !attr.startsWith('scores')) return;
    const r = parseScores(text);
    if (r.error) this.fail('attribute', t(r.error.key, r.error.params), { attribute: attr, value: text });
  }

  optionChanged(key) {
    const attr = Object.entries(AttnSoftmaxTable.options).find(([, o]) => o.key === key)?.[0];
    if (attr) this.checkAttribute(attr);
    const i = Number(key.slice(-1));
    this.table.set(i, key.startsWith('s') ? { scores: this.v[key] } : { dk: String(this.v[key]) });
    this.announce(this.state());
  }

  /** What the reader typed: {scores, dk, scores2, dk2} (scores and d_k of each example). */
  state() {
    const field = (i, f, key) => this.root.querySelector(`#${this.id_(`ex${i}-${f}`)}`)?.value ?? this.v[key];
    return { scores: field(0, 'scores', 's0'), dk: field(0, 'dk', 'dk0'), scores2: field(1, 'scores', 's1'), dk2: field(1, 'dk', 'dk1') };
  }

  renderNote() {
    const r = this.unscaled0;
    this.noteEl.textContent = r ? t('seed.notOneHot', { p: percent(r.stats.maxProb) }) : '';
  }

  relabel() {
    this.renderNotices();
    this.table?.relabel();
    this.renderNote();
  }
}

define('attn-softmax-table', AttnSoftmaxTable);
