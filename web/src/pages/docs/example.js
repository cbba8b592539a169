// embed-example.js: the sample tutorial's own script (the build copies this
// file to dist/embed-example.js as it is). Three jobs, no framework:
//   1. the page's text in English and Chinese, and the language toggle;
//   2. telling each widget the language (its lang attribute);
//   3. the scrolling steps: as each step reaches the middle of the screen,
//      set the attributes of the saturation figure (dk, divisor).
// Widgets are driven through attributes (setAttribute), which works before
// and after their code has loaded; a property set on an element that is not
// upgraded yet would shadow the widget's own property.

const STRINGS = {
  en: {
    title: 'Why divide by √dₖ? A five-minute tour',
    lede: 'Scaled dot-product attention computes softmax(QKᵀ / √dₖ) V. That small division is what keeps attention trainable as the heads get wider. This tour shows why, with live figures: every number on this page is computed in your browser.',
    'grow.h': '1. Dot products grow with the dimension',
    'grow.p1': 'Attention compares a query q with a key k by their dot product, q·k = q₁k₁ + q₂k₂ + … summed over dₖ dimensions. If the entries are independent with mean 0 and variance 1, each product qᵢkᵢ has variance 1, and the variances of the dₖ terms add up: Var(q·k) = dₖ.',
    'grow.p2': 'So the typical score has a size of about √dₖ: 8 when dₖ = 64, 32 when dₖ = 1024. Move dₖ below and watch the histogram widen, while the scaled version keeps its variance at 1.',
    'softmax.h': '2. Softmax turns large scores into a one-hot row',
    'softmax.p1': 'Softmax exponentiates its inputs, so a gap of 4 between two scores becomes a factor of e⁴ ≈ 55 between their probabilities. The table takes the scores 14, 10 and 12, a plausible row when dₖ = 64 (standard deviation 8), and puts them through softmax as they are and divided by √64 = 8. Unscaled, one key takes almost all the weight; scaled, all three still count. Edit the scores to try your own.',
    'scroll.h': '3. Watch a row saturate',
    'scroll.intro': 'The figure samples one query and 16 keys and shows the softmax of their scores. Scroll on: each paragraph changes the figure.',
    'scroll.s1': 'Start small, at dₖ = 4. The scores have a standard deviation of 2, the top ones are close together, and softmax spreads the weight over several keys.',
    'scroll.s2': 'Now dₖ = 64. The scores spread eight times wider than in one dimension. The largest probability climbs, and the row begins to look like a single spike.',
    'scroll.s3': 'At dₖ = 1024 the standard deviation is 32. The top score is far above the rest, and softmax gives it nearly all the weight: the row is one-hot. For most such rows its Jacobian, which carries the gradient back through the softmax, is close to zero, and the keys the row does not already favour get almost no gradient: training sharpens whichever key won by chance instead of finding the right one. (The mean over rows is larger, because some rows are still spread out; the explorer’s distribution view shows both.)',
    'scroll.s4': 'Same dₖ = 1024, but every score divided by √1024 = 32. The variance is back to 1 and the row looks as it did at dₖ = 4: spread out, with a gradient to follow. That is the whole fix.',
    status: 'The figure now: dₖ = {dk}, scores divided by {div}.',
    'div.1': '1 (unscaled)',
    'div.sqrt': '√dₖ',
    'more.h': '4. Why not divide by more?',
    'more.p1': 'Dividing by dₖ instead shrinks the scores towards 0 as dₖ grows, and the row drifts towards uniform: attention can no longer single out a key. The figure below is fixed at dₖ = 1024, divided by dₖ. In its curves, only the divisor √dₖ keeps the largest probability, the entropy and the Jacobian norm flat across every dₖ.',
    'end.h': 'The takeaway',
    'end.p1': '√dₖ is not a tuning knob. It is the divisor that undoes the growth of the dot product’s standard deviation, so softmax sees scores of the same size whatever the width of the head. One caveat: the argument assumes q and k are independent. After training they are often correlated, the scores grow like dₖ rather than √dₖ, and that is why μP divides by dₖ.',
    footer: 'The figures are attnlab widgets.',
    'footer.link': 'How to embed them',
  },
  zh: {
    title: '为什么要除以 √dₖ？五分钟导览',
    lede: '缩放点积注意力计算 softmax(QKᵀ / √dₖ) V。正是这个小小的除法，使注意力头变宽时仍然可以训练。本文用实时的图来说明原因：本页的每个数字都在你的浏览器中计算。',
    'grow.h': '1. 点积随维度增大',
    'grow.p1': '注意力用点积比较查询 q 与键 k：q·k = q₁k₁ + q₂k₂ + …，对 dₖ 个维度求和。若各分量相互独立、均值为 0、方差为 1，则每个乘积 qᵢkᵢ 的方差为 1，dₖ 项的方差相加：Var(q·k) = dₖ。',
    'grow.p2': '因此典型分数的大小约为 √dₖ：dₖ = 64 时为 8，dₖ = 1024 时为 32。调节下方的 dₖ，可以看到直方图变宽，而缩放后的版本方差保持为 1。',
    'softmax.h': '2. softmax 把大分数变成独热的一行',
    'softmax.p1': 'softmax 对输入取指数，所以两个分数相差 4，概率就相差 e⁴ ≈ 55 倍。下表取分数 14、10、12（dₖ = 64、标准差为 8 时很常见的一行），分别直接做 softmax 和除以 √64 = 8 后做 softmax。不缩放时，一个键几乎拿走全部权重；缩放后，三个键都仍有分量。可以修改分数自己试试。',
    'scroll.h': '3. 看一行如何饱和',
    'scroll.intro': '这张图抽取一个查询和 16 个键，显示它们分数的 softmax。继续向下滚动：每一段都会改变这张图。',
    'scroll.s1': '从小处开始，dₖ = 4。分数的标准差为 2，最高的几个分数彼此接近，softmax 把权重分给好几个键。',
    'scroll.s2': '现在 dₖ = 64。分数的分布比一维时宽八倍。最大概率上升，这一行开始像一个尖峰。',
    'scroll.s3': 'dₖ = 1024 时标准差为 32。最高分远高于其余分数，softmax 几乎把全部权重都给了它：这一行是独热的。对大多数这样的行，负责把梯度反向传过 softmax 的雅可比矩阵接近于零，这一行尚未偏向的键几乎得不到梯度：训练只会让偶然胜出的键更尖锐，而不是找到正确的键。（各行的平均值要大一些，因为仍有一些行是分散的；解释页的分布视图同时显示两者。）',
    'scroll.s4': '同样是 dₖ = 1024，但每个分数都除以 √1024 = 32。方差回到 1，这一行又像 dₖ = 4 时那样分散，梯度也就有了方向。修正就是这么简单。',
    status: '当前图：dₖ = {dk}，分数除以 {div}。',
    'div.1': '1（不缩放）',
    'div.sqrt': '√dₖ',
    'more.h': '4. 为什么不除以更大的数？',
    'more.p1': '若改为除以 dₖ，随着 dₖ 增大分数会缩向 0，这一行趋于均匀分布：注意力再也无法突出某一个键。下图固定为 dₖ = 1024、除以 dₖ。在它的曲线中，只有除数 √dₖ 能让最大概率、熵和雅可比范数在所有 dₖ 上保持平稳。',
    'end.h': '要点',
    'end.p1': '√dₖ 不是一个调参旋钮，而是恰好抵消点积标准差增长的除数，使 softmax 看到的分数大小与注意力头的宽度无关。一个前提：这个论证假设 q 与 k 相互独立。训练之后它们往往相关，分数随 dₖ 而非 √dₖ 增长，这正是 μP 除以 dₖ 的原因。',
    footer: '图中都是 attnlab 组件。',
    'footer.link': '如何嵌入它们',
  },
};

const WIDGETS = 'attn-variance, attn-softmax-table, attn-saturation';
const figure = document.getElementById('scrolly-figure');
const status = document.getElementById('scrolly-status');

function initialLang() {
  const asked = new URLSearchParams(location.search).get('lang');
  if (asked === 'en' || asked === 'zh') return asked;
  return (navigator.languages ?? [navigator.language]).some((l) => /^zh\b/i.test(l)) ? 'zh' : 'en';
}

let lang = initialLang();
const text = (key, params = {}) => STRINGS[lang][key].replace(/\{(\w+)\}/g, (_, k) => params[k]);

function applyLang() {
  document.documentElement.lang = lang === 'zh' ? 'zh-Hans' : 'en';
  document.title = text('title');
  for (const el of document.querySelectorAll('[data-t]')) el.textContent = text(el.dataset.t);
  // Each widget speaks its own lang attribute (and relabels itself when it changes).
  for (const el of document.querySelectorAll(WIDGETS)) el.setAttribute('lang', lang);
  for (const b of document.querySelectorAll('.lang-toggle button')) b.setAttribute('aria-pressed', String(b.dataset.lang === lang));
  showStatus();
}

for (const b of document.querySelectorAll('.lang-toggle button')) {
  b.addEventListener('click', () => {
    lang = b.dataset.lang;
    const url = new URL(location.href);
    url.searchParams.set('lang', lang);
    history.replaceState(null, '', url);
    applyLang();
  });
}

function showStatus() {
  const dk = figure.getAttribute('dk');
  const div = figure.getAttribute('divisor');
  status.textContent = text('status', { dk, div: text(`div.${div}`) });
}

// ---- the scrolling steps ----
const steps = [...document.querySelectorAll('.step')];
function activate(step) {
  for (const s of steps) s.classList.toggle('active', s === step);
  figure.setAttribute('dk', step.dataset.dk);
  figure.setAttribute('divisor', step.dataset.divisor);
  showStatus();
}
// A step is active while it crosses a band just below the middle of the
// viewport (on a narrow screen the figure holds the top half).
const observer = new IntersectionObserver((entries) => {
  for (const e of entries) if (e.isIntersecting) activate(e.target);
}, { rootMargin: '-60% 0px -30% 0px' });
for (const s of steps) observer.observe(s);

// The docs link points next to the widgets' script, wherever that is served from.
const script = document.querySelector('script[src$="/embed/attnlab.js"]');
if (script) document.getElementById('docs-link').href = new URL('../embed.html', script.src).href;

applyLang();
