// The Embed panel's text (embed-panel.js, loaded with it), in English and
// Simplified Chinese. No DOM code (tests/node/strings.test.mjs loads it).
import { defineStrings } from '../i18n.js';

defineStrings('embed', {
  en: {
    scriptLabel: 'Script tag (HTML, Markdown with raw HTML, MDX)',
    frameLabel: 'iframe (where raw HTML scripts are stripped)',
    copy: 'Copy',
    copied: 'Copied.',
    copyFailed: 'Copy failed: the text is selected, copy it by hand.',
    frameTitle: 'Scaled dot-product attention widget (attnlab)',
  },
  zh: {
    scriptLabel: '脚本标签（HTML、允许原始 HTML 的 Markdown、MDX）',
    frameLabel: 'iframe（适用于会剥离原始 HTML 脚本的地方）',
    copy: '复制',
    copied: '已复制。',
    copyFailed: '复制失败：文本已选中，请手动复制。',
    frameTitle: '缩放点积注意力组件（attnlab）',
  },
});
