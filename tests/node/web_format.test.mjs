// web/src/base/format.js, the one number formatter of the pages: the formats that
// replaced hand-written ones (the checker's num/pct, the benchmark page's
// toFixed, the lab's oneDecimal, the axes' tick labels) give the same text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ROOT } from './paths.mjs';

// i18n.js reads the page URL and the browser's languages when it loads; a
// language switch writes the URL and relabels the document.
globalThis.location ??= { search: '', href: 'http://localhost/' };
globalThis.navigator ??= { languages: ['en'], language: 'en' };
globalThis.history ??= { state: null, replaceState() {} };
globalThis.document ??= { documentElement: {}, querySelectorAll: () => [] };
const F = await import(path.join(ROOT, 'web/src/base/format.js'));
const { setLang } = await import(path.join(ROOT, 'web/src/base/i18n.js'));

const VALUES = [0, 0.000123456, 0.004, 0.05, 0.125, 0.5, 0.9951, 1, 2.3456, 12.5, 21.625, 99.949, 123.456, 999.4];

// Where the shortest decimal of a double is a tie that its binary value is not
// (0.995 is 0.99499999…), Intl rounds the decimal (1.00) and toFixed the binary
// value (0.99); a measured rate or a ratio of two is never such a tie.
test('decimals: the text toFixed gave below 1000, in both languages', () => {
  for (const lang of ['en', 'zh']) {
    setLang(lang);
    for (const x of VALUES) for (const d of [0, 1, 2]) assert.equal(F.decimals(x, d), x.toFixed(d), `${x} to ${d} (${lang})`);
  }
  setLang('en');
  assert.equal(F.decimals(0.995, 2), '1.00');
  assert.equal(F.decimals(NaN, 1), F.DASH);
});

test('significant and percentNumber: the checker report\'s former num and pct', () => {
  const oldNum = (x, digits = 3) => new Intl.NumberFormat('en', { maximumSignificantDigits: digits }).format(x);
  const oldPct = (share) => new Intl.NumberFormat('en', { maximumFractionDigits: share > 0 && share < 0.01 ? 1 : 0 }).format(100 * share);
  for (const x of [...VALUES, -0.0371, 1234567.8, 1e-9]) {
    assert.equal(F.significant(x), oldNum(x), String(x));
    assert.equal(F.significant(x, 5), oldNum(x, 5), String(x));
  }
  for (const share of [0, 0.0004, 0.004, 0.0099, 0.01, 0.126, 0.5, 1]) assert.equal(F.percentNumber(share), oldPct(share), String(share));
  for (const missing of [null, undefined, NaN, Infinity]) assert.equal(F.significant(missing), '—');
});

test('axis labels: log ticks and powers of ten', () => {
  assert.deepEqual([4096, 16, 1, 0.5, 0.01, 0.0012345].map(F.logTick), ['4096', '16', '1', '0.5', '0.01', '0.0012']);
  assert.deepEqual([0, 1, 2, -3, -32, 12].map(F.powerOfTen), ['1', '10', '10²', '10⁻³', '10⁻³²', '10¹²']);
});

test('num: very small and large numbers as a reader writes them, never E-notation', () => {
  for (const lang of ['en', 'zh']) {
    setLang(lang);
    assert.equal(F.num(-6.6e-4), '-6.6 × 10⁻⁴', lang);
    assert.equal(F.num(9.89e-10), '9.89 × 10⁻¹⁰', lang);
    assert.equal(F.num(123456789), '1.23 × 10⁸', lang);
    for (const x of [1e-12, -3.3e-5, 4.2e7, 1.5e30]) assert.doesNotMatch(F.num(x), /E/i, `${x} (${lang})`);
    // The ordinary range keeps plain digits.
    assert.equal(F.num(0.5), '0.5', lang);
    assert.equal(F.num(0.001), '0.001', lang);
  }
  setLang('en');
});

test('one grouping rule: groups of three from five digits on, in both languages', () => {
  for (const lang of ['en', 'zh']) {
    setLang(lang);
    assert.deepEqual([16, 4096, 65536, 1000000, 4194304].map(F.int), ['16', '4096', '65,536', '1,000,000', '4,194,304'], lang);
    assert.equal(F.num(1024, 6), '1024', lang);
    assert.equal(F.num(65536, 6), '65,536', lang);
    assert.equal(F.decimals(12345.678, 1), '12,345.7', lang);
  }
  setLang('en');
});

// format.js formats by hand what Intl.NumberFormat(en | zh-CN, {useGrouping:
// 'min2', ...}) wrote before (a page's first Intl formatter cost 30-160 ms of
// main-thread time): the same text as Intl, here the independent reference,
// for every format, over ties, carries, signs, zeros and random doubles of
// every size.
test('every format gives Intl.NumberFormat\'s text, in both locales', () => {
  const nf = (locale, o) => new Intl.NumberFormat(locale, { useGrouping: 'min2', ...o });
  const sci = (locale, x, sig) => {
    const parts = nf(locale, { notation: 'scientific', maximumSignificantDigits: Math.min(sig, 3) }).formatToParts(x);
    const mantissa = parts.filter((p) => !/^exponent/.test(p.type)).map((p) => p.value).join('');
    const e = Number(parts.filter((p) => p.type === 'exponentMinusSign' || p.type === 'exponentInteger')
      .map((p) => (p.type === 'exponentMinusSign' ? '-' : p.value)).join(''));
    return e === 0 ? mantissa : `${mantissa} × ${F.powerOfTen(e)}`;
  };
  const ties = [0.125, 0.995, 1.005, 2.5, -2.5, 0.5, 1.5, 9.995, 99.995, 999.95, 9999.5, 99999.5, 0.00015, 0.00125,
    0.9999999, 9.9996e-4, 9.996e-4, 1e7 - 0.5, 12345.678, 65536, 4096, 1e6, 1e21, 1e-7, 5e-324, 1.7976931348623157e308,
    0, -0, -0.0001, 123456789.123, 0.1 + 0.2, 1 / 3, 2 / 3, 0.0449999, 0.00004999, 0.00005, 0.99995, 0.999949, 1 - 1e-16];
  // A fixed-seed LCG over mantissas and exponents: values from 1e-12 to 1e12, both signs.
  let seed = 12345;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const values = [...ties];
  for (let i = 0; i < 3000; i++) {
    const x = (rand() < 0.5 ? -1 : 1) * rand() * 10 ** Math.floor(rand() * 24 - 12);
    values.push(x, Number(x.toPrecision(1 + Math.floor(rand() * 6))) );
  }
  for (const lang of ['en', 'zh']) {
    setLang(lang);
    const locale = lang === 'en' ? 'en' : 'zh-CN';
    let checked = 0;
    for (const x of values) {
      const a = Math.abs(x);
      for (const sig of [2, 3, 4, 6]) {
        const want = a !== 0 && (a < 1e-3 || a >= 1e7) ? sci(locale, x, sig) : nf(locale, { maximumSignificantDigits: sig }).format(x);
        assert.equal(F.num(x, sig), want, `num(${x}, ${sig}) ${lang}`);
        assert.equal(F.significant(x, sig), nf(locale, { maximumSignificantDigits: sig }).format(x), `significant(${x}, ${sig}) ${lang}`);
      }
      for (const d of [0, 1, 2, 3]) {
        assert.equal(F.fixed(x, d), nf(locale, { maximumFractionDigits: d }).format(x), `fixed(${x}, ${d}) ${lang}`);
        assert.equal(F.decimals(x, d), nf(locale, { minimumFractionDigits: d, maximumFractionDigits: d }).format(x), `decimals(${x}, ${d}) ${lang}`);
      }
      assert.equal(F.int(x), nf(locale, { maximumFractionDigits: 0 }).format(x), `int(${x}) ${lang}`);
      const pWant = x > 0 && x < 0.00005 ? '<' + nf(locale, { style: 'percent', minimumFractionDigits: 2 }).format(0.0001)
        : nf(locale, { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(x);
      assert.equal(F.percent(x), pWant, `percent(${x}) ${lang}`);
      const share = Math.abs(x) < 1 ? x : x / 10 ** Math.ceil(Math.log10(Math.abs(x)) + 1);
      assert.equal(F.percentNumber(share), nf(locale, { maximumFractionDigits: share > 0 && share < 0.01 ? 1 : 0 }).format(100 * share), `percentNumber(${share}) ${lang}`);
      checked++;
    }
    assert.ok(checked > 6000);
  }
  setLang('en');
});
