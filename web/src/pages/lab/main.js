// The training lab (lab.html): the seed article's experiment, run for real.
// The reader picks a task, d_k, heads, the divisors to compare, optimiser,
// learning rate, steps and seed; one TrainSession per divisor trains in Web
// Workers (pool.js, worker.js) on the same data from the same initial
// weights, and the page draws each run's metrics as they stream in. Every
// number shown comes from the C++ core; the page only arranges it.
// This module is the wiring: it builds the page and connects the form
// (form.js) to a comparison (comparison.js) and the comparison to its views
// (charts.js, run-cards.js, readouts.js, scrubber.js); it relabels on a
// language change and schedules the redraws.
import '../../base/style.css';
import '../site/page.css';
import '../site/nav-strings.js';
import './lab.css';
import { buildName } from '../../bridge/build-names.js';
import { applyDocument, onLangChange, t } from '../../base/i18n.js';
import { loadErrorStrings, readerError } from '../../bridge/errors.js';
import { h, reducedMotion } from '../../base/dom.js';
import { flush, readState } from '../../base/state.js';
import { urlWithParam } from '../../base/url.js';
import { decimals, fixed, int, powerOfTen } from '../../base/format.js';
import * as langSwitch from '../../widgets/lang-switch.js';
import './strings.js';
import { SNAPSHOT_SAMPLES, FORM_PREFIX, FORM_STATE, STAB_STATE, OPTIMIZERS, divisorOptions, splitDivisors } from '../../train/config.js';
import { Pool, CORES } from '../../train/pool.js';
import { createForm } from './form.js';
import { Comparison } from '../../train/comparison.js';
import { createCharts } from './charts.js';
import { RunCards, divisorLabel, shortLabel } from './run-cards.js';
import { renderInit, renderDataTables, renderLegend, renderSummary } from './readouts.js';
import { createScrubber } from './scrubber.js';
import { runCsv, runJson, fileStem, download } from './export.js';
import { mountSweep } from './sweep.js';

const byId = (id) => document.getElementById(id);
const root = byId('lab');
// One worker more than the cores the browser reports: runs that do not divide
// evenly over the cores (the default 3 over 2) then share all of them, where
// a worker per core left one core idle while the other ran two runs in turn
// (measured in headless Chromium on 2 cores: the default comparison in 16.5–17.1 s
// with 3 workers, 20.8–21.4 s with 2).
const COMPARE_WORKERS = CORES + 1;
const pool = new Pool('compare', COMPARE_WORKERS);

// What the page holds: the comparison and its views (null when there is none),
// the core's limits (from the first ready worker), and the status it shows.
const page = { cmp: null, charts: null, cards: null, band: null, starting: false, statusKey: 'idle' };

// ---- static text: [element, key] pairs filled by relabel() ----
const texts = [];
const txt = (tag, key, attrs = {}) => {
  const el = h(tag, attrs);
  texts.push([el, key]);
  return el;
};

// ---- the page ----
const startButton = h('button', { type: 'submit', id: 'lab-start', class: 'primary' });
const pauseButton = h('button', { type: 'button', id: 'lab-pause', disabled: true });
const resetButton = h('button', { type: 'button', id: 'lab-reset', disabled: true });
const status = h('p', { id: 'lab-status', role: 'status', 'aria-live': 'polite', dataset: { state: 'idle' } });
const progress = h('p', { id: 'lab-progress', class: 'progress' });
const form = createForm({ pool, extras: [h('div', { class: 'lab-buttons' }, startButton, pauseButton, resetButton), status, progress] });

const initTable = h('table', { id: 'lab-init-table', class: 'data-table lab-init' });
const legend = h('ul', { class: 'lab-legend', id: 'lab-legend', 'aria-label': '' });
const chartsHost = h('div', { id: 'lab-charts-host' });
const dataTables = h('div', { id: 'lab-data-tables' });
const dataSummary = h('summary', { id: 'lab-data-summary' });
const dataDetails = h('details', { class: 'data-details', id: 'lab-data' }, dataSummary, dataTables);
const summary = h('div', { id: 'lab-summary', class: 'lab-summary', 'aria-live': 'polite' });
const scrubber = createScrubber(() => drawMaps());
const runsHost = h('div', { class: 'lab-runs', id: 'lab-runs' });
const sweepSection = h('section', { id: 'lab-sweep', 'aria-labelledby': 'lab-sweep-heading' });

root.replaceChildren(
  h('section', { id: 'lab-setup', 'aria-labelledby': 'lab-setup-heading' },
    txt('h2', 'lab.setup.heading', { id: 'lab-setup-heading' }), txt('p', 'lab.setup.intro'), form.el),
  // Not id="lab-init": that is the form's init select (form.js, `lab-${key}`).
  h('section', { id: 'lab-init-check', 'aria-labelledby': 'lab-init-heading' },
    txt('h2', 'lab.init.heading', { id: 'lab-init-heading' }), txt('p', 'lab.init.intro'), txt('p', 'lab.init.rule', { class: 'hint' }),
    // A group, not a region: the section is already the region of that name (axe landmark-unique).
    h('div', { class: 'table-scroll', tabindex: 0, role: 'group', 'aria-labelledby': 'lab-init-heading' }, initTable)),
  h('section', { id: 'lab-curves', 'aria-labelledby': 'lab-curves-heading' },
    txt('h2', 'lab.curves.heading', { id: 'lab-curves-heading' }), txt('p', 'lab.curves.intro'),
    legend, chartsHost, dataDetails, summary),
  h('section', { id: 'lab-maps', 'aria-labelledby': 'lab-maps-heading' },
    txt('h2', 'lab.maps.heading', { id: 'lab-maps-heading' }), txt('p', 'lab.maps.intro'),
    h('div', { class: 'controls lab-scrub' },
      h('div', { class: 'field field-range' },
        h('div', { class: 'range-head' }, txt('label', 'lab.maps.scrub', { for: 'lab-scrub' }), scrubber.out), scrubber.input)),
    runsHost),
  sweepSection,
  h('p', { class: 'lab-links' }, txt('a', 'lab.back', { href: './index.html' }), ' · ', txt('a', 'lab.toCheck', { href: './check.html' })),
);

// ---- the first screen's way in: on a phone the form's own Start is a long
// scroll down, so the header starts the same comparison, its settings in a line ----
const quickStart = h('button', { type: 'button', id: 'lab-quick-start', class: 'primary' });
const quickWhat = h('span', { id: 'lab-quick-what' });
byId('lab-lede').after(h('p', { class: 'lab-quick', id: 'lab-quick' },
  quickStart, ' ', quickWhat, ' ', txt('a', 'lab.quick.change', { href: '#lab-setup' })));
quickStart.addEventListener('click', async () => {
  await start(performance.now());
  // A run follows its charts (start()); a wrong setting: to the form's message.
  if (status.dataset.state === 'invalid') byId('lab-setup').scrollIntoView({ behavior: reducedMotion() ? 'auto' : 'smooth' });
});

function relabelQuick() {
  const v = form.values();
  const { presets, custom } = splitDivisors(v.div);
  const divs = divisorOptions(presets, custom).map((d) => (d.custom ? d.option : t(`lab.div.preset.${d.option}`)));
  quickWhat.textContent = t('lab.quick.what', {
    dk: v.dk, divs: divs.join(t('lab.quick.sep')), opt: OPTIMIZERS.includes(v.opt) ? t(`lab.opt.${v.opt}`) : v.opt, steps: v.steps,
  });
}
form.el.addEventListener('input', relabelQuick);
form.el.addEventListener('change', relabelQuick);

// ---- starting, pausing, resetting ----
// Start is refused while a comparison is being checked or runs (Pause and
// Reset act on it then); it comes back, as "Start again", when it is done,
// paused or reset.
function syncStart() {
  const busy = page.starting || (page.cmp !== null && page.cmp.busy);
  if (busy && document.activeElement === startButton) pauseButton.focus();
  startButton.disabled = busy;
  quickStart.disabled = busy;
  relabelButtons();
}

async function start(clickAt) {
  if (page.starting || startButton.disabled) return;
  page.starting = true;
  syncStart();
  try {
    await startComparison(clickAt);
  } finally {
    page.starting = false;
    syncStart();
  }
  if (status.dataset.state === 'running') followCharts();
}

// ---- the live charts in view when a run starts, from either Start ----
// The form's Start sat above the init checkpoint's table, which is all a
// reader saw of the run (on a phone the charts were three screens further
// down), and the header's smooth scroll aimed at where the charts were before
// the table and the legend filled above them, and ended on the table. So the
// page scrolls to the loss chart (with the section's heading and the legend
// above it where they fit on the screen) and follows it while what is above it
// grows, until the reader scrolls or presses a key, or for 4 s.
const FOLLOW_MS = 4000;
const FOLLOW_MARGIN = 16;  // px above the target, as sections' scroll-margin-top (1rem)
let unfollow = null;

function chartsTarget() {
  const chart = byId('lab-chart-loss') ?? chartsHost;
  const bottom = chart.getBoundingClientRect().bottom;
  return [byId('lab-curves'), legend, chart].find((el) => bottom - el.getBoundingClientRect().top <= innerHeight - FOLLOW_MARGIN) ?? chart;
}

function followCharts() {
  unfollow?.();
  const behavior = reducedMotion() ? 'auto' : 'smooth';
  const align = () => {
    const top = Math.max(0, Math.round(scrollY + chartsTarget().getBoundingClientRect().top - FOLLOW_MARGIN));
    if (Math.abs(top - scrollY) > 1) scrollTo({ top, behavior });
  };
  // What can grow above the loss chart: the form (its messages), the init table, the legend, the chart's own title.
  const ro = new ResizeObserver(align);
  for (const el of [byId('lab-setup'), byId('lab-init-check'), legend, chartsHost]) ro.observe(el);
  const READER = ['wheel', 'touchstart', 'keydown', 'pointerdown'];
  const timer = setTimeout(() => unfollow?.(), FOLLOW_MS);
  unfollow = () => {
    ro.disconnect();
    clearTimeout(timer);
    for (const type of READER) removeEventListener(type, unfollow, true);
    unfollow = null;
  };
  for (const type of READER) addEventListener(type, unfollow, { capture: true, passive: true });
  align();
}

async function startComparison(clickAt) {
  status.dataset.state = 'checking';
  status.textContent = t('lab.status.checking');
  const plan = await form.plan();
  if (!plan) {
    status.dataset.state = 'invalid';
    status.textContent = t('lab.status.invalid');
    return;
  }
  stopComparison();
  form.writeUrl();
  const workers = Math.min(COMPARE_WORKERS, plan.divisors.length);
  const cmp = new Comparison(plan, pool, { workers, clickAt });
  page.cmp = cmp;
  page.cards = new RunCards(cmp, { onExport: exportRun });
  page.charts = createCharts(cmp.runs, {
    heads: plan.config.heads,
    lineLabel: shortLabel,
    floorText: (floor) => t('lab.chart.floor', { floor: powerOfTen(floor) }),
    markText: (r) => ({
      text: t('lab.chart.diverged', { label: divisorLabel(r), step: int(r.diverged) }),
      name: t('lab.chart.divergedName', { label: divisorLabel(r), step: int(r.diverged) }),
    }),
  });
  chartsHost.replaceChildren(page.charts.el);
  runsHost.replaceChildren(...page.cards.els);
  cmp.on(onComparison);
  pool.ensure(workers);
  cmp.start();
  pauseButton.disabled = false;
  resetButton.disabled = false;
  status.dataset.state = 'running';
  status.dataset.firstPointMs = '';
  status.dataset.totalMs = '';
  setStatus('running');  // first: relabelComparison() redraws the status it holds
  relabelComparison();
}

// What the comparison says changed, and what the page redraws for it.
function onComparison(type, { run, first } = {}) {
  const { cmp, cards } = page;
  switch (type) {
    case 'configured':
      renderInit(initTable, cmp, page.band);
      cards.relabel(run);
      renderLegend(legend, page.charts, cmp);
      scheduleRedraw();
      break;
    case 'rows':
      if (first) renderInit(initTable, cmp, page.band);  // the logit spread of step 1, measured before its update
      scheduleRedraw(cmp.firstPointMs === null);
      break;
    case 'failed':
      // The card's sentence for the core's error (bridge/errors.js) once the sentences have loaded.
      loadErrorStrings().then(() => cards.setState(run));
      // falls through
    case 'done':
      cards.setState(run);
      cards.render(run);
      scheduleRedraw(true);  // a run's end is drawn at once, not after reduced motion's 500 ms gap
      break;
    case 'finished':
      // The curves are whole before the status says done (with reduced motion
      // the last redraw could otherwise come up to 500 ms after it).
      clearTimeout(redrawTimer);
      redrawTimer = 0;
      redraw();
      status.dataset.totalMs = cmp.totalMs.toFixed(0);
      pauseButton.disabled = true;
      status.dataset.state = 'done';
      setStatus('done');
      syncStart();
      renderSummary(summary, cmp);
      break;
    case 'pausing':
    case 'resumed':
      syncStart();
      status.dataset.state = cmp.paused ? 'pausing' : 'running';
      relabelButtons();
      if (!cmp.paused) setStatus('running');
      break;
    case 'paused':
      if (status.dataset.state !== 'pausing') break;
      status.dataset.state = 'paused';
      setStatus('paused');
      redraw();
      break;
  }
}

function stopComparison() {
  if (!page.cmp) return;
  page.cmp.stop();
  page.cards.destroy();
  page.charts.destroy();
  page.cmp = page.cards = page.charts = null;
}

function reset() {
  unfollow?.();
  stopComparison();
  chartsHost.replaceChildren();
  runsHost.replaceChildren();
  initTable.replaceChildren();
  summary.replaceChildren();
  legend.replaceChildren();
  dataTables.replaceChildren();
  progress.textContent = '';
  pauseButton.disabled = true;
  resetButton.disabled = true;
  scrubber.reset();
  status.dataset.state = 'idle';
  relabelButtons();
  syncStart();
  setStatus('reset');
}

// The live region speaks only at milestones; the step counts change silently.
function setStatus(key) {
  page.statusKey = key;
  const { cmp } = page;
  if (!cmp) {
    status.textContent = key === 'reset' ? t('lab.status.reset') : '';
    return;
  }
  const params = { n: cmp.runs.length, workers: cmp.workers, steps: int(cmp.plan.steps) };
  if (key === 'done') {
    params.seconds = decimals(cmp.totalMs / 1000, 1);
    params.failed = cmp.runs.filter((r) => r.failed).length;
    params.diverged = cmp.runs.filter((r) => r.diverged).length;
  }
  status.textContent = t(`lab.status.${key}`, params) + (key === 'done' && params.failed ? ' ' + t('lab.status.someFailed', params) : '')
    + (key === 'done' && params.diverged ? t('lab.status.someDiverged', params) : '');
}

// ---- drawing (coalesced to one frame; at most five times a second, twice under
// reduced motion; charts off screen wait until seen): drawing every frame took
// the main thread from the two workers, the default comparison 37 s against
// 29 s with reduced motion on a quiet 2-core machine ----
const GAP_MS = 200;
const REDUCED_GAP_MS = 500;
let redrawQueued = false;
let redrawTimer = 0;
let lastRedraw = 0;
// now: draw at the next frame even if a throttled redraw is waiting (the first points).
function scheduleRedraw(now = false) {
  if (redrawQueued && !(now && redrawTimer)) return;
  clearTimeout(redrawTimer);
  redrawTimer = 0;
  redrawQueued = true;
  const gap = now ? 0 : reducedMotion() ? REDUCED_GAP_MS : GAP_MS;
  const wait = Math.max(0, lastRedraw + gap - performance.now());
  const go = () => {
    redrawTimer = 0;
    requestAnimationFrame(() => redraw(false));
  };
  if (wait > 0) redrawTimer = setTimeout(go, wait);
  else go();
}

// Timed as the performance measure 'lab:redraw', so the browser test can report the main thread's share.
// all = false (while the runs go): charts off screen wait until seen.
function redraw(all = true) {
  const t0 = performance.now();
  try {
    drawNow(all);
  } finally {
    performance.measure('lab:redraw', { start: t0, end: performance.now() });
  }
}

function drawNow(all) {
  redrawQueued = false;
  lastRedraw = performance.now();
  const { cmp } = page;
  if (!cmp) return;
  cmp.timeline.frame ??= lastRedraw - cmp.clickAt;
  const t0 = performance.now();
  page.charts.update(all);
  if (cmp.firstPointMs === null && cmp.runs.some((r) => r.data.step.length > 0)) {
    cmp.timeline.redrawStart = t0 - cmp.clickAt;
    cmp.firstPointMs = performance.now() - cmp.clickAt;
    status.dataset.firstPointMs = cmp.firstPointMs.toFixed(0);
    status.dataset.timeline = JSON.stringify({ ...cmp.timeline, drawn: cmp.firstPointMs }, (_k, x) => (typeof x === 'number' ? Math.round(x) : x));
  }
  const { done, total } = cmp.progress();
  progress.textContent = t('lab.progress', { done: int(done), total: int(total), seconds: fixed(cmp.activeMs() / 1000, 1) });
  page.cards.renderAll();
  const captures = page.cards.captures();
  scrubber.setCaptures(captures);
  if (captures > 0) drawMaps();
  if (dataDetails.open) renderDataTables(dataTables, cmp);
  if (cmp.totalMs === null && cmp.runs.some((r) => r.finished)) renderSummary(summary, cmp);
}

function drawMaps() {
  if (!page.cmp) return;
  scrubber.showStep(page.cards.drawMaps(scrubber.capture));
}

dataDetails.addEventListener('toggle', () => dataDetails.open && page.cmp && renderDataTables(dataTables, page.cmp));

// ---- exports ----
async function exportRun(run, kind, note) {
  const c = page.cmp.plan.config;
  const stem = fileStem(c, run.option);
  note.textContent = '';
  if (!run.columns) return;
  if (kind === 'csv') return download(runCsv(run), `${stem}.csv`, 'text/csv');
  if (kind === 'json') return download(runJson(run, c), `${stem}.json`, 'application/json');
  note.textContent = t('lab.export.qkBusy');
  try {
    const snap = await pool.call('qk', [run.runId, SNAPSHOT_SAMPLES], run.worker);
    download(snap.npz, `${stem}-step${snap.step}-qk.npz`, 'application/octet-stream');
    note.textContent = t('lab.export.qkDone', { step: int(snap.step), n: int(snap.samples) });
  } catch (e) {
    await loadErrorStrings();
    note.textContent = readerError(e);
  }
}

// ---- language ----
function relabelButtons() {
  startButton.textContent = t(page.cmp ? 'lab.btn.restart' : 'lab.btn.start');
  pauseButton.textContent = t(page.cmp?.paused ? 'lab.btn.resume' : 'lab.btn.pause');
  resetButton.textContent = t('lab.btn.reset');
  quickStart.textContent = t(page.cmp ? 'lab.btn.restart' : 'lab.quick.start');
}

function relabelComparison() {
  const { cmp } = page;
  if (!cmp) return;
  renderLegend(legend, page.charts, cmp);
  page.cards.relabelAll();
  renderInit(initTable, cmp, page.band);
  if (cmp.runs.some((r) => r.finished)) renderSummary(summary, cmp);
  if (dataDetails.open) renderDataTables(dataTables, cmp);
  setStatus(page.statusKey);
  redraw();
}

function relabel() {
  byId('lab-title').textContent = t('lab.title');
  byId('lab-lede').textContent = t('lab.lede');
  for (const [el, key] of texts) el.textContent = t(key);
  form.relabel();
  relabelQuick();
  dataSummary.textContent = t('lab.data.summary');
  relabelButtons();
  relabelComparison();
  if (!page.cmp) setStatus(page.statusKey);
  footer();
}

let buildInfo = null;
let loadError = null;
function footer() {
  byId('lab-footer').textContent = loadError ? t('lab.footer.failed', { message: loadError })
    : buildInfo ? t('lab.footer.ready', { build: buildName(buildInfo.build), kernel: buildInfo.kernel, cores: COMPARE_WORKERS })
      : t('lab.footer.loading');
  buildChoice();
}

// Which rounding the runs have, so a reader can reproduce them with the CLI:
// the relaxed build (chosen by detection) fuses each multiply-add where the
// engine does (buildInfo().madd), and then a run is `attnlab train --madd
// fused`'s for its seed; SIMD128 rounds twice, as the CLI does by default. The
// link switches between the two (?build=simd, read by bridge/build.js, or back
// to the detected build).
function buildChoice() {
  const el = byId('lab-build');
  const build = buildInfo?.build;
  const fused = build === 'relaxed' && buildInfo.madd === 'fused';
  const toAuto = build === 'simd' && buildInfo.relaxedAvailable;
  el.hidden = build !== 'relaxed' && !toAuto;
  if (el.hidden) return el.replaceChildren();
  const text = t(fused ? 'lab.build.fused' : build === 'relaxed' ? 'lab.build.separate' : 'lab.build.simd');
  if (!fused && !toAuto) return el.replaceChildren(text);
  // The form writes its state to the URL 200 ms after a change (state.js), so
  // the href is taken, the queue flushed, when the link is about to be
  // followed (a click, a middle click, a key).
  const refresh = () => {
    flush();
    link.href = urlWithParam('build', fused ? 'simd' : null);
  };
  const link = h('a', { id: 'lab-build-link', onclick: refresh, onpointerdown: refresh, onfocus: refresh },
    t(fused ? 'lab.build.toSimd' : 'lab.build.toAuto'));
  refresh();
  el.replaceChildren(text, ' ', link);
}

// ---- wiring ----
form.el.addEventListener('submit', (e) => {
  e.preventDefault();
  start(performance.now());
});
pauseButton.addEventListener('click', () => page.cmp?.togglePause());
resetButton.addEventListener('click', reset);

applyDocument();
// Bad values need no notice: each reaches the core, whose message shows by its control.
const { values } = readState(FORM_PREFIX, FORM_STATE);
form.set({ ...values, ...readState(FORM_PREFIX, STAB_STATE).values });
const lang = langSwitch.mount(byId('lang-switch'));
const sweep = mountSweep(sweepSection, { formValues: form.values });
relabel();
sweep.relabel();
onLangChange(() => {
  lang.relabel();
  relabel();
  sweep.relabel();
});

// Warm the workers the default comparison needs, then check the URL's values
// and ask the core for its limits (the init checkpoint's pass band).
pool.ensure(Math.min(COMPARE_WORKERS, Math.max(1, divisorOptions(...Object.values(splitDivisors(values.div))).length))).then(
  (info) => {
    buildInfo = info;
    footer();
    form.validate();
    pool.call('limits').then((L) => {
      page.band = [L.initBandLow, L.initBandHigh];
      if (page.cmp) renderInit(initTable, page.cmp, page.band);
    }, () => {});  // without the band the checkpoint shows its numbers unmarked
  },
  (e) => {
    loadError = e.message;
    footer();
  },
);
