// What every widget says, in English and Simplified Chinese: the shared lead-ins
// ('widget.') and the footer ('embed.'); what a bad attribute takes ('opt.')
// is in opt-strings.js, loaded only when a widget meets one.
// element.js imports it; each widget imports its own table (chain-strings.js,
// variance-strings.js, ...), so an embedded page loads only the text of the
// widgets it shows. No DOM code: tests/node/strings.test.mjs loads it in Node.
import { defineStrings } from '../base/i18n.js';

// Shared by the widgets: the summary of a chart's data table (a core error's sentence
// is core/errors.js's),
// and the name of a figure's menu button (fig-menu.js; what it lists is menu-strings.js).
defineStrings('widget', {
  en: {
    tableSummary: 'Numbers behind the charts',
    badAttribute: 'The attribute {attr}="{value}" cannot be used: {why} The widget shows its default instead.',
    menu: 'Export or embed',
  },
  zh: {
    tableSummary: '图表背后的数字',
    badAttribute: '属性 {attr}="{value}" 无法使用：{why}组件改用默认值。',
    menu: '导出或嵌入',
  },
});

// Every widget's footer (footer.js): its Embed panel, and when embedded, the
// core's status (why a core failed or runs without a worker: setup-strings.js,
// loaded with the diagnosis). coreFailed: the site's own pages, where no footer shows it.
defineStrings('embed', {
  en: {
    loading: 'Loading the WebAssembly core…',
    readyWorker: 'Computed in your browser by the C++ core ({build}) in a worker.',
    readyMain: 'Computed in your browser by the C++ core ({build}) on the main thread, in small slices.',
    coreFailed: 'The WebAssembly core could not be loaded: {message}.',
  },
  zh: {
    loading: '正在加载 WebAssembly 计算核心…',
    readyWorker: '由 C++ 核心（{build}）在你的浏览器中于 Worker 内计算。',
    readyMain: '由 C++ 核心（{build}）在你的浏览器主线程中分小段计算。',
    coreFailed: '无法加载 WebAssembly 计算核心：{message}。',
  },
});
