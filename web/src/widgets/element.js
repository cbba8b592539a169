// The base of the site's custom elements (<attn-variance>, <attn-proof>, ...).
//
// Two ways to render, one code path:
// - on the site's own pages, light DOM, so the page stylesheet styles them and
//   a test can query them; the page's language switch relabels them;
// - embedded in someone else's page (embed/attnlab.js sets `embedded`), an
//   open shadow root styled by constructable stylesheets (no <style> tag, no
//   style attribute: a host's strict style-src allows them), with its own
//   language (lang attribute, else the host's <html lang>, else the browser's),
//   theme (theme="light|dark|auto"), footer (which core mode runs, the Embed
//   button) and events (change, attn-error).
// A widget builds into this.root and toggles state classes on this.box.
//
// Options: each widget lists its attributes in `static options` (attribute ->
// {key, spec} with a spec of state.js); they are read once at build, reflected
// as properties, and a later change calls the widget's optionChanged(key).
// A bad attribute keeps the default, shows a message in the widget and fires
// attn-error. `url-state="sat"` (site pages only) keeps the controls in the
// URL under that prefix; id-prefix keeps ids unique on a page of several.
import { browserLang, getLang, inLang, langOfTag, onLangChange, t } from '../base/i18n.js';
import { h } from '../base/dom.js';
import { parseOption } from '../base/state.js';
import './strings.js';
import { client } from '../bridge/client.js';
import { readerError } from '../bridge/errors.js';
import { footer } from './footer.js';

/** How the widgets are hosted: set by the embed entry (or a page) before any widget connects. */
export const embedding = {
  on: false,
  sheets: [],              // CSSStyleSheet[] adopted by every shadow root
  sheet: null,             // (css text) -> CSSStyleSheet, with the embed's own rem (runtime.js)
  scriptUrl: null,         // attnlab.js's URL (the Embed button's snippets point at it)
  live: new Set(),         // the widgets in the document (runtime.js relabels them when <html lang> changes)
  drawWhen: null,          // (element, draw, last): when to draw a figure's progress (the site's: pages/explainer/seen.js); null: now
};

const COMMON_ATTRS = ['lang', 'theme', 'controls'];
// The common attributes' values (lang: en or zh, any tag that starts with one).
const COMMON_OK = { lang: (v) => langOfTag(v), theme: (v) => /^(light|dark|auto)$/.test(v), controls: (v) => /^(all|none)$/.test(v) };
const COMMON_WHY = { lang: { key: 'opt.lang' }, theme: { key: 'opt.enum', params: { values: 'light, dark, auto' } }, controls: { key: 'opt.enum', params: { values: 'all, none' } } };
let markup = null;      // markup.js (with opt-strings.js), once a widget's markup asks for it
let optLoaded = false;

const loadMarkup = () => (markup ??= import('./markup.js'));

// A widget's own stylesheet (static styles), made once per class.
const ownSheets = new Map();
function ownSheet(cls) {
  if (!cls.styles) return null;
  if (!ownSheets.has(cls)) {
    const make = embedding.sheet ?? ((text) => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(text);
      return sheet;
    });
    const sheet = make(cls.styles);
    ownSheets.set(cls, sheet);
    // On the site's own pages (light DOM) it joins the document's sheets.
    if (!embedding.on) document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }
  return ownSheets.get(cls);
}

export class AttnElement extends HTMLElement {
  /** attribute -> {key, spec}: what the host may set (reflected as properties by define()). */
  static options = {};
  /** CSS text only this widget needs (its ?inline import), beside the shared style.css. */
  static styles = '';
  /** Whether it computes with the core (the chain does not: it loads none). */
  static computes = true;
  /** Attributes it reads beside its options and the common ones (attn-train-compare: autostart). */
  static extraAttributes = [];

  static get observedAttributes() {
    return [...Object.keys(this.options), ...COMMON_ATTRS];
  }

  connectedCallback() {
    if (!this.built) {
      // Page content inside it (a self-closing <attn-chain />): markup.js moves it out.
      if (embedding.on && [...this.children].some((c) => c.slot !== 'fallback')) loadMarkup().then((m) => m.releaseContent(this));
      this.takeEarlyProperties();
      this.built = true;
      this.client = client;
      this.setUpRoot();
      this.attrNotices = [];
      this.v = this.readOptions();
      this.build();
      // Where a widget has no notice box of its own (the chain), attribute messages go at its top.
      if (!this.noticeEl) this.root.prepend(this.noticeBox([]));
      this.footer = footer(this, embedding, this.coreClient());
      this.box.append(this.footer.el);
      this.refreshText();
      this.reportAttrErrors();
      // An attribute of no use added later (not observed, so no attributeChangedCallback): said as at the start.
      if (embedding.on) new MutationObserver((ms) => {
        for (const { attributeName: a } of ms) if (!this.constructor.observedAttributes.includes(a)) this.otherAttr(a, this.getAttribute(a));
        this.reportAttrErrors();
        this.renderNotices();
      }).observe(this, { attributes: true });
    }
    else if (this.stopped) {
      this.stopped = false;
      this.resumeWork();
    }
    this.offLang ??= onLangChange(() => this.refreshText());
    embedding.live.add(this);
  }

  disconnectedCallback() {
    this.offLang?.();
    this.offLang = null;
    embedding.live.delete(this);
    // A host that removes a widget (a route change) must not keep it computing.
    if (this.built) {
      this.stopped = true;
      this.stopWork();
    }
  }

  /**
   * A host may set el.dk = 1024 before the element's code has loaded: that
   * made an own property hiding the class's setter. Take it, and set it again
   * through the setter (the attribute).
   */
  takeEarlyProperties() {
    const props = [...Object.keys(this.constructor.options), 'theme', 'controls']
      .map((a) => a.replace(/-([a-z])/g, (_, c) => c.toUpperCase()));
    for (const prop of props) {
      if (!Object.hasOwn(this, prop)) continue;
      const value = this[prop];
      delete this[prop];
      this[prop] = value;
    }
  }

  setUpRoot() {
    const own = ownSheet(this.constructor);
    if (!embedding.on) {
      this.classList.add('attn-widget');
      this.root = this;
      this.box = this;
      return;
    }
    const shadow = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    shadow.adoptedStyleSheets = own ? [...embedding.sheets, own] : embedding.sheets;
    this.box = h('div', { class: 'attn-root attn-widget', part: 'widget' });
    this.root = h('div', { class: 'attn-body' });
    this.box.append(this.root);
    shadow.replaceChildren(this.box);
    this.applyTheme();
    this.applyControls();
  }

  /** The core this widget's footer reports on (the lab's widget has its own). */
  coreClient() {
    return client;
  }

  /** Every text of the widget again (language change, footer news). */
  refreshText() {
    // Embedded: the shadow root's :lang() rules (the room Chinese text keeps) follow the language it speaks.
    if (embedding.on) this.box.lang = this.widgetLang;
    this.relabel();
    this.footer?.render();
    this.renderNotices();
  }

  /** The language this widget speaks: 'en' or 'zh'. */
  get widgetLang() {
    if (!embedding.on) return getLang();
    // Its own lang, if usable; else the nearest one around it (the host's <html lang>); else the browser's.
    return langOfTag(this.getAttribute('lang')) ?? langOfTag((this.parentElement ?? document.documentElement).closest('[lang]')?.getAttribute('lang')) ?? browserLang();
  }

  applyTheme() {
    const th = this.getAttribute('theme');
    this.box.dataset.theme = th === 'light' || th === 'dark' ? th : 'auto';
  }

  /** controls="none": a fixed figure, the inputs hidden (still computed from the attributes). */
  applyControls() {
    this.box.dataset.controls = this.getAttribute('controls') === 'none' ? 'none' : 'all';
  }

  readOptions() {
    const values = {};
    for (const [attr, { key, spec }] of Object.entries(this.constructor.options)) {
      values[key] = spec.def;
      const text = this.getAttribute(attr);
      if (text === null) continue;
      const r = parseOption(text, spec);
      if (r.error) this.attrNotices.push({ attr, text, message: r.error });
      else values[key] = r.value;
    }
    for (const { name, value } of this.attributes) {
      if (COMMON_OK[name]) this.checkCommon(name, value);
      else this.otherAttr(name, value);
    }
    return values;
  }

  /** An attribute that is not an option: unknown, on a host's page (markup.js drops the global ones: tabindex, a framework's marker). */
  otherAttr(name, value) {
    const cls = this.constructor;
    if (cls.options[name]) return;
    this.attrNotices = this.attrNotices.filter((n) => n.attr !== name);
    if (value !== null && embedding.on && !cls.extraAttributes.includes(name) && !/^(id|class|style|slot|(data|aria)-.*)$/.test(name))
      this.attrNotices.push({ attr: name, text: value, unknown: true });
  }

  /** lang, theme or controls: a value it cannot use is reported as an option's is. */
  checkCommon(attr, value) {
    this.attrNotices = this.attrNotices.filter((n) => n.attr !== attr);
    if (value !== null && !COMMON_OK[attr](value)) this.attrNotices.push({ attr, text: value, message: COMMON_WHY[attr] });
  }

  attributeChangedCallback(attr, old, value) {
    if (!this.built || old === value) return;
    if (COMMON_OK[attr]) {
      this.checkCommon(attr, value);
      this.reportAttrErrors();
      if (attr === 'lang') return this.refreshText();
      if (attr === 'theme') this.applyTheme(), this.themeChanged();
      else this.applyControls();
      return this.renderNotices();
    }
    const opt = this.constructor.options[attr];
    if (!opt) return;
    this.attrNotices = this.attrNotices.filter((n) => n.attr !== attr);
    const r = value === null ? { value: opt.spec.def } : parseOption(value, opt.spec);
    if (r.error) {
      this.attrNotices.push({ attr, text: value, message: r.error });
      this.reportAttrErrors();
    } else if (r.value !== this.v[opt.key]) {
      this.v[opt.key] = r.value;
      this.optionChanged(opt.key);
    }
    this.renderNotices();
  }

  /** Messages (and attn-error events) for attributes that could not be used. */
  reportAttrErrors() {
    if (!this.attrNotices.some((n) => !n.reported)) return;
    // What an attribute takes is text of its own, loaded when first needed.
    loadMarkup().then((m) => {
      optLoaded = true;
      this.attrNotices = this.attrNotices.filter((n) => !n.unknown || !m.isGlobalAttribute(n.attr));
      this.refreshText();
      for (const n of this.attrNotices) {
        if (n.reported) continue;
        n.reported = true;
        this.fail('attribute', this.attrText(n), { attribute: n.attr, value: n.text });
      }
    });
  }

  attrText(n) {
    const p = { attr: n.attr, value: n.text.slice(0, 40) };
    if (n.unknown) return t('opt.unknown', { ...p, tag: this.localName, list: [...this.constructor.observedAttributes, ...this.constructor.extraAttributes].join(', ') });
    return t('widget.badAttribute', { ...p, why: t(n.message.key, n.message.params) });
  }

  /** Tell the host: an attn-error event (bubbles, crosses the shadow root). */
  fail(kind, message, detail = {}) {
    this.dispatchEvent(new CustomEvent('attn-error', { bubbles: true, composed: true, detail: { kind, message, ...detail } }));
  }

  /** Tell the host the widget's state changed (the reader moved a control, or an attribute did). */
  announce(state) {
    if (!embedding.on) return;
    this.dispatchEvent(new CustomEvent('change', { bubbles: true, composed: true, detail: state }));
  }

  /** The URL prefix, or null when the widget keeps no URL state (state.js); never when embedded. */
  get statePrefix() {
    return embedding.on ? null : this.getAttribute('url-state') || null;
  }

  /** An id unique on the page: `${id-prefix attribute or default}-${suffix}`. */
  id_(suffix) {
    return `${this.getAttribute('id-prefix') ?? this.defaultIdPrefix}-${suffix}`;
  }

  /** A live region listing URL and attribute notices ("sat.dk=99999 is out of range; using 4096"). */
  noticeBox(notices) {
    const box = h('div', { class: 'notice', role: 'status' });
    this.notices = notices;
    this.noticeEl = box;
    return box;
  }

  renderNotices() {
    if (!this.noticeEl) return;
    this.noticeEl.replaceChildren(
      ...(this.notices ?? []).map((n) => h('p', { text: t(n.key, n.params) })),
      ...(optLoaded ? this.attrNotices ?? [] : []).map((n) => h('p', { class: 'attr-error', text: this.attrText(n) })));
  }

  /** The widget's state as the host sees it: {dk, divisor, ...} (the change event's detail). */
  state() {
    return { ...this.v };
  }

  /**
   * Draw a figure's progress (`last`: its run's end): now, or when
   * embedding.drawWhen says (the site draws a figure off screen when it comes
   * near); a host's page draws every batch, which costs its first load nothing.
   */
  drawSeen(fn, last) {
    embedding.drawWhen ? embedding.drawWhen(this, fn, last) : fn();
  }

  build() {}
  relabel() {}
  optionChanged() {}
  /** Stop the widget's running work (it left the document); resumeWork() starts it again. */
  stopWork() {}
  resumeWork() {}

  /** The theme changed: charts read their colours again (chart.js listens). */
  themeChanged() {
    for (const fig of this.root.querySelectorAll('figure')) fig.dispatchEvent(new Event('attn-recolor'));
  }
}

// Every method of a widget runs in the widget's language (i18n.js inLang).
function speakOwnLang(cls) {
  for (let proto = cls.prototype; proto && proto !== HTMLElement.prototype; proto = Object.getPrototypeOf(proto)) {
    if (Object.hasOwn(proto, '__attnWrapped')) break;
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor') continue;
      const d = Object.getOwnPropertyDescriptor(proto, name);
      if (typeof d.value !== 'function') continue;
      const fn = d.value;
      Object.defineProperty(proto, name, { ...d, value(...args) { return inLang(this.widgetLang, () => fn.apply(this, args)); } });
    }
    Object.defineProperty(proto, '__attnWrapped', { value: true });
  }
}

// Each option attribute as a property: el.dk = 256 sets dk="256".
function reflect(cls) {
  for (const attr of Object.keys(cls.options)) {
    const prop = attr.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    if (prop in cls.prototype) continue;
    Object.defineProperty(cls.prototype, prop, {
      configurable: true,
      // The value in use (a number where the attribute is one), from the widget's state().
      get() { return this.built && this.state ? this.state()[prop] : this.getAttribute(attr); },
      set(x) { if (x === null || x === undefined) this.removeAttribute(attr); else this.setAttribute(attr, String(x)); },
    });
  }
  if (!('theme' in cls.prototype))
    Object.defineProperty(cls.prototype, 'theme', {
      configurable: true,
      get() { return this.getAttribute('theme') ?? 'auto'; },
      set(x) { this.setAttribute('theme', String(x)); },
    });
  if (!('controls' in cls.prototype))
    Object.defineProperty(cls.prototype, 'controls', {
      configurable: true,
      get() { return this.getAttribute('controls') ?? 'all'; },
      set(x) { this.setAttribute('controls', String(x)); },
    });
}

/** Define a custom element once (a page may load a widget module twice, or two versions of it). */
export function define(name, cls) {
  if (customElements.get(name)) return;
  speakOwnLang(cls);
  reflect(cls);
  customElements.define(name, cls);
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

/**
 * A core error as a sentence for readers, in the widget's language: from the
 * error's argument, kind and params (core/errors.js), never the core's English
 * text. e: an Error, or a core result {error, argument, kind, params}.
 */
export function coreMessage(e) {
  // A core that did not load is the footer's one message (embedded), not the widget's inputs'.
  if (e.load) return embedding.on ? '' : t('embed.coreFailed', { message: e.message });
  return readerError(e);
}
