// What an iframe that names no widget says (embed/frame-main.js; why a
// widget's code cannot load is setup-strings.js's). No DOM code
// (tests/node/strings.test.mjs loads it).
import { defineStrings } from '../base/i18n.js';

defineStrings('embed', {
  en: {
    unknownWidget: 'There is no widget “{w}”. Use one of: {list}.',
  },
  zh: {
    unknownWidget: '没有名为“{w}”的组件。可用的有：{list}。',
  },
});
