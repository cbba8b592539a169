// Every public JS function over the wasm modules (issue 14, class 10): the
// explainer's and benchmarks' wrapper (web/src/bridge/attn.js), the checker's
// (web/src/bridge/attn-check.js), the lab's training ops
// (web/src/train/train-ops.js) and the benchmark's measureCase (web/src/pages/bench/measure.js) refuse an argument of the wrong type
// (a string, an object, null or nothing where a number belongs, a number
// where a string belongs, a string or an Int32Array where an array of
// numbers belongs, a 1 MB string) with an error of kind 'type' naming it, and
// a NaN with the core's range error; 10 000 bad calls of each kind leave the
// wasm heap where it was, and the module answers correctly after them. Both
// builds (simd, scalar).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ROOT, loadWasm } from './paths.mjs';

globalThis.location ??= { search: '', href: 'http://localhost/' };
globalThis.navigator ??= { languages: ['en'], language: 'en' };

const SRC = path.join(ROOT, 'web/src');
const { createAttn } = await import(path.join(SRC, 'bridge/attn.js'));
const { createCheckAttn } = await import(path.join(SRC, 'bridge/attn-check.js'));
const { createTrainOps } = await import(path.join(SRC, 'train/train-ops.js'));
const { measureCase } = await import(path.join(SRC, 'pages/bench/measure.js'));
const { loadErrorStrings } = await import(path.join(SRC, 'bridge/errors.js'));
const { sentence, sentenceKey } = await import(path.join(SRC, 'bridge/error-strings.js'));
const { inLang, t } = await import(path.join(SRC, 'base/i18n.js'));
await loadErrorStrings();

const CALLS = 10_000;
const HUGE = 'x'.repeat(1 << 20);

// The loop's yield, as in the browser, on a channel closed at the end.
const channel = new MessageChannel();
const wakers = [];
channel.port1.onmessage = () => wakers.shift()?.();
const nextTask = () => new Promise((resolve) => {
  wakers.push(resolve);
  channel.port2.postMessage(0);
});
after(() => channel.port1.close());

// The heap's state: its size (it never shrinks) and where the allocator puts
// a new 64 KiB block (a leak below it moves it up).
const probe = (M) => {
  const p = M._malloc(1 << 16);
  M._free(p);
  return [M.HEAP8.length, p];
};

/** Each [label, call, expected]: call() must throw (or resolve to) an error whose fields match expected. */
async function refusals(cases, M, label) {
  for (const [what, call, want] of cases) {
    let err = null;
    try {
      const r = await call();
      err = r && typeof r === 'object' && !(r instanceof Error) && 'error' in r ? r : null;
      if (!err) assert.fail(`${label} ${what}: accepted`);
    } catch (e) {
      err = e;
    }
    for (const [k, v] of Object.entries(want)) {
      if (k === 'expected') assert.equal(err.params?.expected, v, `${label} ${what}: params.expected`);
      else if (v instanceof RegExp) assert.match(String(err[k]), v, `${label} ${what}: ${k}`);
      else assert.deepEqual(err[k], v, `${label} ${what}: ${k}`);
    }
    if (err.kind === 'type') {
      // The sentence of the one convention, in both languages, not the generic one.
      const key = sentenceKey(err.argument, err.kind, err.params);
      assert.notEqual(key, 'coreerr.generic', `${label} ${what}`);
      for (const lang of ['en', 'zh']) {
        const s = inLang(lang, () => sentence(err));
        assert.notEqual(s, inLang(lang, () => t('coreerr.generic')), `${label} ${what} (${lang})`);
        assert.doesNotMatch(s, /\{|\}/, `${label} ${what} (${lang}): ${s}`);
      }
    }
  }
  const before = probe(M);
  for (const [what, call] of cases) {
    for (let i = 0; i < CALLS; i++) {
      try {
        await call();
      } catch {
        // expected
      }
    }
    assert.deepEqual(probe(M), before, `${label} ${what}: the heap moved over ${CALLS} bad calls`);
  }
}

// A type error: its argument, kind 'type' and params.expected.
const T = (argument, expected) => ({ argument, kind: 'type', expected });

for (const variant of ['simd', 'scalar']) {
  test(`${variant}: the explainer's wrapper refuses bad types, heap flat over ${CALLS} calls of each`, async () => {
    const M = await loadWasm('explain', variant);
    const a = createAttn(M);
    const id = a.qkOpen({ dk: 16, divisor: 4, seed: 1, bins: 8 });
    const sat = a.satOpen({ dk: 16, m: 8, seed: 1, divisors: [1, 4] });
    const cases = ([
      ['softmaxStats string scores', () => a.softmaxStats('1012', 1), T('scores', 'numbers')],
      ['softmaxStats object scores', () => a.softmaxStats({ length: 3 }, 1), T('scores', 'numbers')],
      ['softmaxStats strings in the array', () => a.softmaxStats(['1', '2'], 1), T('scores', 'numbers')],
      ['softmaxStats Int32Array', () => a.softmaxStats(new Int32Array([1, 2]), 1), T('scores', 'numbers')],
      ['softmaxStats BigInt64Array', () => a.softmaxStats(new BigInt64Array(2), 1), T('scores', 'numbers')],
      ['softmaxStats missing divisor', () => a.softmaxStats([1, 2]), T('divisor', 'number')],
      ['softmaxStats string divisor', () => a.softmaxStats([1, 2], '8'), T('divisor', 'number')],
      ['softmaxStats NaN divisor', () => a.softmaxStats([1, 2], NaN), { argument: 'divisor', kind: 'divisor' }],
      ['softmaxStats NaN score', () => a.softmaxStats([1, NaN], 1), { kind: 'finite' }],
      ['resolveDivisor number text', () => a.resolveDivisor(8, 64), T('divisor', 'string')],
      ['resolveDivisor huge text', () => a.resolveDivisor(HUGE, 64), T('divisor', 'string')],
      ['resolveDivisor object dk', () => a.resolveDivisor('sqrt', {}), T('dk', 'number')],
      ['resolveDivisor NaN dk', () => a.resolveDivisor('sqrt', NaN), { argument: 'dk', kind: 'range' }],
      ['sampleScoreRow string dk', () => a.sampleScoreRow('64', 16, 1), T('dk', 'number')],
      ['sampleScoreRow null m', () => a.sampleScoreRow(64, null, 1), T('m', 'number')],
      ['sampleScoreRow missing seed', () => a.sampleScoreRow(64, 16), T('seed', 'number')],
      ['sampleScoreRow NaN m', () => a.sampleScoreRow(64, NaN, 1), { argument: 'm', kind: 'range' }],
      ['qkOpen string dk', () => a.qkOpen({ dk: '64' }), T('dk', 'number')],
      ['qkOpen options not an object', () => a.qkOpen('dk=64'), T('options', 'object')],
      ['qkOpen NaN bins', () => a.qkOpen({ bins: NaN }), { argument: 'bins', kind: 'range' }],
      ['qkDraw string count', () => a.qkDraw(id, '10'), T('samples', 'number')],
      ['qkDraw string session', () => a.qkDraw(String(id), 10), T('session', 'number')],
      ['qkSummary string samples', () => a.qkSummary({ dk: 16 }, '100'), T('samples', 'number')],
      ['qkSummary null options', () => a.qkSummary(null, 100), T('options', 'object')],
      ['satOpen string divisors', () => a.satOpen({ dk: 16, m: 8, seed: 1, divisors: '1,4' }), T('divisors', 'numbers')],
      ['satOpen missing m', () => a.satOpen({ dk: 16, seed: 1, divisors: [1] }), T('m', 'number')],
      ['satDraw object rows', () => a.satDraw(sat, {}), T('rows', 'number')],
    ]);
    await refusals(cases, M, variant);
    // The module still answers, and right: softmax([14, 10, 12] / 8) by hand.
    const r = a.softmaxStats([14, 10, 12], 8);
    const e = [14, 10, 12].map((x) => Math.exp(x / 8));
    const sum = e.reduce((x, y) => x + y);
    e.forEach((x, i) => assert.ok(Math.abs(r.probs[i] - x / sum) < 1e-15));
    assert.equal(a.resolveDivisor('sqrt', 64).value, 8);
    assert.equal(a.qkDraw(id, 100).summary.samples, 100);
    assert.equal(a.satDraw(sat, 10).rows, 10);
    a.qkClose(id);
    a.satClose(sat);
  });

  test(`${variant}: the checker's and the benchmarks' wrappers refuse bad types, heap flat`, async () => {
    const C = await loadWasm('check', variant);
    const c = createCheckAttn(C);
    const file = { name: 'q.npy', bytes: new Uint8Array(8) };
    const cases = ([
      ['no array of files', () => c.checkTensors(file), T('files', 'files')],
      ['three files', () => c.checkTensors([file, file, file]), T('files', 'files')],
      ['a file that is a string', () => c.checkTensors(['q.npy']), T('files', 'object')],
      ['a number as the name', () => c.checkTensors([{ ...file, name: 5 }]), T('name', 'string')],
      ['a 1 MB name', () => c.checkTensors([{ ...file, name: HUGE }]), T('name', 'string')],
      ['bytes as a string', () => c.checkTensors([{ ...file, bytes: 'abc' }]), T('bytes', 'bytes')],
      ['bytes as a Float32Array', () => c.checkTensors([{ ...file, bytes: new Float32Array(2) }]), T('bytes', 'bytes')],
      ['a number as the divisor', () => c.checkTensors([file], { divisor: 8 }), T('divisor', 'string')],
      ['a number as the format', () => c.checkTensors([file], { format: 1 }), T('format', 'string')],
      ['a string as sequences', () => c.checkTensors([file], { sequences: '2' }), T('sequences', 'number')],
      ['options as a string', () => c.checkTensors([file], 'npz'), T('options', 'object')],
    ]);
    await refusals(cases, C, `${variant} check`);
    const B = await loadWasm('bench', variant);
    const b = createAttn(B);
    const fwd = { q: [1, 0], k: [1, 0, 0, 1], v: [1, 2], n: 1, m: 2, dk: 2, dv: 1, divisor: 1 };
    const bcases = ([
      ['q as a string', () => b.attentionForward({ ...fwd, q: '10' }), T('q', 'numbers')],
      ['v as a Uint8Array', () => b.attentionForward({ ...fwd, v: new Uint8Array(2) }), T('v', 'numbers')],
      ['n as a string', () => b.attentionForward({ ...fwd, n: '1' }), T('n', 'number')],
      ['no divisor', () => b.attentionForward({ ...fwd, divisor: undefined }), T('divisor', 'number')],
      ['NaN dk', () => b.attentionForward({ ...fwd, dk: NaN }), { argument: 'dk', kind: 'range' }],
      ['measureCase number kernel', () => measureCase(B, { kernel: 5, n: 64, d: 0 }), T('kernel', 'string')],
      ['measureCase huge kernel', () => measureCase(B, { kernel: HUGE, n: 64, d: 0 }), T('kernel', 'string')],
      ['measureCase string n', () => measureCase(B, { kernel: 'dot', n: '64', d: 0 }), T('n', 'number')],
      ['measureCase no case', () => measureCase(B), T('case', 'object')],
      ['measureCase unknown kernel', () => measureCase(B, { kernel: 'nope', n: 64, d: 0 }), { kind: 'choice' }],
    ]);
    await refusals(bcases, B, `${variant} bench`);
    // Still right: one query equal to the first key; weights softmax([1, 0]).
    const r = b.attentionForward(fwd);
    const w0 = Math.exp(1) / (Math.exp(1) + 1);
    assert.ok(Math.abs(r.weights[0] - w0) < 1e-6);
    assert.ok(Math.abs(r.out[0] - (w0 + 2 * (1 - w0))) < 1e-6);
  });

  test(`${variant}: the lab's training ops refuse bad types, heap flat (TrainSession objects freed)`, async () => {
    const M = await loadWasm('lab', variant);
    const events = [];
    const ops = createTrainOps((event, payload) => events.push({ event, ...payload }), { warmSteps: 0, load: async () => M, nextTask });
    await ops.init(variant);
    const OPTIONS = {
      task: 'recall', dk: 16, heads: 1, dModel: 64, dv: 32, divisor: 'sqrt', optimizer: 'adam', lr: 1e-3,
      init: 'lecun', batch: 8, seed: 0, logEvery: 5,
    };
    // start() reports by event: the last 'failed' event is the call's verdict.
    const started = (spec) => async () => {
      events.length = 0;
      await ops.start(spec);
      const f = events.find((e) => e.event === 'failed');
      if (f) throw Object.assign(new Error(f.error), f);
      return { error: '' };
    };
    const spec = { runId: 1, options: OPTIONS, steps: 5, mapEvery: 6, evalSamples: 8 };
    // validate() answers each options object with its verdict.
    const verdict = (o) => async () => (await ops.validate([o]))[0];
    const cases = ([
      ['a number as the task', verdict({ ...OPTIONS, task: 5 }), T('task', 'string')],
      ['a 1 MB divisor', verdict({ ...OPTIONS, divisor: HUGE }), T('divisor', 'string')],
      ['a string as dk', verdict({ ...OPTIONS, dk: '16' }), T('dk', 'number')],
      ['no optimizer', verdict({ ...OPTIONS, optimizer: undefined }), T('optimizer', 'string')],
      ['options as a string', verdict('dk=16'), T('options', 'object')],
      ['NaN lr', verdict({ ...OPTIONS, lr: NaN }), { argument: 'lr', kind: 'range' }],
      ['validate given no array', () => ops.validate(OPTIONS), T('options', 'object')],
      ['referenceLr number optimizer', () => ops.referenceLr(1, 16, 64), T('optimizer', 'string')],
      ['referenceLr string dk', () => ops.referenceLr('adam', '16', 64), T('dk', 'number')],
      ['referenceLr NaN dModel', () => ops.referenceLr('adam', 16, NaN), { argument: 'dModel', kind: 'range' }],
      ['start: a number as the init', started({ ...spec, options: { ...OPTIONS, init: 0 } }), T('init', 'string')],
      ['start: an object as the seed', started({ ...spec, options: { ...OPTIONS, seed: {} } }), T('seed', 'number')],
      ['start: steps as a string', started({ ...spec, steps: '5' }), T('steps', 'number')],
      ['start: no mapEvery', started({ ...spec, mapEvery: undefined }), T('mapEvery', 'number')],
      ['start: steps 2.5', started({ ...spec, steps: 2.5 }), { argument: 'steps', kind: 'range' }],
      ['start: a bad dk (the core\'s range)', started({ ...spec, options: { ...OPTIONS, dk: 0 } }), { argument: 'dk', kind: 'range' }],
      ['qk: a string as samples', () => ops.qk(1, '8'), T('samples', 'number')],
      ['init: a number as the build', () => ops.init(1), T('build', 'string')],
    ]);
    await refusals(cases, M, `${variant} train`);
    // Still right: a run after them gives what a TrainSession driven directly gives.
    events.length = 0;
    await ops.start({ runId: 2, options: OPTIONS, steps: 20, mapEvery: 21, evalSamples: 64 });
    while (!events.some((e) => e.event === 'done' || e.event === 'failed')) await nextTask();
    const done = events.find((e) => e.event === 'done');
    assert.ok(done, JSON.stringify(events.find((e) => e.event === 'failed')));
    const s = new M.TrainSession();
    s.configure(OPTIONS);
    s.step(20);
    assert.deepEqual(done.eval, s.evaluate(64).eval);
    s.delete();
  });
}
