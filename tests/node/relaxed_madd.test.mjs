// The relaxed-SIMD build's numbers are the CLI's for the same seed, given the
// CLI's --madd for how this engine runs relaxed_madd (buildInfo().madd): the
// explainer's Monte Carlo bit for bit, the lab's training curves to the CLI's
// 7 digits through convergence (d_k 256, 400 steps, where a run with other
// roundings has long parted). And the other --madd does not give them, so the
// check can fail. Node 20 validates relaxed SIMD only behind
// --experimental-wasm-relaxed-simd, so the modules run in a child with the flag.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI } from './paths.mjs';

const MC = [[64, 0, 1, 1], [7, 0.5, 1, 1], [1024, 0, 1, 1], [33, 0.9, 1e3, 1e-6], [100, 1, 3, 3]];
const TRAIN = { task: 'recall', dk: 256, heads: 2, dModel: 64, dv: 32, divisor: 'sqrt', optimizer: 'adam',
  lr: 8e-3, init: 'lecun', batch: 64, seed: 0, logEvery: 50 };

const script = `
const { loadWasm } = await import(${JSON.stringify(new URL('./paths.mjs', import.meta.url).href)});
const explain = await loadWasm('explain', 'relaxed'), lab = await loadWasm('lab', 'relaxed');
const mc = ${JSON.stringify(MC)}.map(([dk, rho, sq, sk]) => {
  const s = new explain.QkSession();
  s.configure({ dk, divisor: Math.sqrt(dk), rho, sigmaQ: sq, sigmaK: sk, seed: 7, bins: 32 });
  s.draw(dk >= 1024 ? 3000 : 20000);
  const r = { ...s.summary().summary, hist: Array.from(s.histogram().slice()) };
  s.delete();
  return r;
});
const t = new lab.TrainSession();
t.configure(${JSON.stringify(TRAIN)});
t.step(400);
const cols = JSON.parse(t.columnsJson()), flat = Array.from(t.metrics(0).slice());
const rows = [];
for (let i = 0; i < t.rowCount(); i++) rows.push(Object.fromEntries(cols.map((c, j) => [c, flat[i * cols.length + j]])));
console.log(JSON.stringify({ info: explain.buildInfo(), labInfo: lab.buildInfo(), mc, rows }));
`;
const child = spawnSync(process.execPath, ['--experimental-wasm-relaxed-simd', '--input-type=module', '-e', script],
  { encoding: 'utf8', timeout: 300_000 });
assert.equal(child.status, 0, child.stderr);
const relaxed = JSON.parse(child.stdout);
const madd = relaxed.info.madd;
const other = madd === 'fused' ? 'separate' : 'fused';

function cli(args) {
  const r = spawnSync(CLI, args, { encoding: 'utf8', timeout: 300_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}
const variance = ([dk, rho, sq, sk], mode) => cli(['variance', '--dk', `${dk}`, '--samples', `${dk >= 1024 ? 3000 : 20000}`,
  '--seed', '7', '--rho', `${rho}`, '--sigma-q', `${sq}`, '--sigma-k', `${sk}`, '--bins', '32', '--madd', mode]);
const train = (mode) => cli(['train', '--steps', '400', '--log-every', '50', '--eval', '64', '--madd', mode]).metrics;

test(`the relaxed build names how its multiply-adds round here (${madd}), in every module`, (t) => {
  t.diagnostic(`relaxed_madd on this machine: ${madd}`);
  assert.ok(madd === 'fused' || madd === 'separate');
  assert.equal(relaxed.labInfo.madd, madd);
  assert.equal(relaxed.info.build, 'relaxed');
});

test('relaxed Monte Carlo is the CLI\'s with that --madd, bit for bit, and not the other\'s', () => {
  let differs = 0;
  MC.forEach((c, i) => {
    const w = relaxed.mc[i], native = variance(c, madd), what = `dk=${c[0]} rho=${c[1]}`;
    assert.equal(native.kernel, madd === 'fused' ? 'dot_f32__scalar_fma' : 'dot_f32__scalar');
    assert.equal(w.mean, native.mean, `mean ${what}`);
    assert.equal(w.var, native.var, `var ${what}`);
    assert.equal(w.scaledVar, native.scaled_var, `scaled_var ${what}`);
    assert.equal(w.varStderr, native.var_stderr, `var_stderr ${what}`);
    assert.deepEqual(w.hist, native.histogram.counts, `histogram ${what}`);
    differs += variance(c, other).var !== w.var;
  });
  assert.ok(differs > 0, `--madd ${other} gives the same variances: the comparison could not fail`);
});

test('relaxed training curves are the CLI\'s with that --madd through convergence, and part from the other\'s', () => {
  const close = (a, b) => Math.abs(a - b) <= 1e-6 * Math.abs(b) + 1e-12;  // the CLI's 7 digits
  const same = train(madd), diff = train(other);
  assert.equal(relaxed.rows.length, same.length);
  let parted = 0;
  relaxed.rows.forEach((r, i) => {
    for (const k of Object.keys(r)) {
      assert.ok(close(r[k], same[i][k]), `step ${r.step} ${k}: ${r[k]} vs the CLI's ${same[i][k]}`);
      parted += !close(r[k], diff[i][k]);
    }
  });
  assert.ok(relaxed.rows.at(-1).accuracy >= 0.9, 'the run has learned');
  assert.ok(parted > 0, `--madd ${other} gives the same curves: the comparison could not fail`);
});
