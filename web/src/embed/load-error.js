// When a widget's code or the core cannot load (a 404, a host CSP that blocks
// the script or the wasm), say so inside each such element, in its language,
// with what to check, and tell the host with an attn-error event.
import { browserLang, inLang, langOfTag, t } from '../i18n.js';
import '../widgets/strings.js';
import '../widgets/load-strings.js';

export function showLoadError(tag, e) {
  for (const el of document.querySelectorAll(tag)) {
    if (el.shadowRoot?.querySelector('.attn-body')) continue; // it did load
    const lang = langOfTag(el.closest('[lang]')?.getAttribute('lang')) ?? browserLang();
    const message = inLang(lang, () => t('embed.loadFailed', { message: e?.message ?? String(e) }));
    const root = el.shadowRoot ?? el.attachShadow({ mode: 'open' });
    const p = document.createElement('p');
    p.setAttribute('role', 'alert');
    p.textContent = message;
    root.replaceChildren(p);
    el.dispatchEvent(new CustomEvent('attn-error', { bubbles: true, composed: true, detail: { kind: 'load', message } }));
  }
}
