// web/src/base/parse.js, what the reader types: numbers separated by something
// other than commas get a message that says how to write them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ROOT } from './paths.mjs';

globalThis.location ??= { search: '', href: 'http://localhost/' };
globalThis.navigator ??= { languages: ['en'], language: 'en' };
const { parseScores, parseNumber } = await import(path.join(ROOT, 'web/src/base/parse.js'));
const { t } = await import(path.join(ROOT, 'web/src/base/i18n.js'));

test('parseScores: commas (ASCII or full-width), and a hint where they are missing', () => {
  assert.deepEqual(parseScores('14, 10, 12'), { value: [14, 10, 12] });
  assert.deepEqual(parseScores('14，10，12'), { value: [14, 10, 12] });
  for (const text of ['14 10 12', '14;10;12', '14, 10 12', ' 14\t10  12 '])
    assert.deepEqual(parseScores(text), { error: { key: 'parse.needCommas', params: { fixed: '14, 10, 12' } } }, text);
  assert.equal(t('parse.needCommas', { fixed: '14, 10, 12' }), 'Separate the scores with commas: 14, 10, 12.');
  assert.deepEqual(parseScores('14,abc'), { error: { key: 'parse.notNumber', params: { text: 'abc' } } });
  assert.deepEqual(parseScores('1 a'), { error: { key: 'parse.notNumber', params: { text: '1 a' } } });
  assert.deepEqual(parseScores('14,,12'), { error: { key: 'parse.emptyItem', params: { i: 2 } } });
  assert.deepEqual(parseNumber('64'), { value: 64 });
  assert.equal(parseNumber('6 4').error.key, 'parse.notNumber');
});

// Issue 14, class 6: the page reads numbers by the core's grammar (web/src/base/number-text.js,
// cpp/core/base/number.h), so a field the page parses agrees with the CLI and the core.
test('the page takes the same number grammar as the core: JSON syntax, nothing else', async () => {
  const { numberText, isNumberText } = await import(path.join(ROOT, 'web/src/base/number-text.js'));
  const { number, presetOf } = await import(path.join(ROOT, 'web/src/train/config.js'));
  for (const [text, value] of [['0.5', 0.5], ['5e-1', 0.5], ['-0', -0], ['64', 64], ['1e-320', 1e-320],
    ['3.4028235e+38', 3.4028235e38], [' 64 ', 64]]) {
    assert.equal(numberText(text), value, text);
    assert.equal(number(text), value, text);
    assert.deepEqual(parseNumber(text), { value }, text);
  }
  for (const text of ['0x10', '+1', '.5', '1.', '08', '1e', '-', '1_0', '٥', '0b1', '1e5.5']) {
    assert.ok(!isNumberText(text), text);
    assert.ok(Number.isNaN(numberText(text)), text);
    assert.ok(Number.isNaN(number(text)), text);
    assert.equal(parseNumber(text).error.key, 'parse.notNumber', text);
    assert.equal(parseScores(`1,${text}`).error.key, 'parse.notNumber', text);
  }
  // Non-finite words reach the core, which refuses them with its own message.
  assert.deepEqual(parseNumber('NaN').value, NaN);
  assert.equal(parseNumber('-Infinity').value, -Infinity);
  assert.equal(parseNumber('1e999').value, Infinity);
  // A custom divisor that names a preset: '2.0' is 2, '0x2' is not.
  assert.equal(presetOf('2.0'), '2');
  assert.equal(presetOf('0x2'), null);
  assert.equal(presetOf('+1'), null);
});

test('whole-number fields (the lab\'s d_k, heads, seed and steps, the bench\'s samples, the checker\'s sequences): digits only, as the CLI', async () => {
  const { wholeText } = await import(path.join(ROOT, 'web/src/base/number-text.js'));
  const { trainOptions, parseSteps } = await import(path.join(ROOT, 'web/src/train/config.js'));
  for (const [text, value] of [['64', 64], [' 256 ', 256], ['0', 0], ['9007199254740991', 9007199254740991]])
    assert.equal(wholeText(text), value, text);
  for (const text of ['64.0', '6.4e1', '1e3', '064', '-1', '+1', '0x40', '', ' ', '6 4'])
    assert.ok(Number.isNaN(wholeText(text)), text);
  const o = trainOptions({ task: 'recall', dk: '6.4e1', heads: '2.0', seed: '1e0', opt: 'adam' }, 'sqrt', 0.001);
  assert.ok(Number.isNaN(o.dk) && Number.isNaN(o.heads) && Number.isNaN(o.seed), 'the core then names each field');
  assert.equal(parseSteps('1.5e3'), null);
  assert.equal(parseSteps('1500'), 1500);
});
