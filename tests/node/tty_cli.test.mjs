// Issue 31: the progress bar as a researcher sees it, under a real terminal.
// util-linux `script` runs the CLI on a pseudo-terminal (stdout and stderr
// both on it) and copies what it prints: a train run of a few seconds draws
// a bar without --progress, redrawn in place, and with --quiet none; a run of
// minutes prints its estimate first; a sweep's bar counts runs. Skipped,
// saying why, where `script` is not there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI } from './paths.mjs';

const script = spawnSync('script', ['--version'], { encoding: 'utf8' });
const missing = script.error || script.status !== 0 || !/util-linux/.test(script.stdout)
  ? 'util-linux `script` is not installed (Debian: bsdutils), so no pseudo-terminal can be made'
  : false;

/** What the terminal receives while `args` run on it (script -q: no banner; -e: its status; -f: flushed as it comes). */
function onTerminal(args) {
  const cmd = [CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const r = spawnSync('script', ['-qfec', cmd, '/dev/null'], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] });
  assert.equal(r.status, 0, `script ${cmd}: ${r.stderr}`);
  return r.stdout;
}

// 400 steps of the default model: 2-4 s here.
const TRAIN = ['train', '--steps', '400', '--eval', '64', '--format', 'csv', '--log-every', '100'];

test('train on a terminal: a bar without --progress, none with --quiet', { skip: missing }, () => {
  const shown = onTerminal(TRAIN);
  // The bar, drawn at the line's start and its rest erased, more than once (redrawn in place).
  const bars = shown.match(/\r\[[# ]{24}\] \d+\/400 steps, [\d.e+]+ steps\/s, [\dhmins ]+ left loss \S+ acc \S+\x1b\[K/g) ?? [];
  assert.ok(bars.length >= 2, `a bar redrawn: ${JSON.stringify(shown.slice(0, 400))}`);
  assert.doesNotMatch(shown, /attnlab: \[/, 'no log lines on a terminal: the bar');
  // Every metrics row and the summary reach the terminal, each on a line of its own: a bar is
  // erased ("\r\x1b[K") before a row is printed, never left with the row after it.
  for (const step of ['1', '100', '200', '300', '400']) assert.match(shown, new RegExp(`(^|\\n|\\r\\x1b\\[K)${step},[\\d.]+,`), `row ${step}`);
  assert.doesNotMatch(shown, /[^\r\n]\x1b\[K[^\r\n]/, 'no row printed after a bar on its line');
  assert.match(shown, /\r\x1b\[K\r?\n?key,value|\nkey,value/, 'the summary after the bar is gone');
  assert.ok(/\r\x1b\[K/.test(shown.slice(shown.lastIndexOf('400/400'))), 'the last bar is erased');

  const quiet = onTerminal([...TRAIN, '--quiet']);
  assert.doesNotMatch(quiet, /\[[# ]{24}\]|\x1b\[K/, '--quiet: no bar');
  assert.match(quiet, /\n400,[\d.]+,/, 'the same rows');
});

/** What the terminal shows of `args` in its first `seconds` (the run is stopped then: timeout inside script). */
function firstSeconds(args, seconds) {
  const cmd = ['timeout', String(seconds), CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const r = spawnSync('script', ['-qfec', cmd, '/dev/null'], { encoding: 'utf8', timeout: (seconds + 30) * 1000, stdio: ['ignore', 'pipe', 'pipe'] });
  return r.stdout;
}

test('a long run on a terminal: its estimate on a line of its own, then the bar', { skip: missing }, () => {
  // 100 000 steps of the default model: minutes here, known after its first 10 steps.
  const shown = firstSeconds(['train', '--steps', '100000', '--format', 'csv', '--log-every', '1000000'], 6);
  const estimate = shown.match(/attnlab: this run will take about (\d+ h \d+ min|\d+ min \d+ s) \(estimated from its first 10 steps; --quiet hides this\)\r?\n/);
  assert.ok(estimate, `the estimate: ${JSON.stringify(shown.slice(0, 400))}`);
  assert.match(shown.slice(estimate.index + estimate[0].length), /\r\[[# ]{24}\] \d+\/100000 steps, /, 'the bar after it');
  const quiet = firstSeconds(['train', '--steps', '100000', '--format', 'csv', '--log-every', '1000000', '--quiet'], 3);
  assert.doesNotMatch(quiet, /will take about|\[[# ]{24}\]/, '--quiet: neither');
});

test('a sweep on a terminal: a bar of runs done', { skip: missing }, () => {
  const shown = onTerminal(['sweep', '--dks', '64', '--divisors', 'sqrt,1', '--optimizers', 'adam', '--seeds', '0', '--steps', '600', '--eval', '64', '--jobs', '1', '--format', 'csv']);
  assert.match(shown, /\r\[[# ]{24}\] 1\/2 runs, [\d.e+]+ runs\/s, [\dhmins ]+ left \(dk 64 \S+ adam done\)\x1b\[K/, JSON.stringify(shown.slice(0, 400)));
  assert.match(shown, /(^|\n|\x1b\[K)recall,64,1,adam,/, 'the rows');
});
