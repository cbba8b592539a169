// One small menu per figure, instead of a row of buttons between a figure and
// its text: a button (at the figure's top right) that opens a list: PNG, SVG
// and CSV for a chart, and Embed… for its widget. The list, its actions and
// its strings load on the first open (fig-menu-list.js), so a reader who never
// opens one downloads only this button.
import { t } from '../base/i18n.js';
import { h } from '../base/dom.js';

let list = null;

/** The menu of figure `fig` ({el, relabel}); snapshot(): a chart's export data (none: Embed only). */
export function figMenu(fig, snapshot) {
  const button = h('button', { type: 'button', class: 'fig-menu', 'aria-haspopup': 'true', 'aria-expanded': 'false', text: '⋯' });
  const box = h('div', { class: 'fig-menu-box' }, button);
  let menu = null;
  button.addEventListener('click', async () => {
    menu ??= (await (list ??= import('./fig-menu-list.js'))).menuList(box, button, fig, snapshot);
    menu.toggle();
  });
  return { el: box, relabel: () => button.setAttribute('aria-label', t('widget.menu')) };
}
