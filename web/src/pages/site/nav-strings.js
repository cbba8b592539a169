// The site navigation's labels (the header every page carries, as static HTML
// with data-i18n="nav.*"), in English and Simplified Chinese. Each page's
// main.js imports this so applyDocument() can fill them.
import { defineStrings } from '../../base/i18n.js';

defineStrings('nav', {
  en: {
    label: 'Site',
    explain: 'Explanation',
    lab: 'Lab',
    check: 'Check',
    bench: 'Benchmarks',
    embed: 'Embed',
  },
  zh: {
    label: '网站导航',
    explain: '讲解',
    lab: '训练实验室',
    check: '检查',
    bench: '基准测试',
    embed: '嵌入',
  },
});
