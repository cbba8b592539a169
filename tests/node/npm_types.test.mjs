// The npm package's hand-written types (web/package/widgets.d.ts) against the
// widgets' sources: every element of the embed's WIDGETS map is declared
// (element interface, tag map, both JSX namespaces), and every attribute in a
// widget's `static options = {…}` appears in that element's attributes and,
// camelCased, as a property of its element interface. The sources are read
// as text (they import DOM code), so an options block must stay a literal
// object whose keys are identifiers or quoted names, as they all are: in the
// widget's file, or (`static options = OPTIONS`) in the module it imports
// OPTIONS from (widgets/*-options.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';

const WEB = new URL('../../web/', import.meta.url);
const read = (p) => fs.readFileSync(new URL(p, WEB), 'utf8');
const dts = read('package/widgets.d.ts');

const tags = [...read('src/embed/attnlab.js').matchAll(/^\s*'(attn-[a-z-]+)':\s*\(\)\s*=>\s*import\(/gm)].map((m) => m[1]);
const pascal = (tag) => tag.replace(/(^|-)([a-z])/g, (_, __, c) => c.toUpperCase());   // attn-softmax-table -> AttnSoftmaxTable
const camel = (attr) => attr.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

/** The attribute names of `static options = {…}` (or `export const OPTIONS = {…}`) in a source, or null when it has none. */
export function optionAttributes(source) {
  const start = source.search(/static options\s*=\s*\{|export const OPTIONS\s*=\s*\{/);
  if (start < 0) return null;
  const body = block(source, source.indexOf('{', start));
  // Keys at depth 0 of the block: `name:` or `'name':` at the start of an entry.
  const keys = [];
  let d = 0;
  for (const m of body.matchAll(/[{}]|(?:^|,)\s*(?:'([^']+)'|"([^"]+)"|([A-Za-z_$][\w$]*))\s*:/g)) {
    if (m[0] === '{') d++;
    else if (m[0] === '}') d--;
    else if (d === 0) keys.push(m[1] ?? m[2] ?? m[3]);
  }
  return keys;
}

/** The text between the braces that open at `open` (nested braces and `${…}` included). */
function block(text, open) {
  for (let j = open, depth = 0; j < text.length; j++) {
    if (text[j] === '{') depth++;
    else if (text[j] === '}' && --depth === 0) return text.slice(open + 1, j);
  }
  throw new Error('unbalanced braces');
}

/** The body of `interface Name … { … }` in the .d.ts. */
function iface(name) {
  const m = new RegExp(`interface ${name}\\b[^{]*\\{`).exec(dts);
  assert.ok(m, `widgets.d.ts declares interface ${name}`);
  return block(dts, m.index + m[0].length - 1);
}
const declares = (body, key) => new RegExp(`(^|[\\s;{])(${key}|'${key}')\\??:`, 'm').test(body);

test('the embed has its six widgets (the parse of attnlab.js works)', () => {
  assert.ok(tags.length >= 6, `tags: ${tags}`);
  assert.ok(tags.includes('attn-saturation') && tags.includes('attn-softmax-table'));
});

test('the options parser reads a block like the widgets\'', () => {
  assert.deepEqual(optionAttributes(`static options = {\n dk: { key: 'dk', spec: S.dk },\n 'sigma-q': { key: 'sq', spec: { type: 'int', min: 1 } },\n};`), ['dk', 'sigma-q']);
  assert.deepEqual(optionAttributes(`export const OPTIONS = {\n  m: { key: 'm', spec: SPECS.m },\n};`), ['m']);
  assert.equal(optionAttributes('class X {}'), null);
});

for (const tag of tags) {
  test(`${tag}: declared in widgets.d.ts with every option attribute`, () => {
    const P = pascal(tag);
    for (const map of ['AttnElements', 'AttnAttributes'])
      assert.match(iface(map), new RegExp(`'${tag}':\\s*${P}${map === 'AttnElements' ? 'Element' : 'Attributes'};`), `${map} maps ${tag}`);
    // Both JSX namespaces list the tag.
    assert.equal(dts.match(new RegExp(`'${tag}': AttnJsx<'${tag}'`, 'g'))?.length, 1, `global JSX declares ${tag}`);
    assert.equal(dts.match(new RegExp(`'${tag}': AttnReactProps<'${tag}'>`, 'g'))?.length, 1, `React.JSX declares ${tag}`);

    const source = read(`src/widgets/${tag}.js`);
    // static options = OPTIONS: the block is in the module OPTIONS comes from.
    const from = /static options\s*=\s*OPTIONS\b/.test(source)
      && /import\s*\{[^}]*\bOPTIONS\b[^}]*\}\s*from\s*'\.\/([\w-]+\.js)'/.exec(source);
    if (/static options\s*=\s*OPTIONS\b/.test(source)) assert.ok(from, `${tag}: where its OPTIONS comes from`);
    const attrs = optionAttributes(from ? read(`src/widgets/${from[1]}`) : source);
    if (attrs === null) {
      // attn-chain has no options; attn-train-compare may be a placeholder until it lands.
      assert.ok(!/observedAttributes|getAttribute\('(?!id-prefix|url-state)/.test(source) || tag === 'attn-chain',
        `${tag} reads attributes without static options?`);
      return;
    }
    const el = iface(`${P}Element`);
    const at = iface(`${P}Attributes`);
    for (const a of attrs) {
      assert.ok(declares(at, a), `${P}Attributes declares ${a}`);
      assert.ok(declares(el, camel(a)), `${P}Element declares the property ${camel(a)}`);
    }
  });
}
