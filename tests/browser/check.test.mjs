// The checker page (check.html) in headless Chromium under the site's CSP:
// each bad input of issue #6 uploaded through the file input gives the CLI's
// message and leaves the page working; good files and the samples give the
// CLI's verdicts; drop, CSV export and the language switch work; a preset
// (also from the link) and a separate logits or probs file give the CLI's fit.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ARTIFACTS, WEB, launch, startPreview } from './harness.mjs';
import { BAD, corpusPath, normals, npyBytes } from '../node/check_cases.mjs';
import { CLI } from '../node/paths.mjs';

let server;
let browser;
let page;

before(async () => {
  server = await startPreview();
  browser = await launch(server.origin);
  page = await browser.context.newPage();
  await page.goto(`${server.origin}/check.html?lang=en`);
  await page.waitForFunction(() => /WebAssembly core compiled|Computed in your browser/.test(document.getElementById('check-footer').textContent));
});

after(async () => {
  await browser?.close();
  server?.stop();
});

function cliMessage(files) {
  const r = spawnSync(CLI, ['check', ...files], { encoding: 'utf8' });
  return r.stderr.trim().replace(/^attnlab: /, '');
}

// Runs one check through `start()` and waits until the page has answered it.
async function answered(start) {
  const run = Number(await page.getAttribute('#check-status', 'data-run'));
  await start();
  await page.waitForFunction((r) => {
    const s = document.getElementById('check-status');
    return Number(s.dataset.run) > r && s.dataset.state !== 'busy';
  }, run, { timeout: 30_000 });
  return page.evaluate(() => ({
    state: document.getElementById('check-status').dataset.state,
    error: document.getElementById('check-error').textContent,
    verdicts: Array.from(document.querySelectorAll('#check-table tbody tr[data-verdict]'), (tr) => tr.dataset.verdict),
  }));
}

const upload = (rels) => answered(() => page.setInputFiles('#check-file', rels.map(corpusPath)));

// The verdict on screen: the result's heading and its summary line within the viewport.
const verdictInView = () => page.evaluate(() => {
  const top = document.getElementById('check-result-heading').getBoundingClientRect().top;
  const bottom = document.getElementById('check-summary').getBoundingClientRect().bottom;
  return top >= 0 && bottom <= innerHeight;
});

test('the page runs under the strict CSP, with keyboard-reachable file inputs drawn in the page\'s language', async () => {
  const csp = await page.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.content);
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
  assert.ok(await page.locator('#check-file').isVisible());
  assert.equal(await page.$eval('#check-file', (el) => el.tabIndex), 0);
  // The scores' file input too: the browser's own "Choose File / No file chosen" (in the
  // browser's language) is hidden behind a label drawn as a button and the chosen file's
  // name, in the page's; the input stays in the tab order and its label shows its focus.
  assert.equal(await page.textContent('label[for="check-scores-file"]'), 'Choose the file');
  assert.equal(await page.textContent('#check-scores-name'), 'No file chosen');
  assert.deepEqual(await page.$eval('#check-scores-file', (el) => {
    const r = el.getBoundingClientRect();
    return [r.width <= 1 && r.height <= 1, getComputedStyle(el).opacity, el.tabIndex];
  }), [true, '0', 0]);
  await page.focus('#check-scores-probs');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'check-scores-file', 'Tab reaches the input');
  assert.equal(await page.$eval('label[for="check-scores-file"]', (l) => getComputedStyle(l).outlineStyle), 'solid');
  await page.keyboard.press('Shift+Tab');
  assert.match(await page.textContent('#check-privacy'), /never leaves your browser/);
  assert.match(await page.textContent('#check-snippet'), /register_forward_hook/);
  // The limits the page states are the core's (checkLimits()), not copies in JS.
  await page.waitForFunction(() => document.getElementById('check-limits').textContent !== '');
  assert.match(await page.textContent('#check-limits'), /^Limits: files up to 64 MiB; q and k up to 4,194,304 values each \(heads·n·dₖ\), n up to 4096, dₖ up to 65,536;/);
});

const GENERIC = { en: 'This value cannot be used here. Try another one.', zh: '这里无法使用这个值，请换一个。' };

test('every bad input, uploaded, gets a sentence for readers (not the CLI\'s English) and leaves the page working', { timeout: 300_000 }, async () => {
  const seen = new Set();
  for (const c of BAD) {
    const r = await upload(c.files);
    assert.equal(r.state, 'error', c.name);
    const cli = cliMessage(c.files.map(corpusPath));
    assert.ok(r.error !== '' && r.error !== GENERIC.en, `${c.name}: a sentence of its own, got ${JSON.stringify(r.error)}`);
    assert.ok(!r.error.includes(cli) && !r.error.includes(c.expect), `${c.name}: not the core's message: ${r.error}`);
    assert.doesNotMatch(r.error, /rejected|Rejected by the core|was not checked/, c.name);
    assert.match(r.error, /^(The file|The data for [qk]|[qk] |The file’s|\d+ sequences)/, c.name);
    seen.add(r.error);
  }
  assert.ok(seen.size >= 25, `the bad files get different sentences (${seen.size})`);
  // Still working: a good file after all of them.
  const ok = await upload(['npz/good.npz']);
  assert.equal(ok.state, 'done');
  assert.equal(ok.error, '');
});

test('good files and the samples give the CLI\'s verdicts; a table row per head', async () => {
  for (const rels of [['npz/good.npz'], ['npy/k.npy', 'npy/q.npy'], ['csv/good_tagged.csv'], ['json/good.json']]) {
    const r = await upload(rels);
    assert.equal(r.state, 'done', rels.join(' + '));
    // Two files are taken as q and k by their names, whatever the order given.
    const ordered = rels.length === 2 ? [...rels].sort().reverse() : rels;
    const native = JSON.parse(spawnSync(CLI, ['check', ...ordered.map(corpusPath)], { encoding: 'utf8' }).stdout);
    assert.deepEqual(r.verdicts, native.heads.map((h) => h.verdict), rels.join(' + '));
  }
  // Each "Check it" (at the foot of the page) brings its verdict into view: the first and
  // every one after it; the third with motion on (a smooth scroll) as a reader without
  // reduced motion sees it.
  for (const [file, verdict] of [['init.npz', 'fine'], ['saturated.npz', 'frozen'], ['learned.npz', 'fine']]) {
    const motion = file === 'learned.npz';
    if (motion) await page.emulateMedia({ reducedMotion: 'no-preference' });
    const r = await answered(() => page.click(`button[data-sample="${file}"]`));
    assert.deepEqual(r.verdicts, [verdict, verdict, verdict, verdict], file);
    if (motion) {
      await page.waitForFunction(() => {
        const top = document.getElementById('check-result-heading').getBoundingClientRect().top;
        return top >= 0 && document.getElementById('check-summary').getBoundingClientRect().bottom <= innerHeight;
      }, null, { timeout: 5000 });
      await page.emulateMedia({ reducedMotion: 'reduce' });
    } else assert.ok(await verdictInView(), `${file}: the verdict is in view after "Check it"`);
  }
  const bars = await page.$$eval('.check-chart rect.ck-bar', (rs) => rs.length);
  assert.equal(bars, 4 * 4, '4 heads x 4 divisors');
  // The samples from real training-lab runs (2 heads) get the same verdicts as the CLI on the same file.
  for (const file of ['lab-init.npz', 'lab-saturated.npz', 'lab-learned.npz']) {
    const r = await answered(() => page.click(`button[data-sample="${file}"]`));
    assert.ok(await verdictInView(), `${file}: the verdict is in view after "Check it"`);
    const native = JSON.parse(spawnSync(CLI, ['check', path.join(WEB, 'public', 'samples', file)], { encoding: 'utf8' }).stdout);
    assert.deepEqual(r.verdicts, native.heads.map((h) => h.verdict), file);
  }
  const lab = await answered(() => page.click('button[data-sample="lab-init.npz"]'));
  assert.deepEqual(lab.verdicts, ['fine', 'fine'], 'the fresh lab layer');
  // Each run judged at the divisor it trained with, which the file carries: the unscaled run is
  // frozen at 1, the √d_k run sharp and still learning; the summary says where the divisor came from.
  let run = await answered(() => page.click('button[data-sample="lab-saturated.npz"]'));
  assert.deepEqual(run.verdicts, ['frozen', 'frozen']);
  assert.match(await page.textContent('#check-summary'), /verdict at divisor 1 \(the file’s own “divisor” array\): 2 frozen\.$/);
  run = await answered(() => page.click('button[data-sample="lab-learned.npz"]'));
  assert.deepEqual(run.verdicts, ['sharp', 'sharp']);
  assert.match(await page.textContent('#check-summary'), /verdict at divisor √dₖ = 16 \(the file’s own “divisor” array\): 2 sharp and learning\.$/);
  for (const why of await page.$$eval('#check-table td.ck-why', (tds) => tds.map((td) => td.textContent)))
    assert.match(why, /put more than 0\.9 on one key, and the gradient still flows: the median row’s largest p\(1 − p\) off its top key is [\d.]+( × 10[⁻¹²³⁴⁵⁶⁷⁸⁹⁰]+)?, above 2⁻²⁴\./);
  await answered(() => page.click('button[data-sample="init.npz"]'));
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, 'check-1280.png'), fullPage: true });
});

test('a dropped file is checked like a chosen one', async () => {
  const r = await answered(() => page.evaluate(async () => {
    const bytes = await (await fetch('./samples/init.npz')).arrayBuffer();
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], 'dropped.npz'));
    document.getElementById('check-drop').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }));
  assert.equal(r.state, 'done');
  assert.match(await page.textContent('#check-summary'), /^dropped\.npz: 4 heads/);
});

test('an .npz with the model\'s logits or probs shows the fitted divisor per head, in both languages', async () => {
  const fixture = (f) => path.join(path.dirname(corpusPath('.')), '..', 'fixtures', 'scale_fit', f);
  const fits = () => page.$$eval('#check-table td.ck-fit', (tds) => tds.map((td) => ({ fit: td.dataset.fit, text: td.textContent })));
  let r = await answered(() => page.setInputFiles('#check-file', [fixture('logits_dmodel.npz')]));
  assert.equal(r.state, 'done');
  let f = await fits();
  assert.deepEqual(f.map((x) => x.fit), ['width', 'width']);
  for (const x of f) assert.match(x.text, /divides by 5\.7 ≈ √32 = √d_model \(2 heads × dₖ 16\): the head width should be used/);  // c as the CLI writes it
  r = await answered(() => page.setInputFiles('#check-file', [fixture('probs_causal.npz')]));
  f = await fits();
  assert.deepEqual(f.map((x) => x.fit), ['expected', 'expected']);
  for (const x of f) assert.match(x.text, /from the file’s probs\):.*divides by 4\.0, as expected \(4\.0 = √16; .* 67 masked entries left out\./);
  r = await answered(() => page.setInputFiles('#check-file', [fixture('bad_both.npz')]));
  assert.equal(r.state, 'error');
  assert.match(r.error, /both “logits” and “probs”/);
  await answered(() => page.click('button[data-sample="init.npz"]'));
  assert.equal((await fits()).length, 0, 'no scores, no fit rows');
});

test('the table downloads as CSV, one row per head', async () => {
  await page.click('button[data-sample="saturated.npz"]');
  await page.waitForFunction(() => document.getElementById('check-summary')?.textContent.startsWith('saturated.npz'));
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#check-export')]);
  assert.equal(download.suggestedFilename(), 'saturated-check.csv');
  const lines = fs.readFileSync(await download.path(), 'utf8').trim().split('\n');
  assert.equal(lines.length, 1 + 4);
  assert.match(lines[0], /^head,verdict,reason_code,q_mean,q_var,/);
  assert.match(lines[1], /^0,frozen,frozen_rows,/);
  assert.match(lines[0], /,frozen_share_div_sqrt,grad_median_div_sqrt,row_logit_std_div_sqrt,.*,divisor,divisor_source,reason/);
  assert.match(lines[1], /,8,file,"100% of softmax rows are frozen/);
});

test('the divisor field: a bad one is shown next to it as a sentence for readers; dk changes the verdicts', async () => {
  await page.fill('#check-divisor', 'abc');
  let r = await upload(['npz/good.npz']);
  assert.equal(r.state, 'error');
  assert.match(await page.textContent('#check-divisor-msg'), /^The divisor must be a number such as 8 or 0\.5 \(greater than 0, at most 10¹²\), or “sqrt” for √dₖ, or “dk” for dₖ\.$/);
  assert.equal(r.error, 'The file was not checked: see the option marked above.');
  assert.equal(await page.getAttribute('#check-divisor', 'aria-invalid'), 'true');
  await page.fill('#check-divisor', '0');
  r = await upload(['npz/good.npz']);
  assert.equal(await page.textContent('#check-divisor-msg'), 'The divisor must be greater than 0 and at most 10¹².');
  await page.fill('#check-divisor', 'dk');
  r = await answered(() => page.click('button[data-sample="saturated.npz"]'));
  assert.equal(r.state, 'done');
  assert.equal(await page.getAttribute('#check-divisor', 'aria-invalid'), null);
  assert.ok(r.verdicts.every((v) => v !== 'frozen'), `÷ d_k: ${r.verdicts}`);
  assert.match(await page.textContent('#check-summary'), /verdict at divisor dₖ = 64: /, 'the reader\'s divisor, no source note');
  await page.fill('#check-divisor', '');
});

test('where q and k come from: sharp and learning is worded as expected from a trained model; frozen stays a fault', async () => {
  // A trained run's sample answers the question itself; the core's verdicts (data-verdict) stay the CLI's.
  const r = await answered(() => page.click('button[data-sample="lab-learned.npz"]'));
  assert.ok(await page.isChecked('#check-from-trained'));
  assert.deepEqual(r.verdicts, ['sharp', 'sharp']);
  const cells = () => page.$$eval('#check-table td.ck-verdict', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(await cells(), ['sharp and learning', 'sharp and learning']);
  assert.match(await page.textContent('#check-from-note'), /^From a trained model, sharp attention is expected/);
  assert.match(await page.textContent('#check-from-note'), /A frozen head is a fault wherever q and k come from/);
  assert.doesNotMatch(await page.textContent('#check-table'), /Dividing by/, 'no smaller-divisor advice for a trained model');
  // The unscaled run is frozen: a fault whatever the reader says, and never called expected.
  await answered(() => page.click('button[data-sample="lab-saturated.npz"]'));
  assert.deepEqual(await cells(), ['frozen', 'frozen']);
  assert.equal(await page.$$eval('#check-table td.ck-v-frozen', (tds) => tds.length), 2, 'frozen keeps its colour');
  // The reader says otherwise: the same report, worded for a layer at initialisation.
  await answered(() => page.click('button[data-sample="lab-learned.npz"]'));
  await page.check('#check-from-init');
  assert.deepEqual(await cells(), r.verdicts.map((v) => ({ fine: 'fine', at_risk: 'at risk', too_flat: 'too flat', sharp: 'sharp and learning', frozen: 'frozen' })[v]));
  assert.match(await page.textContent('#check-from-note'), /^At initialisation no key has been learned yet: a sharp row comes from the logits’ scale alone/);
  // A fresh layer's sample answers "at initialisation"; all fine, no note.
  await answered(() => page.click('button[data-sample="init.npz"]'));
  assert.ok(await page.isChecked('#check-from-init'));
  assert.equal(await page.$('#check-from-note'), null);
  await page.selectOption('#lang-select', 'zh');
  await answered(() => page.click('button[data-sample="lab-learned.npz"]'));
  assert.ok((await cells()).includes('尖锐且仍在学习'));
  assert.match(await page.textContent('#check-from-note'), /^来自训练好的模型时/);
  assert.match(await page.textContent('#check-summary'), /按除数 √dₖ = 16（文件自带的 “divisor” 数组） 判断：2 个尖锐且仍在学习。$/);
  await answered(() => page.click('button[data-sample="lab-saturated.npz"]'));
  assert.deepEqual(await cells(), ['已冻结', '已冻结']);
  assert.equal(await page.textContent('#check-from legend'), '这些 q 与 k 从何而来？');
  await page.selectOption('#lang-select', 'en');
});

test('PyTorch\'s default init, uploaded: too flat, with the CLI\'s reason in the page\'s words', async () => {
  // q and k entries U(-1, 1) (variance 1/3, nn.Linear's default on unit inputs), 2 heads of 64 × 64.
  let x = 11;
  const uniform = () => 2 * ((x = (x * 48271) % 2147483647) / 2147483647) - 1;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-flat-'));
  const qf = path.join(dir, 'q.npy'), kf = path.join(dir, 'k.npy');
  fs.writeFileSync(qf, npyBytes(Array.from({ length: 2 * 64 * 64 }, () => Math.fround(uniform())), [2, 64, 64]));
  fs.writeFileSync(kf, npyBytes(Array.from({ length: 2 * 64 * 64 }, () => Math.fround(uniform())), [2, 64, 64]));
  const r = await answered(() => page.setInputFiles('#check-file', [qf, kf]));
  await page.check('#check-from-init');  // a freshly initialised layer
  const native = JSON.parse(spawnSync(CLI, ['check', qf, kf], { encoding: 'utf8' }).stdout);
  assert.deepEqual(r.verdicts, ['too_flat', 'too_flat']);
  assert.deepEqual(r.verdicts, native.heads.map((h) => h.verdict));
  assert.match(await page.textContent('#check-summary'), /verdict at divisor √dₖ = 8 \(√dₖ: neither the file nor the field names one\): 2 too flat\.$/);
  const whys = await page.$$eval('#check-table td.ck-why', (tds) => tds.map((td) => td.textContent));
  whys.forEach((why, i) => {
    const d = native.heads[i].divisors[0];
    assert.ok(why.includes(`vary by ${Number(d.row_logit_std.toPrecision(3))} within a row`), why);
    assert.match(why, /attention is close to uniform \(mean entropy 4\.\d+ of ln 64 = 4\.16 nats\)/);
    assert.match(why, /Dividing by [\d.]+ would bring the logit variance to 1\./);
  });
});

test('the array names and sequences fields: a bad value gets a sentence next to its field', async () => {
  await page.$eval('details.names', (d) => { d.open = true; });
  await page.fill('#check-qname', 'a b');
  let r = await upload(['npz/good.npz']);
  assert.equal(r.state, 'error');
  assert.match(await page.textContent('#check-names-msg'), /^An array name must be 1 to 64 characters without spaces, commas or quotes\.$/);
  assert.equal(await page.getAttribute('#check-qname', 'aria-invalid'), 'true');
  await page.fill('#check-qname', 'q');
  await page.fill('#check-sequences', '3');
  r = await upload(['npz/good.npz']);
  assert.equal(r.state, 'error');
  assert.equal(await page.textContent('#check-sequences-msg'), '3 sequences do not split q’s 5 rows and k’s 5 rows into equal blocks.');
  assert.equal(await page.textContent('#check-names-msg'), '', 'the names field is fine again');
  await page.fill('#check-sequences', '');
  r = await upload(['npz/good.npz']);
  assert.equal(r.state, 'done');
  assert.equal(await page.textContent('#check-sequences-msg'), '');
  assert.equal(await page.getAttribute('#check-sequences', 'aria-invalid'), null);
});

test('Chinese: a bad file, a bad divisor and a bad name get sentences in Chinese, and follow the language switch', async () => {
  await page.selectOption('#lang-select', 'zh');
  let r = await upload(BAD.find((c) => c.name === 'npy-wrong-magic').files);
  assert.equal(r.state, 'error');
  assert.equal(r.error, 'q 的数据不是 .npy 文件：它的开头与这种文件不符。');
  r = await upload(BAD.find((c) => c.name === 'csv-ragged').files);
  assert.equal(r.error, '该文件：第 3 行有 3 个数，但第一行（第 1 行）有 4 个；每行的个数必须相同。');
  // The language switch rewrites the sentence shown.
  await page.selectOption('#lang-select', 'en');
  assert.equal(await page.textContent('#check-error'), 'The file: line 3 has 3 numbers, but the first row (line 1) has 4; every row needs the same number.');
  await page.selectOption('#lang-select', 'zh');
  await page.fill('#check-divisor', '0');
  r = await upload(['npz/good.npz']);
  assert.equal(await page.textContent('#check-divisor-msg'), '除数必须大于 0 且不超过 10¹²。');
  assert.equal(r.error, '文件未被检查：请看上方标出的选项。');
  await page.fill('#check-divisor', 'sqrt');
  await page.fill('#check-qname', 'same');
  await page.fill('#check-kname', 'same');
  r = await upload(['npz/good.npz']);
  assert.equal(await page.textContent('#check-names-msg'), 'q 和 k 的数组名必须不同。');
  await page.fill('#check-qname', 'q');
  await page.fill('#check-kname', 'k');
  r = await upload(['npz/good.npz']);
  assert.equal(r.state, 'done');
  await page.selectOption('#lang-select', 'en');
});

test('Chinese: the page and the report follow the language switch', async () => {
  await answered(() => page.click('button[data-sample="init.npz"]'));
  await page.selectOption('#lang-select', 'zh');
  assert.equal(await page.textContent('#check-title'), '检查你自己的 q 与 k');
  assert.equal(await page.textContent('#check-table tbody tr td.ck-verdict'), '正常');
  assert.match(await page.textContent('#check-summary'), /4 个头/);
  assert.equal(await page.textContent('label[for="check-scores-file"]'), '选择文件');
  assert.equal(await page.textContent('#check-scores-name'), '未选择文件');
  await page.selectOption('#lang-select', 'en');
  assert.deepEqual(browser.problems, []);
});

test('the chart is drawn at its box\'s width: its labels stay readable on a phone', async () => {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await answered(() => page.click('button[data-sample="saturated.npz"]'));
    const c = await page.$eval('.check-chart', (svg) => ({
      box: svg.getBoundingClientRect().width, view: Number(svg.getAttribute('viewBox').split(' ')[2]),
      label: Math.min(...[...svg.querySelectorAll('.ck-tick')].map((t) => t.getBoundingClientRect().height)),
    }));
    assert.ok(c.box <= width, `chart ${c.box} px on a ${width} px screen`);
    assert.ok(c.label >= 11, `${width} px: tick labels ${c.label.toFixed(1)} px tall`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  assert.deepEqual(browser.problems, []);
});

test('a preset (from the link) and a separate logits file: the CLI\'s fit, its CSV columns, and bad files\' sentences in both languages', { timeout: 180_000 }, async () => {
  // q, k [2 heads, 12, d_k 128] and the model's logits q·k / 12 soft-capped at 50, as Gemma 2 27B computes them.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-check-preset-'));
  const H = 2, n = 12, dk = 128;
  const q = normals(H * n * dk, 71, 3).map(Math.fround), k = normals(H * n * dk, 72).map(Math.fround);
  const s = [];
  for (let h = 0; h < H; h++)
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        let d = 0;
        for (let c = 0; c < dk; c++) d += q[(h * n + i) * dk + c] * k[(h * n + j) * dk + c];
        s.push(d);
      }
  const write = (name, values, shape) => {
    const f = path.join(tmp, name);
    fs.writeFileSync(f, npyBytes(values, shape));
    return f;
  };
  const qf = write('q.npy', q, [H, n, dk]), kf = write('k.npy', k, [H, n, dk]);
  const logits = write('logits.npy', s.map((x) => 50 * Math.tanh(x / 12 / 50)), [H, n, n]);
  const cli = (args) => JSON.parse(spawnSync(CLI, ['check', qf, kf, ...args], { encoding: 'utf8' }).stdout);

  await page.goto(`${server.origin}/check.html?lang=en&preset=gemma2-27b`);
  await page.waitForFunction(() => document.getElementById('check-preset').value === 'gemma2-27b');
  assert.match(await page.textContent('#check-preset-source'),
    /^Gemma 2 27B: dₖ 128, divides by 12 \(sqrt\(query_pre_attn_scalar\) = sqrt\(144\)\), attention logits soft-capped at 50\. Source: google\/gemma-2-27b config\.json/);
  assert.ok(await page.isDisabled('#check-divisor'), 'the preset sets the divisor');
  let r = await answered(() => page.setInputFiles('#check-file', [qf, kf]));
  assert.equal(r.state, 'done');
  assert.deepEqual(r.verdicts, cli(['--preset', 'gemma2-27b']).heads.map((h) => h.verdict));
  assert.match(await page.textContent('#check-summary'), /verdict at divisor 12 \(preset Gemma 2 27B\)/);

  // The logits as a file of their own: the page checks the same q and k again, with the fit.
  r = await answered(() => page.setInputFiles('#check-scores-file', logits));
  assert.equal(r.state, 'done');
  assert.equal(await page.textContent('#check-scores-name'), path.basename(logits), 'the chosen file, by its name');
  const native = cli(['--preset', 'gemma2-27b', '--logits', logits]);
  const fits = await page.$$eval('#check-table td.ck-fit', (tds) => tds.map((td) => ({ fit: td.dataset.fit, text: td.textContent })));
  assert.deepEqual(fits.map((f) => f.fit), native.heads.map((h) => h.scale_fit.verdict));
  assert.deepEqual(fits.map((f) => f.fit), ['expected', 'expected']);
  for (const f of fits)
    assert.match(f.text, /divides by 12, as expected \(12 = √144 for Gemma 2 27B; fit residual .*\)\. The soft-cap 50 was undone first/);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#check-export')]);
  // CSV fields, a quoted one holding commas (the sentences).
  const fields = (line) => Array.from(line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g), (m) => m[1]).slice(0, -1);
  const lines = fs.readFileSync(await download.path(), 'utf8').trim().split('\n');
  const header = fields(lines[0]);
  for (const col of ['preset', 'fit_input', 'fit_expected', 'fit_softcap', 'fit_verdict', 'fit_c', 'fit_residual', 'fit_masked', 'fit_sentence'])
    assert.ok(header.includes(col), col);
  const row = fields(lines[1]);
  assert.equal(row.length, header.length);
  assert.equal(row[header.indexOf('preset')], 'gemma2-27b');
  assert.equal(row[header.indexOf('fit_verdict')], 'expected');
  assert.ok(Math.abs(Number(row[header.indexOf('fit_c')]) - native.heads[0].scale_fit.c) < 1e-5);
  assert.equal(Number(row[header.indexOf('fit_expected')]), 12);

  // A preset whose d_k is not the file's: the core's sentence next to the select, in English and Chinese.
  r = await answered(() => page.selectOption('#check-preset', 'gpt2'));
  assert.equal(r.state, 'error');
  assert.equal(await page.textContent('#check-preset-msg'), 'q and k have dₖ = 128, but preset GPT-2 has dₖ = 64: choose a preset for this dₖ, or none.');
  assert.equal(await page.getAttribute('#check-preset', 'aria-invalid'), 'true');
  assert.equal(r.error, 'The file was not checked: see the option marked above.');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('preset') === 'gpt2');
  await page.selectOption('#lang-select', 'zh');
  assert.equal(await page.textContent('#check-preset-msg'), 'q 和 k 的 dₖ 是 128，但预设 GPT-2 的 dₖ 是 64：请选择适合这个 dₖ 的预设，或不用预设。');
  await page.selectOption('#lang-select', 'en');

  // No preset: the divisor field is back; the fit now expects √128.
  r = await answered(() => page.selectOption('#check-preset', ''));
  assert.equal(r.state, 'done');
  assert.ok(!(await page.isDisabled('#check-divisor')));
  assert.equal(await page.inputValue('#check-divisor'), '', 'empty: the file\'s own divisor, else √dₖ');
  await page.waitForFunction(() => !new URL(location.href).searchParams.has('preset'));

  // Bad scores files: the sentence next to the scores input, in both languages.
  const bad = [
    ['wrong shape', 'logits', write('wrong.npy', s.slice(0, 2 * 12 * 11), [2, 12, 11]),
      'The model’s logits or probabilities have shape (2, 12, 11), but q and k need (2, 12, 12): one row per query over its sequence’s keys.'],
    ['NaN', 'logits', write('nan.npy', s.map((x, i) => (i === 5 ? NaN : x)), [2, 12, 12]),
      'The model’s logits or probabilities hold a value that is not a finite number at position (0, 0, 5); only a logit may be −∞, as a mask.'],
    ['a negative probability', 'probs', write('neg.npy', s.map((x, i) => (i === 0 ? -0.5 : 1 / 12)), [2, 12, 12]),
      'The probabilities hold a negative value at position (0, 0, 0): probabilities cannot be negative.'],
    ['rows off 1', 'probs', write('rows.npy', s.map((x, i) => (i < 12 ? 0.2 : 1 / 12)), [2, 12, 12]), null],
  ];
  for (const [name, kind, file, en] of bad) {
    await page.check(`#check-scores-${kind}`);
    r = await answered(() => page.setInputFiles('#check-scores-file', file));
    assert.equal(r.state, 'error', name);
    assert.equal(r.error, 'The file was not checked: see the option marked above.', name);
    assert.equal(await page.getAttribute('#check-scores-file', 'aria-invalid'), 'true', name);
    const msg = await page.textContent('#check-scores-msg');
    if (en) assert.equal(msg, en, name);
    else assert.match(msg, /^A row of the probabilities sums to 2\.4: each row must sum to 1 \(within 0\.01\), or every row to one same number\.$/, name);
    await page.selectOption('#lang-select', 'zh');
    const zh = await page.textContent('#check-scores-msg');
    assert.match(zh, /[\u4e00-\u9fff]/, `${name}: Chinese`);
    assert.notEqual(zh, msg, name);
    await page.selectOption('#lang-select', 'en');
  }
  // Given twice: an .npz holding its own logits beside a separate file.
  await page.check('#check-scores-logits');
  await answered(() => page.setInputFiles('#check-scores-file', logits));
  const fixture = path.join(path.dirname(corpusPath('.')), '..', 'fixtures', 'scale_fit', 'logits_dmodel.npz');
  r = await answered(() => page.setInputFiles('#check-file', [fixture]));
  assert.equal(r.state, 'error');
  assert.equal(await page.textContent('#check-scores-msg'), 'The .npz already holds its own “logits” array: remove the separate file, or give q and k without it.');
  await page.selectOption('#lang-select', 'zh');
  assert.equal(await page.textContent('#check-scores-msg'), '该 .npz 已自带 “logits” 数组：请移除单独的文件，或给出不含它的 q 与 k。');
  await page.selectOption('#lang-select', 'en');
  // Removed: the same .npz is checked with its own logits.
  r = await answered(() => page.click('#check-scores-clear'));
  assert.equal(r.state, 'done');
  assert.equal(await page.textContent('#check-scores-msg'), '');
  assert.equal(await page.textContent('#check-scores-name'), 'No file chosen');
  assert.deepEqual(browser.problems, []);
});
