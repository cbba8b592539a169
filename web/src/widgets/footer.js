// Every widget's footer: the Embed button (its panel, embed-panel.js, loads
// on the first click) and, when embedded, a status line: which core runs it
// (a worker, or the main thread; relaxed SIMD, SIMD128 or scalar), or why it
// could not load. Anything short of a core in a worker with its .wasm served
// right is diagnosed (diagnose.js, loaded only then): the line says the
// cause and its fix, and the host hears it as an attn-error event of that kind.
import { buildName } from '../bridge/build-names.js';
import { inLang, t } from '../base/i18n.js';
import { h } from '../base/dom.js';

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
  const foot = h('footer', { class: 'embed-footer' }, base ? toggle : null);

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
  // Why the core failed, or runs without a worker, or got its .wasm with the
  // wrong MIME type: {kind, key, params} from diagnose.js (loaded only then).
  let setup = null;
  const setupText = () => setup && (setup.key ? t(`setup.${setup.key}`, setup.params) : setup.message);
  const render = () => {
    toggle.textContent = t('embed.button');
    panel?.relabel();
    if (!status.parentNode) return;
    status.dataset.state = error ? 'failed' : info ? 'ready' : 'loading';
    status.textContent = error ? setupText() ?? t('embed.loading')
      : info ? [t(client.mode() === 'main-thread' ? 'embed.readyMain' : 'embed.readyWorker', { build: buildName(info.build) }), setupText()].filter(Boolean).join(' ')
        : t('embed.loading');
  };
  const diagnose = (ask) => import('./diagnose.js').then(ask).then((found) => {
    if (!found) return;
    setup = found;
    el.refreshText();
    el.fail(found.kind, status.textContent, { fatal: !!error, ...(found.file && { file: found.file }) });
  }, () => {
    // The diagnosis could not load either: the browser's own words.
    setup = { message: error?.message };
    el.refreshText();
    if (error) el.fail('core', status.textContent, { fatal: true });
  });
  // A widget that computes nothing (the chain) loads no core.
  if (embedding.on && el.constructor.computes) {
    foot.prepend(status);
    client.call('buildInfo').then((r) => {
      info = r;
      el.refreshText();
      if (client.mode() === 'main-thread') diagnose((m) => m.noWorker());
      else if (r.wasmRefetched) diagnose((m) => m.wasmType());
    }, (e) => {
      error = e;
      el.refreshText();
      diagnose((m) => m.coreFailed(e));
    });
  }
  return { el: foot, render };
}
