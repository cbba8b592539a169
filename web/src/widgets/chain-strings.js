// The text of attn-chain, in English and Simplified Chinese (its own
// module, so an embedded page loads only the strings of the widgets it shows;
// no DOM code: tests/node/strings.test.mjs loads it in Node).
import { defineStrings } from '../base/i18n.js';

// <attn-chain>: the flowchart's name, its text version, the Mermaid source.
defineStrings('chain', {
  en: {
    name: 'Flowchart of the causal chain; each box links to its section',
    textHeading: 'The chain in words',
    a: 'Query and key entries have mean 0 and variance 1.',
    b: 'The dot product q·k adds up dₖ independent terms,',
    c: 'so its variance is dₖ and grows with the dimension.',
    d: 'Raw scores get large,',
    e: 'softmax saturates and its output is nearly one-hot,',
    f: 'training steps sharpen a key chosen by chance until the gradient through softmax vanishes,',
    g: 'and the model cannot learn.',
    fixHeading: 'The fix',
    h: 'Divide the scores by √dₖ:',
    i: 'the variance is back to 1,',
    j: 'the distribution stays spread out and many tokens contribute.',
    source: 'Mermaid source of this diagram',
    copy: 'Copy',
    copied: 'Copied.',
    copyFailed: 'Copy failed: select the text and copy it by hand.',
  },
  zh: {
    name: '因果链流程图；每个方框链接到对应的小节',
    textHeading: '用文字表述这条链',
    a: '查询与键的分量均值为 0、方差为 1。',
    b: '点积 q·k 是 dₖ 个独立项之和，',
    c: '所以它的方差是 dₖ，随维度增长。',
    d: '原始分数变大，',
    e: 'softmax 饱和，输出接近独热分布，',
    f: '训练步把偶然选中的键推得越来越尖锐，直到穿过 softmax 的梯度消失，',
    g: '模型学不动。',
    fixHeading: '修正',
    h: '把分数除以 √dₖ：',
    i: '方差回到 1，',
    j: '分布保持分散，许多词元都有贡献。',
    source: '此图的 Mermaid 源码',
    copy: '复制',
    copied: '已复制。',
    copyFailed: '复制失败：请选中文字后手动复制。',
  },
});
