// The text of attn-softmax-table and seed-table.js, in English and Simplified Chinese (its own
// module, so an embedded page loads only the strings of the widgets it shows;
// no DOM code: tests/node/strings.test.mjs loads it in Node).
import { defineStrings } from '../base/i18n.js';

// <attn-softmax-table> and seed-table.js: the seed's worked table.
defineStrings('seed', {
  en: {
    caption: 'Softmax of attention scores, unscaled and divided by √dₖ',
    example: 'Example {n}',
    scoresLabel: 'Scores (comma-separated)',
    dkLabel: 'dₖ',
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
    notOneHot:
      'The unscaled row of example 1 is not quite one-hot: its largest probability is {p}. The saturation explorer below shows the dₖ at which rows become one-hot.',
  },
  zh: {
    caption: '注意力分数的 softmax：不缩放与除以 √dₖ',
    example: '例 {n}',
    scoresLabel: '分数（用逗号分隔）',
    dkLabel: 'dₖ',
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
    notOneHot: '例 1 的不缩放行并不完全是独热分布：其最大概率为 {p}。下面的饱和探索器展示了各行在多大的 dₖ 下变成独热分布。',
  },
});
