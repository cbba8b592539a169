// Strict parsing of what the reader types. Syntax is checked here ("12abc",
// an empty item); ranges are left to the core, so its message is the one shown
// for d_k = 0, 2.5 or 1e8 and for a score of 1e999 or NaN.
//
// Each function returns {value} or {error: {key, params}} (an i18n message).
import { defineStrings } from './i18n.js';
import { isNumberText } from './number-text.js';

defineStrings('parse', {
  en: {
    empty: 'Enter at least one score.',
    emptyItem: 'Score {i} is empty.',
    notNumber: '“{text}” is not a number.',
    needCommas: 'Separate the scores with commas: {fixed}.',
    dkEmpty: 'Enter dₖ.',
  },
  zh: {
    empty: '请至少输入一个分数。',
    emptyItem: '第 {i} 个分数为空。',
    notNumber: '“{text}”不是数字。',
    needCommas: '请用逗号分隔各个分数：{fixed}。',
    dkEmpty: '请输入 dₖ。',
  },
});

// The words for non-finite values, passed on for the core to reject with its own message.
const WORD = /^[+-]?(?:inf|infinity|nan)$/i;

function toNumber(text) {
  // The core's number grammar (number-text.js): Number() alone would take 0x10, '+1', '.5', '1.'.
  if (isNumberText(text)) return Number(text);
  if (!WORD.test(text)) return null;
  const lower = text.toLowerCase();
  if (lower.endsWith('nan')) return NaN;
  return lower.startsWith('-') ? -Infinity : Infinity;
}

/** "14, 10, 12" -> {value: [14, 10, 12]}. Commas may be ASCII or full-width. */
export function parseScores(text) {
  const trimmed = text.trim();
  if (trimmed === '') return { error: { key: 'parse.empty' } };
  const items = trimmed.split(/[,，]/);
  const value = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i].trim();
    if (item === '') return { error: { key: 'parse.emptyItem', params: { i: i + 1 } } };
    const x = toNumber(item);
    if (x === null) {
      // "14 10 12" (or "14;10;12"): numbers with something else between them.
      const parts = trimmed.split(/[\s,，;]+/).filter(Boolean);
      if (parts.length > 1 && parts.every((p) => toNumber(p) !== null))
        return { error: { key: 'parse.needCommas', params: { fixed: parts.join(', ') } } };
      return { error: { key: 'parse.notNumber', params: { text: item } } };
    }
    value.push(x);
  }
  return { value };
}

/** "64" -> {value: 64}; "2.5" and "0" parse (the core rejects them), "abc" does not. */
export function parseNumber(text, emptyKey = 'parse.dkEmpty') {
  const item = text.trim();
  if (item === '') return { error: { key: emptyKey } };
  const x = toNumber(item);
  if (x === null) return { error: { key: 'parse.notNumber', params: { text: item } } };
  return { value: x };
}
