// What a figure's menu lists (fig-menu-list.js, loaded on its first open); its
// button's name is widgets/strings.js's widget.menu.
import { defineStrings } from '../base/i18n.js';

defineStrings('menu', {
  en: {
    png: 'PNG image',
    svg: 'SVG image',
    csv: 'CSV of the numbers',
    embed: 'Embed…',
    failed: 'Could not export: {message}',
  },
  zh: {
    png: 'PNG 图片',
    svg: 'SVG 图片',
    csv: '数据（CSV）',
    embed: '嵌入…',
    failed: '无法导出：{message}',
  },
});
