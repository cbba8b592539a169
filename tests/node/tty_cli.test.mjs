// Issue 31: the progress bar as a researcher sees it, under a real terminal.
// util-linux `script` runs the CLI on a pseudo-terminal (stdout and stderr
// both on it) and copies what it prints: a train run of a few seconds draws
// a bar without --progress, redrawn in place, and with --quiet none. Skipped,
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
