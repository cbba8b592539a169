// Every visible string of the page, in English and Simplified Chinese, and the
// language switch's state. The choice lives in the URL (?lang=zh, so a link
// shares it) and in localStorage (so it is remembered); the URL wins.
import { getParam, setParam } from './url.js';

export const LANGS = { en: 'English', zh: '简体中文' };
const INTL_LOCALE = { en: 'en', zh: 'zh-CN' };
const HTML_LANG = { en: 'en', zh: 'zh-Hans' };
const STORAGE_KEY = 'attn-scale.lang';

const STRINGS = {
  en: {
    'doc.title': 'Why attention divides by √dₖ',
    'lang.label': 'Language',
    'page.title': 'Why attention divides by √dₖ',
    'page.lede':
      'Attention compares a query q with each key k by the dot product q·k. When q and k have dₖ independent entries of variance 1, q·k has variance dₖ: its typical size grows like √dₖ. The softmax of large scores is almost one-hot, and its gradient (the softmax Jacobian) almost vanishes, so learning stalls. Dividing the scores by √dₖ brings their variance back to 1.',
    'seed.heading': 'The worked example, live',
    'seed.intro':
      'Three scores, put through softmax as they are and divided by √dₖ. Edit the scores or dₖ: the C++ core, running in your browser, recomputes every number in the table.',
    'seed.caption': 'Softmax of attention scores, unscaled and divided by √dₖ',
    'seed.note':
      'Entropy is 0 for a one-hot row and ln n for a uniform one. The Jacobian norm ‖diag(p) − p pᵀ‖ measures how much gradient flows back through the softmax: near 0, learning stalls.',
    'seed.example': 'Example {n}',
    'seed.scoresLabel': 'Scores (comma-separated)',
    'seed.dkLabel': 'dₖ',
    'col.case': 'Case',
    'col.scores': 'Scores',
    'col.divisor': 'Divisor',
    'col.probs': 'Probabilities',
    'col.entropy': 'Entropy (nats)',
    'col.maxProb': 'Largest probability',
    'col.jacobian': 'Softmax Jacobian norm',
    'row.unscaled': 'Unscaled',
    'row.scaled': 'Divided by √dₖ',
    'divisor.sqrt': '√{dk} = {value}',
    'err.empty': 'Enter at least one score.',
    'err.emptyItem': 'Score {i} is empty.',
    'err.notNumber': '“{text}” is not a number.',
    'err.dkEmpty': 'Enter dₖ.',
    'err.core': 'Rejected by the core: {message}',
    'table.summary': 'Numbers behind the charts',
    'footer.loading': 'Loading the WebAssembly core…',
    'footer.ready':
      'Every number on this page is computed in your browser by the C++ core compiled to WebAssembly ({build} build, kernel {kernel}). Nothing is sent to a server.',
    'footer.failed': 'The WebAssembly core could not be loaded: {message}',
    'build.simd': 'SIMD128',
    'build.scalar': 'scalar',
  },
  zh: {
    'doc.title': '注意力为何除以 √dₖ',
    'lang.label': '语言',
    'page.title': '注意力为何除以 √dₖ',
    'page.lede':
      '注意力用点积 q·k 比较查询向量 q 与每个键向量 k。若 q 与 k 的 dₖ 个分量相互独立、方差为 1，则 q·k 的方差为 dₖ，其典型大小随 √dₖ 增长。分数很大时，softmax 几乎是独热分布，其梯度（softmax 的雅可比矩阵）几乎为零，学习随之停滞。把分数除以 √dₖ，方差就回到 1。',
    'seed.heading': '可编辑的算例',
    'seed.intro':
      '三个分数分别直接做 softmax，以及除以 √dₖ 后再做 softmax。修改分数或 dₖ，在浏览器中运行的 C++ 核心会重新计算表中的每个数字。',
    'seed.caption': '注意力分数的 softmax：不缩放与除以 √dₖ',
    'seed.note':
      '独热分布的熵为 0，均匀分布的熵为 ln n。雅可比范数 ‖diag(p) − p pᵀ‖ 衡量有多少梯度能反向穿过 softmax：接近 0 时学习停滞。',
    'seed.example': '例 {n}',
    'seed.scoresLabel': '分数（用逗号分隔）',
    'seed.dkLabel': 'dₖ',
    'col.case': '情形',
    'col.scores': '分数',
    'col.divisor': '除数',
    'col.probs': '概率',
    'col.entropy': '熵（奈特）',
    'col.maxProb': '最大概率',
    'col.jacobian': 'softmax 雅可比范数',
    'row.unscaled': '不缩放',
    'row.scaled': '除以 √dₖ',
    'divisor.sqrt': '√{dk} = {value}',
    'err.empty': '请至少输入一个分数。',
    'err.emptyItem': '第 {i} 个分数为空。',
    'err.notNumber': '“{text}”不是数字。',
    'err.dkEmpty': '请输入 dₖ。',
    'err.core': '计算核心拒绝了此输入：{message}',
    'table.summary': '图表背后的数字',
    'footer.loading': '正在加载 WebAssembly 计算核心…',
    'footer.ready':
      '本页的每个数字都由编译为 WebAssembly 的 C++ 核心在你的浏览器中计算（{build} 版本，内核 {kernel}），不会向服务器发送任何数据。',
    'footer.failed': '无法加载 WebAssembly 计算核心：{message}',
    'build.simd': 'SIMD128',
    'build.scalar': '标量（scalar）',
  },
};

/**
 * Add a widget's strings: {en: {key: text}, zh: {key: text}}. Each widget
 * module brings its own, so a widget placed alone on a page still has them.
 */
export function defineStrings(dict) {
  for (const l of Object.keys(LANGS)) Object.assign(STRINGS[l], dict[l]);
}

/** True if `key` is defined (in English, which every key must have). */
export function hasString(key) {
  return Object.hasOwn(STRINGS.en, key);
}

function readStored() {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null; // storage disabled: the URL still carries the choice
  }
}

function initialLang() {
  for (const l of [getParam('lang'), readStored()]) if (Object.hasOwn(LANGS, l ?? '')) return l;
  return (navigator.languages ?? [navigator.language]).some((l) => /^zh\b/i.test(l)) ? 'zh' : 'en';
}

let lang = initialLang();
const listeners = new Set();

export function getLang() {
  return lang;
}

/** BCP 47 tag for Intl formatters. */
export function locale() {
  return INTL_LOCALE[lang];
}

/** The string for `key` with {name} placeholders filled from params. */
export function t(key, params = {}) {
  const s = STRINGS[lang][key] ?? STRINGS.en[key];
  if (s === undefined) throw new Error(`missing string "${key}"`);
  return s.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

export function setLang(next) {
  if (!Object.hasOwn(LANGS, next)) return;
  lang = next;
  try {
    localStorage.setItem(STORAGE_KEY, next);
  } catch {
    /* storage disabled */
  }
  setParam('lang', next);
  applyDocument();
  for (const fn of listeners) fn(next);
}

/** Call fn(lang) after every language change. */
export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Fill every [data-i18n] element under root, and the document's title and lang. */
export function applyDocument(root = document) {
  document.documentElement.lang = HTML_LANG[lang];
  document.title = t('doc.title');
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
}

// For a test of the dictionary: both languages define the same keys.
export const _strings = STRINGS;
