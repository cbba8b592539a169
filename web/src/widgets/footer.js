// Every widget's footer: the Embed button (the script-tag and iframe snippets
// for the widget as it is now, to copy) and, when embedded, a status line:
// which core runs it (a worker, or the main thread where the host's CSP
// allows no worker; SIMD128 or scalar), or why it could not load.
import { t } from '../i18n.js';
import { h } from '../dom.js';

/**
 * The embed URLs: where attnlab.js and frame.html are served from; null where
 * we cannot know (a host's bundler has bundled attnlab.js into its own chunks).
 */
function embedBase(embedding) {
  if (!embedding.on) return new URL('embed/', document.baseURI);
  const u = new URL(embedding.scriptUrl);
  return /\/attnlab\.js$/.test(u.pathname) ? new URL('./', u) : null;
}

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

export function snippets(el, embedding) {
  const base = embedBase(embedding);
  const tag = el.localName;
  const attrs = stateAttributes(el);
  const lang = el.widgetLang;
  const script = `<script type="module" src="${esc(new URL('attnlab.js', base).href)}"></script>\n`
    + `<${tag}${attrs.map(([k, v]) => ` ${k}="${esc(v)}"`).join('')} lang="${lang}"></${tag}>`;
  const q = new URLSearchParams([['w', tag.replace(/^attn-/, '')], ...attrs, ['lang', lang]]);
  const frame = `<iframe src="${esc(new URL(`frame.html?${q}`, base).href)}" title="${esc(t('embed.frameTitle'))}" `
    + `width="100%" height="600" loading="lazy"></iframe>`;
  return { script, frame };
}

export function footer(el, embedding, client) {
  const I = (s) => el.id_(`embed-${s}`);
  const status = h('p', { class: 'embed-status', role: 'status', dataset: { state: 'loading' } });
  const toggle = h('button', { type: 'button', class: 'embed-toggle', 'aria-expanded': 'false', 'aria-controls': I('panel') });
  const scriptLabel = h('label', { for: I('script') });
  const frameLabel = h('label', { for: I('frame') });
  const script = h('textarea', { id: I('script'), readonly: true, rows: 3, spellcheck: 'false' });
  const frame = h('textarea', { id: I('frame'), readonly: true, rows: 3, spellcheck: 'false' });
  const copyScript = h('button', { type: 'button' });
  const copyFrame = h('button', { type: 'button' });
  const copied = h('span', { class: 'copy-msg', role: 'status' });
  const panel = h('div', { class: 'embed-panel', id: I('panel'), hidden: true },
    h('div', { class: 'field' }, scriptLabel, script, copyScript),
    h('div', { class: 'field' }, frameLabel, frame, copyFrame), copied);
  // No Embed button where the snippets would point nowhere (attnlab.js bundled by a host).
  const canEmbed = embedBase(embedding) !== null;
  const foot = h('footer', { class: 'embed-footer' }, embedding.on ? status : null, canEmbed ? toggle : null, canEmbed ? panel : null);

  let info = null;
  let error = null;
  const fill = () => {
    const s = snippets(el, embedding);
    script.value = s.script;
    frame.value = s.frame;
  };
  const copy = async (area) => {
    fill();
    try {
      await navigator.clipboard.writeText(area.value);
      copied.textContent = t('embed.copied');
    } catch {
      // No clipboard permission (an iframe without it): select the text instead.
      area.focus();
      area.select();
      copied.textContent = t('embed.copyFailed');
    }
  };
  toggle.addEventListener('click', () => {
    const open = panel.hidden;
    panel.hidden = !open;
    toggle.setAttribute('aria-expanded', String(open));
    if (open) fill();
  });
  copyScript.addEventListener('click', () => copy(script));
  copyFrame.addEventListener('click', () => copy(frame));

  const render = () => {
    toggle.textContent = t('embed.button');
    scriptLabel.textContent = t('embed.scriptLabel');
    frameLabel.textContent = t('embed.frameLabel');
    copyScript.textContent = t('embed.copy');
    copyFrame.textContent = t('embed.copy');
    if (!panel.hidden) fill();
    if (!embedding.on) return;
    status.dataset.state = error ? 'failed' : info ? 'ready' : 'loading';
    status.textContent = error ? t('embed.coreFailed', { message: error })
      : info ? t(client.mode() === 'main-thread' ? 'embed.readyMain' : 'embed.readyWorker', { build: t(info.simd ? 'embed.simd' : 'embed.scalar') })
        : t('embed.loading');
  };
  if (embedding.on) {
    client.call('buildInfo').then((r) => {
      info = r;
      el.refreshText();
    }, (e) => {
      error = e.message;
      el.refreshText();
      el.fail('core', t('embed.coreFailed', { message: error }));
    });
  }
  return { el: foot, render };
}
