// The language <select>. mount(element) -> {relabel()}; main.js relabels all
// widgets when the language changes.
import { LANGS, defineStrings, getLang, setLang, t } from '../base/i18n.js';
import { h } from '../base/dom.js';

defineStrings('lang', { en: { label: 'Language' }, zh: { label: '语言' } });

export function mount(root) {
  const select = h('select', { id: 'lang-select' },
    Object.entries(LANGS).map(([code, name]) => h('option', { value: code, lang: code === 'zh' ? 'zh-Hans' : code, text: name })));
  const label = h('label', { for: select.id });
  select.value = getLang();
  select.addEventListener('change', () => setLang(select.value));
  root.replaceChildren(label, select);

  function relabel() {
    label.textContent = t('lang.label');
    select.value = getLang();
  }
  relabel();
  return { relabel };
}
