// The sentences a reader sees for the core's errors, in English and Chinese,
// chosen by the error's kind, its argument and its params (errors.js loads this
// module on the first error). One sentence per kind, a variant where the
// params call for one (an integer range, an open bound, a text divisor);
// {name} is the argument's name for readers (coreerr.arg.*), {file} the file's.
// Numbers are written as readers write them (format.js: 10¹², 65,536).
// tests/node/error_strings.test.mjs reads every kind and argument the core
// can send from cpp/ and checks that each has a sentence here in both languages.
import { defineStrings, getLang, t } from '../base/i18n.js';
import './generic-error-strings.js';  // coreerr.generic
import { errorFields } from './rpc.js';
import { num, powerOfTen, significant, decimals } from '../base/format.js';

defineStrings('coreerr', {
  en: {
    // The arguments' names, as a sentence's subject.
    'factor.dk': 'dₖ',
    'factor.dv': 'dᵥ',
    'factor.heads': 'heads',
    'factor.rows': 'rows',
    'factor.samples': 'samples',
    'factor.d_model': 'd_model',
    'arg.dk': 'dₖ',
    'arg.dv': 'dᵥ',
    'arg.m': 'The sequence length m',
    'arg.n': 'n',
    'arg.d': 'd',
    'arg.rows': 'The number of rows',
    'arg.samples': 'The number of samples',
    'arg.threshold': 'The threshold’s exponent',
    'arg.bins': 'The number of histogram bins',
    'arg.rho': 'The correlation ρ',
    'arg.sigma_q': 'σ_q',
    'arg.sigma_k': 'σ_k',
    'arg.seed': 'The random seed',
    'arg.divisors': 'The number of divisors',
    'arg.scores': 'The scores',
    'arg.scoresLength': 'The number of scores',
    'arg.q': 'q',
    'arg.k': 'k',
    'arg.v': 'v',
    'arg.steps': 'The number of steps',
    'arg.heads': 'The number of heads',
    'arg.d_model': 'd_model',
    'arg.dModel': 'd_model',
    'arg.count': 'The number of values',
    'arg.size': 'The file’s size in bytes',
    'arg.size2': 'The second file’s size in bytes',
    'arg.size3': 'The scores file’s size in bytes',
    'arg.logEvery': 'The logging interval',
    'arg.batch': 'The batch size',
    'arg.lr': 'The learning rate',
    'arg.log_every': 'The logging interval',
    'arg.sequences': 'The number of sequences',
    'arg.iters': 'The number of iterations',
    'arg.kernel': 'The benchmark',
    'arg.init': 'The initialisation',
    'arg.task': 'The task',
    'arg.kind': 'The sample kind',
    'arg.heads*n*dk': 'The number of values, heads × n × dₖ,',
    'arg.optimizer': 'The optimizer',
    'arg.preset': 'The preset',
    'arg.softcap': 'The soft-cap',
    'arg.qk_clip': 'The QK-clip threshold τ',
    'arg.s': 'The log-n scale s',
    'arg.logits': 'The logits',
    'arg.probs': 'The probabilities',
    'arg.format': 'The file format',
    'arg.value': 'This value',
    // The JS wrappers' own arguments (bridge/arg-types.js).
    'arg.divisor': 'The divisor',
    'arg.name': 'The file name',
    'arg.bytes': 'The file’s contents',
    'arg.files': 'The files',
    'arg.options': 'The options',
    'arg.evalSamples': 'The number of evaluation samples',
    'arg.mapEvery': 'The heatmap interval',
    // Which file a checker error is about.
    'file.file': 'The file',
    'file.q': 'The data for q',
    'file.k': 'The data for k',
    'file.logits': 'The data for the logits',
    'file.probs': 'The data for the probabilities',
    // Where in a file.
    'at.pos': ' at position {at}',
    'at.field': ' at line {line}, field {field}',
    'at.column': ' at line {line}, column {column}',

    stopped: 'The computation stopped with an internal error. Reloading the page should help.',
    'range.int': '{name} must be a whole number from {lo} to {hi}.',
    'range.real': '{name} must be a number from {lo} to {hi}.',
    'range.open': '{name} must be greater than {lo} and at most {hi}.',
    'range.off': '{name} must be 0 (off) or a number from {lo} to {hi}.',
    product: 'These sizes ask for too much work at once: {what} may be at most {hi}, and here it is {value}. Choose smaller values.',
    finite: '{name} must be finite numbers: number {index} is not one.',
    'divisor.low': 'The divisor must be greater than 0 and at most {hi}.',
    'divisor.tiny': 'The divisor must be at least {lo} and at most {hi}.',
    'divisor.high': 'The divisor must be at most {hi}.',
    'divisor.text': 'The divisor must be a number such as 8 or 0.5 (greater than 0, at most {hi}), or “sqrt” for √dₖ, or “dk” for dₖ.',
    'divisor.textQknorm': 'The divisor must be a number such as 8 or 0.5 (greater than 0, at most {hi}), “sqrt” for √dₖ, “dk” for dₖ, or “qknorm”.',
    'divisor.textSsmax': 'The divisor must be a number such as 8 or 0.5 (greater than 0, at most {hi}), “sqrt” for √dₖ, “dk” for dₖ, or “ssmax” / “ssmax:S” for √dₖ / (s·ln n) with s from 10⁻⁶ to 10⁶.',
    choice: '{name} must be one of: {choices}.',
    // A JS caller's wrong type (bridge/arg-types.js): a page's own bug, or a script's.
    'type.number': '{name} must be a number.',
    'type.string': '{name} must be text.',
    'type.long': '{name} must be text of at most {max} characters.',
    'type.numbers': '{name} must be a list of numbers.',
    'type.bytes': '{name} must be the bytes of a file (an ArrayBuffer or a Uint8Array).',
    'type.object': '{name} must be a set of named options.',
    'type.boolean': '{name} must be true or false.',
    'type.files': 'Give one file (q and k together) or two (q, then k).',
    file_empty: '{file} is empty.',
    file_size: '{file} is {size}, more than the checker’s limit of {limit}.',
    name: 'An array name must be 1 to 64 characters without spaces, commas or quotes.',
    names_same: 'q and k need different array names.',
    npz_alone: '{file} holds both q and k: check it alone, not together with a second file.',
    npy_single: '{file} holds one array: give two files (q first, then k), or one .npz that holds both (numpy.savez(f, q=q, k=k)).',
    stored_sequences: 'The file’s “sequences” array must hold one whole number from 1 to {hi}.',
    stored_divisor: 'The file’s “divisor” array must hold one number greater than 0 and at most {hi}: what the model divided q·k by.',
    shape_mismatch: 'q has shape {q} but k has shape {k}: their heads and dₖ must match.',
    few_keys: 'k has only one row: a softmax needs at least 2 keys to compare.',
    sequences_divide: '{value} sequences do not split q’s {nq} rows and k’s {nk} rows into equal blocks.',
    sequences_keys: 'With {value} sequences, each has only {keys} key: a softmax needs at least 2 keys per sequence.',
    work: 'q and k are too large to check on this page: their scores q·k exceed the checker’s limits.',
    work_limit: 'This asks for too much work at once: {value} multiply-adds, more than the limit of {limit}. Choose smaller sizes or fewer steps.',
    overflow: 'In head {head}, q·k is too large for float32: q and k hold values far too large.',
    rank: '{file}: the array has shape {shape}; the checker needs 2 dimensions [n, dₖ] or 3 [heads, n, dₖ].',
    scores_rank: '{file}: the model’s logits or probabilities have shape {shape}; they need 2 dimensions [n_q, n_k] or 3 [heads, n_q, n_k].',
    shape_empty: '{file}: the array has shape {shape}, which holds no values; it needs at least one row and one column.',
    values: '{file} holds more than {limit} values (heads × n × dₖ), the checker’s limit.',
    'dim.heads': '{file} has more than {limit} heads, the checker’s limit.',
    'dim.rows': '{file} has more than {limit} rows, the checker’s limit.',
    'dim.dk': '{file} has dₖ above {limit}, the checker’s limit.',
    value_finite: '{file} holds a value that is not a finite number{where}.',
    value_float: '{file} holds a number too large for float32 (beyond ±3.4 × 10³⁸){where}.',
    not_format: '{file} is not an .{format} file: it does not begin the way one does.',
    damaged: '{file} could not be read as .{format}: it is damaged or cut short.',
    unsupported: '{file} uses a kind of .{format} file the checker does not read: save it with numpy.save or numpy.savez.',
    dtype: '{file} holds values of type {dtype}: save q and k as float32 or float64 (x.astype(np.float32)).',
    compressed: '{file} is compressed (numpy.savez_compressed): save it with numpy.savez instead.',
    members: '{file} holds more than {limit} arrays.',
    duplicate: '{file} holds the array “{name}” twice, so which one to check is unclear.',
    missing_array: '{file} has no array named “{name}”.',
    'missing_array.list': '{file} has no array named “{name}”; it holds: {have}.',
    'missing_array.none': '{file} has no array named “{name}”; it holds no arrays.',
    row_names: '{file}: line {line} must start with “{q}” or “{k}” (one file holding both names its rows), or give two files, q first, then k.',
    'syntax.json': '{file} is not valid JSON{where}.',
    'syntax.csv': '{file}: line {line} has a name but no numbers.',
    structure: '{file}: the values are not laid out as rows of numbers{where}; write each tensor as [[…], […]] with rows of equal length.',
    nul_byte: '{file} holds a NUL byte{where}, so it is not a text file: save q and k as .npy, .npz, CSV or JSON text.',
    not_number: '{file}: the value{where} is not a number.',
    'not_number.text': '{file}: “{text}”{where} is not a number.',
    'not_number.empty': '{file}: the field{where} is empty.',
    ragged: '{file}: line {line} has {count} numbers, but the first row (line {firstLine}) has {first}; every row needs the same number.',
    no_rows: '{file} holds no rows of numbers.',
    'no_rows.name': '{file} has no row that starts with “{name}”.',
    scores_shape: 'The model’s logits or probabilities have shape {shape}, but q and k need {expected}: one row per query over its sequence’s keys.',
    scores_finite: 'The model’s logits or probabilities hold a value that is not a finite number{where}; only a logit may be −∞, as a mask.',
    probs_negative: 'The probabilities hold a negative value{where}: probabilities cannot be negative.',
    probs_rows: 'A row of the probabilities sums to {sum}: each row must sum to 1 (within {tolerance}), or every row to one same number.',
    scores_both: 'The file holds both “logits” and “probs”: keep one of them.',
    npz_scores: 'Give the model’s logits or probabilities as an .npy, JSON or CSV file; an .npz holds its own array beside q and k.',
    preset_dk: 'q and k have dₖ = {dk}, but preset {preset} has dₖ = {preset_dk}: choose a preset for this dₖ, or none.',
    preset_divisor: 'A preset sets the divisor: give a preset or a divisor, not both.',
    scores_twice: 'The .npz already holds its own “{in_file}” array: remove the separate file, or give q and k without it.',
  },
  zh: {
    'factor.dk': 'dₖ',
    'factor.dv': 'dᵥ',
    'factor.heads': '头数',
    'factor.rows': '行数',
    'factor.samples': '样本数',
    'factor.d_model': 'd_model',
    'arg.dk': 'dₖ',
    'arg.dv': 'dᵥ',
    'arg.m': '序列长度 m',
    'arg.n': 'n',
    'arg.d': 'd',
    'arg.rows': '行数',
    'arg.samples': '样本数',
    'arg.threshold': '阈值的指数',
    'arg.bins': '直方图的分箱数',
    'arg.rho': '相关系数 ρ',
    'arg.sigma_q': 'σ_q',
    'arg.sigma_k': 'σ_k',
    'arg.seed': '随机种子',
    'arg.divisors': '除数的个数',
    'arg.scores': '分数',
    'arg.scoresLength': '分数的个数',
    'arg.q': 'q',
    'arg.k': 'k',
    'arg.v': 'v',
    'arg.steps': '步数',
    'arg.heads': '头数',
    'arg.d_model': 'd_model',
    'arg.dModel': 'd_model',
    'arg.count': '值的个数',
    'arg.size': '文件的字节数',
    'arg.size2': '第二个文件的字节数',
    'arg.size3': '分数文件的字节数',
    'arg.logEvery': '记录间隔',
    'arg.batch': '批大小',
    'arg.lr': '学习率',
    'arg.log_every': '记录间隔',
    'arg.sequences': '序列数',
    'arg.iters': '迭代次数',
    'arg.kernel': '基准项目',
    'arg.init': '初始化方式',
    'arg.task': '任务',
    'arg.kind': '样本类型',
    'arg.heads*n*dk': '数值个数 heads × n × dₖ',
    'arg.optimizer': '优化器',
    'arg.preset': '预设',
    'arg.softcap': '软上限',
    'arg.qk_clip': 'QK 裁剪阈值 τ',
    'arg.s': '对数 n 缩放系数 s',
    'arg.logits': 'logits',
    'arg.probs': '概率',
    'arg.format': '文件格式',
    'arg.value': '这个值',
    'arg.divisor': '除数',
    'arg.name': '文件名',
    'arg.bytes': '文件内容',
    'arg.files': '文件',
    'arg.options': '选项',
    'arg.evalSamples': '评估样本数',
    'arg.mapEvery': '热图间隔',
    'file.file': '该文件',
    'file.q': 'q 的数据',
    'file.k': 'k 的数据',
    'file.logits': 'logits 的数据',
    'file.probs': '概率的数据',
    'at.pos': '（位置 {at}）',
    'at.field': '（第 {line} 行第 {field} 个字段）',
    'at.column': '（第 {line} 行第 {column} 列）',

    stopped: '计算因内部错误而停止，重新加载页面应该可以解决。',
    'range.int': '{name}必须是 {lo} 到 {hi} 之间的整数。',
    'range.real': '{name}必须是 {lo} 到 {hi} 之间的数。',
    'range.open': '{name}必须大于 {lo} 且不超过 {hi}。',
    'range.off': '{name}必须为 0（关闭）或 {lo} 到 {hi} 之间的数。',
    product: '这些大小一次要做的计算太多：{what} 最多为 {hi}，这里是 {value}。请选小一些的值。',
    finite: '{name}必须都是有限的数：第 {index} 个不是。',
    'divisor.low': '除数必须大于 0 且不超过 {hi}。',
    'divisor.tiny': '除数必须不小于 {lo} 且不超过 {hi}。',
    'divisor.high': '除数不能超过 {hi}。',
    'divisor.text': '除数必须是一个数，如 8 或 0.5（大于 0，不超过 {hi}），或 “sqrt”（即 √dₖ），或 “dk”（即 dₖ）。',
    'divisor.textQknorm': '除数必须是一个数，如 8 或 0.5（大于 0，不超过 {hi}），或 “sqrt”（即 √dₖ）、“dk”（即 dₖ）、“qknorm”。',
    'divisor.textSsmax': '除数必须是一个数，如 8 或 0.5（大于 0，不超过 {hi}），或 “sqrt”（即 √dₖ）、“dk”（即 dₖ），或 “ssmax” / “ssmax:S”（即 √dₖ / (s·ln n)，s 在 10⁻⁶ 到 10⁶ 之间）。',
    choice: '{name}必须是以下之一：{choices}。',
    'type.number': '{name}必须是一个数。',
    'type.string': '{name}必须是文本。',
    'type.long': '{name}最多只能有 {max} 个字符。',
    'type.numbers': '{name}必须是一组数。',
    'type.bytes': '{name}必须是一个文件的字节（ArrayBuffer 或 Uint8Array）。',
    'type.object': '{name}必须是一组带名称的选项。',
    'type.boolean': '{name}必须是 true 或 false。',
    'type.files': '请给一个文件（同时包含 q 和 k）或两个文件（先 q 后 k）。',
    file_empty: '{file}是空的。',
    file_size: '{file}大小为 {size}，超过了检查器的上限 {limit}。',
    name: '数组名必须是 1 到 64 个字符，不含空格、逗号或引号。',
    names_same: 'q 和 k 的数组名必须不同。',
    npz_alone: '{file}同时包含 q 和 k：请单独检查它，不要再加第二个文件。',
    npy_single: '{file}只包含一个数组：请给两个文件（先 q 后 k），或一个同时包含两者的 .npz（numpy.savez(f, q=q, k=k)）。',
    stored_sequences: '文件中的 “sequences” 数组必须只含一个 1 到 {hi} 之间的整数。',
    stored_divisor: '文件中的 “divisor” 数组必须只含一个大于 0、不超过 {hi} 的数：模型用来除 q·k 的数。',
    shape_mismatch: 'q 的形状是 {q}，k 的形状是 {k}：两者的头数和 dₖ 必须一致。',
    few_keys: 'k 只有一行：softmax 至少需要 2 个键来比较。',
    sequences_divide: '{value} 个序列无法把 q 的 {nq} 行和 k 的 {nk} 行分成相等的块。',
    sequences_keys: '分成 {value} 个序列后，每个序列只有 {keys} 个键：softmax 每个序列至少需要 2 个键。',
    work: 'q 和 k 太大，无法在本页检查：它们的分数 q·k 超出了检查器的上限。',
    work_limit: '这一次要做的计算太多：{value} 次乘加，超过上限 {limit}。请选小一些的大小或少一些的步数。',
    overflow: '第 {head} 个头中 q·k 超出了 float32 的范围：q 和 k 中的值太大了。',
    rank: '{file}：数组的形状是 {shape}；检查器需要 2 维 [n, dₖ] 或 3 维 [heads, n, dₖ]。',
    scores_rank: '{file}：模型的 logits 或概率的形状是 {shape}；它们需要 2 维 [n_q, n_k] 或 3 维 [heads, n_q, n_k]。',
    shape_empty: '{file}：数组的形状是 {shape}，其中没有任何值；至少需要一行一列。',
    values: '{file}包含的值超过 {limit} 个（heads × n × dₖ），超出了检查器的上限。',
    'dim.heads': '{file}的头数超过 {limit}，超出了检查器的上限。',
    'dim.rows': '{file}的行数超过 {limit}，超出了检查器的上限。',
    'dim.dk': '{file}的 dₖ 超过 {limit}，超出了检查器的上限。',
    value_finite: '{file}中有一个值不是有限的数{where}。',
    value_float: '{file}中有一个数超出了 float32 的范围（±3.4 × 10³⁸）{where}。',
    not_format: '{file}不是 .{format} 文件：它的开头与这种文件不符。',
    damaged: '{file}无法作为 .{format} 读取：文件已损坏或不完整。',
    unsupported: '{file}是检查器不支持的一种 .{format} 文件：请用 numpy.save 或 numpy.savez 保存。',
    dtype: '{file}中的值类型是 {dtype}：请把 q 和 k 存为 float32 或 float64（x.astype(np.float32)）。',
    compressed: '{file}是压缩过的（numpy.savez_compressed）：请改用 numpy.savez 保存。',
    members: '{file}包含的数组超过 {limit} 个。',
    duplicate: '{file}中数组 “{name}” 出现了两次，无法确定该检查哪一个。',
    missing_array: '{file}中没有名为 “{name}” 的数组。',
    'missing_array.list': '{file}中没有名为 “{name}” 的数组；它包含：{have}。',
    'missing_array.none': '{file}中没有名为 “{name}” 的数组；它不包含任何数组。',
    row_names: '{file}：第 {line} 行必须以 “{q}” 或 “{k}” 开头（一个文件同时包含两者时，每行要写明名称），或者给两个文件，先 q 后 k。',
    'syntax.json': '{file}不是有效的 JSON{where}。',
    'syntax.csv': '{file}：第 {line} 行只有名称，没有数。',
    structure: '{file}：其中的值没有排成数的行{where}；请把每个张量写成 [[…], […]]，各行长度相同。',
    nul_byte: '{file}中有一个 NUL 字节{where}，所以它不是文本文件：请把 q 和 k 存为 .npy、.npz、CSV 或 JSON 文本。',
    not_number: '{file}：这个值{where}不是数。',
    'not_number.text': '{file}：“{text}”{where}不是数。',
    'not_number.empty': '{file}：这个字段{where}是空的。',
    ragged: '{file}：第 {line} 行有 {count} 个数，但第一行（第 {firstLine} 行）有 {first} 个；每行的个数必须相同。',
    no_rows: '{file}中没有数的行。',
    'no_rows.name': '{file}中没有以 “{name}” 开头的行。',
    scores_shape: '模型的 logits 或概率的形状是 {shape}，但 q 和 k 需要 {expected}：每个查询一行，覆盖它所在序列的键。',
    scores_finite: '模型的 logits 或概率中有一个值不是有限的数{where}；只有 logit 可以是 −∞（作为掩码）。',
    probs_negative: '概率中有一个负值{where}：概率不能为负。',
    probs_rows: '概率的某一行之和为 {sum}：每行之和必须为 1（误差 {tolerance} 以内），或者所有行之和为同一个数。',
    scores_both: '文件中同时有 “logits” 和 “probs”：只保留其中一个。',
    npz_scores: '请把模型的 logits 或概率存为 .npy、JSON 或 CSV 文件；.npz 把它作为与 q、k 并列的数组保存。',
    preset_dk: 'q 和 k 的 dₖ 是 {dk}，但预设 {preset} 的 dₖ 是 {preset_dk}：请选择适合这个 dₖ 的预设，或不用预设。',
    preset_divisor: '预设已决定除数：请只给预设或只给除数。',
    scores_twice: '该 .npz 已自带 “{in_file}” 数组：请移除单独的文件，或给出不含它的 q 与 k。',
  },
});

/** A number for a reader: powers of ten as 10¹², whole numbers in full (65,536), others as format.js's num(). */
export function readerNumber(x) {
  if (typeof x === 'string') return x === 'inf' ? '∞' : x === '-inf' ? '−∞' : x;
  if (typeof x !== 'number' || !Number.isFinite(x)) return String(x);
  const a = Math.abs(x);
  const k = Math.round(Math.log10(a));
  if ((a >= 1e7 || (a > 0 && a < 1e-3)) && Math.abs(a / 10 ** k - 1) < 1e-12) return (x < 0 ? '−' : '') + powerOfTen(k);
  // Whole numbers in full, however long (a seed's 9,007,199,254,740,991); others as num() writes them.
  return Number.isSafeInteger(x) ? significant(x, 21) : num(x, 6);
}

const bytes = (b) => (b >= 2 ** 20 ? `${decimals(b / 2 ** 20, b % 2 ** 20 ? 1 : 0)} MiB` : `${significant(b, 21)} B`);

// An argument's label: its own, the product's factors (heads*dk -> heads × dₖ, 头数 × dₖ), else 'this value'.
const factor = (a) => {
  try {
    return t(`coreerr.factor.${a}`);
  } catch {
    return a; // a symbol written the same in both languages (n, m)
  }
};
function argName(argument) {
  let name;
  try {
    name = t(argument === 'scores length' ? 'coreerr.arg.scoresLength' : `coreerr.arg.${argument}`);
  } catch {
    name = t('coreerr.arg.value');
  }
  // Chinese puts a space between a Latin name and the text after it (dₖ 必须), none after a Chinese one.
  return getLang() === 'zh' && !/[\u3000-\u9fff）]$/.test(name) ? `${name} ` : name;
}

/** Where in a file: position (0, 3), line and field, line and column; '' when the params say nothing. */
function where(p) {
  if (p.at !== undefined) return t('coreerr.at.pos', { at: p.at });
  if (p.line !== undefined && p.field !== undefined) return t('coreerr.at.field', { line: p.line, field: p.field });
  if (p.line !== undefined && p.column !== undefined) return t('coreerr.at.column', { line: p.line, column: p.column });
  return '';
}

/** The key of the sentence for (argument, kind, params): a variant of the kind where the params call for one. */
export function sentenceKey(argument, kind, p = {}) {
  switch (kind) {
    case 'range':
      return p.off !== undefined ? 'coreerr.range.off'
        : p.open === 'lo' ? 'coreerr.range.open' : p.integer ? 'coreerr.range.int' : 'coreerr.range.real';
    case 'divisor': {
      if (typeof p.value === 'string' && !/^-?inf$/.test(p.value)) return p.qknorm ? 'coreerr.divisor.textQknorm' : p.ssmax ? 'coreerr.divisor.textSsmax' : 'coreerr.divisor.text';
      const v = typeof p.value === 'number' ? p.value : p.value === '-inf' ? -Infinity : Infinity;
      if (v <= 0) return 'coreerr.divisor.low';
      if (v < p.lo) return 'coreerr.divisor.tiny';
      return 'coreerr.divisor.high';
    }
    case 'type':
      return p.max !== undefined ? 'coreerr.type.long'
        : ['number', 'string', 'numbers', 'bytes', 'object', 'boolean', 'files'].includes(p.expected) ? `coreerr.type.${p.expected}` : 'coreerr.generic';
    case 'dim':
      return `coreerr.dim.${p.dim === 'heads' || p.dim === 'rows' ? p.dim : 'dk'}`;
    case 'missing_array':
      return p.have === undefined ? 'coreerr.missing_array' : p.have === '' ? 'coreerr.missing_array.none' : 'coreerr.missing_array.list';
    case 'syntax':
      return p.format === 'csv' ? 'coreerr.syntax.csv' : 'coreerr.syntax.json';
    case 'not_number':
      return p.text === undefined ? 'coreerr.not_number' : p.text === '' ? 'coreerr.not_number.empty' : 'coreerr.not_number.text';
    case 'no_rows':
      return p.name !== undefined ? 'coreerr.no_rows.name' : 'coreerr.no_rows';
    case 'null':
    case 'state':
      return 'coreerr.stopped';  // a call out of order, a null pointer: nothing the reader typed
    case '':
    case undefined:
      // No kind: an error of the page's own plumbing (a lost worker) when it names no argument.
      return argument ? 'coreerr.generic' : 'coreerr.stopped';
    default:
      return /^[a-z_]+$/.test(kind) ? `coreerr.${kind}` : 'coreerr.generic';
  }
}

/**
 * The sentence for an error (an Error, or fields {error, argument, kind,
 * params}) in the current language; a kind without a sentence gets the generic one.
 */
export function sentence(e) {
  const { argument, kind, params: p } = errorFields(e);
  const key = sentenceKey(argument, kind, p);
  const values = {};
  for (const [k, v] of Object.entries(p)) values[k] = typeof v === 'number' ? readerNumber(v) : String(v);
  if (kind === 'file_size') Object.assign(values, { size: bytes(p.bytes), limit: bytes(p.limit) });
  if (kind === 'finite') values.index = readerNumber((p.index ?? 0) + 1);
  if (kind === 'product') {
    values.what = argument.split('*').map(factor).join(' × ');
    values.value = readerNumber(p.a * p.b);
  }
  if (kind === 'divisor' || kind === 'range') {
    values.lo = readerNumber(p.lo);
    values.hi = readerNumber(p.hi);
  }
  if (p.name === undefined) values.name = argName(argument);  // else the array's name (missing_array)
  // q or k: the second file, or an array in one file (an .npz); an archive's own errors are the file's.
  const whole = kind === 'missing_array' || kind === 'duplicate' || kind === 'members';
  values.file = t(`coreerr.file.${!whole && ['q', 'k', 'logits', 'probs'].includes(argument) ? argument : 'file'}`);
  values.where = where(p);
  try {
    return t(key, values);
  } catch {
    return t('coreerr.generic');
  }
}
