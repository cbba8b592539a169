// web/src/pages/lab/form.js without a page: the checks the page makes itself, the
// options objects it asks the core about, where each of the core's verdicts
// goes, and the whole validation against the lab's wasm core (its
// TrainSession.configure() standing in for the worker's 'validate' op).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ROOT, loadWasm } from './paths.mjs';

// What i18n.js and state.js read of a page at import.
globalThis.navigator ??= { languages: ['en'], language: 'en' };
globalThis.addEventListener ??= () => {};
globalThis.location = new URL('http://localhost/lab.html');
globalThis.history = { state: null, replaceState: (_s, _t, url) => (globalThis.location = new URL(url)) };

const { checkValues, verdictMessages, fieldOfArgument, validateValues, PROBE } = await import(path.join(ROOT, 'web/src/pages/lab/form.js'));

const DEFAULT = { task: 'recall', dk: '256', heads: '2', div: 'sqrt,2,1', opt: 'adam', lr: 'auto', steps: '1500', seed: '0' };

test('the page\'s own checks: empty fields, steps, how many divisors', () => {
  const ok = checkValues(DEFAULT);
  assert.deepEqual(ok.msgs, {});
  assert.equal(ok.steps, 1500);
  assert.equal(ok.auto, true);
  assert.deepEqual([...ok.presets], ['sqrt', '2', '1']);

  const bad = checkValues({ ...DEFAULT, dk: '', steps: '1.5', div: '' });
  assert.deepEqual(bad.msgs.dk, { key: 'lab.err.empty' });
  assert.equal(bad.msgs.steps.key, 'lab.err.steps');
  assert.deepEqual(bad.msgs.div, { key: 'lab.err.noDivisor' });
  assert.deepEqual(checkValues({ ...DEFAULT, steps: '' }).msgs.steps, { key: 'lab.err.empty' }, 'empty, not a bad number');
  assert.deepEqual(checkValues({ ...DEFAULT, steps: '100001' }).msgs.steps.key, 'lab.err.steps');
  assert.deepEqual(checkValues({ ...DEFAULT, div: '3,4,5,6' }).msgs.div, { key: 'lab.err.tooManyCustom', params: { max: 3 } });
  assert.deepEqual(checkValues({ ...DEFAULT, div: 'sqrt, 2.0, SQRT' }).presets, new Set(['sqrt', '2']), 'a custom text naming a preset is that preset');
});

test('what the core is asked: each field alone on a valid probe, then each custom divisor', () => {
  const { probes } = checkValues({ ...DEFAULT, lr: '0.01', dk: 'abc', div: 'sqrt,3,0.5' });
  assert.deepEqual(probes.map(([f]) => f), ['task', 'dk', 'heads', 'opt', 'lr', 'seed', 'div', 'div']);
  const dk = probes.find(([f]) => f === 'dk')[1];
  assert.ok(Number.isNaN(dk.dk), 'text that is not a number reaches the core as NaN');
  assert.equal(dk.heads, PROBE.heads, 'only the field probed differs from the probe');
  assert.deepEqual(probes.filter(([f]) => f === 'div').map(([, o]) => o.divisor), ['3', '0.5']);
  assert.deepEqual(probes.find(([f]) => f === 'lr')[1].lr, 0.01);

  const auto = checkValues({ ...DEFAULT, heads: '' }).probes.map(([f]) => f);
  assert.deepEqual(auto, ['task', 'dk', 'opt', 'seed'], 'no probe for an empty field, nor for lr = auto');
  assert.ok(!checkValues({ ...DEFAULT, div: '3,4,5,6' }).probes.some(([f]) => f === 'div'), 'too many divisors: none asked');
});

test('each verdict goes next to its field; the first for a field wins', () => {
  const probes = [['dk', {}], ['heads', {}], ['div', {}], ['div', {}]];
  const verdicts = [{ error: 'dk: bad', argument: 'dk' }, { error: '', argument: '' },
    { error: 'divisor: first', argument: 'divisor' }, { error: 'divisor: second', argument: 'divisor' }];
  const fields = (error, argument) => ({ error, argument, kind: '', params: {} });
  assert.deepEqual(verdictMessages(probes, verdicts), { dk: { core: fields('dk: bad', 'dk') }, div: { core: fields('divisor: first', 'divisor') } });
  assert.deepEqual(verdictMessages([], []), {});
  for (const [arg, field] of [['dk', 'dk'], ['heads*dk', 'dk'], ['batch*positions*heads*dk', 'dk'], ['d_model*heads*dk', 'dk'],
    ['optimizer', 'opt'], ['divisor', 'div'], ['lr', 'lr'], ['seed', 'seed'], ['task', 'task'], ['heads', 'heads'],
    ['something new', 'form'], ['', 'form']])
    assert.equal(fieldOfArgument(arg), field, arg);
});

// The worker's ops, served by the lab's module in this process.
async function coreAsk() {
  const M = await loadWasm('lab', 'simd');
  return (op, args) => {
    if (op === 'validate') {
      const s = new M.TrainSession();
      try {
        return args[0].map((o) => {
          const { error, argument, kind, params } = s.configure(o);
          return { error, argument, kind, params };
        });
      } finally {
        s.delete();
      }
    }
    if (op === 'referenceLr') return M.trainReferenceLr(String(args[0]), args[1], args[2]);
    throw new Error(`no op ${op}`);
  };
}

test('with the core: the default form is a plan; bad values get the core\'s message by their fields', async () => {
  const ask = await coreAsk();
  const ok = await validateValues(DEFAULT, ask);
  assert.deepEqual(ok.msgs, {});
  assert.ok(ok.autoLr > 0 && ok.plan.lr === ok.autoLr, 'lr = auto: the core\'s reference rate');
  assert.deepEqual(ok.plan.divisors.map((d) => d.option), ['sqrt', '2', '1']);
  assert.deepEqual({ dk: ok.plan.config.dk, steps: ok.plan.config.steps, optimizer: ok.plan.config.optimizer }, { dk: 256, steps: 1500, optimizer: 'adam' });

  const bad = await validateValues({ task: 'sorting', dk: 'abc', heads: '-2', div: 'sqrt,zero', opt: 'rmsprop', lr: '0', steps: '1.5', seed: 'x' }, ask);
  assert.equal(bad.plan, null);
  assert.deepEqual(Object.keys(bad.msgs).sort(), ['div', 'dk', 'heads', 'lr', 'opt', 'seed', 'steps', 'task']);
  for (const f of ['task', 'dk', 'heads', 'opt', 'lr', 'seed', 'div']) {
    assert.ok(bad.msgs[f].core.error, `${f}: the core's message`);
    assert.ok(bad.msgs[f].core.kind, `${f}: the kind of error, for the page's sentence`);
  }
  assert.deepEqual({ kind: bad.msgs.lr.core.kind, params: bad.msgs.lr.core.params }, { kind: 'range', params: { lo: 0, hi: 10, value: 0, open: 'lo' } });

  const big = await validateValues({ ...DEFAULT, dk: '1024', heads: '16' }, ask);
  assert.equal(big.plan, null, 'each field alone is fine; their product is not');
  assert.deepEqual(Object.keys(big.msgs), ['dk']);

  const lost = await validateValues(DEFAULT, async () => { throw new Error('worker lost'); });
  assert.deepEqual(lost.msgs, { form: { core: { error: 'worker lost', argument: '', kind: '', params: {} } } });
});

test('the core\'s limits: the init checkpoint\'s pass band the page marks against', async () => {
  const M = await loadWasm('lab', 'simd');
  const L = M.trainLimits();
  assert.deepEqual([L.initBandLow, L.initBandHigh], [0.5, 2]);
  assert.ok(L.maxDk >= 256 && L.maxHeads >= 1 && L.maxSeed > 0 && L.maxStepsPerCall > 0);
});

// The stabilisers (issue 15): soft-cap (cap), QK-clip τ (clip) and init in the
// form and the address, checked by the core, applied to every run; the Preset
// select's fill and match, from the core's own table.
const { presetValues, holdsPreset, shownPreset, planOf } = await import(path.join(ROOT, 'web/src/pages/lab/form.js'));
const { FORM_STATE, STAB_STATE, formUrlValues, trainOptions, capNumber } = await import(path.join(ROOT, 'web/src/train/config.js'));
const { readState } = await import(path.join(ROOT, 'web/src/base/state.js'));

test('stabilisers: probed only when set, their verdicts by their fields, in every run\'s options', () => {
  assert.deepEqual(checkValues({ ...DEFAULT, cap: '', clip: '', init: 'lecun' }).probes.map(([f]) => f), ['task', 'dk', 'heads', 'opt', 'seed'],
    'off and the default init: nothing more asked');
  const { probes } = checkValues({ ...DEFAULT, cap: '50', clip: ' abc ', init: 't5' });
  assert.deepEqual(probes.map(([f]) => f), ['task', 'dk', 'heads', 'opt', 'seed', 'cap', 'clip', 'init']);
  assert.equal(probes.find(([f]) => f === 'cap')[1].softcap, 50);
  assert.ok(Number.isNaN(probes.find(([f]) => f === 'clip')[1].qkClip), 'text that is not a number reaches the core as NaN');
  assert.equal(probes.find(([f]) => f === 'init')[1].init, 't5');
  for (const [arg, field] of [['softcap', 'cap'], ['qk_clip', 'clip'], ['init', 'init']]) assert.equal(fieldOfArgument(arg), field);
  assert.deepEqual([capNumber(''), capNumber(undefined), capNumber(' 50 '), capNumber('1e-3')], [0, 0, 50, 1e-3]);
  const o = trainOptions({ ...DEFAULT, cap: '50', clip: '100', init: 't5' }, 'sqrt', 1e-3);
  assert.deepEqual([o.softcap, o.qkClip, o.init], [50, 100, 't5']);
  const old = trainOptions(DEFAULT, 'sqrt', 1e-3);
  assert.deepEqual([old.softcap, old.qkClip, old.init], [0, 0, 'lecun'], 'values from before them: off, LeCun');
});

test('stabilisers in the address: cap=50&clip=100&init=t5, absent while off', () => {
  globalThis.location = new URL('http://localhost/lab.html?dk=64&cap=50&clip=100&init=t5');
  const { values } = readState('', STAB_STATE);
  assert.deepEqual(values, { cap: '50', clip: '100', init: 't5' });
  assert.equal(readState('', FORM_STATE).values.dk, '64');
  assert.ok(!('cap' in readState('', FORM_STATE).values), 'the form\'s old keys read as before');
  globalThis.location = new URL('http://localhost/lab.html?dk=64');
  const plain = { ...readState('', FORM_STATE).values, ...readState('', STAB_STATE).values };
  assert.deepEqual([plain.cap, plain.clip, plain.init], ['', '', 'lecun'], 'an old link: off, LeCun');
  const url = formUrlValues({ ...plain });
  assert.deepEqual([url.cap, url.clip, url.init], [null, null, null], 'not written while off');
  assert.deepEqual(formUrlValues({ ...plain, cap: '50', clip: '1e2', init: 't5' }), { ...plain, cap: '50', clip: '1e2', init: 't5' });
  globalThis.location = new URL('http://localhost/lab.html');
});

test('with the core: bad soft-caps and τ get the core\'s range message by their fields; good ones reach the plan', async () => {
  const ask = await coreAsk();
  const ok = await validateValues({ ...DEFAULT, cap: '50', clip: '100', init: 't5' }, ask);
  assert.deepEqual(ok.msgs, {});
  assert.deepEqual([ok.plan.config.softcap, ok.plan.config.qkClip, ok.plan.config.init], [50, 100, 't5']);
  for (const [cap, clip] of [['0.0001', '1e5'], ['-1', 'abc'], ['nan', '20000']]) {
    const bad = await validateValues({ ...DEFAULT, cap, clip }, ask);
    assert.equal(bad.plan, null);
    assert.deepEqual(Object.keys(bad.msgs).sort(), ['cap', 'clip'], `${cap}, ${clip}`);
    assert.equal(bad.msgs.cap.core.argument, 'softcap');
    assert.equal(bad.msgs.clip.core.argument, 'qk_clip');
    for (const m of [bad.msgs.cap, bad.msgs.clip]) {
      assert.equal(m.core.kind, 'range');
      assert.deepEqual([m.core.params.lo, m.core.params.hi, m.core.params.off], [1e-3, 1e4, 0]);
    }
  }
  const init = await validateValues({ ...DEFAULT, init: 'he' }, ask);
  assert.deepEqual(Object.keys(init.msgs), ['init']);
  assert.equal(init.msgs.init.core.argument, 'init');
  // 0 is off, as empty is.
  assert.deepEqual((await validateValues({ ...DEFAULT, cap: '0', clip: '0' }, ask)).msgs, {});
});

test('presets: the core\'s table fills d_k, the divisor as a number, the soft-cap and init; the select shows what the form holds', async () => {
  const M = await loadWasm('lab', 'simd');
  const presets = M.trainPresets();
  const by = Object.fromEntries(presets.map((p) => [p.name, p]));
  const v = { ...DEFAULT, cap: '', clip: '100', init: 'lecun' };
  const g = presetValues(by['gemma2-27b'], v);
  assert.deepEqual([g.dk, g.div, g.cap, g.init, g.clip], ['128', 'sqrt,2,1,12', '50', 'lecun', '100'], '÷12, not ÷√128; τ stays');
  const l = presetValues(by.llama, { ...v, div: 'sqrt,4' });
  assert.equal(l.div, `sqrt,${Math.sqrt(128)}`, 'the exact number, replacing the other divisors\' text');
  assert.equal(Number(l.div.split(',')[1]), by.llama.divisor);
  const t5 = presetValues(by.t5, { ...v, div: 'sqrt,4' });
  assert.deepEqual([t5.dk, t5.div, t5.cap, t5.init], ['64', 'sqrt,1,4', '', 't5'], 'divisor 1 is its checkbox');
  assert.equal(presetValues(by.mup, v).div, 'sqrt,2,1,64', 'μP: 64 as a number (not the dₖ checkbox)');
  for (const p of presets) {
    assert.ok(holdsPreset(p, presetValues(p, v)), `${p.name}: the filled form holds it`);
    assert.equal(shownPreset(presets, presetValues(p, v), p.name), p.name, p.name);
  }
  assert.equal(shownPreset(presets, presetValues(by.gpt2, v)), 'gpt2', 'GPT-2 and BERT-base are the same setting: the first');
  assert.equal(shownPreset(presets, presetValues(by['bert-base'], v), 'bert-base'), 'bert-base', 'the one chosen stays');
  assert.equal(shownPreset(presets, { ...g, dk: '256' }, 'gemma2-27b'), '', 'another d_k: no preset');
  assert.equal(shownPreset(presets, { ...g, cap: '30' }, 'gemma2-27b'), '', 'another cap: no preset');
  assert.equal(shownPreset(presets, { ...g, div: 'sqrt' }, 'gemma2-27b'), '', 'its divisor not compared: no preset');
  assert.equal(shownPreset(presets, DEFAULT), '', 'the default form is no model');
  // Each filled form is a valid comparison for the core, the preset's numbers in its plan.
  const ask = await coreAsk();
  for (const name of ['gemma2-27b', 't5', 'llama']) {
    const r = await validateValues({ ...presetValues(by[name], v), steps: '10' }, ask);
    assert.deepEqual(r.msgs, {}, name);
    assert.equal(r.plan.config.softcap, by[name].softcap ?? 0);
  }
  assert.equal(typeof planOf, 'function');
});
