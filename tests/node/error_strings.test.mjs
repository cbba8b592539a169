// The core's errors for readers (issue 13, "errors speak the core's language"):
// every kind of error and every argument the C++ core can send to a page,
// read from its source, has a sentence in English and in Chinese
// (web/src/bridge/error-strings.js); no throw in the core is left without a
// kind; and the real modules' errors (a divisor of 0, every bad checker file,
// bad lab options) come out as those sentences, never as the core's English.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, loadWasm } from './paths.mjs';
import { BAD, corpusPath } from './check_cases.mjs';

globalThis.location ??= { search: '', href: 'http://localhost/' };
globalThis.navigator ??= { languages: ['en'], language: 'en' };

const SRC = path.join(ROOT, 'web/src');
const { inLang, t } = await import(path.join(SRC, 'base/i18n.js'));
const { readerError, loadErrorStrings } = await import(path.join(SRC, 'bridge/errors.js'));
const { sentence, sentenceKey } = await import(path.join(SRC, 'bridge/error-strings.js'));
const { createAttn } = await import(path.join(SRC, 'bridge/attn.js'));
const { createCheckAttn } = await import(path.join(SRC, 'bridge/attn-check.js'));
await loadErrorStrings();

// ---------------------------------------------------------------- the core's source
// What the pages' modules link: the core, the bindings, the benchmarks' cases.
function cppFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return cppFiles(p);
    return /\.(h|cpp)$/.test(e.name) ? [p] : [];
  });
}
const CPP = ['cpp/core', 'cpp/wasm', 'cpp/bench'].flatMap((d) => cppFiles(path.join(ROOT, d)))
  .map((file) => ({ rel: path.relative(ROOT, file), text: fs.readFileSync(file, 'utf8') }));

// The checks' own kinds (base/argument_checks.cpp, wasm/glue.h): argument -> kind at each call.
const HELPERS = { check_size: 'range', check_real: 'range', check_product: 'product', check_work: 'work_limit', check_finite: 'finite', check_not_null: 'null', size_arg: 'range', choice_index: 'choice' };
// A throw whose argument is a variable names a file: the checker's readers ("file", "q" or "k").
const FILE_ARGS = ['file', 'q', 'k'];
const FILE_VARS = ['argument', 'argument_', 'which', 'arg'];
// Where the error helpers themselves are defined.
const DEFINITIONS = ['cpp/core/base/format.cpp', 'cpp/core/base/format.h', 'cpp/core/base/argument_error.h'];

/** Every (argument, kind) the core can throw, read from its source: [{argument, kind, where}]. */
function pairsFromSource() {
  const pairs = [];
  const add = (argument, kind, where) => {
    // `name`: a helper's parameter (its calls name the argument, above); the readers' variables name a file.
    if (argument === 'name') return;
    if (!/^"/.test(argument) && !FILE_VARS.includes(argument)) throw new Error(`${where}: unknown argument ${argument}`);
    for (const a of /^"/.test(argument) ? [JSON.parse(argument)] : FILE_ARGS) pairs.push({ argument: a, kind, where });
  };
  for (const { rel, text } of CPP.filter((f) => !DEFINITIONS.includes(f.rel))) {
    for (const [name, kind] of Object.entries(HELPERS))
      for (const m of text.matchAll(new RegExp(`\\b${name}\\(\\s*("[^"]*")`, 'g'))) add(m[1], kind, rel);
    for (const m of text.matchAll(/\b(?:throw ArgumentError|fail_kind)\(\s*([^,]+?),\s*("[a-z_]+")/g)) add(m[1], JSON.parse(m[2]), rel);
    // The JSON reader's own helpers: fail() is a syntax error, failk(kind, ...) another kind.
    if (/\braise\("syntax"/.test(text)) add('argument_', 'syntax', rel);
    for (const m of text.matchAll(/\bfailk\(\s*"([a-z_]+)"/g)) add('argument_', m[1], rel);
  }
  return pairs;
}
const PAIRS = pairsFromSource();
const KINDS = [...new Set(PAIRS.map((p) => p.kind))].sort();

// Params as the core sends them, one set (or several, one per variant) per kind.
// A kind the core gains without an entry here fails the test below.
const SAMPLES = {
  range: [{ lo: 1, hi: 65536, value: 0, integer: true }, { lo: -1, hi: 1, value: 2 }, { lo: 0, hi: 10, value: 0, open: 'lo' }],
  product: [{ hi: 100000000, a: 100000, b: 2000 }],
  finite: [{ index: 2 }],
  null: [{}],
  state: [{}],
  divisor: [{ lo: 1e-30, hi: 1e12, value: 0 }, { lo: 1e-30, hi: 1e12, value: 1e-31 }, { lo: 1e-30, hi: 1e12, value: 1e13 },
    { lo: 1e-30, hi: 1e12, value: 'abc' }, { lo: 1e-30, hi: 1e12, value: 'abc', qknorm: true }],
  choice: [{ value: 'rmsprop', choices: 'adam, sgd' }],
  file_empty: [{}],
  file_size: [{ bytes: 70000000, limit: 67108864 }],
  name: [{ value: 'a b' }],
  names_same: [{ value: 'q' }],
  npz_alone: [{}, { line: 1 }],
  npy_single: [{}],
  stored_sequences: [{ lo: 1, hi: 4096 }],
  stored_divisor: [{ lo: 1e-30, hi: 1e12 }],
  shape_mismatch: [{ q: '[2, 5, 4]', k: '[2, 5, 3]' }],
  few_keys: [{}],
  scores_shape: [{ shape: '(2, 5, 4)', expected: '(2, 5, 5)' }],
  scores_finite: [{ at: '(0, 1, 2)', value: 'nan' }],
  probs_negative: [{ at: '(0, 1, 2)', value: -0.5 }],
  probs_rows: [{ sum: 0.7, tolerance: 0.01 }],
  scores_both: [{}],
  npz_scores: [{}],
  preset_dk: [{ dk: 64, preset_dk: 128, preset: 'Gemma 2 27B' }],
  preset_divisor: [{ preset: 'gpt2' }],
  scores_twice: [{ in_file: 'logits' }],
  sequences_divide: [{ value: 3, nq: 10, nk: 10 }],
  sequences_keys: [{ value: 5, keys: 1 }],
  work: [{ limit: 16777216 }],
  work_limit: [{ limit: 1073741824, value: 1074790400 }],
  overflow: [{ head: 0 }],
  rank: [{ shape: '[5]', dims: 1 }],
  scores_rank: [{ shape: '(15,)', dims: 1 }],
  shape_empty: [{ shape: '[0, 4]' }],
  values: [{ shape: '[5000, 5000]', limit: 4194304 }, { format: 'json', line: 1, column: 3, limit: 4194304 }],
  dim: [{ shape: '[2000, 2, 4]', dim: 'heads', value: 2000, limit: 1024 }, { dim: 'rows', limit: 4096 }, { shape: '[2, 70000]', dim: 'dk', value: 70000, limit: 65536 }],
  value_finite: [{ at: '(0, 1)', value: 'nan' }, { line: 2, field: 3, value: 'inf' }, { format: 'json', line: 1, column: 9 }],
  value_float: [{ at: '(0, 1)', value: 1e39 }, { line: 2, field: 3, value: 1e39 }],
  not_format: [{ format: 'npy' }, { format: 'npz' }],
  damaged: [{ format: 'npy' }, { format: 'npz' }],
  unsupported: [{ format: 'npz' }],
  dtype: [{ dtype: '<i8' }],
  compressed: [{}],
  members: [{ limit: 4096 }],
  duplicate: [{ name: 'q' }],
  missing_array: [{ name: 'q', have: 'a, b' }, { name: 'q', have: '' }, { name: 'q' }],
  row_names: [{ line: 3, q: 'q', k: 'k' }],
  syntax: [{ format: 'json', line: 1, column: 5 }, { format: 'csv', line: 4 }],
  structure: [{ format: 'json', line: 1, column: 2 }],
  not_number: [{ line: 2, field: 1, text: 'abc' }, { line: 2, field: 1, text: '' }, { line: 2, field: 1 }],
  nul_byte: [{ format: 'csv', line: 3, column: 4 }, { format: 'json', line: 1, column: 39 }],
  ragged: [{ line: 3, count: 4, firstLine: 1, first: 5 }],
  no_rows: [{}, { name: 'k' }],
};
// Errors a reader cannot cause from a page (a call out of order, a null pointer): the 'stopped' sentence.
const GENERIC_KINDS = new Set(['null', 'state']);

const CJK = /[\u4e00-\u9fff]/;
const generic = (lang) => inLang(lang, () => t('coreerr.generic'));

test('the core\'s source yields the kinds and arguments of its errors', () => {
  assert.ok(KINDS.length >= 30, `kinds found: ${KINDS.join(', ')}`);
  for (const kind of ['range', 'divisor', 'choice', 'product', 'finite', 'file_empty', 'damaged', 'syntax', 'rank'])
    assert.ok(KINDS.includes(kind), kind);
  for (const [argument, kind] of [['dk', 'range'], ['m', 'range'], ['divisor', 'divisor'], ['lr', 'range'], ['optimizer', 'choice'],
    ['rows*m', 'product'], ['scores', 'finite'], ['sequences', 'range'], ['names', 'name'], ['file', 'damaged']])
    assert.ok(PAIRS.some((p) => p.argument === argument && p.kind === kind), `${argument}/${kind}`);
});

test('every throw in the core gives its error a kind (no English-only error left)', () => {
  const bare = [];
  for (const { rel, text } of CPP.filter((f) => !DEFINITIONS.includes(f.rel))) {
    // fail_arg (message only) is for the CLI's own errors: none in what the pages link.
    for (const m of text.matchAll(/\bfail_arg\(\s*[^,]+,/g)) bare.push(`${rel}: ${m[0]}`);
    for (const m of text.matchAll(/\bthrow ArgumentError\(\s*([^,]+?),\s*([^,]+)/g))
      if (!/^"[a-z_]+"$/.test(m[2].trim())) bare.push(`${rel}: ${m[0].slice(0, 80)}`);
  }
  assert.deepEqual(bare, []);
});

test('every kind and argument the core can send has a sentence in English and in Chinese', () => {
  assert.deepEqual(KINDS.filter((k) => !SAMPLES[k]), [], 'kinds without sample params here: add them to SAMPLES');
  for (const { argument, kind, where } of PAIRS) {
    for (const params of SAMPLES[kind]) {
      const what = `${argument}/${kind} ${JSON.stringify(params)} (${where})`;
      const key = sentenceKey(argument, kind, params);
      for (const lang of ['en', 'zh']) {
        const s = inLang(lang, () => sentence({ argument, kind, params }));
        assert.ok(s && !/\{\w+\}/.test(s), `${what} [${lang}]: ${s}`);
        assert.doesNotMatch(s, /undefined|NaN|\be[+-]\d/, `${what} [${lang}]: ${s}`);
        if (GENERIC_KINDS.has(kind)) {
          assert.equal(s, inLang(lang, () => t('coreerr.stopped')), what);
          continue;
        }
        assert.notEqual(s, generic(lang), `${what} [${lang}]: a sentence of its own (${key})`);
        if (lang === 'zh') assert.match(s, CJK, `${what}: Chinese`);
        // {name}: the argument has a name for readers in both languages (not 'this value').
        if (/\{name\}/.test(inLang(lang, () => t(key))) && params.name === undefined)
          assert.notEqual(s.includes(inLang(lang, () => t('coreerr.arg.value'))), true, `${what} [${lang}]: coreerr.arg.${argument}`);
      }
    }
  }
});

test('an unknown kind, or an error with none, is a generic sentence, never the English message', () => {
  for (const lang of ['en', 'zh']) {
    for (const e of [{ error: 'x must be y', argument: 'x', kind: 'brand_new', params: '{}' }, Object.assign(new Error('dk must be a number'), { argument: 'dk' })])
      assert.equal(inLang(lang, () => readerError(e)), generic(lang));
    // Naming no argument: the page's plumbing failed (a lost worker), not a value.
    for (const e of [new Error('the worker failed: out of memory'), 'text', { message: 'worker lost' }])
      assert.equal(inLang(lang, () => readerError(e)), inLang(lang, () => t('coreerr.stopped')));
  }
});

// ---------------------------------------------------------------- the real modules
const withLang = (lang, fn) => inLang(lang, fn);
const catchErr = (fn) => {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected an error');
};

test('the explainer\'s module: divisor 0 and other bad values, as readers read them', async () => {
  const attn = createAttn(await loadWasm('explain', 'simd'));
  const zero = catchErr(() => attn.resolveDivisor('0', 64));
  assert.deepEqual({ argument: zero.argument, kind: zero.kind }, { argument: 'divisor', kind: 'divisor' });
  assert.deepEqual(zero.params, { lo: 1e-30, hi: 1e12, value: 0 });
  assert.equal(withLang('en', () => readerError(zero)), 'The divisor must be greater than 0 and at most 10¹².');
  assert.equal(withLang('zh', () => readerError(zero)), '除数必须大于 0 且不超过 10¹²。');
  const text = catchErr(() => attn.resolveDivisor('eight', 64));
  assert.match(withLang('en', () => readerError(text)), /^The divisor must be a number such as 8 or 0\.5/);
  const big = catchErr(() => attn.resolveDivisor('1e13', 64));
  assert.equal(withLang('en', () => readerError(big)), 'The divisor must be at most 10¹².');
  const dk = catchErr(() => attn.sampleScoreRow(0, 16, 1));
  assert.equal(withLang('en', () => readerError(dk)), 'dₖ must be a whole number from 1 to 65,536.');
  assert.equal(withLang('zh', () => readerError(dk)), 'dₖ 必须是 1 到 65,536 之间的整数。');
  const nan = catchErr(() => attn.softmaxStats([1, NaN, 2], 1));
  assert.equal(withLang('en', () => readerError(nan)), 'The scores must be finite numbers: number 2 is not one.');
  const work = catchErr(() => attn.sampleScoreRow(65536, 4096, 1));
  assert.equal(work.kind, 'product');
  assert.match(withLang('en', () => readerError(work)), /^These sizes ask for too much work at once: dₖ × m may be at most 10⁸/);
  assert.match(withLang('zh', () => readerError(work)), /^这些大小一次要做的计算太多：dₖ × m 最多为 10⁸/);
});

test('a product\'s factors are named in the reader\'s language', () => {
  const e = { argument: 'heads*dk', kind: 'product', params: { hi: 4096, a: 16, b: 1024 } };
  assert.equal(withLang('en', () => readerError(e)), 'These sizes ask for too much work at once: heads × dₖ may be at most 4096, and here it is 16,384. Choose smaller values.');
  assert.equal(withLang('zh', () => readerError(e)), '这些大小一次要做的计算太多：头数 × dₖ 最多为 4096，这里是 16,384。请选小一些的值。');
  // Every factor of every product the core can name reads as Chinese or as a symbol in Chinese.
  const products = PAIRS.filter((p) => p.kind === 'product');
  assert.ok(products.length >= 5);
  for (const { argument } of products) {
    const zh = withLang('zh', () => readerError({ argument, kind: 'product', params: { hi: 10, a: 3, b: 4 } }));
    assert.doesNotMatch(zh, /\b(heads|rows|samples)\b/, `${argument}: ${zh}`);
  }
});

test('the checker\'s module: every bad file of issue #6 gets a sentence of its own, in both languages', async () => {
  const attn = createCheckAttn(await loadWasm('check', 'simd'));
  const files = (rels) => rels.map((rel) => ({ name: path.basename(rel), bytes: fs.readFileSync(corpusPath(rel)) }));
  for (const c of BAD) {
    const e = catchErr(() => attn.checkTensors(files(c.files)));
    assert.ok(e.kind && !GENERIC_KINDS.has(e.kind), `${c.name}: kind ${e.kind}`);
    for (const lang of ['en', 'zh']) {
      const s = withLang(lang, () => readerError(e));
      assert.notEqual(s, generic(lang), `${c.name} [${lang}]`);
      assert.ok(!s.includes(e.message), `${c.name} [${lang}]: not the core's message`);
      if (lang === 'zh') assert.match(s, CJK, c.name);
    }
  }
  const bad = catchErr(() => attn.checkTensors(files(['npz/good.npz']), { divisor: '0' }));
  assert.equal(withLang('zh', () => readerError(bad)), '除数必须大于 0 且不超过 10¹²。');
  const names = catchErr(() => attn.checkTensors(files(['npz/good.npz']), { q: 'a b' }));
  assert.equal(names.argument, 'names');
  assert.match(withLang('en', () => readerError(names)), /^An array name must be/);
});

test('the lab\'s module: bad options get sentences; the CLI keeps the English messages', async () => {
  const M = await loadWasm('lab', 'simd');
  const s = new M.TrainSession();
  try {
    const base = { task: 'recall', dk: 16, heads: 1, dModel: 32, dv: 16, batch: 8, divisor: 'sqrt', optimizer: 'adam', lr: 0.001, seed: 1, init: 'lecun', logEvery: 10 };
    const verdict = (o) => s.configure({ ...base, ...o });
    const lr = verdict({ lr: 0 });
    assert.match(lr.error, /^lr must be a number in \(0, 10\], got 0$/);
    assert.equal(withLang('en', () => readerError(lr)), 'The learning rate must be greater than 0 and at most 10.');
    assert.equal(withLang('zh', () => readerError(lr)), '学习率必须大于 0 且不超过 10。');
    const opt = verdict({ optimizer: 'rmsprop' });
    assert.equal(withLang('en', () => readerError(opt)), 'The optimizer must be one of: adam, sgd.');
    const div = verdict({ divisor: '0' });
    assert.equal(withLang('en', () => readerError(div)), 'The divisor must be greater than 0 and at most 10¹².');
    const word = verdict({ divisor: 'zero' });
    assert.match(withLang('zh', () => readerError(word)), /“qknorm”/);
  } finally {
    s.delete();
  }
});
