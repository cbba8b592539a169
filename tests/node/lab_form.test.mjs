// web/src/lab/form.js without a page: the checks the page makes itself, the
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

const { checkValues, verdictMessages, fieldOfArgument, validateValues, PROBE } = await import(path.join(ROOT, 'web/src/lab/form.js'));

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
