// What a widget says when its code cannot load, or an iframe names no widget
// (embed/load-error.js, embed/frame-main.js): loaded only then. No DOM code
// (tests/node/strings.test.mjs loads it).
import { defineStrings } from '../i18n.js';

defineStrings('embed', {
  en: {
    loadFailed: 'This widget could not load its code: {message}. Check the script URL, that the server sends Access-Control-Allow-Origin, and that the page’s CSP allows the script’s origin in script-src.',
    unknownWidget: 'There is no widget “{w}”. Use one of: {list}.',
  },
  zh: {
    loadFailed: '此组件无法加载其代码：{message}。请检查脚本地址、服务器是否发送 Access-Control-Allow-Origin，以及页面的 CSP 是否在 script-src 中允许该脚本的来源。',
    unknownWidget: '没有名为“{w}”的组件。可用的有：{list}。',
  },
});
