// The Embed button's panel (footer.js loads it on the first click): the
// script-tag and iframe snippets for the widget as it is now, to copy.
import { inLang, t } from '../base/i18n.js';
import { h } from '../base/dom.js';
import { frameHeight, resizeListener } from './frame-heights.js';
import './embed-panel-strings.js';

/** name="value" pairs of the widget's state, as attributes (dk="256" divisor="sqrt"). */
export function stateAttributes(el) {
  const state = el.state();
  const out = [];
  for (const [attr, { key }] of Object.entries(el.constructor.options)) {
    const prop = attr.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    const v = prop in state ? state[prop] : state[key];
    if (v !== undefined && v !== null && v !== '') out.push([attr, String(v)]);
  }
  return out;
}

const esc = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The snippets for widget `el` as it is now; the iframe's height fits a column `width` px wide. */
export function snippets(el, base, width = 800) {
  const tag = el.localName;
  const attrs = stateAttributes(el);
  const lang = el.widgetLang;
  const src = new URL('attnlab.js', base).href;
  // Shown until the widget upgrades, and after that never: where the script
  // cannot run at all (no CORS on attnlab.js, a CSP, file://), this sentence
  // is all the page can say, so it names the usual causes.
  const fallback = t('embed.fallback', { url: src, help: new URL('../embed.html#troubleshooting', base).href });
  const script = `<script type="module" src="${esc(src)}"></script>\n`
    + `<${tag}${attrs.map(([k, v]) => ` ${k}="${esc(v)}"`).join('')} lang="${lang}">\n`
    + `  <p slot="fallback">${esc(fallback)}</p>\n</${tag}>`;
  const q = new URLSearchParams([['w', tag.replace(/^attn-/, '')], ...attrs, ['lang', lang]]);
  // As tall as the widget needs in a column `width` px wide, then sized by its messages where scripts run.
  const frame = `<iframe src="${esc(new URL(`frame.html?${q}`, base).href)}" title="${esc(t('embed.frameTitle'))}" `
    + `width="100%" height="${frameHeight(tag, width)}" loading="lazy"></iframe>\n${resizeListener(new URL(base).origin)}`;
  return { script, frame };
}

/**
 * The panel for widget `el`, whose embed files live at `base` (footer.js
 * embedBase): {el, fill(), relabel()}.
 */
export function embedPanel(el, base, id) {
  const scriptLabel = h('label', { for: `${id}-script` });
  const frameLabel = h('label', { for: `${id}-frame` });
  // The column the iframe goes in: its starting height depends on it (frame-heights.js).
  const widthLabel = h('label', { for: `${id}-width` });
  const width = h('input', { id: `${id}-width`, type: 'number', min: 320, max: 2000, step: 1, inputmode: 'numeric',
    value: Math.max(320, Math.round(el.getBoundingClientRect().width) || 800) });
  const script = h('textarea', { id: `${id}-script`, readonly: true, rows: 5, spellcheck: 'false' });
  const frame = h('textarea', { id: `${id}-frame`, readonly: true, rows: 4, spellcheck: 'false' });
  const copyScript = h('button', { type: 'button' });
  const copyFrame = h('button', { type: 'button' });
  const copied = h('span', { class: 'copy-msg', role: 'status' });
  const panel = h('div', { class: 'embed-panel', id },
    h('div', { class: 'field' }, scriptLabel, script, copyScript),
    h('div', { class: 'field' }, frameLabel, frame, h('span', { class: 'field-small' }, widthLabel, ' ', width), copyFrame), copied);
  // In the widget's language (a click runs outside its methods).
  const fill = () => {
    const s = inLang(el.widgetLang, () => snippets(el, base, Math.max(320, Number(width.value) || 800)));
    script.value = s.script;
    frame.value = s.frame;
  };
  const copy = async (area) => {
    fill();
    let key = 'embed.copied';
    try {
      await navigator.clipboard.writeText(area.value);
    } catch {
      // No clipboard permission (an iframe without it): select the text instead.
      area.focus();
      area.select();
      key = 'embed.copyFailed';
    }
    copied.textContent = inLang(el.widgetLang, () => t(key));
  };
  copyScript.addEventListener('click', () => copy(script));
  copyFrame.addEventListener('click', () => copy(frame));
  width.addEventListener('input', fill);
  return {
    el: panel,
    fill,
    relabel() {
      scriptLabel.textContent = t('embed.scriptLabel');
      frameLabel.textContent = t('embed.frameLabel');
      widthLabel.textContent = t('embed.frameWidth');
      copyScript.textContent = t('embed.copy');
      copyFrame.textContent = t('embed.copy');
      if (!panel.hidden) fill();
    },
  };
}
