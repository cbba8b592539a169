// The base of the page's custom elements (<attn-variance>, <attn-proof>, ...).
// Light DOM, so the page stylesheet styles them and a test can query them;
// each builds its content once, on first connection, and relabels itself when
// the language changes. Attributes configure a widget; `url-state="sat"` makes
// it keep its controls in the URL under that prefix (absent: it keeps none).
import { onLangChange, t } from '../i18n.js';
import { h } from '../dom.js';
import './strings.js';
import { client } from '../core/client.js';

export class AttnElement extends HTMLElement {
  connectedCallback() {
    if (!this.built) {
      this.built = true;
      this.client = client;
      this.classList.add('attn-widget');
      this.build();
      this.relabel();
    }
    this.offLang ??= onLangChange(() => this.relabel());
  }

  disconnectedCallback() {
    this.offLang?.();
    this.offLang = null;
  }

  /** The URL prefix, or null when the widget keeps no URL state (state.js). */
  get statePrefix() {
    return this.getAttribute('url-state') || null;
  }

  /** An id unique on the page: `${id-prefix attribute or default}-${suffix}`. */
  id_(suffix) {
    return `${this.getAttribute('id-prefix') ?? this.defaultIdPrefix}-${suffix}`;
  }

  /** A live region listing URL notices ("sat.dk=99999 is out of range; using 4096"). */
  noticeBox(notices) {
    const box = h('div', { class: 'notice', role: 'status' });
    this.notices = notices;
    this.noticeEl = box;
    return box;
  }

  renderNotices() {
    if (!this.noticeEl) return;
    this.noticeEl.replaceChildren(...(this.notices ?? []).map((n) => h('p', { text: t(n.key, n.params) })));
  }

  build() {}
  relabel() {}
}

/** Define a custom element once (a page may import a widget module twice). */
export function define(name, cls) {
  if (!customElements.get(name)) customElements.define(name, cls);
}

/**
 * Time a piece of main-thread work as a performance measure named `attn:${name}`,
 * so the browser test can add up our work per frame.
 */
export function timed(name, fn) {
  const t0 = performance.now();
  try {
    return fn();
  } finally {
    performance.measure(`attn:${name}`, { start: t0, end: performance.now() });
  }
}

/** A core error as text: a translated lead-in and the core's own (English) detail. */
export function coreMessage(e) {
  return t('widget.coreError', { message: e.message });
}
