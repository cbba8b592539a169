// The site header on every page: the navigation's five links (right hrefs, the
// current page marked with aria-current, labels in both languages, usable by
// keyboard), the language switch (bench.html's too), and a 320 px screen with
// no sideways scroll. Run after the site and embed builds:
//   node --test --test-concurrency=1 tests/browser/nav.test.mjs
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, startPreview } from './harness.mjs';

const TIMEOUT = 60_000;
const LINKS = [
  { href: 'index.html', en: 'Explanation', zh: '讲解' },
  { href: 'lab.html', en: 'Lab', zh: '训练实验室' },
  { href: 'check.html', en: 'Check', zh: '检查' },
  { href: 'bench.html', en: 'Benchmarks', zh: '基准测试' },
  { href: 'embed.html', en: 'Embed', zh: '嵌入' },
];
const PAGES = LINKS.map((l) => l.href);

let server;
let browser;

before(async () => {
  server = await startPreview();
  browser = await launch(server.origin);
});

after(async () => {
  await browser?.close();
  server?.stop();
});

const readNav = (page) => page.$$eval('header .site-nav a', (as) => as.map((a) => ({
  href: a.getAttribute('href'), current: a.getAttribute('aria-current'), text: a.textContent.trim(),
})));

async function open(path, viewport) {
  const page = await browser.context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  await page.goto(`${server.origin}/${path}`);
  return page;
}

test('every page has the five links, the current one marked, in English and Chinese', { timeout: TIMEOUT * 2 }, async () => {
  for (const current of PAGES) {
    for (const lang of ['en', 'zh']) {
      const page = await open(`${current}?lang=${lang}`);
      await page.waitForFunction((l) => document.documentElement.lang.startsWith(l), lang === 'zh' ? 'zh' : 'en');
      assert.equal(await page.$$eval('nav.site-nav', (n) => n.length), 1, `${current}: one site nav`);
      assert.equal(await page.$eval('nav.site-nav', (n) => n.closest('header')?.className), 'page-header', `${current}: in the header`);
      const nav = await readNav(page);
      assert.deepEqual(nav.map((a) => a.href), PAGES, `${current} hrefs`);
      assert.deepEqual(nav.map((a) => a.current), PAGES.map((p) => (p === current ? 'page' : null)), `${current} aria-current`);
      assert.deepEqual(nav.map((a) => a.text), LINKS.map((l) => l[lang]), `${current} labels in ${lang}`);
      // The nav's accessible name, translated too.
      const name = await page.$eval('nav.site-nav', (n) => document.getElementById(n.getAttribute('aria-labelledby')).textContent);
      assert.equal(name, lang === 'zh' ? '网站导航' : 'Site');
      assert.equal(await page.$$eval('#lang-select', (s) => s.length), 1, `${current}: a language switch`);
      await page.close();
    }
  }
  assert.deepEqual(browser.problems, []);
});

test('the nav works by keyboard: Tab moves along the links, Enter follows one', { timeout: TIMEOUT }, async () => {
  const page = await open('bench.html?lang=en');
  await page.focus('.site-nav a[href="index.html"]');
  const order = [];
  for (let i = 0; i < LINKS.length; i++) {
    order.push(await page.evaluate(() => document.activeElement.getAttribute('href')));
    await page.keyboard.press('Tab');
  }
  assert.deepEqual(order, PAGES);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'lang-select', 'then the language switch');
  // A visible focus ring on a focused link.
  await page.keyboard.press('Shift+Tab');
  assert.notEqual(await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle), 'none');
  await page.focus('.site-nav a[href="lab.html"]');
  await Promise.all([page.waitForURL(/\/lab\.html$/), page.keyboard.press('Enter')]);
  assert.equal(await page.$eval('.site-nav a[aria-current="page"]', (a) => a.getAttribute('href')), 'lab.html');
  await page.close();
  assert.deepEqual(browser.problems, []);
});

test('bench.html has a working language switch', { timeout: TIMEOUT }, async () => {
  const page = await open('bench.html?lang=en');
  await page.waitForSelector('#bench-run');
  assert.equal(await page.textContent('h1'), 'How fast is the core in your browser?');
  assert.equal(await page.textContent('#bench-run'), 'Run the benchmarks');
  await page.selectOption('#lang-select', 'zh');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-Hans');
  assert.equal(await page.textContent('h1'), '计算核心在你的浏览器里有多快？');
  assert.equal(await page.textContent('#bench-run'), '运行基准测试');
  assert.equal(await page.textContent('label[for="bench-samples"]'), '每格采样次数');
  assert.deepEqual((await readNav(page)).map((a) => a.text), LINKS.map((l) => l.zh));
  assert.match(page.url(), /lang=zh/);
  await page.selectOption('#lang-select', 'en');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  assert.equal(await page.textContent('#bench-run'), 'Run the benchmarks');
  await page.close();
  assert.deepEqual(browser.problems, []);
});

test('at 320 px the header fits and the pages have no sideways scroll, the nav wrapping', { timeout: TIMEOUT * 2 }, async () => {
  for (const path of PAGES) {
    for (const lang of ['en', 'zh']) {
      const page = await open(`${path}?lang=${lang}`, { width: 320, height: 700 });
      await page.waitForSelector('#lang-select');
      const m = await page.evaluate(() => ({
        overflow: document.documentElement.scrollWidth - innerWidth,
        right: Math.max(...[...document.querySelectorAll('.site-bar, .site-bar a, #lang-select')]
          .map((e) => e.getBoundingClientRect().right)),
      }));
      // embed.html's live widgets (in their shadow roots) are wider than 320 px
      // in places, whatever the header does: there only the header is checked.
      if (path !== 'embed.html') assert.ok(m.overflow <= 0, `${path} (${lang}) is ${m.overflow}px wider than 320 px`);
      assert.ok(m.right <= 320, `${path} (${lang}): the header reaches ${m.right}px`);
      await page.close();
    }
  }
  assert.deepEqual(browser.problems, []);
});
