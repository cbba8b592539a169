// <attn-train-compare> embedded in another origin's page, as a host would
// use it: web/dist/embed on one origin (with CORS), the host page on another
// with a strict CSP. A small comparison (d_k = 16, 60 steps, divisors 1 and
// √d_k) runs to the end; the table alternative holds the core's numbers
// (finite, the loss lower at the end than at step 0, one row per divisor) and
// the footer says where the core ran: in a worker where the host's CSP allows
// blob: workers, on the main thread where it does not (the run still ends).
// Needs web/dist (the site's build and the embed build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { WEB, launch } from './harness.mjs';
import { serveStatic } from './static-server.mjs';

const EMBED_DIR = path.join(WEB, 'dist', 'embed');

function hostPage(embedOrigin, { metaCsp = null, attrs = '', settings = 'dk="16" steps="60" divisors="1,sqrt"' } = {}) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title>
${metaCsp ? `<meta http-equiv="Content-Security-Policy" content="${metaCsp}">` : ''}</head><body>
<h1>A host page</h1>
<attn-train-compare ${settings}${attrs}></attn-train-compare>
<script type="module" src="${embedOrigin}/attnlab.js"></script></body></html>`;
}

// The comparison's outcome as the widget shows it: its state, the table's raw numbers, the footer.
function readWidget() {
  const el = document.querySelector('attn-train-compare');
  const root = el.shadowRoot;
  const box = root.querySelector('.attn-root');
  const rows = [...root.querySelectorAll('table.data-table tbody tr')].map((tr) => ({
    div: tr.dataset.div,
    state: tr.dataset.state,
    ...Object.fromEntries([...tr.querySelectorAll('td[data-col]')].map((td) => [td.dataset.col, td.dataset.value === undefined ? null : Number(td.dataset.value)])),
  }));
  const status = root.querySelector('.embed-status');
  return {
    run: box.dataset.run, totalMs: Number(box.dataset.totalMs), rows,
    footer: status?.textContent ?? '', footerState: status?.dataset.state,
    runLines: [...root.querySelectorAll('.train-runs li')].map((li) => li.textContent),
    errors: [...root.querySelectorAll('.msg')].map((m) => m.textContent).filter(Boolean),
  };
}

async function runOnHost({ csp, cspAs, start }) {
  const embed = await serveStatic({ dir: EMBED_DIR, headers: () => ({ 'Access-Control-Allow-Origin': '*' }) });
  const policy = csp(embed.origin);
  const host = await serveStatic({
    // (the browser asks for /favicon.ico: an empty answer instead of a 404 in the console)
    pages: { '/favicon.ico': '', '/': hostPage(embed.origin, { metaCsp: cspAs === 'meta' ? policy : null, attrs: start === 'autostart' ? ' autostart' : '' }) },
    headers: (p) => (cspAs === 'header' && p === '/' ? { 'Content-Security-Policy': policy } : {}),
  });
  const browser = await launch(host.origin);
  try {
    const page = await browser.context.newPage();
    const attnErrors = [];
    await page.exposeFunction('__attnError', (d) => attnErrors.push(d));
    await page.addInitScript(() => document.addEventListener('attn-error', (e) => window.__attnError(e.detail)));
    await page.goto(host.origin + '/');
    await page.waitForFunction(() => customElements.get('attn-train-compare') && document.querySelector('attn-train-compare').shadowRoot);
    const t0 = Date.now();
    if (start === 'method') assert.equal(await page.evaluate(() => document.querySelector('attn-train-compare').start()), true);
    await page.waitForFunction(() => {
      const box = document.querySelector('attn-train-compare').shadowRoot.querySelector('.attn-root');
      return ['done', 'failed', 'invalid'].includes(box.dataset.run);
    }, null, { timeout: 60_000 });
    const wallMs = Date.now() - t0;
    await page.waitForFunction(() => document.querySelector('attn-train-compare').shadowRoot.querySelector('.embed-status')?.dataset.state !== 'loading');
    const w = await page.evaluate(readWidget);
    const problems = browser.problems.filter((p) => !p.includes(`request to another origin: ${embed.origin}/`)
      // The fallback's one expected refusal: the host's CSP forbids the blob: worker.
      && !(cspAs === 'header' && /worker|Content Security Policy/i.test(p)));
    return { w, wallMs, attnErrors, problems, embedRequests: embed.requests };
  } finally {
    await browser.close();
    await embed.stop();
    await host.stop();
  }
}

function checkOutcome({ w, attnErrors, problems }, { setup = [] } = {}) {
  assert.equal(w.run, 'done', `the comparison ended: ${JSON.stringify(w)}`);
  assert.deepEqual(w.errors, []);
  // The setup kinds expected (a non-fatal worker-src where the CSP allows no worker), nothing else.
  assert.deepEqual(attnErrors.map((e) => `${e.kind} ${e.fatal}`), setup.map((k) => `${k} false`));
  assert.deepEqual(problems, []);
  assert.deepEqual(w.rows.map((r) => r.div), ['1', 'sqrt'], 'one row per divisor, in order');
  for (const r of w.rows) {
    assert.equal(r.state, 'done');
    for (const k of ['initLoss', 'loss', 'accuracy', 'steps']) assert.ok(Number.isFinite(r[k]), `${r.div} ${k} = ${r[k]}`);
    assert.equal(r.steps, 60);
    assert.ok(r.loss < r.initLoss, `${r.div}: the loss fell (${r.initLoss} -> ${r.loss})`);
    assert.ok(r.accuracy >= 0 && r.accuracy <= 1);
    assert.ok(Number.isInteger(r.stepsTo90) && r.stepsTo90 >= 0 && r.stepsTo90 <= 60, `${r.div} stepsTo90 = ${r.stepsTo90}`);
  }
  assert.equal(w.rows.find((r) => r.div === '1').value, 1);
  assert.equal(w.rows.find((r) => r.div === 'sqrt').value, 4, '√16');
}

test('embedded with worker-src blob: the comparison runs in a worker and ends with the core\'s numbers', async () => {
  const r = await runOnHost({
    csp: (e) => `default-src 'self'; script-src 'self' ${e} 'wasm-unsafe-eval'; style-src 'self'; worker-src blob: ${e}; connect-src ${e}`,
    cspAs: 'meta', start: 'method',
  });
  checkOutcome(r);
  assert.match(r.w.footer, /in a worker/, r.w.footer);
  // Only the lab's core: this page has no widget of the explainer.
  assert.ok(r.embedRequests.some((p) => /attnlab_lab_(relaxed|simd|scalar)/.test(p)), 'the lab core loaded');
  assert.ok(!r.embedRequests.some((p) => /attnlab_(explain|check|bench)_/.test(p)), `no other core: ${r.embedRequests.join(' ')}`);
  console.log(`worker: the comparison took ${r.w.totalMs} ms (${r.wallMs} ms from start() to the end, as the test saw it)`);
});

test('embedded without worker-src (a CSP header): the comparison falls back to the main thread and still ends', async () => {
  const r = await runOnHost({
    csp: (e) => `default-src 'self'; script-src 'self' ${e} 'wasm-unsafe-eval'; style-src 'self'; connect-src ${e}`,
    cspAs: 'header', start: 'autostart',
  });
  checkOutcome(r, { setup: ['worker-src'] });
  assert.match(r.w.footer, /on the main thread.*add worker-src blob:/, r.w.footer);
  console.log(`main thread: the comparison took ${r.w.totalMs} ms (${r.wallMs} ms as the test saw it)`);
});

test('the dist has the embed build', () => {
  assert.ok(fs.existsSync(path.join(EMBED_DIR, 'attnlab.js')));
});

test('bad settings typed into the widget: the core\'s errors as sentences next to their fields, in the widget\'s language', async () => {
  const embed = await serveStatic({ dir: EMBED_DIR, headers: () => ({ 'Access-Control-Allow-Origin': '*' }) });
  const host = await serveStatic({ pages: { '/favicon.ico': '', '/': hostPage(embed.origin, { attrs: ' lang="zh"' }) } });
  const browser = await launch(host.origin);
  try {
    const page = await browser.context.newPage();
    const attnErrors = [];
    await page.exposeFunction('__attnError', (d) => attnErrors.push(d));
    await page.addInitScript(() => document.addEventListener('attn-error', (e) => window.__attnError(e.detail)));
    await page.goto(host.origin + '/');
    await page.waitForFunction(() => document.querySelector('attn-train-compare')?.shadowRoot?.querySelector('.field-dk input'));
    const type = (field, value) => page.evaluate(([f, v]) => {
      const input = document.querySelector('attn-train-compare').shadowRoot.querySelector(`.field-${f} input`);
      input.value = v;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, [field, value]);
    const messages = () => page.evaluate(() => Object.fromEntries(['dk', 'lr', 'seed'].map((f) =>
      [f, document.querySelector('attn-train-compare').shadowRoot.querySelector(`.field-${f} .msg`).textContent])));
    await type('dk', '0');
    await type('lr', '0');
    await type('seed', '-1');
    await page.evaluate(() => document.querySelector('attn-train-compare').start());
    await page.waitForFunction(() => document.querySelector('attn-train-compare').shadowRoot.querySelector('.attn-root').dataset.run === 'invalid');
    const m = await messages();
    assert.match(m.dk, /^dₖ 必须是 1 到 [\d,]+ 之间的整数。$/);
    assert.equal(m.lr, '学习率必须大于 0 且不超过 10。');
    assert.match(m.seed, /^随机种子必须是 0 到 [\d,]+ 之间的整数。$/);
    // The host hears the same sentences (attn-error, kind 'core'), never the core's English.
    const core = attnErrors.filter((d) => d.kind === 'core');
    assert.ok(core.length >= 3, JSON.stringify(attnErrors));
    for (const d of core) assert.doesNotMatch(d.message, /must be|got|Rejected|拒绝了此输入/, d.message);
  } finally {
    await browser.close();
    await embed.stop();
    await host.stop();
  }
});

// A diverging run in the widget (issue 14, class 5): SGD at lr 1.1 with d_k 64
// (inside the documented range) makes the run without scaling diverge while
// √d_k trains. The diverged run's curves end with a marked rule (✕ and its
// step) and a sentence under the charts, its line in the run list and its row
// in the table say it diverged, in English and in Chinese; the loss line
// draws only its finite points; the healthy run has no mark.
test('a diverging run: marked on the curves, said in its line, the table and the status, in both languages', async () => {
  const embed = await serveStatic({ dir: EMBED_DIR, headers: () => ({ 'Access-Control-Allow-Origin': '*' }) });
  const host = await serveStatic({ pages: { '/favicon.ico': '', '/': hostPage(embed.origin, {
    settings: 'dk="64" steps="100" divisors="1,sqrt" optimizer="sgd" lr="1.1"' }) } });
  const browser = await launch(host.origin);
  try {
    const page = await browser.context.newPage();
    await page.goto(host.origin + '/');
    await page.waitForFunction(() => document.querySelector('attn-train-compare')?.shadowRoot?.querySelector('.attn-root'));
    assert.equal(await page.evaluate(() => document.querySelector('attn-train-compare').start()), true);
    await page.waitForFunction(() => ['done', 'failed', 'invalid'].includes(
      document.querySelector('attn-train-compare').shadowRoot.querySelector('.attn-root').dataset.run), null, { timeout: 60_000 });
    const read = () => page.evaluate(() => {
      const root = document.querySelector('attn-train-compare').shadowRoot;
      return {
        run: root.querySelector('.attn-root').dataset.run,
        status: root.querySelector('.train-status').textContent,
        rows: [...root.querySelectorAll('table.data-table tbody tr')].map((tr) => ({
          div: tr.dataset.div, state: tr.dataset.state, diverged: tr.dataset.diverged ?? null,
          stepsTo90: tr.querySelector('td[data-col="stepsTo90"]').textContent,
          steps: Number(tr.querySelector('td[data-col="steps"]').dataset.value),
          loss: tr.querySelector('td[data-col="loss"]').textContent,
        })),
        lines: [...root.querySelectorAll('.train-runs li')].map((li) => [li.dataset.state, li.querySelector('.run-text').textContent]),
        marks: [...root.querySelectorAll('.uchart')].map((f) => f.dataset.marks ?? ''),
        markLabels: [...root.querySelectorAll('.uchart-svg > g:last-of-type text')].map((x) => x.textContent),
        note: root.querySelector('.train-diverged').hidden ? null : root.querySelector('.train-diverged').textContent,
        // The loss chart's line of ÷1 (the first series): one M or L per point it draws.
        lossPoints: (root.querySelectorAll('.uchart')[0].querySelectorAll('.uchart-svg > path')[1].getAttribute('d').match(/[ML]/g) ?? []).length,
      };
    });
    const w = await read();
    assert.equal(w.run, 'done', JSON.stringify(w));
    const [one, sqrt] = w.rows;
    assert.equal(one.div, '1');
    assert.equal(one.state, 'diverged');
    const d = Number(one.diverged);
    assert.ok(d >= 2 && d < 100, `diverged at ${d}`);
    assert.ok(one.steps >= d && one.steps < 100, `÷1 stopped at ${one.steps}`);
    assert.equal(one.stepsTo90, `diverged at step ${d}`);
    assert.equal(one.loss, '—', 'no evaluation of a diverged model, and no invented number');
    assert.deepEqual([sqrt.div, sqrt.state, sqrt.diverged, sqrt.steps], ['sqrt', 'done', null, 100]);
    assert.equal(w.lines[0][0], 'diverged');
    assert.match(w.lines[0][1], new RegExp(`^diverged at step ${d}: the loss, a logit, a gradient norm or a number they come from is no longer finite, so it stopped there; a smaller learning rate may train$`));
    assert.doesNotMatch(w.lines[1][1], /diverged/);
    assert.match(w.status, /1 of them diverged \(marked ✕ on the curves\)\./);
    assert.deepEqual(w.marks, [String(d), String(d)], 'both charts mark the step');
    assert.deepEqual(w.markLabels, [`✕ ${d}`, `✕ ${d}`]);
    assert.match(w.note, new RegExp(`^✕ ÷ 1 \\(unscaled\\) diverged at step ${d}: its curve stops there\.$`));
    // Logged at step 1 and every 5: the loss line draws the steps before d, none after.
    assert.equal(w.lossPoints, 1 + Math.floor((d - 1) / 5), `${w.lossPoints} points drawn`);

    await page.evaluate(() => document.querySelector('attn-train-compare').setAttribute('lang', 'zh'));
    await page.waitForFunction(() => /发散/.test(document.querySelector('attn-train-compare').shadowRoot.querySelector('.train-diverged').textContent));
    const z = await read();
    assert.equal(z.rows[0].stepsTo90, `第 ${d} 步发散`);
    assert.match(z.lines[0][1], new RegExp(`^在第 ${d} 步发散：损失、某个 logit、某个梯度范数或它们所依赖的中间量不再是有限数，运行在此停止；较小的学习率也许能训练$`));
    assert.match(z.status, /其中 1 个发散（曲线上以 ✕ 标出）。/);
    assert.match(z.note, new RegExp(`^✕ ÷ 1\\S*：在第 ${d} 步发散，它的曲线在那里结束。$`));
    fs.mkdirSync(path.join(WEB, '..', 'build', 'screenshots'), { recursive: true });
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(200);
      await page.locator('attn-train-compare').screenshot({ path: path.join(WEB, '..', 'build', 'screenshots', `train-compare-diverged-${width}-zh.png`) });
    }
    assert.deepEqual(browser.problems.filter((p) => !p.includes(`request to another origin: ${embed.origin}/`)), []);
  } finally {
    await browser.close();
    await embed.stop();
    await host.stop();
  }
});

test('a healthy comparison in the widget has no divergence mark', async () => {
  const r = await runOnHost({
    csp: (e) => `default-src 'self'; script-src 'self' ${e} 'wasm-unsafe-eval'; style-src 'self'; worker-src blob: ${e}; connect-src ${e}`,
    cspAs: 'meta', start: 'method',
  });
  checkOutcome(r);
  assert.ok(r.w.runLines.every((l) => !/diverged/.test(l)), r.w.runLines.join(' | '));
  assert.ok(r.w.rows.every((row) => row.state === 'done'));
});
