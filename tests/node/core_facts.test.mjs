// The training options' facts, defined once in C++ (cpp/core/train/
// train_config.h train_options: TrainConfig's defaults, train_limits' ranges)
// and read from there by the CLI's parser and help, the lab module's
// configure() and trainOptionTable(), and the site (web/src/wasm/core-facts.js
// and divisor-range.js, written at build time by web/scripts/core-facts.mjs
// from the module). Here each reader is held to the table: the files the site
// imports are what the module says now (not a stale build), the CLI states the
// same defaults and ranges (attnlab help --markdown prints the table its parser
// reads) and runs with them, configure() refuses each range's ends by the same
// field names, and the JS that holds a default or a range (train/config.js:
// FIXED, the lab's form, the widget's option specs; train-ops.js's field
// checks) has the core's; the presets and the checker's limits, which the
// lab's and the checker's pages state before their workers answer, are the
// modules' and the CLI's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, ROOT, loadWasm } from './paths.mjs';

const WEB = path.join(ROOT, 'web');
const { coreFacts, coreFactsModules } = await import(path.join(WEB, 'scripts/core-facts.mjs'));
const M = await loadWasm('lab', 'scalar');
const C = await loadWasm('check', 'scalar');
const facts = coreFacts(M, C);
const T = facts.trainOptions;
const config = await import(path.join(WEB, 'src/train/config.js'));

test('the site\'s core-facts.js, divisor-range.js, presets.js and check-limits.js are what the modules say (rebuilt with them)', () => {
  for (const [file, text] of Object.entries(coreFactsModules(facts)))
    assert.equal(fs.readFileSync(path.join(WEB, 'src/wasm', file), 'utf8'), text, `web/src/wasm/${file}: run scripts/build.sh`);
  assert.deepEqual(config.CORE_OPTIONS, T);
});

// train's option table as attnlab help --markdown prints it: option -> {range, def}.
function cliTable() {
  const r = spawnSync(CLI, ['help', '--markdown'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const train = r.stdout.split(/^## /m).find((s) => s.startsWith('train\n'));
  const rows = new Map();
  for (const line of train.split('\n')) {
    const m = line.match(/^\| `--([a-z-]+)[^`]*` \| .* \| [a-z]+(?:, (.*))? \| (.*) \|$/);
    if (m) rows.set(m[1], { range: m[2] ?? '', def: m[3] });
  }
  return rows;
}

test('the CLI states each option\'s default and range as the table has them', () => {
  const rows = cliTable();
  const names = Object.values(T).map((o) => o.name);
  for (const name of names) assert.ok(rows.has(name), `--${name} in train's help`);
  for (const o of Object.values(T)) {
    const { range, def } = rows.get(o.name);
    if (o.type === 'integer') {
      assert.equal(range, `${o.lo} .. ${o.hi}`, `--${o.name}'s range`);
      // d_v's default is d_model / heads on the command line: the table's at their defaults.
      if (o.name === 'dv') assert.equal(o.def, T.dModel.def / T.heads.def);
      else assert.equal(def, String(o.def), `--${o.name}'s default`);
    } else if (o.type === 'choice') {
      assert.equal(range, o.choices.join(', '), `--${o.name}'s choices`);
      assert.equal(def, o.def, `--${o.name}'s default`);
    } else if (o.type === 'divisor') {
      assert.match(range, new RegExp(`a number in \\[${o.lo}, ${o.hi.toExponential().replace('+', '')}\\]$`));
      assert.equal(def, o.def);
    } else if (o.name === 'lr') {
      assert.equal(range, `(${o.lo}, ${o.hi}]`);
    } else {
      assert.equal(range, `[${o.lo}, ${o.hi}]`, `--${o.name}'s range`);
      assert.equal(def, 'none', `--${o.name} is off by default`);
      assert.equal(o.def, 0);
    }
  }
});

test('a run with no options is the table\'s defaults, on the command line and in configure()', () => {
  const r = spawnSync(CLI, ['train', '--steps', '1', '--eval', '1'], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  const echo = JSON.parse(r.stdout).config;
  assert.deepEqual({
    task: echo.task, dk: echo.dk, heads: echo.heads, dModel: echo.d_model, dv: echo.dv, divisor: echo.divisor,
    optimizer: echo.optimizer, lr: echo.lr, init: echo.init, batch: echo.batch, seed: echo.seed, logEvery: echo.log_every,
    softcap: echo.softcap ?? 0, qkClip: echo.qk_clip ?? 0,
  }, Object.fromEntries(Object.values(T).filter((o) => o.field).map((o) => [o.field, o.def])));
  assert.equal(M.trainReferenceLr(T.optimizer.def, T.dk.def, T.dModel.def).lr, T.lr.def, 'lr\'s default is the reference rate');
});

test('configure() reads the table\'s fields and refuses each integer range\'s ends by that field', () => {
  const defaults = Object.fromEntries(Object.values(T).filter((o) => o.field).map((o) => [o.field, o.def]));
  const s = new M.TrainSession();
  try {
    assert.equal(s.configure({ ...defaults, dk: 16 }).error, '');
    for (const o of Object.values(T).filter((x) => x.field)) {
      const { [o.field]: _, ...without } = { ...defaults, dk: 16 };
      const st = s.configure(without);
      if (o.optional) assert.equal(st.error, '', `${o.field} may be left out`);
      else assert.equal(st.argument, o.field, `a missing ${o.field} is named`);
      if (o.type !== 'integer') continue;
      for (const bad of [o.lo - 1, o.hi + 1]) {
        const r = s.configure({ ...defaults, dk: 16, [o.field]: bad });
        assert.equal(r.argument, o.field, `${o.field} = ${bad}: ${r.error}`);
        assert.equal(r.kind, 'range');
      }
    }
  } finally {
    s.delete();
  }
});

test('the JS that holds a default or a range has the core\'s', async () => {
  const { FIXED, FORM_STATE, STAB_STATE, TASKS, OPTIMIZERS, INITS, PROBE, coreSpec } = config;
  for (const k of ['dModel', 'dv', 'batch', 'init']) assert.equal(FIXED[k], T[k].def, `FIXED.${k}`);
  assert.equal(FIXED.logEvery, 5, 'the lab\'s own: it logs twice as often as the core (config.js says why)');
  for (const [key, field] of [['task', 'task'], ['dk', 'dk'], ['heads', 'heads'], ['opt', 'optimizer'], ['steps', 'steps'], ['seed', 'seed']])
    assert.equal(FORM_STATE[key].def, String(T[field].def), `the lab's ${key}`);
  assert.equal(STAB_STATE.init.def, T.init.def);
  assert.deepEqual(TASKS, T.task.choices);
  assert.deepEqual(OPTIMIZERS, T.optimizer.choices);
  assert.ok(INITS.every((i) => T.init.choices.includes(i)));
  const s = new M.TrainSession();
  try {
    assert.equal(s.configure(PROBE).error, '', 'the probe is a valid configuration');
  } finally {
    s.delete();
  }
  assert.deepEqual(coreSpec('dk', { def: 64 }), { type: 'int', min: T.dk.lo, max: T.dk.hi, def: 64 });
  assert.deepEqual(coreSpec('seed'), { type: 'int', min: T.seed.lo, max: T.seed.hi, def: T.seed.def });
  assert.deepEqual(coreSpec('optimizer'), { type: 'enum', values: T.optimizer.choices, def: T.optimizer.def });
  assert.deepEqual(coreSpec('lr', { def: null }), { type: 'number', min: 0, minOpen: true, max: T.lr.hi, def: null });
  // <attn-train-compare>'s options (data only, compare-options.js): these four attributes' ranges are the core's.
  const { OPTIONS } = await import(path.join(WEB, 'src/widgets/compare-options.js'));
  assert.deepEqual(OPTIONS.dk.spec, { type: 'int', min: T.dk.lo, max: T.dk.hi, def: 64 }, 'the widget\'s dk attribute');
  assert.deepEqual(OPTIONS.seed.spec, coreSpec('seed'), 'the widget\'s seed attribute');
  assert.deepEqual(OPTIONS.optimizer.spec, coreSpec('optimizer'), 'the widget\'s optimizer attribute');
  assert.deepEqual(OPTIONS.lr.spec, { type: 'number', min: 0, minOpen: true, max: T.lr.hi, def: null }, 'the widget\'s lr attribute');
});

test('the saturation widgets\' largest divisor is the core\'s', async () => {
  const sweep = await import(path.join(WEB, 'src/widgets/saturation-sweep.js'));
  assert.equal(sweep.MAX_DIVISOR, facts.divisorRange.hi);
  assert.equal(T.divisor.hi, facts.divisorRange.hi);
});

test('the presets and the checker\'s limits the pages state on their first frame are the core\'s', async () => {
  const { MODEL_PRESETS } = await import(path.join(WEB, 'src/wasm/presets.js'));
  const { CHECK_LIMITS } = await import(path.join(WEB, 'src/wasm/check-limits.js'));
  const r = spawnSync(CLI, ['presets'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(MODEL_PRESETS, JSON.parse(r.stdout).presets, 'attnlab presets');
  assert.deepEqual(MODEL_PRESETS, C.checkPresets().presets, 'the checker module\'s');
  assert.deepEqual(CHECK_LIMITS, { ...C.checkLimits() });
  // The lab's soft-cap and τ hints state the option table's ranges: the module's cap range.
  const { lo, hi } = M.trainCapRange();
  for (const o of [T.softcap, T.qkClip]) assert.deepEqual([o.lo, o.hi], [lo, hi], o.name);
});
