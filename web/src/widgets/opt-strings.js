// What an attribute takes (state.js parseOption; lang, theme and controls,
// element.js), after widget.badAttribute, and the sentence for an attribute
// the widget does not have (opt.unknown):
// loaded by element.js only when a widget meets a bad attribute, so a page
// whose attributes are all good never downloads it. No DOM code
// (tests/node/strings.test.mjs loads it in Node).
import { defineStrings } from '../base/i18n.js';

defineStrings('opt', {
  en: {
    int: 'it must be a whole number from {min} to {max}.',
    number: 'it must be a number from {min} to {max}.',
    positive: 'it must be a number above {min}, at most {max}.',
    enum: 'it must be one of: {values}.',
    divisor: 'it must be one of {values}, or a number above 0 and at most {max}.',
    list: 'it must be a comma-separated list of distinct items from: {values}.',
    text: 'it is longer than {max} characters.',
    lang: 'it must be en or zh (or a language tag that starts with one, such as zh-CN).',
    unknown: '<{tag}> has no attribute {attr}="{value}", so it is ignored: it takes {list}.',
  },
  zh: {
    int: '它必须是 {min} 到 {max} 之间的整数。',
    number: '它必须是 {min} 到 {max} 之间的数。',
    positive: '它必须是大于 {min}、不超过 {max} 的数。',
    enum: '它必须是以下之一：{values}。',
    divisor: '它必须是 {values} 之一，或大于 0、不超过 {max} 的数。',
    list: '它必须是以逗号分隔、互不相同的列表，各项取自：{values}。',
    text: '它超过了 {max} 个字符。',
    lang: '它必须是 en 或 zh（或以它们开头的语言标记，例如 zh-CN）。',
    unknown: '<{tag}> 没有属性 {attr}="{value}"，该属性被忽略：它接受的属性有 {list}。',
  },
});
