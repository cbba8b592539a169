// The Embed button's panel (footer.js loads it on the first click): the
// script-tag and iframe snippets for the widget as it is now, to copy.
import { inLang, t } from '../i18n.js';
import { h } from '../dom.js';
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

export function snippets(el, base) {
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
  const frame = `<iframe src="${esc(new URL(`frame.html?${q}`, base).href)}" title="${esc(t('embed.frameTitle'))}" `
    + `width="100%" height="600" loading="lazy"></iframe>`;
  return { script, frame };
}

/**
 * The panel for widget `el`, whose embed files live at `base` (footer.js
 * embedBase): {el, fill(), relabel()}.
 */
export function embedPanel(el, base, id) {
  const scriptLabel = h('label', { for: `${id}-script` });
  const frameLabel = h('label', { for: `${id}-frame` });
  const script = h('textarea', { id: `${id}-script`, readonly: true, rows: 3, spellcheck: 'false' });
  const frame = h('textarea', { id: `${id}-frame`, readonly: true, rows: 3, spellcheck: 'false' });
  const copyScript = h('button', { type: 'button' });
  const copyFrame = h('button', { type: 'button' });
  const copied = h('span', { class: 'copy-msg', role: 'status' });
  const panel = h('div', { class: 'embed-panel', id },
    h('div', { class: 'field' }, scriptLabel, script, copyScript),
    h('div', { class: 'field' }, frameLabel, frame, copyFrame), copied);
  // In the widget's language (a click runs outside its methods).
  const fill = () => {
    const s = inLang(el.widgetLang, () => snippets(el, base));
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
  return {
    el: panel,
    fill,
    relabel() {
      scriptLabel.textContent = t('embed.scriptLabel');
      frameLabel.textContent = t('embed.frameLabel');
      copyScript.textContent = t('embed.copy');
      copyFrame.textContent = t('embed.copy');
      if (!panel.hidden) fill();
    },
  };
}
