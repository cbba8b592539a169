// <attn-softmax-table>: the seed's worked table, live and editable (the table
// itself is seed-table.js): [14, 10, 12] unscaled and divided by √64 = 8, and
// the small case d_k = 4, [1, 0.5, 0.8]. Each row shows the probabilities,
// entropy, largest probability and softmax Jacobian norm, from the core.
//
// Attributes: url-state (e.g. "sm": the scores and d_k of each example go to
// sm.s0, sm.dk0, sm.s1, sm.dk1), id-prefix (default "seed").
import { t } from '../i18n.js';
import { percent } from '../format.js';
import { h } from '../dom.js';
import { readState, writeState } from '../state.js';
import { AttnElement, define } from './element.js';
import * as seedTable from './seed-table.js';

class AttnSoftmaxTable extends AttnElement {
  defaultIdPrefix = 'seed';

  build() {
    const specs = {};
    seedTable.EXAMPLES.forEach((ex, i) => {
      specs[`s${i}`] = { type: 'text', max: 400, def: ex.scores };
      specs[`dk${i}`] = { type: 'text', max: 20, def: ex.dk };
    });
    const { values, notices } = readState(this.statePrefix, specs);
    const examples = seedTable.EXAMPLES.map((_, i) => ({ scores: values[`s${i}`], dk: values[`dk${i}`] }));
    const box = document.createElement('div');
    // Written from the core's result for example 1, not typed in.
    this.noteEl = h('p', { class: 'note', id: this.id_('not-one-hot') });
    this.append(this.noticeBox(notices), box, this.noteEl);
    this.table = seedTable.mount(box, this.client, {
      examples, idPrefix: this.getAttribute('id-prefix') ?? 'seed',
      onRender: (i, results) => {
        if (i !== 0) return;
        this.unscaled0 = results[0];
        this.renderNote();
      },
    });
    // Keep what the reader types in the URL (bad input too: the table shows its message).
    this.addEventListener('input', () => {
      const out = {};
      examples.forEach((_, i) => {
        out[`s${i}`] = this.querySelector(`#${this.id_(`ex${i}-scores`)}`).value;
        out[`dk${i}`] = this.querySelector(`#${this.id_(`ex${i}-dk`)}`).value;
      });
      writeState(this.statePrefix, out);
    });
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
