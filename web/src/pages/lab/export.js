// A run's metrics as files: CSV (the core's column names as the header, one
// logged row per line, every number as JavaScript prints a double: the
// shortest text that reads back to the same value) and JSON (the same rows
// plus the configuration, the init checkpoint, the held-out evaluation and
// the step the run diverged at).
import { FIXED } from '../../train/config.js';

// A metric that is not a number (every metric of a diverged step) as the CLI
// writes it: nan in CSV, null in JSON (JSON.stringify's own), never 0.
const csvNumber = (x) => (Number.isNaN(x) ? 'nan' : x === Infinity ? 'inf' : x === -Infinity ? '-inf' : String(x));

/**
 * CSV text: header = the core's columns, then one line per logged row; a
 * diverged run ends, as the CLI's CSV does, with a blank line and
 * key,value / diverged,<step>.
 */
export function runCsv(run) {
  const cols = run.columns;
  const n = run.data.step.length;
  const lines = [cols.join(',')];
  for (let i = 0; i < n; i++) lines.push(cols.map((c) => csvNumber(run.data[c][i])).join(','));
  if (run.diverged) lines.push('', 'key,value', `diverged,${run.diverged}`);
  return lines.join('\n') + '\n';
}

/** The run as one JSON document. */
export function runJson(run, config) {
  const n = run.data.step.length;
  return JSON.stringify({
    source: 'attnlab training lab (C++ core in WebAssembly)',
    config: { ...config, divisor: run.option },
    divisorValue: run.divisorValue,
    stepsDone: run.stepsDone,
    init: run.init,
    columns: run.columns,
    rows: Array.from({ length: n }, (_, i) => run.columns.map((c) => run.data[c][i])),
    stepsTo90: run.finished ? run.stepsTo90 : null,
    // The step the run diverged at (its rows from there on are null), as the CLI's summary has it.
    diverged: run.diverged || null,
    eval: run.eval ?? null,
  }, null, 1);
}

/** A file name part for a run: dk256-adam-seed0-div-sqrt (no characters a file system minds). */
export function fileStem(config, option) {
  const stab = (config.softcap > 0 ? `-cap${config.softcap}` : '') + (config.qkClip > 0 ? `-clip${config.qkClip}` : '') +
    (config.init && config.init !== FIXED.init ? `-${config.init}` : '');
  return `attnlab-${config.task}-dk${config.dk}-h${config.heads}-${config.optimizer}-seed${config.seed}${stab}-div-${option}`
    .replace(/[^\w.+-]+/g, '_');
}

/** Save bytes or text as a file (a same-origin blob: URL and <a download>). */
export function download(content, name, type) {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
