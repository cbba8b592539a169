// The text of the saturation explorer's sequence-length view
// (saturation-length.js), in English and Simplified Chinese; loaded with it.
import { defineStrings } from '../base/i18n.js';

defineStrings('satlen', {
  en: {
    axis: 'Curves against',
    'x.dk': 'dₖ (at the m above)',
    'x.n': 'the number of keys m (at the dₖ above)',
    s: 'log-m scale s',
    curveLabel: 'Scalable-Softmax: × {s}·ln m / √dₖ',
    chartNameN: '{title} against the number of keys m (log scale) for each divisor',
    notesN: 'Monte Carlo in the core: {rows} sampled rows at dₖ = {dk} so far; the dashed vertical line is the m above. √dₖ fixes the growth with dₖ, not with m: its largest probability falls and its entropy grows like ln m.',
    progressN: 'computing: m = {n} ({done} of {total})',
    doneN: 'All 12 values of m, 2 to 4096, computed.',
    tableN: 'Expected statistics of softmax(q·k / c) over sampled rows, dₖ = {dk}, random seed {seed} (mean ± standard error)',
    colN: 'm',
    'err.s': 's must be a number from 10⁻⁶ to 10⁶, such as 0.43.',
  },
  zh: {
    axis: '曲线的横轴',
    'x.dk': 'dₖ（取上面的 m）',
    'x.n': '键的个数 m（取上面的 dₖ）',
    s: '对数 m 缩放系数 s',
    curveLabel: 'Scalable-Softmax：× {s}·ln m / √dₖ',
    chartNameN: '{title}随键的个数 m（对数刻度）的变化，每种除数一条曲线',
    notesN: '由计算核心做蒙特卡洛：目前已在 dₖ = {dk} 抽样 {rows} 行；竖直虚线标出上面选定的 m。√dₖ 消除的是随 dₖ 的增长，而不是随 m 的增长：它的最大概率下降，熵像 ln m 一样增长。',
    progressN: '计算中：m = {n}（第 {done} / {total} 个）',
    doneN: '已算完全部 12 个 m（2 到 4096）。',
    tableN: 'softmax(q·k / c) 统计量在抽样行上的期望，dₖ = {dk}，随机种子 {seed}（均值 ± 标准误）',
    colN: 'm',
    'err.s': 's 必须是 10⁻⁶ 到 10⁶ 之间的数，如 0.43。',
  },
});
