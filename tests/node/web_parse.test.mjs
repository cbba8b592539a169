// web/src/parse.js, what the reader types: numbers separated by something
// other than commas get a message that says how to write them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ROOT } from './paths.mjs';

globalThis.location ??= { search: '', href: 'http://localhost/' };
globalThis.navigator ??= { languages: ['en'], language: 'en' };
const { parseScores, parseNumber } = await import(path.join(ROOT, 'web/src/parse.js'));
const { t } = await import(path.join(ROOT, 'web/src/i18n.js'));

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
