// The site's strings, every table of every page and widget (each registered
// under its prefix with i18n.js's defineStrings): English and Chinese define
// the same keys with the same {placeholders}; every key a module or a page
// names exists; t() throws on a missing key, naming it; and every reason code
// the checker's core can give has a string.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths.mjs';

// The browser globals the string modules touch when they load: i18n.js reads
// the URL and the browser's languages (state.js listens for 'pagehide' only once it writes).
globalThis.location ??= { search: '', href: 'http://localhost/' };
globalThis.navigator ??= { languages: ['en'], language: 'en' };
globalThis.addEventListener ??= () => {};

const WEB = path.join(ROOT, 'web');
const SRC = path.join(WEB, 'src');
function sources(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'wasm' ? [] : sources(p);
    return /\.js$/.test(e.name) ? [p] : [];
  });
}
const FILES = sources(SRC).map((file) => ({ file, rel: path.relative(WEB, file), text: fs.readFileSync(file, 'utf8') }));

// Every module that registers strings; each must load without a DOM, so its
// tables can be checked here (a widget keeps its text in widgets/strings.js).
const TABLES = FILES.filter((f) => /^\s*defineStrings\(/m.test(f.text) && !f.rel.endsWith('i18n.js'));
for (const { file, rel } of TABLES) {
  try {
    await import(file);
  } catch (e) {
    throw new Error(`${rel} registers strings but does not load in Node (${e.message}): move its tables into a module with no DOM code`);
  }
}
const { _strings: S, defineStrings, t } = await import(path.join(SRC, 'base/i18n.js'));

const PREFIXES = ['page', 'widget', 'chain', 'var', 'proof', 'seed', 'sat', 'satdist', 'satlen', 'compare', 'embed', 'opt', 'docs', 'lang', 'build', 'parse', 'url', 'lab', 'check', 'bench', 'nav', 'coreerr', 'buildName', 'setup', 'menu'];
const prefixOf = (key) => key.slice(0, key.indexOf('.'));
const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('every page and widget has its strings under its prefix', () => {
  assert.deepEqual([...new Set(Object.keys(S.en).map(prefixOf))].sort(), [...PREFIXES].sort());
});

test('both languages have the same keys and placeholders, prefix by prefix', () => {
  for (const prefix of PREFIXES) {
    const keys = (l) => Object.keys(S[l]).filter((k) => prefixOf(k) === prefix).sort();
    assert.deepEqual(keys('zh'), keys('en'), `${prefix}.`);
  }
  for (const key of Object.keys(S.en)) {
    assert.deepEqual(placeholders(S.zh[key]), placeholders(S.en[key]), key);
    assert.notEqual(S.en[key].trim(), '', key);
  }
});

test('every key the modules and pages name is defined', () => {
  const known = new Set(Object.keys(S.en));
  const prefixes = PREFIXES.join('|');
  const missing = [];
  for (const { rel, text } of FILES) {
    // Literal keys anywhere ('lab.err.empty', 'seed.col.case'), outside the
    // tables themselves and the performance measures timed() names ('sat.render').
    const code = text.replace(/\bdefineStrings\([\s\S]*?\}\);/g, '').replace(/\btimed\(\s*'[^']*'/g, '');
    for (const [, key] of code.matchAll(new RegExp(`['"]((?:${prefixes})\\.[\\w.]+)['"]`, 'g')))
      if (!known.has(key)) missing.push(`${rel}: '${key}'`);
    // Keys built in a template (t(`lab.opt.${o}`)): some key must start with the fixed part.
    for (const [, head] of code.matchAll(new RegExp(`\`((?:${prefixes})\\.[\\w.]*)\\$\\{`, 'g')))
      if (![...known].some((k) => k.startsWith(head))) missing.push(`${rel}: \`${head}…\``);
  }
  for (const html of fs.readdirSync(WEB).filter((f) => f.endsWith('.html'))) {
    for (const [, key] of fs.readFileSync(path.join(WEB, html), 'utf8').matchAll(/data-i18n(?:-content)?="([^"]+)"/g))
      if (!known.has(key)) missing.push(`${html}: data-i18n="${key}"`);
  }
  assert.deepEqual(missing, []);
});

test('t(): one lookup that names a missing key, and one interpolation rule', () => {
  assert.throws(() => t('lab.noSuchKey'), /missing string "lab\.noSuchKey"/);
  assert.throws(() => t('title'), /missing string "title"/, 'a key without its prefix is missing');
  defineStrings('test', { en: { x: '{a} and {b}' }, zh: { x: '{a} 与 {b}' } });
  assert.equal(t('test.x', { a: 1, b: 'two' }), '1 and two');
  assert.equal(t('test.x', { a: 0 }), '0 and {b}', 'a placeholder without its parameter stays as written');
  defineStrings('test', { en: { x: '{a} and {b}' }, zh: { x: '{a} 与 {b}' } });  // the same text again: allowed
  assert.throws(() => defineStrings('test', { en: { x: 'other' }, zh: { x: '{a} 与 {b}' } }), /string "test\.x" defined twice/);
  assert.throws(() => defineStrings('lab.x', { en: {}, zh: {} }), /letters only/);
  for (const l of ['en', 'zh']) delete S[l]['test.x'];
});

test('every build buildInfo() can report has one name, in both languages, for every footer', () => {
  for (const l of ['en', 'zh'])
    for (const b of ['relaxed', 'simd', 'scalar']) assert.ok(S[l][`buildName.${b}`], `${l}: ${b}`);
  // No footer keeps a table of its own (they drifted: the lab's Chinese said 标量, the widgets' 标量（scalar）).
  const own = Object.keys(S.en).filter((k) => /\.(footer\.|build\.)?(relaxed|scalar)$/.test(k) && !k.startsWith('buildName.') && !k.startsWith('bench.'));
  assert.deepEqual(own, []);
});

test('the checker: every reason code of its report and every verdict has a string', () => {
  // The codes and verdicts as cpp/core/checker/report.h lists them, read from the header.
  const header = fs.readFileSync(new URL('../../cpp/core/checker/report.h', import.meta.url), 'utf8');
  const codes = [...header.match(/reason_code;\s*\/\/([^\n]*(?:\n\s*\/\/[^\n]*)*)/)[1].matchAll(/"(\w+)"/g)].map((m) => m[1]);
  const verdicts = [...header.match(/verdict_name\(Verdict v\);\s*\/\/([^\n]*)/)[1].matchAll(/"(\w+)"/g)].map((m) => m[1]);
  assert.deepEqual(verdicts.sort(), ['at_risk', 'fine', 'frozen', 'sharp', 'too_flat']);
  assert.ok(codes.length >= 8, codes.join());
  for (const l of ['en', 'zh']) {
    for (const code of codes) assert.ok(S[l][`check.reason_${code}`], `${l}: ${code}`);
    for (const v of verdicts) {
      assert.ok(S[l][`check.${v}`], `${l}: ${v}`);
      assert.ok(S[l][`check.trained_${v}`], `${l}: trained ${v}`);
      assert.ok(S[l][`check.count_${v}`], `${l}: count ${v}`);
    }
  }
});
