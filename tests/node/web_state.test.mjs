// web/src/base/state.js, the one module for state in the URL: the widgets' checked
// and clamped parameters under a prefix, and the lab's two schemes on the same
// specs: its form under bare keys (lab.html?dk=256&div=sqrt,2,1&opt=adam) and
// its sweep under "sw." (sw.dk=16,64,256), read from links as they always were.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ROOT } from './paths.mjs';

// A page's URL and history, as state.js (and i18n.js, which it imports) use them.
globalThis.navigator ??= { languages: ['en'], language: 'en' };
globalThis.addEventListener ??= () => {};
globalThis.location = new URL('http://localhost/lab.html');
globalThis.history = { state: null, replaceState: (_s, _t, url) => (globalThis.location = new URL(url)) };
const open = (query) => (globalThis.location = new URL(`http://localhost/page.html?${query}`));

const { readState, writeState, flush } = await import(path.join(ROOT, 'web/src/base/state.js'));
const { FORM_PREFIX, FORM_STATE, SWEEP_PREFIX, SWEEP_STATE } = await import(path.join(ROOT, 'web/src/train/config.js'));

test('the lab\'s links read as they always did, bad values passed on to the core', () => {
  open('dk=256&div=sqrt,2,1&opt=adam');
  assert.deepEqual(readState(FORM_PREFIX, FORM_STATE), {
    values: { task: 'recall', dk: '256', heads: '2', div: 'sqrt,2,1', opt: 'adam', lr: 'auto', steps: '1500', seed: '0' },
    notices: [],
  });
  // The lab's malformed-URL test: every value kept as typed, so the core's message can name it.
  open('lang=en&task=sorting&dk=abc&heads=-2&opt=rmsprop&lr=0&steps=1.5&seed=x&div=sqrt,zero');
  const { values, notices } = readState(FORM_PREFIX, FORM_STATE);
  assert.deepEqual(values, { task: 'sorting', dk: 'abc', heads: '-2', div: 'sqrt,zero', opt: 'rmsprop', lr: '0', steps: '1.5', seed: 'x' });
  assert.deepEqual(notices, []);
  open(`dk=${'9'.repeat(500)}`);
  assert.equal(readState(FORM_PREFIX, FORM_STATE).values.dk, '9'.repeat(500), 'any length: the core names it');
});

test('the sweep\'s links: lists of known items, unknown ones dropped', () => {
  open('sw.dk=16,64,256&sw.opt=sgd');
  assert.deepEqual(readState(SWEEP_PREFIX, SWEEP_STATE).values,
    { dk: ['16', '64', '256'], div: ['sqrt', '2', '1'], opt: ['sgd'], steps: '600' });
  open('sw.dk=16,%2099%20,032,&sw.div=&sw.steps=many');
  const { values, notices } = readState(SWEEP_PREFIX, SWEEP_STATE);
  assert.deepEqual(values, { dk: ['16'], div: [], opt: ['adam', 'sgd'], steps: 'many' });
  assert.deepEqual(notices, [{ key: 'url.invalid', params: { param: 'sw.dk', given: '16, 99 ,032,', used: '16' } }]);
});

test('writes: batched, bare or prefixed, lists comma-separated; null keeps the URL alone', () => {
  open('lang=zh&dk=64');
  writeState(FORM_PREFIX, { dk: '16', div: 'sqrt,4' });
  writeState(SWEEP_PREFIX, { dk: ['16', '32'], steps: '60' });
  writeState(null, { dk: 'no' });
  assert.equal(location.search, '?lang=zh&dk=64', 'nothing written before the batch is flushed');
  flush();
  assert.equal(location.search, '?lang=zh&dk=16&div=sqrt%2C4&sw.dk=16%2C32&sw.steps=60');
  open('sw.dk=16%2C32&sw.steps=60&sw.div=');
  assert.deepEqual(readState(SWEEP_PREFIX, SWEEP_STATE).values.dk, ['16', '32'], 'what is written reads back');
});

test('widgets: checked and clamped under a prefix, with notices; no prefix, no URL', () => {
  const specs = {
    dk: { type: 'int', min: 1, max: 4096, def: 64 },
    div: { type: 'enum', values: ['sqrt', 'dk'], def: 'sqrt' },
    c: { type: 'number', min: 0, minOpen: true, max: 1e12, def: 4 },
  };
  open('sat.dk=99999&sat.div=nope&sat.c=2.5&dk=8');
  const { values, notices } = readState('sat', specs);
  assert.deepEqual(values, { dk: 4096, div: 'sqrt', c: 2.5 });
  assert.deepEqual(notices.map((n) => [n.key, n.params.param, n.params.used]),
    [['url.clamped', 'sat.dk', '4096'], ['url.invalid', 'sat.div', 'sqrt']]);
  assert.deepEqual(readState(null, specs), { values: { dk: 64, div: 'sqrt', c: 4 }, notices: [] });
});

test('a value with nothing to fall back to (an empty default, a list left empty) is said to be ignored, in both languages', async () => {
  const { t, inLang } = await import(path.join(ROOT, 'web/src/base/i18n.js'));
  open('preset=bogus&sw.dk=7,9');
  const preset = readState('', { preset: { type: 'enum', values: ['', 'gpt2'], def: '' } }).notices;
  const list = readState(SWEEP_PREFIX, SWEEP_STATE).notices;
  assert.deepEqual([...preset, ...list].map((n) => [n.key, n.params.param, n.params.used]),
    [['url.ignored', 'preset', ''], ['url.ignored', 'sw.dk', '']]);
  assert.equal(t(preset[0].key, preset[0].params), 'The link’s value preset=bogus could not be read, so it is ignored.');
  const zh = inLang('zh', () => t(list[0].key, list[0].params));
  assert.doesNotMatch(zh, /改用|using/);
  assert.match(zh, /sw\.dk=7,9.*已忽略/);
});
