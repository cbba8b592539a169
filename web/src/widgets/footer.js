// Every widget's footer: the Embed button (its panel, embed-panel.js, loads
// on the first click) and, when embedded, a status line: which core runs it
// (a worker, or the main thread where the host's CSP allows no worker;
// relaxed SIMD, SIMD128 or scalar), or why it could not load.
import { buildName } from '../core/build-names.js';
import { inLang, t } from '../i18n.js';
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

export function footer(el, embedding, client) {
  const id = el.id_('embed-panel');
  const status = h('p', { class: 'embed-status', role: 'status', dataset: { state: 'loading' } });
  const toggle = h('button', { type: 'button', class: 'embed-toggle', 'aria-expanded': 'false', 'aria-controls': id });
  // No Embed button where the snippets would point nowhere (attnlab.js bundled by a host).
  const base = embedBase(embedding);
  const foot = h('footer', { class: 'embed-footer' }, embedding.on ? status : null, base ? toggle : null);

  let panel = null;
  toggle.addEventListener('click', async () => {
    if (!panel) {
      const { embedPanel } = await import('./embed-panel.js');
      panel ??= inLang(el.widgetLang, () => {
        const p = embedPanel(el, base, id);
        p.el.hidden = true;
        p.relabel();
        foot.append(p.el);
        return p;
      });
    }
    const open = panel.el.hidden;
    panel.el.hidden = !open;
    toggle.setAttribute('aria-expanded', String(open));
    if (open) panel.fill();
  });

  let info = null;
  let error = null;
  const render = () => {
    toggle.textContent = t('embed.button');
    panel?.relabel();
    if (!embedding.on) return;
    status.dataset.state = error ? 'failed' : info ? 'ready' : 'loading';
    status.textContent = error ? t('embed.coreFailed', { message: error })
      : info ? t(client.mode() === 'main-thread' ? 'embed.readyMain' : 'embed.readyWorker', { build: buildName(info.build) })
        : t('embed.loading');
  };
  if (embedding.on) {
    client.call('buildInfo').then((r) => {
      info = r;
      el.refreshText();
    }, (e) => {
      error = e.message;
      el.refreshText();
      el.fail('core', inLang(el.widgetLang, () => t('embed.coreFailed', { message: error })));
    });
  }
  return { el: foot, render };
}
