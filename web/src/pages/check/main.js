// The checker page: the reader gives one file holding q and k (or two files,
// q then k), optionally the model's own logits or probabilities, and a preset
// or a divisor; the core worker parses and checks them in wasm, through the
// CLI's own path (cpp/core/checker/check_run.h), and the page draws the
// per-head report. Nothing leaves the browser: files are read with
// File.arrayBuffer() and their bytes are copied to the worker.
import '../../base/style.css';
import '../site/page.css';
import '../site/nav-strings.js';
import './check.css';
import { checkClient as client } from '../../bridge/check-client.js';
import { readerError } from '../../bridge/errors.js';
import { buildName } from '../../bridge/build-names.js';
import { applyDocument, onLangChange, t } from '../../base/i18n.js';
import { h, reducedMotion, setFieldError } from '../../base/dom.js';
import { decimals, int, significant } from '../../base/format.js';
import { readState, writeState } from '../../base/state.js';
import { wholeText } from '../../base/number-text.js';
import * as langSwitch from '../../widgets/lang-switch.js';
import { CHECK_LIMITS as limits } from '../../wasm/check-limits.js';
import { MODEL_PRESETS as presets } from '../../wasm/presets.js';
import { renderReport, reportCsv } from './report.js';
import './strings.js';
import snippet from './capture_qk.py?raw';

// The checker's own core module (readers, report) is in a worker of its own
// (bridge/check-client.js), with its own wrapper (attn-check.js).

// The checker's limits (base/size_limits.h) and the presets (base/presets.h),
// the core's, exported from its module at build time (web/scripts/core-facts.mjs),
// not copied here: the page states the limits, and checks a file's size against
// them first so a huge file is never read; the presets fill the select. Both are
// there on the first frame, where a sentence filled in when the worker answered
// grew under a reader who had scrolled on.
const limitParams = () => ({
  mb: int(limits.maxFileBytes / 2 ** 20), values: int(limits.maxValues), n: int(limits.maxSeqLen), dk: int(limits.maxDk),
});
const presetOf = (name) => presets.find((p) => p.name === name) ?? null;

const SAMPLES = [
  { file: 'init.npz', key: 'check.sampleInit', from: 'init' },
  { file: 'saturated.npz', key: 'check.sampleSaturated', from: 'init' },
  { file: 'learned.npz', key: 'check.sampleLearned', from: 'trained' },
  // Real runs of the training lab (attnlab sample-qk --source lab), as its export writes them.
  { file: 'lab-init.npz', key: 'check.sampleLabInit', from: 'init' },
  { file: 'lab-saturated.npz', key: 'check.sampleLabSaturated', from: 'trained' },
  { file: 'lab-learned.npz', key: 'check.sampleLabLearned', from: 'trained' },
];

const byId = (id) => document.getElementById(id);
const root = byId('check');

// ---- the page's elements; text is filled by relabel() ----
const fileInput = h('input', {
  type: 'file', id: 'check-file', multiple: true, accept: '.npy,.npz,.csv,.tsv,.txt,.json',
  'aria-describedby': 'check-file-help check-limits',
});
const chooseLabel = h('label', { for: fileInput.id, class: 'choose' });
const dropText = h('span', { class: 'drop-text' });
const drop = h('div', { class: 'drop-zone', id: 'check-drop' }, dropText, chooseLabel, fileInput);
const divisorInput = h('input', {
  type: 'text', id: 'check-divisor', value: '', list: 'check-divisors', spellcheck: 'false',
  autocomplete: 'off', 'aria-describedby': 'check-divisor-help check-divisor-msg',
});
const divisorMsg = h('p', { class: 'msg', id: 'check-divisor-msg', 'aria-live': 'polite' });
// A preset sets the divisor (and the d_k and soft-cap the fit expects), as `attnlab check --preset`.
const presetSelect = h('select', { id: 'check-preset', 'aria-describedby': 'check-preset-source check-preset-msg' });
const presetSource = h('p', { class: 'hint', id: 'check-preset-source' });
const presetMsg = h('p', { class: 'msg', id: 'check-preset-msg', 'aria-live': 'polite' });
let typedDivisor = '';  // the reader's divisor, back when the preset is cleared ('': the file's, else √d_k)
// The model's own logits or probabilities, a file of their own (--logits / --probs FILE).
// Drawn by its label and the chosen file's name, in the page's language (check.css).
const scoresInput = h('input', {
  type: 'file', id: 'check-scores-file', accept: '.npy,.csv,.tsv,.txt,.json',
  'aria-describedby': 'check-scores-name check-scores-help check-scores-msg',
});
const scoresKinds = ['logits', 'probs'].map((v) => h('input', {
  type: 'radio', name: 'check-scores-kind', id: `check-scores-${v}`, value: v, checked: v === 'logits',
}));
const scoresKind = () => scoresKinds.find((r) => r.checked).value;
const scoresName = h('span', { id: 'check-scores-name', class: 'hint' });
const scoresClear = h('button', { type: 'button', id: 'check-scores-clear', hidden: true });
const scoresMsg = h('p', { class: 'msg', id: 'check-scores-msg', 'aria-live': 'polite' });
let scoresFile = null;  // {name, bytes}: sent with every check until removed
const namesMsg = h('p', { class: 'msg', id: 'check-names-msg', 'aria-live': 'polite' });
const qName = h('input', {
  type: 'text', id: 'check-qname', value: 'q', spellcheck: 'false', autocomplete: 'off', 'aria-describedby': namesMsg.id,
});
const kName = h('input', {
  type: 'text', id: 'check-kname', value: 'k', spellcheck: 'false', autocomplete: 'off', 'aria-describedby': namesMsg.id,
});
const seqMsg = h('p', { class: 'msg', id: 'check-sequences-msg', 'aria-live': 'polite' });
const seqInput = h('input', {
  type: 'number', id: 'check-sequences', min: 1, max: 4096, step: 1, inputmode: 'numeric',
  'aria-describedby': 'check-sequences-help check-sequences-msg',
});
// Where q and k come from: the verdicts' rules are for a layer at
// initialisation; a trained model's sharp attention is worded as such.
const fromRadios = ['init', 'trained'].map((v) => h('input', {
  type: 'radio', name: 'check-from', id: `check-from-${v}`, value: v, checked: v === 'init',
}));
const fromValue = () => fromRadios.find((r) => r.checked).value;
const setFrom = (v) => fromRadios.forEach((r) => (r.checked = r.value === v));
const status = h('p', { id: 'check-status', role: 'status', 'aria-live': 'polite', dataset: { state: 'idle', run: '0' } });
const errorEl = h('p', { id: 'check-error', class: 'msg', role: 'alert' });
const result = h('section', { id: 'check-result', 'aria-labelledby': 'check-result-heading' });
const copyButton = h('button', { type: 'button', id: 'check-copy' });
const copyStatus = h('span', { id: 'check-copy-status', role: 'status', 'aria-live': 'polite' });
const sampleList = h('ul', { class: 'samples' });

const texts = {};  // string key -> the element whose text follows the language
const text = (key, tag = 'p', attrs = {}) => (texts[key] = h(tag, attrs));

root.replaceChildren(
  h('section', { 'aria-labelledby': 'check-file-heading' },
    text('check.fileHeading', 'h2', { id: 'check-file-heading' }),
    text('check.fileHelp', 'p', { id: 'check-file-help' }),
    drop,
    h('fieldset', { class: 'field check-scores', id: 'check-scores' }, text('check.scoresLegend', 'legend'),
      text('check.scoresHelp', 'p', { id: 'check-scores-help', class: 'hint' }),
      h('div', { class: 'radios' }, scoresKinds.map((r) => h('span', { class: 'radio' }, r,
        text(`check.scores_${r.value}`, 'label', { for: r.id })))),
      h('div', { class: 'file-pick' }, text('check.scoresChoose', 'label', { for: scoresInput.id, class: 'choose' }), scoresInput,
        scoresName, scoresClear),
      scoresMsg),
    h('div', { class: 'controls check-options' },
      h('div', { class: 'field check-preset' }, text('check.presetLabel', 'label', { for: presetSelect.id }), presetSelect,
        presetSource, presetMsg),
      h('fieldset', { class: 'field', id: 'check-from' }, text('check.fromLabel', 'legend'),
        h('div', { class: 'radios' }, fromRadios.map((r) => h('span', { class: 'radio' }, r,
          text(`check.from_${r.value}`, 'label', { for: r.id }))))),
      h('div', { class: 'field' }, text('check.divisorLabel', 'label', { for: divisorInput.id }), divisorInput,
        h('datalist', { id: 'check-divisors' }, ['sqrt', 'dk', '1', '2'].map((v) => h('option', { value: v }))),
        text('check.divisorHelp', 'p', { id: 'check-divisor-help', class: 'hint' }), divisorMsg),
      h('details', { class: 'names' }, text('check.moreOptions', 'summary'),
        h('div', { class: 'controls' },
          h('div', { class: 'field' }, text('check.qName', 'label', { for: qName.id }), qName),
          h('div', { class: 'field' }, text('check.kName', 'label', { for: kName.id }), kName)),
        text('check.namesHelp', 'p', { class: 'hint' }), namesMsg,
        h('div', { class: 'field' }, text('check.sequencesLabel', 'label', { for: seqInput.id }), seqInput),
        text('check.sequencesHelp', 'p', { id: 'check-sequences-help', class: 'hint' }), seqMsg)),
    text('check.limits', 'p', { id: 'check-limits', class: 'hint' }),
    status,
    errorEl),
  result,
  h('section', { 'aria-labelledby': 'check-samples-heading' },
    text('check.samplesHeading', 'h2', { id: 'check-samples-heading' }),
    text('check.samplesIntro'),
    sampleList),
  h('section', { 'aria-labelledby': 'check-snippet-heading' },
    text('check.snippetHeading', 'h2', { id: 'check-snippet-heading' }),
    text('check.snippetIntro'),
    h('div', { class: 'snippet' },
      h('pre', { id: 'check-snippet', tabindex: 0 }, h('code', { class: 'language-python', text: snippet })),
      h('div', { class: 'snippet-actions' }, copyButton, copyStatus)),
    text('check.cliNote', 'p', { class: 'hint' })),
  h('p', {}, text('check.back', 'a', { href: './index.html' })),
);

let lastReport = null;  // {report, label}, redrawn on a language change
let lastFiles = null;   // {files, label}: checked again when the preset or the scores change
let lastError = null;   // the core's error of the last check, shown again on a language change
let run = 0;

function relabel() {
  byId('check-title').textContent = t('check.title');
  byId('check-lede').textContent = t('check.lede');
  byId('check-privacy').textContent = t('check.privacy');
  for (const [key, el] of Object.entries(texts)) el.textContent = t(key, limitParams());
  dropText.textContent = t('check.drop');
  chooseLabel.textContent = t('check.choose');
  copyButton.textContent = t('check.copy');
  sampleList.replaceChildren(...SAMPLES.map(({ file, key, from }) => h('li', {},
    h('span', { class: 'sample-name', text: t(key) }), ' ',
    h('button', { type: 'button', dataset: { sample: file }, text: t('check.sampleCheck'), onclick: () => checkSample(file, from) }), ' ',
    h('a', { href: `./samples/${file}`, download: file, text: `${t('check.sampleDownload')} ${file}` }))));
  scoresClear.textContent = t('check.scoresClear');
  scoresName.textContent = scoresFile ? scoresFile.name : t('check.scoresNone');
  divisorInput.placeholder = t('check.divisorPlaceholder');
  fillPresets();
  if (lastReport) show(lastReport.report, lastReport.label);
  if (lastError) showCoreError(lastError);
}

// The select's options (from the core's table) and the chosen preset's line: its numbers and source.
function fillPresets() {
  const chosen = presetSelect.value;
  presetSelect.replaceChildren(h('option', { value: '', text: t('check.presetNone') }),
    ...presets.map((p) => h('option', { value: p.name, text: `${p.label} (${p.name})` })));
  presetSelect.value = presetOf(chosen) ? chosen : '';
  const p = presetOf(presetSelect.value);
  presetSource.textContent = p ? t('check.presetLine', {
    label: p.label, dk: int(p.dk), div: significant(p.divisor), rule: p.rule, source: p.source,
    cap: p.softcap ? t('check.presetCap', { cap: significant(p.softcap) }) : '',
  }) : t('check.presetHelp');
}

// A preset replaces the divisor field (the CLI refuses both): the field shows the preset's number, greyed out.
function applyPreset() {
  const p = presetOf(presetSelect.value);
  if (p && !divisorInput.disabled) typedDivisor = divisorInput.value;
  divisorInput.disabled = Boolean(p);
  divisorInput.value = p ? significant(p.divisor) : typedDivisor;
  if (p) setFieldError(divisorInput, divisorMsg, '');
  fillPresets();
}

// The core's error as a sentence for readers (bridge/errors.js), next to the
// control it is about: the divisor, the array names, the sequences, or the
// file (the status line under the file input). Never the core's English
// message, which goes to the console for whoever wants the detail.
const FIELDS = {
  divisor: [divisorInput, divisorMsg],
  preset: [presetSelect, presetMsg],
  logits: [scoresInput, scoresMsg],
  probs: [scoresInput, scoresMsg],
  names: [qName, namesMsg],
  sequences: [seqInput, seqMsg],
};

function clearFieldErrors() {
  for (const [input, msg] of Object.values(FIELDS)) setFieldError(input, msg, '');
  kName.removeAttribute('aria-invalid');
}

function showCoreError(e) {
  clearFieldErrors();
  const sentence = readerError(e);
  // Sequences the reader did not type came from the file (an .npz's "sequences"): the file's error.
  // Logits or probs the reader did not give as a file of their own came in the .npz: the file's error.
  // A divisor stored in the .npz ("divisor" array) is the file's error too.
  const typed = (e.argument !== 'sequences' || (seqInput.value.trim() !== '' && e.kind !== 'stored_sequences')) &&
    e.kind !== 'stored_divisor' &&
    ((e.argument !== 'logits' && e.argument !== 'probs') || scoresFile !== null);
  const field = typed ? FIELDS[e.argument] : undefined;
  if (field) {
    setFieldError(field[0], field[1], sentence);
    if (e.argument === 'names') {
      kName.setAttribute('aria-invalid', 'true');
      field[0].closest('details').open = true;
    }
    if (e.argument === 'sequences') field[0].closest('details').open = true;
  }
  fail(field ? t('check.fieldError') : sentence);
}

// ---- running a check ----

function setState(state, message = '') {
  status.dataset.state = state;
  status.textContent = message;
}

function fail(message) {
  errorEl.textContent = message;
  setState('error');
}

// Two files: q and k by their names when that is unambiguous ("q.npy",
// "keys.csv"), else in the order given.
function orderPair(files) {
  const role = (f) => {
    const base = f.name.replace(/\.[^.]*$/, '').toLowerCase();
    if (/^(q|query|queries)([_\-. ]|$)/.test(base) || /(^|[_\-. ])(q|query|queries)$/.test(base)) return 'q';
    if (/^(k|key|keys)([_\-. ]|$)/.test(base) || /(^|[_\-. ])(k|key|keys)$/.test(base)) return 'k';
    return null;
  };
  const [a, b] = files;
  return role(a) === 'k' && role(b) === 'q' ? [b, a] : [a, b];
}

// What a check said, brought into view: the reader's "Check it" is at the
// foot of the page and a chosen file's report may start below the screen, so
// the verdict (the result's heading and its summary line) or the error is
// scrolled to, each time, unless it is already on screen (smooth unless the
// reader asks for reduced motion).
function reveal(el, last = el) {
  const top = el.getBoundingClientRect().top, bottom = last.getBoundingClientRect().bottom;
  if (top >= 0 && bottom <= innerHeight) return;
  el.scrollIntoView({ block: 'start', behavior: reducedMotion() ? 'auto' : 'smooth' });
}

function revealOutcome() {
  if (status.dataset.state === 'done') reveal(result, byId('check-summary') ?? result);
  else if (status.dataset.state === 'error') reveal(errorEl.textContent ? errorEl : root.querySelector('[aria-invalid="true"]') ?? errorEl);
}

/**
 * Check `files` ([{name, bytes: ArrayBuffer}]): one (q and k) or two (q, then
 * k). `inView`: the reader asked for this check (a file chosen or dropped, a
 * sample's "Check it"), so its verdict is brought into view; a check run
 * again because an option changed leaves the page where it is.
 */
async function check(files, label, { inView = false } = {}) {
  run += 1;
  const mine = run;  // a newer check (the preset or the scores changed meanwhile) makes this one's answer stale
  lastFiles = { files, label };
  status.dataset.run = String(run);
  errorEl.textContent = '';
  lastError = null;
  clearFieldErrors();
  setState('busy', t('check.checking', { files: label }));
  try {
    // Sequences: empty means "from the file" (0); anything else goes to the core as typed, to be checked there.
    const seqs = seqInput.value.trim() === '' ? 0 : wholeText(seqInput.value);
    const preset = presetOf(presetSelect.value);
    const options = {
      format: 'auto', q: qName.value.trim(), k: kName.value.trim(), sequences: seqs,
      ...(preset ? { preset: preset.name } : { divisor: divisorInput.value.trim() }),
    };
    if (scoresFile) options.scores = { name: scoresFile.name, bytes: scoresFile.bytes, kind: scoresKind() };
    // Copied to the worker, not transferred: the same files are checked again when the preset or the scores change.
    const report = await client.call('checkTensors', [files, options]);
    if (mine !== run) return;
    lastReport = { report, label };
    show(report, label);
    setState('done', files.length === 2 ? t('check.pairNote', { q: files[0].name, k: files[1].name }) : '');
  } catch (e) {
    if (mine !== run) return;
    if (e.load) fail(t('check.failed', { message: e.message }));
    else {
      console.info('attnlab check:', e.message);
      lastError = e;
      showCoreError(e);
    }
  }
  if (inView) revealOutcome();
}

function show(report, label) {
  const preset = presetOf(report.preset);
  renderReport(result, report, label, () => download(report, label), fromValue(), preset?.label ?? '');
}

const again = () => lastFiles && check(lastFiles.files, lastFiles.label);

function download(report, label) {
  const blob = new Blob([reportCsv(report)], { type: 'text/csv' });
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: `${label.replace(/[^\w.-]+/g, '_').replace(/\.\w+$/, '')}-check.csv` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

async function checkFiles(list) {
  const files = Array.from(list);
  if (files.length < 1) return;
  if (files.length > 2) return fail(t('check.tooMany', { n: files.length }));
  for (const f of files)
    if (f.size > limits.maxFileBytes)
      return fail(t('check.tooBig', { name: f.name, size: decimals(f.size / 2 ** 20, 1), ...limitParams() }));
  const ordered = files.length === 2 ? orderPair(files) : files;
  let read;
  try {
    read = await Promise.all(ordered.map(async (f) => ({ name: f.name, bytes: await f.arrayBuffer() })));
  } catch (e) {
    return fail(t('check.failed', { message: e.message }));
  }
  await check(read, ordered.map((f) => f.name).join(' + '), { inView: true });
}

async function checkSample(file, from) {
  setFrom(from);
  try {
    const r = await fetch(`./samples/${file}`);
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    await check([{ name: file, bytes: await r.arrayBuffer() }], file, { inView: true });
  } catch (e) {
    fail(t('check.loadSampleFailed', { message: e.message }));
    reveal(errorEl);
  }
}

fileInput.addEventListener('change', () => {
  const files = fileInput.files;
  checkFiles(files).finally(() => {
    fileInput.value = '';  // the same file chosen again fires 'change' again
  });
});
drop.addEventListener('dragover', (e) => {
  e.preventDefault();
  drop.classList.add('is-over');
});
drop.addEventListener('dragleave', () => drop.classList.remove('is-over'));
drop.addEventListener('drop', (e) => {
  e.preventDefault();
  drop.classList.remove('is-over');
  checkFiles(e.dataTransfer?.files ?? []);
});
divisorInput.addEventListener('change', () => lastReport && setFieldError(divisorInput, divisorMsg, ''));
presetSelect.addEventListener('change', () => {
  setFieldError(presetSelect, presetMsg, '');
  applyPreset();
  writeState('', { preset: presetSelect.value || null });
  again();
});
scoresInput.addEventListener('change', async () => {
  const f = scoresInput.files[0];
  scoresInput.value = '';
  if (!f) return;
  setFieldError(scoresInput, scoresMsg, '');
  if (f.size > limits.maxFileBytes)
    return setFieldError(scoresInput, scoresMsg, t('check.tooBig', { name: f.name, size: decimals(f.size / 2 ** 20, 1), ...limitParams() }));
  try {
    scoresFile = { name: f.name, bytes: await f.arrayBuffer() };
  } catch (e) {
    return setFieldError(scoresInput, scoresMsg, t('check.failed', { message: e.message }));
  }
  scoresName.textContent = f.name;
  scoresClear.hidden = false;
  again();
});
scoresClear.addEventListener('click', () => {
  scoresFile = null;
  scoresName.textContent = t('check.scoresNone');
  scoresClear.hidden = true;
  setFieldError(scoresInput, scoresMsg, '');
  again();
});
scoresKinds.forEach((r) => r.addEventListener('change', () => scoresFile && again()));
// ?preset=NAME (an unknown name: the link's notice next to the select).
{
  const { values, notices } = readState('', { preset: { type: 'enum', values: ['', ...presets.map((p) => p.name)], def: '' } });
  fillPresets();
  presetSelect.value = values.preset;
  applyPreset();
  if (notices.length) presetMsg.textContent = t(notices[0].key, notices[0].params);
}
fromRadios.forEach((r) => r.addEventListener('change', () => lastReport && show(lastReport.report, lastReport.label)));

copyButton.addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText(snippet);
    copyStatus.textContent = t('check.copied');
  } catch {
    // No clipboard permission: select the code so Ctrl+C copies it.
    const range = document.createRange();
    range.selectNodeContents(byId('check-snippet'));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    copyStatus.textContent = t('check.copyFailed');
  }
});

applyDocument();
const lang = langSwitch.mount(byId('lang-switch'));
relabel();
onLangChange(() => {
  lang.relabel();
  relabel();
});

// Load the core now, so the first check does not wait for it.
let footer = () => t('check.footerLoading');
const showFooter = () => (byId('check-footer').textContent = footer());
showFooter();
onLangChange(showFooter);
client.call('buildInfo').then(
  (info) => (footer = () => t('check.footerReady', { build: buildName(info.build) })
    + (info.madd === 'fused' ? t('check.build.fused') : '')),
  (e) => (footer = () => t('check.failed', { message: e.message })),
).then(showFooter);
