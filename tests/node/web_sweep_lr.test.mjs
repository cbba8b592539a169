// The lab sweep's learning-rate list (web/src/pages/lab/sweep-lr.js parseLrList)
// and its place in the URL (sw.lr): what the reader types becomes rates or a
// message in both languages; the range is the core's to check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ROOT } from './paths.mjs';

globalThis.location ??= { search: '', href: 'http://localhost/' };
globalThis.navigator ??= { languages: ['en'], language: 'en' };
globalThis.history ??= { replaceState() {} };
const { parseLrList, MAX_LRS } = await import(path.join(ROOT, 'web/src/pages/lab/sweep-lr.js'));
const { t, inLang } = await import(path.join(ROOT, 'web/src/base/i18n.js'));
await import(path.join(ROOT, 'web/src/pages/lab/strings.js'));
const { readState } = await import(path.join(ROOT, 'web/src/base/state.js'));
const { SWEEP_PREFIX, SWEEP_STATE, SWEEP_LR_STATE } = await import(path.join(ROOT, 'web/src/train/config.js'));

test('parseLrList: empty or auto is the reference rates; a list is its numbers, in order', () => {
  for (const s of ['', '  ', 'auto', ' AUTO ']) assert.deepEqual(parseLrList(s), { lrs: null }, s);
  assert.deepEqual(parseLrList('1e-3,3e-3,1e-2,3e-2,1e-1'), { lrs: [1e-3, 3e-3, 1e-2, 3e-2, 1e-1] });
  assert.deepEqual(parseLrList(' 0.1 , 1e-3 '), { lrs: [0.1, 1e-3] });
  assert.deepEqual(parseLrList('10'), { lrs: [10] });
  // Range is the core's: 0, negatives and 11 pass here as numbers, for its message.
  assert.deepEqual(parseLrList('0,-1,11'), { lrs: [0, -1, 11] });
  assert.deepEqual(parseLrList(Array.from({ length: MAX_LRS }, (_, i) => String(i + 1)).join(',')).lrs.length, MAX_LRS);
});

test('parseLrList: empty items, text, a rate twice, too many: a message naming the item', () => {
  assert.deepEqual(parseLrList('1e-3,,0.1'), { error: { key: 'lab.sw.err.lrEmpty', params: {} } });
  assert.deepEqual(parseLrList('1e-3,'), { error: { key: 'lab.sw.err.lrEmpty', params: {} } });
  for (const bad of ['fast', 'nan', 'NaN', 'inf', 'Infinity', '.5', '1.', '+1', '0x10', '1e', '1 e-3', '08'])
    assert.deepEqual(parseLrList(`0.1,${bad}`), { error: { key: 'lab.sw.err.lrNumber', params: { item: bad } } }, bad);
  assert.deepEqual(parseLrList('0.01,1e-2'), { error: { key: 'lab.sw.err.lrTwice', params: { item: '1e-2' } } });
  assert.deepEqual(parseLrList('0.1,0.2,0.10'), { error: { key: 'lab.sw.err.lrTwice', params: { item: '0.10' } } });
  const many = Array.from({ length: MAX_LRS + 1 }, (_, i) => String(i + 1)).join(',');
  assert.deepEqual(parseLrList(many), { error: { key: 'lab.sw.err.lrMany', params: { max: MAX_LRS, n: MAX_LRS + 1 } } });
  const long = 'x'.repeat(100);
  assert.equal(parseLrList(long).error.params.item, `${'x'.repeat(40)}…`);
});

test('the messages in English and Chinese, with the item filled in', () => {
  const cases = [
    [{ key: 'lab.sw.err.lrEmpty', params: {} }, 'The list of learning rates has an empty item.', '学习率列表中有空项。'],
    [{ key: 'lab.sw.err.lrNumber', params: { item: 'fast' } }, '“fast” is not a number.', '“fast”不是数字。'],
    [{ key: 'lab.sw.err.lrTwice', params: { item: '1e-2' } }, '1e-2 is in the list twice; give each rate once.', '1e-2 在列表中出现了两次；每个学习率只填一次。'],
    [{ key: 'lab.sw.err.lrMany', params: { max: 12, n: 13 } }, 'At most 12 learning rates (the list has 13).', '最多 12 个学习率（列表中有 13 个）。'],
  ];
  for (const [e, en, zh] of cases) {
    assert.equal(inLang('en', () => t(e.key, e.params)), en);
    assert.equal(inLang('zh', () => t(e.key, e.params)), zh);
  }
  for (const key of ['lrs', 'lrsHint', 'captionLr', 'colLr', 'cell.lr', 'chart.title', 'chart.x', 'chart.y', 'chart.line',
    'chart.diverged', 'lr.head', 'lr.best', 'lr.over90', 'lr.none90', 'lr.diverged', 'lr.scope']) {
    const en = inLang('en', () => t(`lab.sw.${key}`, {}));
    const zh = inLang('zh', () => t(`lab.sw.${key}`, {}));
    assert.ok(en && !en.startsWith('lab.'), key);
    assert.ok(/[\u4e00-\u9fff]/.test(zh) || (['chart.line', 'lr.head'].includes(key) && zh !== en), `${key}: ${zh}`);
  }
});

test('sw.lr in a link: free text, read apart from the sweep\'s other keys (empty when absent)', () => {
  location.search = '';
  assert.deepEqual(readState(SWEEP_PREFIX, SWEEP_LR_STATE).values, { lr: '' });
  location.search = '?sw.lr=1e-3%2C0.1&sw.dk=16';
  assert.deepEqual(readState(SWEEP_PREFIX, SWEEP_LR_STATE).values, { lr: '1e-3,0.1' });
  assert.ok(!('lr' in readState(SWEEP_PREFIX, SWEEP_STATE).values), 'the sweep\'s old keys read as before');
});
