// The lab's fixed parts of a run (web/src/train/config.js FIXED) against the
// core's defaults as the CLI's option table states them (attnlab help
// --markdown, the table its parser reads): d_model, d_v at the lab's default
// heads, batch and init are the core's; logEvery is the lab's own (5, the
// core's 10 halved, for the charts), and said so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { CLI, ROOT } from './paths.mjs';

const { FIXED, FORM_STATE } = await import(path.join(ROOT, 'web/src/train/config.js'));

test('FIXED holds the core\'s defaults, logEvery apart', () => {
  const r = spawnSync(CLI, ['help', '--markdown'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const train = r.stdout.split(/^## /m).find((s) => s.startsWith('train\n'));
  const def = (option) => {
    const row = train.split('\n').find((l) => l.startsWith(`| \`--${option} `));
    assert.ok(row, `--${option} in train's table`);
    return row.split(' | ').at(-1).replace(/ \|$/, '').trim();
  };
  const heads = Number(def('heads'));
  assert.equal(Number(FORM_STATE.heads.def), heads, 'the lab\'s default heads are the core\'s');
  assert.equal(FIXED.dModel, Number(def('dmodel')));
  assert.equal(def('dv'), 'dmodel / heads');
  assert.equal(FIXED.dv, FIXED.dModel / heads);
  assert.equal(FIXED.batch, Number(def('batch')));
  assert.equal(FIXED.init, def('init'));
  assert.equal(Number(def('log-every')), 10);
  assert.equal(FIXED.logEvery, 5, 'the lab logs twice as often as the core (config.js says why)');
});
