// The embed docs page (embed.html): each widget live, in embed mode (shadow
// roots, the footer's status line and the figures' menus (Embed…), change and attn-error
// events), exactly as a host page gets it; its attributes as a table read
// from the module each element's `static options` is (widgets/*-options.js,
// no DOM code), so the table follows the code and is in place before the
// element's code arrives (a table that came with it moved the page under a
// reader scrolling on a loaded machine); and the snippets a host copies,
// written with this page's real embed URL.
//
// The widgets come from the published embed, dist/embed/attnlab.js (the embed
// build), loaded at run time, not bundled into this page: a host gets exactly
// that file, its Embed snippets then name its real URL, and the site's bundle
// graph stays as it was (bundling the widgets for this entry too would split
// the explainer's first load into many shared chunks). Being a separate build,
// the widgets have their own copy of i18n.js: the language switch tells them
// through their lang attributes, the way any host does.
import '../../base/style.css';
import '../site/page.css';
import '../site/nav-strings.js';
import './docs.css';
import './strings.js';
import { applyDocument, getLang, onLangChange, t } from '../../base/i18n.js';
import { h } from '../../base/dom.js';
import * as langSwitch from '../../widgets/lang-switch.js';
// Strings and numbers only (no element code): the widgets themselves come from the published embed.
import '../../widgets/setup-strings.js';
import '../../widgets/embed-panel-strings.js';
import { FRAME_HEIGHTS, FRAME_WIDTHS, frameHeight, resizeListener } from '../../widgets/frame-heights.js';
// Each element's options: data only, the same objects its class holds.
import { OPTIONS as VARIANCE } from '../../widgets/variance-options.js';
import { OPTIONS as PROOF } from '../../widgets/proof-options.js';
import { OPTIONS as SOFTMAX } from '../../widgets/seed-options.js';
import { OPTIONS as SATURATION } from '../../widgets/saturation-options.js';
import { OPTIONS as TRAINING } from '../../widgets/compare-options.js';

const byId = (id) => document.getElementById(id);

// The published embed: dist/embed/ next to this page. Snippets point here.
const EMBED_URL = new URL('embed/attnlab.js', document.baseURI).href;
const FRAME_URL = new URL('embed/frame.html', document.baseURI).href;
const EMBED_ORIGIN = new URL(EMBED_URL).origin;
const EMBED_BASE = new URL('./', EMBED_URL).href;
// The published embed's module (on the dev server, the same module from the sources).
const embedModule = () => import(/* @vite-ignore */ import.meta.env.DEV ? '/src/embed/attnlab.js' : EMBED_URL);

// Each element: the live example's attributes, the id of its section
// (attn-chain's links point at #variance, #proof, ... so they land here too)
// and its options (its class's `static options`; embed-docs.test compares them).
const ELEMENTS = [
  { tag: 'attn-chain', id: 'chain', attrs: {}, options: {} },
  { tag: 'attn-variance', id: 'variance', attrs: { dk: '256' }, options: VARIANCE },
  { tag: 'attn-proof', id: 'proof', attrs: { dk: '3', step: '4' }, options: PROOF },
  { tag: 'attn-softmax-table', id: 'softmax', attrs: {}, options: SOFTMAX },
  { tag: 'attn-saturation', id: 'saturation', attrs: { dk: '256', divisor: '1' }, options: SATURATION },
  { tag: 'attn-train-compare', id: 'training', attrs: { dk: '16', divisors: '1,sqrt' }, options: TRAINING },
];
const COMMON = ['lang', 'theme', 'controls'];
const CSS_PROPS = ['--attn-bg', '--attn-fg', '--attn-accent', '--attn-c-unscaled', '--attn-c-two', '--attn-c-sqrt',
  '--attn-c-dk', '--attn-c-custom', '--attn-font', '--attn-radius'];

// Text with `code` spans, built as nodes (never parsed as HTML).
function rich(el, text) {
  el.replaceChildren(...text.split('`').map((part, i) => (i % 2 ? h('code', { text: part }) : part)).filter((x) => x !== ''));
}

function fillText() {
  applyDocument();
  for (const el of document.querySelectorAll('[data-docs]')) rich(el, t(el.dataset.docs));
}

const markup = ({ tag, attrs }) => `<${tag}${Object.entries(attrs).map(([k, v]) => ` ${k}="${v}"`).join('')}></${tag}>`;
const propName = (attr) => attr.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

// 1e12, not 1000000000000.
const n = (x) => (Math.abs(x) >= 1e6 && Number.isInteger(Math.log10(Math.abs(x))) ? x.toExponential().replace('e+', 'e') : String(x));

/** A spec (state.js) as [type, default, allowed values], in the page's language. */
function describeSpec(spec) {
  const def = Array.isArray(spec.def) ? spec.def.join(',') : String(spec.def);
  const values = (spec.values ?? []).join(' | ');
  let range;
  switch (spec.type) {
    case 'enum': range = values; break;
    case 'text': range = t('docs.range.text', { max: spec.max ?? 200 }); break;
    case 'divisor': range = t('docs.range.divisor', { values, max: n(spec.max) }); break;
    case 'list': range = t('docs.range.list', { values: (spec.values ?? []).join(', ') }); break;
    default:
      range = spec.minOpen ? t('docs.range.open', { min: n(spec.min), max: n(spec.max) }) : `${n(spec.min)}–${n(spec.max)}`;
  }
  const type = ['int', 'number', 'enum', 'text', 'divisor', 'list'].includes(spec.type) ? t(`docs.type.${spec.type}`) : spec.type;
  return { type, def, range };
}

function table(caption, head, rows, attrs = {}) {
  return h('table', { class: 'docs-table', ...attrs },
    caption ? h('caption', { text: caption }) : null,
    h('thead', {}, h('tr', {}, head.map((x) => h('th', { scope: 'col', text: x })))),
    // data-label: the column's name, shown before each cell where the table stacks (narrow screens).
    h('tbody', {}, rows.map((r) => h('tr', {}, r.map((c, i) =>
      h(i === 0 ? 'th' : 'td', i === 0 ? { scope: 'row' } : { dataset: { label: head[i] } }, c))))));
}

const code = (x) => h('code', { text: x });

// ---- the element sections ----
const sections = ELEMENTS.map((item) => {
  const { tag, id, attrs, options } = item;
  const heading = h('h3', { id: `el-${tag}` }, code(`<${tag}>`));
  const about = h('p');
  const live = h(tag, attrs);
  const markupLabel = h('p', { class: 'markup-label' });
  const attrsBox = h('div', { class: 'table-wrap attrs', dataset: { tag } });
  const events = h('p', { class: 'events' });
  const lastLabel = h('span');
  const last = h('output', { class: 'last-event' });
  const lastBox = h('p', { class: 'last-event-line' }, lastLabel, ' ', last);
  let lastDetail = null;
  live.addEventListener('change', (e) => {
    lastDetail = e.detail;
    render();
  });
  const section = h('section', { id, class: 'element', 'aria-labelledby': heading.id },
    heading, about, live, markupLabel, h('pre', { class: 'code' }, code(markup(item))), attrsBox, events,
    tag === 'attn-chain' ? null : lastBox);

  function render() {
    rich(about, t(`docs.el.${tag}`));
    markupLabel.textContent = t('docs.markup');
    lastLabel.textContent = `${t('docs.lastEvent')}:`;
    last.textContent = lastDetail ? JSON.stringify(lastDetail) : t('docs.noEvent');
    const opts = Object.entries(options);
    attrsBox.replaceChildren(opts.length
      ? table(t('docs.attrsCaption', { tag }),
        [t('docs.col.attr'), t('docs.col.property'), t('docs.col.type'), t('docs.col.default'), t('docs.col.range')],
        opts.map(([attr, { spec }]) => {
          const d = describeSpec(spec);
          return [code(attr), code(propName(attr)), d.type, code(d.def), d.range];
        }), { dataset: { tag } })
      : h('p', { text: t('docs.noAttrs') }));
    if (tag === 'attn-chain') events.textContent = t('docs.eventsNone');
    else {
      // The change event's detail: the options' property names (the widgets' state() keys, tested).
      const keys = opts.map(([a]) => propName(a));
      events.textContent = t('docs.eventsLine', { events: 'change, attn-error', keys: `{${keys.join(', ')}}` });
    }
  }
  return { section, render };
});

// ---- the snippets ----
function snippets() {
  const frameSrc = `${FRAME_URL}?w=saturation&dk=256&div=1&lang=en`;
  const esc = (s) => s.replace(/&/g, '&amp;');
  const S = {
    script: `<script type="module" src="${EMBED_URL}"></script>\n\n<attn-saturation dk="256" divisor="1">\n`
      + `  <p slot="fallback">${t('embed.fallback', { url: EMBED_URL, help: new URL('embed.html#troubleshooting', document.baseURI).href })}</p>\n`
      + '</attn-saturation>',
    events: [
      "const sat = document.querySelector('attn-saturation');",
      "sat.addEventListener('change', (e) => console.log(e.detail));  // {dk: 256, m: 16, divisor: '1', seed: 1}",
      "document.addEventListener('attn-error', (e) => console.warn(e.detail.kind, e.detail.message));",
      "sat.dk = 1024;  // the same as sat.setAttribute('dk', '1024')",
    ].join('\n'),
    css: 'attn-saturation, attn-variance {\n  --attn-accent: #7c3aed;\n  --attn-c-sqrt: #2563eb;\n  --attn-font: Georgia, serif;\n  --attn-radius: 8px;\n}',
    // The iframe table's height for an 800 px column: an upper bound on the widget's own.
    room: `attn-saturation:not(:defined) {\n  display: block;\n  min-height: ${frameHeight('attn-saturation', 800)}px;  /* ${t('docs.room.comment')} */\n}`,
    // The height for a column of 800 px; the one line after it resizes where scripts run.
    frame: `<iframe id="attn-frame" src="${esc(frameSrc)}"\n        title="Softmax saturation" width="100%" height="${frameHeight('attn-saturation', 800)}" loading="lazy"></iframe>\n`
      + resizeListener(EMBED_ORIGIN),
    resize: [
      "const frame = document.getElementById('attn-frame');",
      "window.addEventListener('message', (e) => {",
      `  if (e.origin !== '${EMBED_ORIGIN}') return;         // only the embed's own frames`,
      '  if (e.source !== frame.contentWindow) return;   // and this one (several frames: one check each)',
      "  if (e.data?.type === 'attnlab:resize') {",
      '    frame.height = e.data.height;                 // the attribute: no style, so a strict style-src allows it',
      "  } else if (e.data?.type === 'attnlab:error') {",
      "    console.warn('attnlab:', e.data.kind, e.data.message);",
      '  }',
      '});',
    ].join('\n'),
    headers: [
      '# every file under /embed/ (attnlab.js, assets/*.js, assets/*.wasm, frame.html)',
      'Access-Control-Allow-Origin: *        # or the one origin of your pages',
      '# and for assets/*.wasm',
      'Content-Type: application/wasm',
      '',
      '# the same in nginx',
      'location /embed/ {',
      '    add_header Access-Control-Allow-Origin * always;',
      '    types { text/javascript js; application/wasm wasm; text/html html; }',
      '}',
    ].join('\n'),
    csp: [
      '# the host page\'s Content-Security-Policy (header or <meta http-equiv>), next to its own sources:',
      `script-src 'self' ${EMBED_ORIGIN} 'wasm-unsafe-eval';`,
      `connect-src 'self' ${EMBED_ORIGIN};`,
      `worker-src 'self' blob: ${EMBED_ORIGIN};`,
      '# and only for the iframe:',
      `frame-src ${EMBED_ORIGIN};`,
    ].join('\n'),
    markdownit: [
      "// the renderer",
      "import MarkdownIt from 'markdown-it';",
      'const md = new MarkdownIt({ html: true });',
      '',
      '<!-- the page (Markdown): the element alone on its line, blank lines around it -->',
      'Unscaled, the row of scores turns one-hot:',
      '',
      '<attn-saturation dk="1024" divisor="1" controls="none"></attn-saturation>',
      '',
      'Divided by √dₖ, it stays spread out.',
    ].join('\n'),
    hugo: [
      '# hugo.toml',
      '[markup.goldmark.renderer]',
      '  unsafe = true',
      '',
      '# layouts/partials/head.html (or your theme\'s hook): the script once',
      `<script type="module" src="${EMBED_URL}"></script>`,
    ].join('\n'),
    mkdocs: [
      '# mkdocs.yml',
      'extra_javascript:',
      `  - path: ${EMBED_URL}`,
      '    type: module',
    ].join('\n'),
    docusaurus: [
      '// docusaurus.config.js',
      'export default {',
      `  scripts: [{ src: '${EMBED_URL}', type: 'module' }],`,
      '  // ...',
      '};',
      '',
      '{/* any .mdx page: attribute values as strings, tags closed */}',
      '<attn-saturation dk="1024" divisor="sqrt"></attn-saturation>',
    ].join('\n'),
    // No script resizes it in a notebook: the height that fits an output area of 640 px and wider.
    jupyter: [
      'from IPython.display import IFrame',
      `IFrame('${frameSrc}', width='100%', height=${frameHeight('attn-saturation', 640)})`,
    ].join('\n'),
    check: `(await import('${EMBED_URL}')).check().then(console.table)`,
  };
  for (const [k, v] of Object.entries(S)) byId(`snippet-${k}`).textContent = v;
}

// ---- when a widget does not show ----
const SAMPLE = {
  code: `${EMBED_BASE}assets/runtime-….js`, worker: `${EMBED_BASE}assets/worker-….js`,
  wasm: `${EMBED_BASE}assets/attnlab_explain_relaxed-….wasm`,
};
// [attn-error kind, cause (docs.trouble.cause.*), sentence (setup.*), its params]
const TROUBLES = [
  ['cors', 'cors.code', 'cors.code', { url: SAMPLE.code }],
  ['cors', 'cors.worker', 'cors.worker', { url: SAMPLE.worker }],
  ['cors', 'cors.wasm', 'cors.wasm', { url: SAMPLE.wasm }],
  ['missing', 'missing', 'missing', { url: SAMPLE.wasm, status: 404 }],
  ['mime', 'mime.code', 'mime.code', { url: SAMPLE.code, type: 'text/plain' }],
  ['mime', 'mime.wasm', 'mime.wasm', { url: SAMPLE.wasm, type: 'application/octet-stream' }],
  ['unreachable', 'unreachable', 'unreachable', { url: SAMPLE.code }],
  ['connect-src', 'connectSrc', 'connectSrc', {}],
  ['worker-src', 'workerSrc', 'workerSrc', {}],
  ['wasm-unsafe-eval', 'wasmEval', 'wasmEval', {}],
  ['file', 'file', 'file', {}],
  ['script-src', 'scriptSrc', 'scriptSrc', {}],
];
const setupText = (key, params) => t(`setup.${key}`, { base: EMBED_BASE, origin: EMBED_ORIGIN, ...params });

// The check panel: what a page's CSP would refuse (and, for this site's own
// files, the files), by the published embed's check(), in the widgets' words.
let checked = null;  // {lines, url, csp}: drawn again on a language change
function renderCheck() {
  const out = byId('check-out');
  if (!checked) return out.replaceChildren();
  const { lines, url, csp, offOrigin } = checked;
  const items = [];
  if (offOrigin) items.push(h('li', { class: 'check-note', text: t('docs.check.offOrigin', { origin: new URL(url).origin }) }));
  if (!csp.trim()) items.push(h('li', { class: 'check-note', text: t('docs.check.noCsp') }));
  for (const l of lines) {
    items.push(l.ok
      ? h('li', { class: 'check-ok', dataset: { kind: 'ok' } }, '✓ ', t('docs.check.fileOk', { file: l.file }))
      : h('li', { class: 'check-bad', dataset: { kind: l.kind } }, '✗ ', code(l.kind), ' ', setupText(l.key, l.params)));
  }
  if (!lines.some((l) => !l.ok)) items.push(h('li', { class: 'check-ok', text: t('docs.check.ok') }));
  out.replaceChildren(...items);
}

function setUpCheck() {
  const form = byId('check-form');
  const url = byId('check-url');
  url.value = EMBED_URL;
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const target = url.value.trim() || EMBED_URL;
    const csp = byId('check-csp').value;
    // This page's own CSP lets it fetch only from its origin: other deployments are checked on their pages (the console line).
    const offOrigin = new URL(target, location.href).origin !== location.origin;
    byId('check-out').replaceChildren(h('li', { text: t('docs.check.running') }));
    try {
      const { check } = await embedModule();
      const lines = await check(target, { csp, files: !offOrigin, lang: getLang() });
      checked = { lines, url: new URL(target, location.href).href, csp, offOrigin };
    } catch (err) {
      checked = { lines: [{ ok: false, kind: 'load', key: 'unknown.code', params: { message: err.message } }], url: target, csp, offOrigin };
    }
    renderCheck();
  });
}

function renderTables() {
  byId('frame-heights').replaceChildren(table(t('docs.iframe.heightsCaption'), [t('docs.iframe.widget'), ...FRAME_WIDTHS.map((w) => `${w}${w === FRAME_WIDTHS.at(-1) ? '+' : ''} px`)],
    Object.entries(FRAME_HEIGHTS).map(([tag, row]) => [code(tag), ...row.map(String)])));
  byId('trouble-table').replaceChildren(table(t('docs.trouble.caption'), [t('docs.trouble.col.kind'), t('docs.trouble.col.cause'), t('docs.trouble.col.says')],
    TROUBLES.map(([kind, cause, key, params]) => [code(kind), t(`docs.trouble.cause.${cause}`), setupText(key, params)])));
  byId('common-table').replaceChildren(table(null, [t('docs.col.attr'), t('docs.col.meaning')],
    COMMON.map((a) => [code(a), t(`docs.common.${a}`)])));
  byId('events-table').replaceChildren(table(null, [t('docs.col.event'), t('docs.col.detail'), t('docs.col.meaning')], [
    [code('change'), code('{dk, divisor, …}'), t('docs.event.change')],
    [code('attn-error'), code('{kind, message, attribute?, value?}'), t('docs.event.error')],
  ]));
  byId('css-table').replaceChildren(table(null, [t('docs.col.name'), t('docs.col.themes')],
    CSS_PROPS.map((p) => [code(p), t(`docs.css.${p}`)])));
}

// The page's language first (URL, storage, browser), written to <html lang>:
// the embed reads its default language from there.
fillText();
byId('element-sections').replaceChildren(...sections.map((s) => s.section));
snippets();
renderTables();
setUpCheck();
sections.forEach((s) => s.render());

const picker = langSwitch.mount(byId('lang-switch'));
onLangChange(() => {
  fillText();
  snippets();
  renderTables();
  renderCheck();
  sections.forEach((s) => s.render());
  picker.relabel();
  // Each widget relabels itself when its lang attribute changes.
  for (const el of document.querySelectorAll(ELEMENTS.map((e) => e.tag).join(','))) el.setAttribute('lang', getLang());
});

// The autoloader defines each widget whose element is on the page. On the dev
// server (no embed build) the same module is served from the sources.
embedModule();
