// The Embed panel's text (embed-panel.js, loaded with it), in English and
// Simplified Chinese. No DOM code (tests/node/strings.test.mjs loads it).
import { defineStrings } from '../base/i18n.js';

defineStrings('embed', {
  en: {
    scriptLabel: 'Script tag (HTML, Markdown with raw HTML, MDX)',
    frameLabel: 'iframe (where raw HTML scripts are stripped), with the line that sizes it where scripts run',
    frameWidth: 'Width of the column it goes in (px):',
    copy: 'Copy',
    copied: 'Copied.',
    copyFailed: 'Copy failed: the text is selected, copy it by hand.',
    frameTitle: 'Scaled dot-product attention widget (attnlab)',
    fallback: 'If this text stays, the attnlab widget did not load: {url} and every file beside it must be served with Access-Control-Allow-Origin, this page’s Content-Security-Policy (if any) must allow that origin in script-src, and a page opened as a file (file://) must be served over http(s) instead. Help: {help}',
  },
  zh: {
    scriptLabel: '脚本标签（HTML、允许原始 HTML 的 Markdown、MDX）',
    frameLabel: 'iframe（适用于会剥离原始 HTML 脚本的地方），附带在能运行脚本时调整其高度的一行代码',
    frameWidth: '放置它的栏宽（像素）：',
    copy: '复制',
    copied: '已复制。',
    copyFailed: '复制失败：文本已选中，请手动复制。',
    frameTitle: '缩放点积注意力组件（attnlab）',
    fallback: '如果这段文字一直显示，说明 attnlab 组件没有加载：{url} 及其旁边的每个文件都须带 Access-Control-Allow-Origin 响应头提供，本页的内容安全策略（CSP，如有）须在 script-src 中允许该来源，以文件（file://）方式打开的页面须改用 http(s) 提供。帮助：{help}',
  },
});
