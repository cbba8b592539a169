// The embed's pure parts, in Node: the attribute parser (state.js
// parseOption: strict, no clamping, a message key for each refusal) and the
// reading of a host page's <meta> CSP (bridge/spawn.js: whether to try a blob:
// worker at all).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ROOT } from './paths.mjs';

globalThis.location ??= { search: '', href: 'http://localhost/' };
globalThis.navigator ??= { languages: ['en'], language: 'en' };
const { parseOption } = await import(path.join(ROOT, 'web/src/base/state.js'));
const { metaCspForbidsBlobWorkers } = await import(path.join(ROOT, 'web/src/bridge/spawn.js'));

test('parseOption: integers, numbers, enums, lists and divisors, strictly', () => {
  const dk = { type: 'int', min: 1, max: 4096, def: 64 };
  assert.deepEqual(parseOption('256', dk), { value: 256 });
  assert.deepEqual(parseOption(' 1e3 ', dk), { value: 1000 });
  for (const bad of ['abc', '0', '4097', '2.5', '', 'NaN', 'Infinity', '0x10', '1,000', '-1'])
    assert.equal(parseOption(bad, dk).error?.key, 'opt.int', bad);
  assert.deepEqual(parseOption('abc', dk).error.params, { min: 1, max: 4096, values: '' });
  const rho = { type: 'number', min: -1, max: 1, def: 0 };
  assert.deepEqual(parseOption('-0.5', rho), { value: -0.5 });
  assert.equal(parseOption('1.01', rho).error.key, 'opt.number');
  const div = { type: 'divisor', values: ['1', '2', 'sqrt', 'dk'], min: 0, minOpen: true, max: 1e12, def: 'sqrt' };
  assert.deepEqual(parseOption('sqrt', div), { value: 'sqrt' });
  assert.deepEqual(parseOption('1', div), { value: '1' });
  assert.deepEqual(parseOption('3.5', div), { value: 3.5 });
  for (const bad of ['0', '-2', 'sqrtdk', '1e13', ''])
    assert.equal(parseOption(bad, div).error?.key, 'opt.divisor', bad);
  const list = { type: 'list', values: ['1', '2', 'sqrt', 'dk'], def: ['1', 'sqrt'] };
  assert.deepEqual(parseOption('1, sqrt', list), { value: ['1', 'sqrt'] });
  for (const bad of ['', '1,1', '1,nope'])
    assert.equal(parseOption(bad, list).error?.key, 'opt.list', bad);
  assert.deepEqual(parseOption('dark', { type: 'enum', values: ['light', 'dark'] }), { value: 'dark' });
  assert.equal(parseOption('blue', { type: 'enum', values: ['light', 'dark'] }).error.key, 'opt.enum');
});

test('metaCspForbidsBlobWorkers reads worker-src, then child-src, script-src, default-src', () => {
  const E = 'https://embed.example';
  const W = `${E}/embed/assets/worker-abc.js`;
  const doc = (...csps) => ({ querySelectorAll: () => csps.map((content) => ({ content })) });
  assert.equal(metaCspForbidsBlobWorkers(W, doc()), false, 'no CSP');
  assert.equal(metaCspForbidsBlobWorkers(W, doc(`script-src 'self' ${E}; worker-src blob: ${E}`)), false);
  assert.equal(metaCspForbidsBlobWorkers(W, doc(`script-src 'self' ${E}; worker-src blob: https:`)), false, 'a scheme source');
  assert.equal(metaCspForbidsBlobWorkers(W, doc(`script-src 'self' ${E}; worker-src blob:`)), true, 'imports need the origin');
  assert.equal(metaCspForbidsBlobWorkers(W, doc(`script-src 'self' ${E}`)), true, 'falls back to script-src');
  assert.equal(metaCspForbidsBlobWorkers(W, doc(`default-src 'self'`)), true, 'falls back to default-src');
  assert.equal(metaCspForbidsBlobWorkers(W, doc(`img-src 'self'`)), false, 'no directive governs workers');
  assert.equal(metaCspForbidsBlobWorkers(W, doc(`child-src blob: ${E}; script-src 'self'`)), false, 'child-src before script-src');
  assert.equal(metaCspForbidsBlobWorkers(W, doc(`worker-src *`)), false);
  assert.equal(metaCspForbidsBlobWorkers(W, doc(`worker-src blob: ${E}`, `worker-src 'self'`)), true, 'every policy must allow it');
  // Sources with paths, wildcards and ports are read generously: the worker is
  // tried (and the main thread takes over if it fails to start).
  assert.equal(metaCspForbidsBlobWorkers(W, doc(`worker-src blob: ${E}/embed/`)), false, 'a path prefix');
  assert.equal(metaCspForbidsBlobWorkers(W, doc('worker-src blob: https://*.example')), false, 'a wildcard host');
  assert.equal(metaCspForbidsBlobWorkers(W, doc('worker-src blob: embed.example')), false, 'a host alone');
  assert.equal(metaCspForbidsBlobWorkers(W, doc('worker-src blob: https://other.example')), true, 'another host');
  assert.equal(metaCspForbidsBlobWorkers('http://127.0.0.1:4173/a.js', doc('worker-src blob: http://127.0.0.1:4173')), false, 'an explicit port');
});
