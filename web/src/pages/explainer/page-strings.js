// The explainer's own prose and headings (index.html's data-i18n keys, all
// under 'page.'), in English and Simplified Chinese. Its widgets bring their
// own strings (widgets/strings.js).
import { defineStrings } from '../../base/i18n.js';

defineStrings('page', {
  en: {
    description: 'Why scaled dot-product attention divides by √dₖ, computed live in your browser: the variance of q·k, its proof, softmax saturation and a training run, each step checkable.',
    title: 'Why attention divides by √dₖ',
    lede:
      'Attention compares a query q with each key k by the dot product q·k. When q and k have dₖ independent entries of variance 1, q·k has variance dₖ: its typical size grows like √dₖ. The softmax of large scores is almost one-hot, on a key the scores chose by chance. That alone does not stop the gradient: at initialisation it can be larger than with scaled scores. But training with Adam then pushes the unscaled scores further at every step, until the rows freeze and the gradient through softmax is too small for a step to move: learning stalls. Dividing the scores by √dₖ brings their variance back to 1.',
    seedIntro:
      'This page grew from a Chinese article that walks this chain, which we call “the seed”. Its worked numbers are test cases here, recomputed live (section 4), and its claim about training is tested, not repeated (section 6). Where a control says “random seed”, it means the seed of the random numbers, not the article.',
    'hero.caption': 'Move dₖ and watch softmax saturate',
    'hero.dk': 'Key dimension',
    'hero.dkValue': 'dₖ = {dk}',
    'hero.mark': 'Middle mark: dₖ = 64, the seed’s example',
    'hero.unscaled': 'Scores as they are',
    'hero.scaled': 'Divided by √dₖ = {root}',
    'hero.stats': 'largest {p} · gradient size {j}',
    'hero.noteSeed': 'At dₖ = 64 these are the seed’s scores 14, 10, 12: softmax gives {u}; divided by √64 = 8, {s}.',
    'hero.listSep': ', ',
    'hero.note': 'At dₖ = {dk} a row like the seed’s is {f} times as large: {scores}. As they are, the largest probability is {p}; divided by √dₖ = {root}, the row is the same at every dₖ.',
    'hero.how': 'Scores 14, 10, 12 are a typical row at dₖ = 64, where q·k has standard deviation √64 = 8; at another dₖ the same row is √(dₖ / 64) times as large. Gradient size is the softmax Jacobian norm. The C++ core, running in your browser, computes every number.',
    'toc.chain': 'The chain at a glance',
    'toc.variance': 'q·k grows: Var = dₖ',
    'toc.proof': 'Why exactly dₖ',
    'toc.softmax': 'Large scores, one-hot softmax',
    'toc.saturation': 'Saturated: one-hot rows',
    'toc.training': 'Training: the claim tested',
    skip: 'Skip to the content',
    'toc.heading': 'The argument in six steps',
    'chain.heading': 'The causal chain',
    'chain.intro':
      'The whole argument on one page: from the variance of a dot product to a softmax that stops passing gradient, and the one-line fix. Each box links to the section that checks it.',
    'variance.heading': 'Why the dot product grows',
    'variance.intro':
      'Sample a query q and a key k with dₖ independent entries of mean 0 and variance 1, and take q·k. Its histogram widens as dₖ grows, and its measured variance follows the line Var = dₖ on log–log axes. Divided by √dₖ, the variance stays at 1 for every dₖ.',
    'variance.sideTrip': 'Side trip: entries that are not independent or not of variance 1 (σ, ρ and μP)',
    'variance.break':
      'The seed’s assumption is that q and k have independent entries with mean 0 and variance 1. Move σ_q and σ_k: the variance becomes σ_q²σ_k² dₖ, still proportional to dₖ, so √dₖ still keeps its growth in check, up to a constant. Move ρ, the correlation between qᵢ and kᵢ: now the mean of q·k is ρσ_qσ_k dₖ and its variance σ_q²σ_k² dₖ(1 + ρ²). The scores then grow like dₖ, not √dₖ, and dividing by √dₖ leaves them growing like √dₖ (see the second chart: the line for c = √dₖ rises once ρ ≠ 0).',
    'variance.mup':
      'Only a divisor proportional to dₖ holds such scores at a fixed size. That is the choice of μP (maximal update parametrization), which divides attention scores by dₖ instead of √dₖ because, after training, queries and keys are correlated.',
    'proof.heading': 'The proof, step by step',
    'proof.intro':
      'Why exactly dₖ? Square the dot product and look at its dₖ² terms one by one. The grid below holds them for a small dₖ; each cell is a running Monte Carlo mean computed by the core while samples stream in, so you can watch each step of the proof come true.',
    'seed.heading': 'What softmax does with large scores',
    'seed.intro':
      'Three scores, put through softmax as they are and divided by √dₖ. Edit the scores or dₖ: the C++ core, running in your browser, recomputes every number in the table. Here the scores stay as you typed them and dₖ only sets the divisor √dₖ, so the unscaled row does not change with dₖ; the figure at the top instead grows the row with dₖ, as q·k grows.',
    'seed.note':
      'Entropy is 0 for a one-hot row and ln n for a uniform one. The Jacobian norm ‖diag(p) − p pᵀ‖ measures how much gradient flows back through the softmax. It is not monotone in the scale: about 1/√n for a uniform row of n scores, largest for a moderately sharp one, and near 0 only when the row is one-hot, so a sharper row can pass back more gradient than a softer one.',
    'saturation.heading': 'Saturation explorer',
    'saturation.intro':
      'Sample one query and m keys in dₖ dimensions and put the m scores through softmax. Choose what to divide them by, then move dₖ: unscaled, the row turns one-hot; divided by √dₖ, it stays spread out. Below, the same statistics averaged over many sampled rows, for every divisor at once.',
    'saturation.outro':
      'Read the curves from left to right. Divided by 1 or 2, the largest probability climbs towards 1 and the entropy falls as dₖ grows. The mean Jacobian norm falls slowly, and the mean hides the rows: the median and the shares below the threshold show how many rows pass back almost nothing, and the sentence under those charts says, from their numbers, whether the gradient is near 0 at the dₖ you chose. Saturation at initialisation puts the weight on a key chosen by chance; what freezes the rows during training is what the steps do next (section 6). Divided by √dₖ, every curve stays flat. Divided by dₖ, the scores shrink towards 0 and the row drifts towards uniform, which also weakens attention: it can no longer single out a key.',
    'training.heading': 'The scale factor in training',
    'training.intro':
      'The chain ends with “the model cannot learn”. Check that last link here: Start trains two small attention models at dₖ = 256, one dividing the scores by √dₖ = 16 and one not dividing them, from the same data and the same initial weights, on your machine, in seconds. Watch the loss and accuracy curves; when the runs end, a sentence below says how far each got.',
    'training.start': 'Start the comparison',
    'training.startNote': 'It loads the lab’s training core, a WebAssembly module of its own, first.',
    'training.link': 'Open the full training lab with these settings',
    'training.result.ahead':
      'After {steps} steps at dₖ = {dk}, the run divided by √dₖ = {root} reached a held-out loss of {lossS} and an accuracy of {accS}; the unscaled run is behind, at a loss of {lossU} and an accuracy of {accU}.',
    'training.result.behind':
      'After {steps} steps at dₖ = {dk}, the unscaled run reached a held-out loss of {lossU} and an accuracy of {accU}, ahead of the run divided by √dₖ = {root} (loss {lossS}, accuracy {accS}): with these settings this run does not show the gap.',
    'training.result.mixed':
      'After {steps} steps at dₖ = {dk}: divided by √dₖ = {root}, held-out loss {lossS} and accuracy {accS}; unscaled, loss {lossU} and accuracy {accU}. Neither run is ahead on both.',
    'training.result.both90': 'Training accuracy first reached 90% at step {s} with √dₖ and at step {u} unscaled.',
    'training.result.only90': 'With √dₖ, training accuracy reached 90% at step {s}; the unscaled run never did.',
    'training.result.listSep': ', ',
    'training.result.mechanism':
      'Why, in the unscaled run’s own numbers: at step 1 its attention already put {max1} of the weight on one key on average, {corr1} on the key holding the answer; by step {step} its largest logit had grown from {l1} to {l2}, {frozen} of its rows were frozen (every weight but the largest with p(1 − p) below 2⁻²⁴, too small for a float32 step to move), and its heads’ Q/K gradients were {rels} of their step-1 values.',
    'presets.heading': 'What real models divide by',
    'presets.intro':
      'Beyond √dₖ: each row is one model’s attention as its source states it, the head width dₖ, the number the scores are divided by and the soft-cap, if any (Gemma 2 turns every logit s into c·tanh(s / c)). Every other number is computed here by the C++ core for that setting, as for any other, with unit-variance q and k. “Show in the explorer” sets the saturation explorer above to the row’s dₖ and divisor.',
    'presets.caption': 'Real models’ scales, computed for each',
    'presets.how':
      'Std of q·k / c over {draws} draws; largest probability and entropy (nats) of softmax rows of {n} keys, mean ± standard error over {rows} rows, seed {seed}, after the soft-cap. The command line prints the same numbers: attnlab saturation --preset NAME --n {n} --samples {rows} --seed {seed}.',
    'presets.col.model': 'Model',
    'presets.col.dk': 'dₖ',
    'presets.col.divisor': 'Divides by',
    'presets.col.cap': 'Soft-cap',
    'presets.col.std': 'Std of q·k / c',
    'presets.col.maxProb': 'Largest probability',
    'presets.col.entropy': 'Entropy',
    'presets.col.source': 'Source',
    'presets.col.try': 'Try it',
    'presets.noDivision': '1 (no division)',
    'presets.none': 'none',
    'presets.show': 'Show in the explorer',
    'presets.lab': 'Train it in the lab',
    'presets.loading': 'The C++ core is computing the table…',
    'presets.failed': 'The table could not be computed in this browser.',
    'presets.t5':
      '{label} divides by 1, and with unit-variance q its logits would have std {unit}, as in its row. But its initialisation gives W_Q the std (d_{model}·d_{kv})^{−1/2}, so q’s entries start with std {sq} = 1/√{dk}, and the variance of q·k at initialisation is {v} over {draws} draws (closed form {th}): about 1, although it divides by nothing. The 1/√dₖ sits in the initialiser, the seed’s initialisation checkpoint done once; training can then move it.',
    'presets.capNote':
      'The explorer draws no soft-cap: for Gemma 2 it shows the divisor alone, while the table’s numbers include the cap.',
    embedLink: 'Embed these widgets in your own pages',
  },
  zh: {
    description: '缩放点积注意力为何除以 √dₖ：在浏览器中实时计算 q·k 的方差及其证明、softmax 饱和与一次训练对比，每一步都可以检验。',
    title: '注意力为何除以 √dₖ',
    lede:
      '注意力用点积 q·k 比较查询向量 q 与每个键向量 k。若 q 与 k 的 dₖ 个分量相互独立、方差为 1，则 q·k 的方差为 dₖ，其典型大小随 √dₖ 增长。分数很大时，softmax 几乎是独热分布，权重落在分数偶然选中的键上。这本身并不会立刻让梯度消失：初始化时它甚至可能比缩放后的更大。但用 Adam 训练时，每一步都会把未缩放的分数推得更远，直到各行冻结，穿过 softmax 的梯度小到一步也推不动：学习随之停滞。把分数除以 √dₖ，方差就回到 1。',
    seedIntro:
      '本页源于一篇沿着这条因果链讲解的中文文章，下文称之为“原文”。原文中的算例在这里是测试用例，并在页面上实时重算（第 4 节）；它关于训练的论断在这里被检验，而不是照搬（第 6 节）。控件中的“随机种子”指随机数的种子，与原文无关。',
    'hero.caption': '调节 dₖ，看 softmax 如何饱和',
    'hero.dk': '键的维度',
    'hero.dkValue': 'dₖ = {dk}',
    'hero.mark': '中间刻度：dₖ = 64，原文的例子',
    'hero.unscaled': '分数不缩放',
    'hero.scaled': '除以 √dₖ = {root}',
    'hero.stats': '最大概率 {p} · 梯度大小 {j}',
    'hero.noteSeed': 'dₖ = 64 时正是原文的分数 14、10、12：softmax 得到 {u}；除以 √64 = 8 后得到 {s}。',
    'hero.listSep': '、',
    'hero.note': 'dₖ = {dk} 时，与原文同形的一行分数是它的 {f} 倍：{scores}。不缩放时最大概率为 {p}；除以 √dₖ = {root} 后，这一行在任何 dₖ 下都相同。',
    'hero.how': '分数 14、10、12 是 dₖ = 64 时典型的一行（此时 q·k 的标准差为 √64 = 8）；在其他 dₖ 下，同一行是它的 √(dₖ / 64) 倍。梯度大小即 softmax 雅可比矩阵的范数。每个数字都由在你的浏览器中运行的 C++ 核心计算。',
    'toc.chain': '因果链一览',
    'toc.variance': 'q·k 变大：Var = dₖ',
    'toc.proof': '为何恰好是 dₖ',
    'toc.softmax': '大分数，独热的 softmax',
    'toc.saturation': '饱和：接近独热',
    'toc.training': '训练：检验这一论断',
    skip: '跳到正文',
    'toc.heading': '六步论证',
    'chain.heading': '因果链',
    'chain.intro':
      '整个论证一览：从点积的方差，到不再传递梯度的 softmax，再到一行代码的修正。每个方框都链接到验证它的小节。',
    'variance.heading': '点积为何变大',
    'variance.intro':
      '抽取查询 q 与键 k，各有 dₖ 个相互独立、均值为 0、方差为 1 的分量，计算 q·k。随着 dₖ 增大，它的直方图变宽；在双对数坐标中，实测方差沿着直线 Var = dₖ 增长。除以 √dₖ 后，对每个 dₖ 方差都保持为 1。',
    'variance.sideTrip': '侧记：分量不独立或方差不为 1 时（σ、ρ 与 μP）',
    'variance.break':
      '原文假设 q 与 k 的分量相互独立、均值为 0、方差为 1。调节 σ_q 与 σ_k：方差变为 σ_q²σ_k² dₖ，仍与 dₖ 成正比，所以除以 √dₖ 仍能（在一个常数倍以内）抑制其增长。调节 ρ，即 qᵢ 与 kᵢ 的相关系数：此时 q·k 的均值为 ρσ_qσ_k dₖ，方差为 σ_q²σ_k² dₖ(1 + ρ²)。分数随 dₖ 而非 √dₖ 增长，除以 √dₖ 之后仍随 √dₖ 增长（见第二张图：ρ ≠ 0 时 c = √dₖ 的曲线上升）。',
    'variance.mup':
      '只有与 dₖ 成正比的除数才能把这样的分数保持在固定大小。这正是 μP（最大更新参数化）的选择：由于训练后查询与键相关，它把注意力分数除以 dₖ 而不是 √dₖ。',
    'proof.heading': '逐步证明',
    'proof.intro':
      '为什么恰好是 dₖ？把点积平方，逐一查看它的 dₖ² 项。下面的网格列出了小 dₖ 时的这些项；每格是计算核心在样本不断到来时算出的蒙特卡洛累计均值，你可以看着证明的每一步成真。',
    'seed.heading': 'softmax 如何对待大分数',
    'seed.intro':
      '三个分数分别直接做 softmax，以及除以 √dₖ 后再做 softmax。修改分数或 dₖ，在浏览器中运行的 C++ 核心会重新计算表中的每个数字。这里分数保持你输入的值，dₖ 只决定除数 √dₖ，所以不缩放的那一行不随 dₖ 变化；页首的图则让这一行随 dₖ 增大，就像 q·k 随 dₖ 增大一样。',
    'seed.note':
      '独热分布的熵为 0，均匀分布的熵为 ln n。雅可比范数 ‖diag(p) − p pᵀ‖ 衡量有多少梯度能反向穿过 softmax。它随尺度的变化并不单调：n 个分数的均匀行约为 1/√n，适度尖锐的行最大，只有接近独热时才接近 0；所以更尖锐的行可能比更平缓的行回传更多梯度。',
    'saturation.heading': '饱和探索器',
    'saturation.intro':
      '在 dₖ 维空间中抽取一个查询和 m 个键，把 m 个分数送入 softmax。选择除数，再调节 dₖ：不缩放时这一行趋于独热；除以 √dₖ 后则保持分散。下方是对大量抽样行取平均后的同样统计量，所有除数同时计算。',
    'saturation.outro':
      '从左往右看这些曲线。除以 1 或 2 时，随着 dₖ 增大，最大概率趋向 1，熵随之下降。雅可比范数的均值下降得很慢，而且均值掩盖了各行的差别：中位数和低于阈值的比例显示有多少行几乎回传不了梯度，图下的那句话根据这些数字说明，在你选的 dₖ 下梯度是否接近 0。初始化时的饱和把权重放在偶然选中的键上；训练中让各行冻结的是随后的训练步（第 6 节）。除以 √dₖ 时，每条曲线都保持平稳。除以 dₖ 时，分数缩向 0，这一行趋于均匀分布，注意力同样变弱：它再也无法突出某一个键。',
    'training.heading': '训练中的缩放因子',
    'training.intro':
      '这条链的最后一环是“模型学不动”。在这里直接检验它：按“开始”会在 dₖ = 256 时训练两个小型注意力模型，一个把分数除以 √dₖ = 16，一个不除，数据与初始权重相同，在你的机器上数秒内完成。观察损失与准确率曲线；训练结束后，下方会用一句话说明两者各达到了什么程度。',
    'training.start': '开始对比',
    'training.startNote': '按下后会先加载训练实验室自己的 WebAssembly 计算核心。',
    'training.link': '用相同设置打开完整的训练实验室',
    'training.result.ahead':
      '在 dₖ = {dk} 下训练 {steps} 步后，除以 √dₖ = {root} 的模型留出集损失为 {lossS}、准确率为 {accS}；不缩放的模型落后，损失为 {lossU}、准确率为 {accU}。',
    'training.result.behind':
      '在 dₖ = {dk} 下训练 {steps} 步后，不缩放的模型留出集损失为 {lossU}、准确率为 {accU}，领先于除以 √dₖ = {root} 的模型（损失 {lossS}，准确率 {accS}）：在这组设置下，这次运行没有显示出差距。',
    'training.result.mixed':
      '在 dₖ = {dk} 下训练 {steps} 步后：除以 √dₖ = {root} 时，留出集损失 {lossS}、准确率 {accS}；不缩放时，损失 {lossU}、准确率 {accU}。两者都没有在两项上同时领先。',
    'training.result.both90': '训练准确率首次达到 90% 的步数：除以 √dₖ 为第 {s} 步，不缩放为第 {u} 步。',
    'training.result.only90': '除以 √dₖ 时，训练准确率在第 {s} 步达到 90%；不缩放的模型始终没有达到。',
    'training.result.listSep': '、',
    'training.result.mechanism':
      '用不缩放运行自己的数字说明原因：第 1 步时，它的注意力平均已把 {max1} 的权重放在一个键上，放在答案所在键上的只有 {corr1}；到第 {step} 步，它的最大 logit 从 {l1} 增长到 {l2}，{frozen} 的行已冻结（除最大者外每个权重的 p(1 − p) 都低于 2⁻²⁴，float32 的一步推不动），各头的 Q/K 梯度只有第 1 步的 {rels}。',
    'presets.heading': '真实模型除以什么',
    'presets.intro':
      '√dₖ 之外：每一行是一个模型的注意力，按其来源所写：头宽 dₖ、分数要除以的数，以及软上限（如有；Gemma 2 把每个 logit s 变为 c·tanh(s / c)）。其余每个数都由 C++ 核心针对该设置现场计算，与其他任何设置相同，q 与 k 为单位方差。“在探索器中查看”会把上方的饱和探索器设为该行的 dₖ 和除数。',
    'presets.caption': '真实模型的缩放，逐一计算',
    'presets.how':
      'q·k / c 的标准差来自 {draws} 次抽样；{n} 个键的 softmax 行的最大概率与熵（奈特）为 {rows} 行的均值 ± 标准误，随机种子 {seed}，已经过软上限。命令行给出相同的数：attnlab saturation --preset NAME --n {n} --samples {rows} --seed {seed}。',
    'presets.col.model': '模型',
    'presets.col.dk': 'dₖ',
    'presets.col.divisor': '除以',
    'presets.col.cap': '软上限',
    'presets.col.std': 'q·k / c 的标准差',
    'presets.col.maxProb': '最大概率',
    'presets.col.entropy': '熵',
    'presets.col.source': '来源',
    'presets.col.try': '试一试',
    'presets.noDivision': '1（不除）',
    'presets.none': '无',
    'presets.show': '在探索器中查看',
    'presets.lab': '在实验室中训练',
    'presets.loading': 'C++ 核心正在计算此表……',
    'presets.failed': '此浏览器无法计算这张表。',
    'presets.t5':
      '{label} 除以 1；若 q 为单位方差，其 logit 的标准差会是 {unit}，如其所在行所示。但它的初始化让 W_Q 的标准差为 (d_{model}·d_{kv})^{−1/2}，于是 q 的分量起始标准差为 {sq} = 1/√{dk}，初始化时 q·k 的方差为 {v}（{draws} 次抽样；闭式解 {th}）：约为 1，尽管它什么也不除。1/√dₖ 放在了初始化里，相当于把“初始化检查点”一次做完；之后训练可以改变它。',
    'presets.capNote':
      '探索器不画软上限：对 Gemma 2，它只显示除数的作用，而表中的数已包含软上限。',
    embedLink: '在你自己的网页中嵌入这些组件',
  },
});
