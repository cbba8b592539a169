// <attn-chain>: the causal chain as a flowchart whose nodes link to the
// sections below, plus its text version (an ordered list with the same links)
// and the Mermaid source to copy. The SVGs are rendered from
// src/diagrams/chain.{en,zh}.mmd at build time (scripts/render-diagrams.mjs);
// the Mermaid runtime never reaches the browser.
//
// It computes nothing, so it loads no core. Attributes: id-prefix (default "chain"); link targets are the page's
// section ids (#variance, #proof, #softmax, #saturation, #training).
import { getLang, inLang, t } from '../base/i18n.js';
import { h } from '../base/dom.js';
import { AttnElement, define, embedding } from './element.js';
import svgEn from '../diagrams/chain.en.svg?raw';
import svgZh from '../diagrams/chain.zh.svg?raw';
import mmdEn from '../diagrams/chain.en.mmd?raw';
import mmdZh from '../diagrams/chain.zh.mmd?raw';
import './chain-strings.js';
import styles from './chain.css?inline';

const SVG = { en: svgEn, zh: svgZh };
const MMD = { en: mmdEn, zh: mmdZh };
// The chain in words: [string key, link target].
const STEPS = [
  ['chain.a', '#variance'], ['chain.b', '#proof'], ['chain.c', '#variance'], ['chain.d', '#softmax'],
  ['chain.e', '#saturation'], ['chain.f', '#saturation'], ['chain.g', '#training'],
];
const FIX = [['chain.h', '#proof'], ['chain.i', '#proof'], ['chain.j', '#saturation']];

class AttnChain extends AttnElement {
  defaultIdPrefix = 'chain';

  static styles = styles;
  // A drawing from build time: nothing to compute, so no core (no worker, no wasm) loads for it.
  static computes = false;

  build() {
    this.figure = h('figure', { class: 'chain-svg', id: this.id_('svg') });
    this.textHeading = h('h3', { class: 'widget-h' });
    this.list = h('ol', { class: 'chain-list' });
    this.fixHeading = h('h3', { class: 'widget-h' });
    this.fixList = h('ol', { class: 'chain-list chain-fix' });
    this.summary = h('summary');
    this.code = h('code', { id: this.id_('source') });
    this.copyBtn = h('button', { type: 'button', id: this.id_('copy') });
    this.copyMsg = h('span', { class: 'copy-msg', role: 'status' });
    this.copyBtn.addEventListener('click', () => this.copy());
    this.root.append(
      h('div', { class: 'chain-layout' },
        this.figure,
        h('div', { class: 'chain-text' }, this.textHeading, this.list, this.fixHeading, this.fixList)),
      h('details', { class: 'chain-source' }, this.summary,
        h('div', { class: 'copy-row' }, this.copyBtn, this.copyMsg),
        // Focusable: on a phone it scrolls sideways, and a keyboard must reach it too.
        h('pre', { tabindex: 0 }, this.code)));
  }

  async copy() {
    let key = 'chain.copied';
    try {
      await navigator.clipboard.writeText(this.code.textContent);
    } catch {
      // No clipboard permission (an embedding page, an old browser): select it instead.
      getSelection().selectAllChildren(this.code);
      key = 'chain.copyFailed';
    }
    // After the await: in the widget's language again.
    this.copyMsg.textContent = inLang(this.widgetLang, () => t(key));
  }

  /**
   * Where a step links: its section of this page; embedded, that section of
   * the site's page (in a new tab: the host's URL is not ours to change), or
   * nowhere where the site is unknown (attnlab.js bundled by a host).
   */
  linkTo(hash) {
    if (!embedding.on) return { href: hash };
    const u = embedding.scriptUrl && new URL(embedding.scriptUrl);
    if (!u || !/\/embed\/attnlab\.js$/.test(u.pathname)) return null;
    return { href: new URL(`../index.html${hash}`, u).href, target: '_blank', rel: 'noopener' };
  }

  relabel() {
    const lang = getLang();  // this widget's (element.js runs each method in it)
    if (this.figure.dataset.lang !== lang) {
      // Our own build-time SVG (no scripts, no styles): safe to parse as markup.
      this.figure.innerHTML = SVG[lang] ?? SVG.en;
      this.figure.dataset.lang = lang;
      if (embedding.on)
        for (const a of this.figure.querySelectorAll('a')) {
          const to = this.linkTo(a.getAttribute('href') ?? a.getAttribute('xlink:href') ?? '');
          a.removeAttribute('xlink:href');
          a.removeAttribute('href');
          if (to) for (const [k, v] of Object.entries(to)) a.setAttribute(k, v);
        }
      this.code.textContent = MMD[lang] ?? MMD.en;
    }
    this.figure.setAttribute('aria-label', t('chain.name'));
    const item = ([key, href]) => {
      const to = this.linkTo(href);
      return h('li', {}, to ? h('a', { ...to, text: t(key) }) : t(key));
    };
    this.textHeading.textContent = t('chain.textHeading');
    this.list.replaceChildren(...STEPS.map(item));
    this.fixHeading.textContent = t('chain.fixHeading');
    this.fixList.replaceChildren(...FIX.map(item));
    this.summary.textContent = t('chain.source');
    this.copyBtn.textContent = t('chain.copy');
    this.copyMsg.textContent = '';
  }
}

define('attn-chain', AttnChain);
