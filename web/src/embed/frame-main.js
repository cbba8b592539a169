// frame.html?w=saturation&dk=256&div=1&lang=zh&theme=dark&controls=none:
// one widget alone, for hosts that strip raw HTML (an iframe is all they
// allow). Every other query parameter is an attribute of the widget (div is
// divisor's short name; w takes the element's name too, w=attn-saturation).
// The frame reports its height to the parent page as {type: 'attnlab:resize',
// height} (and {type: 'attnlab:error', kind, message} when the widget reports
// an attn-error or cannot be shown), so the host can size the iframe (see the docs).
import { WIDGETS, define } from './attnlab.js';
import { browserLang, inLang, langOfTag, t } from '../base/i18n.js';
import '../widgets/strings.js';
import '../widgets/load-strings.js';

const ALIASES = { div: 'divisor' };
const params = new URLSearchParams(location.search);
const lang = langOfTag(params.get('lang')) ?? browserLang();
document.documentElement.lang = lang === 'zh' ? 'zh-Hans' : 'en';

const sheet = new CSSStyleSheet();
sheet.replaceSync('body { margin: 0; padding: 1px 0; } [role=alert] { font: 1rem/1.5 system-ui, sans-serif; color: #b3261e; padding: 1rem; }');
document.adoptedStyleSheets = [sheet];

const main = document.getElementById('frame');
// w=saturation or w=attn-saturation (the element's name).
const tag = `attn-${(params.get('w') ?? '').replace(/^attn-/, '')}`;

function post(message) {
  // Height and errors only: nothing a host must keep secret, so any parent may read them.
  if (parent !== window) parent.postMessage(message, '*');
}

function alert(message, kind) {
  const p = document.createElement('p');
  p.setAttribute('role', 'alert');
  p.textContent = message;
  main.replaceChildren(p);
  post({ type: 'attnlab:error', kind, message });
}

if (!Object.hasOwn(WIDGETS, tag)) {
  alert(inLang(lang, () => t('embed.unknownWidget', {
    w: (params.get('w') ?? '').slice(0, 40), list: Object.keys(WIDGETS).map((k) => k.slice(5)).join(', '),
  })), 'frame');
} else {
  // The widget's code first: only the attributes it reads are taken from the
  // URL (not id, slot, on… or any other global attribute).
  define(tag).then(() => {
    const allowed = new Set(customElements.get(tag).observedAttributes);
    const el = document.createElement(tag);
    el.addEventListener('attn-error', (e) => post({ type: 'attnlab:error', kind: e.detail.kind, message: e.detail.message }));
    for (const [k, v] of params) {
      const name = ALIASES[k] ?? k;
      if (allowed.has(name) && name !== 'lang') el.setAttribute(name, v);
    }
    el.setAttribute('lang', lang);
    main.replaceChildren(el);
  }, (e) => import('../widgets/diagnose.js').then((m) => m.codeFailed(e)).then(
    (found) => alert(inLang(lang, () => t(`setup.${found.key}`, found.params)), found.kind),
    () => alert(String(e?.message ?? e), 'load')));
}

// Report the height whenever it changes (content loads, a table opens, the frame narrows).
let last = -1;
new ResizeObserver(() => {
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height === last) return;
  last = height;
  post({ type: 'attnlab:resize', height });
}).observe(document.documentElement);
