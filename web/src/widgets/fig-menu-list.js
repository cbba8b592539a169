// A figure's menu, opened (fig-menu.js loads this on the first click): the
// chart's files (chart-files.js makes them) and its widget's Embed panel
// (footer.js openEmbed). A disclosure: the button's aria-expanded says whether
// the list shows; arrow keys move between its items, Escape or a click
// elsewhere closes it and Escape gives the focus back to the button. A failed
// export is a short message in the list, never a throw.
import { inLang, t } from '../base/i18n.js';
import { h } from '../base/dom.js';
import './menu-strings.js';

let files = null;
const loadFiles = () => (files ??= import('./chart-files.js'));

const KINDS = {
  png: async (f, s) => f.exportPng(f.exportSvg(s)),
  svg: async (f, s) => new Blob(['<?xml version="1.0" encoding="UTF-8"?>\n', new XMLSerializer().serializeToString(f.exportSvg(s))], { type: 'image/svg+xml' }),
  csv: async (f, s) => new Blob([f.toCsv(s.columns)], { type: 'text/csv' }),
};

/** The widget that holds `node` (through its shadow root when embedded), or null. */
function widgetOf(node) {
  for (let n = node; n; n = n.parentNode ?? n.host) if (n.footer) return n;
  return null;
}

let ids = 0;

export function menuList(box, button, fig, snapshot) {
  const owner = widgetOf(box);
  const lang = () => owner?.widgetLang;
  const msg = h('li', { class: 'fig-menu-msg', role: 'status' });
  const item = (key, act) => {
    const b = h('button', { type: 'button', dataset: key === 'embed' ? { menu: key } : { export: key } });
    b.addEventListener('click', act);
    return b;
  };
  const items = snapshot ? Object.entries(KINDS).map(([kind, make]) => item(kind, async () => {
    msg.textContent = '';
    try {
      const f = await loadFiles();
      const s = snapshot();
      f.download(await make(f, s), `${f.fileBase(fig, s.title)}.${kind}`, fig);
      close(true);
    } catch (e) {
      msg.textContent = inLang(lang(), () => t('menu.failed', { message: e?.message ?? String(e) }));
    }
  })) : [];
  if (owner?.footer.openEmbed) items.push(item('embed', () => {
    close(false);
    owner.footer.openEmbed(button);
  }));
  const list = h('ul', { class: 'fig-menu-list', id: `fig-menu-${++ids}`, hidden: true }, items.map((b) => h('li', {}, b)), msg);
  box.append(list);
  button.setAttribute('aria-controls', list.id);

  const outside = (e) => {
    if (!e.composedPath().includes(box)) close(false);
  };
  function close(focus) {
    if (list.hidden) return;
    list.hidden = true;
    button.setAttribute('aria-expanded', 'false');
    document.removeEventListener('pointerdown', outside, true);
    if (focus) button.focus();
  }
  const open = () => {
    inLang(lang(), () => items.forEach((b) => (b.textContent = t(`menu.${b.dataset.export ?? 'embed'}`))));
    msg.textContent = '';
    list.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    document.addEventListener('pointerdown', outside, true);
    items[0]?.focus();
  };
  box.addEventListener('keydown', (e) => {
    if (list.hidden) return;
    const i = items.indexOf(e.target);
    if (e.key === 'Escape') {
      e.stopPropagation();
      close(true);
    } else if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && i >= 0) {
      e.preventDefault();
      items[(i + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length].focus();
    }
  });
  // Tab away from the list: it closes.
  box.addEventListener('focusout', (e) => {
    if (e.relatedTarget && !box.contains(e.relatedTarget)) close(false);
  });
  return { toggle: () => (list.hidden ? open() : close(true)) };
}
