// Every widget's footer: its Embed panel (embed-panel.js, loaded when a
// figure's menu asks for it: openEmbed; a widget with no chart has that menu
// here, fig-menu.js) and, when embedded, a status line: which core runs it
// (a worker, or the main thread; relaxed SIMD, SIMD128 or scalar), or why it
// could not load. Anything short of a core in a worker with its .wasm served
// right is diagnosed (diagnose.js, loaded only then): the line says the
// cause and its fix, and the host hears it as an attn-error event of that kind.
import { buildName } from '../bridge/build-names.js';
import { inLang, t } from '../base/i18n.js';
import { h } from '../base/dom.js';
import { figMenu } from './fig-menu.js';

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
  // No Embed where the snippets would point nowhere (attnlab.js bundled by a host).
  const base = embedBase(embedding);
  // A widget whose figures are charts has Embed in each chart's menu; any other, in one menu here.
  const menu = base && !el.root.querySelector('.fig-menu') ? figMenu(el.root) : null;
  const foot = h('footer', { class: 'embed-footer' }, menu?.el);

  let panel = null;
  let from = null;
  // The panel for the menu button `back`, which gets the focus again when Escape closes it.
  const openEmbed = async (back) => {
    from = back;
    if (!panel) {
      const { embedPanel } = await import('./embed-panel.js');
      panel ??= inLang(el.widgetLang, () => {
        const p = embedPanel(el, base, id);
        p.relabel();
        p.el.addEventListener('keydown', (e) => {
          if (e.key !== 'Escape') return;
          e.stopPropagation();
          p.el.hidden = true;
          from?.focus();
        });
        foot.append(p.el);
        return p;
      });
    }
    panel.el.hidden = false;
    panel.fill();
    panel.el.querySelector('textarea').focus();
  };

  let info = null;
  let error = null;
  // Why the core failed, or runs without a worker, or got its .wasm with the
  // wrong MIME type: {kind, key, params} from diagnose.js (loaded only then).
  let setup = null;
  const setupText = () => setup && (setup.key ? t(`setup.${setup.key}`, setup.params) : setup.message);
  const render = () => {
    menu?.relabel();
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
  return { el: foot, render, openEmbed: base && openEmbed };
}
