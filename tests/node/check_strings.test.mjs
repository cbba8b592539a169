// The checker page's dictionary: English and Chinese define the same keys with
// the same {placeholders}, and every verdict reason the core can give has a string.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ROOT } from './paths.mjs';

// i18n.js reads the page URL and the browser's languages when it loads.
globalThis.location ??= { search: '', href: 'http://localhost/check.html' };
globalThis.navigator ??= { languages: ['en'], language: 'en' };
const { _strings: S } = await import(path.join(ROOT, 'web/src/check/strings.js'));

const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('both languages have the same keys and placeholders', () => {
  assert.deepEqual(Object.keys(S.zh).sort(), Object.keys(S.en).sort());
  for (const key of Object.keys(S.en))
    assert.deepEqual(placeholders(S.zh[key]), placeholders(S.en[key]), key);
});

test('every reason code of qk_check.h and every verdict has a string', () => {
  for (const code of ['saturated_rows', 'logit_std', 'risk_rows', 'entry_var_q', 'entry_var_k', 'ok'])
    assert.ok(S.en[`reason_${code}`], code);
  for (const v of ['fine', 'at_risk', 'saturated']) assert.ok(S.en[v], v);
});
