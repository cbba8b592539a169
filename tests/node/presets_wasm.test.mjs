// The presets' wasm module (cpp/wasm/presets_bindings.cpp), which the
// explainer's "What real models divide by" table runs: its presets() is
// `attnlab presets`, its presetSaturation is `attnlab saturation --preset`
// number for number (also drawn in batches by its session), and its logits session agrees with the closed form
// Var(q·k / c) = d_k σ_q² / c² (T5 at initialisation: 1), in both builds.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, loadWasm } from './paths.mjs';

const cli = (args) => {
  const r = spawnSync(CLI, args, { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
};
const PRESETS = cli(['presets']).presets;

/** The logits session's summary after drawing `batches` (sizes) from seed. */
function logits(M, name, seed, atInit, batches) {
  const s = new M.PresetLogitsSession();
  try {
    const c = s.configure(name, seed, atInit);
    if (c.error) return c;
    for (const b of batches) {
      const d = s.draw(b);
      if (d.error) return d;
    }
    return s.summary();
  } finally {
    s.delete();
  }
}

for (const variant of ['simd', 'scalar']) {
  describe(`presets module (${variant})`, () => {
    let M;
    before(async () => { M = await loadWasm('presets', variant); });

    test('presets() is the CLI\'s table, field for field', () => {
      assert.deepEqual(JSON.parse(JSON.stringify(M.presets())), PRESETS);
    });

    test('presetSaturation equals `attnlab saturation --preset NAME` for every preset, at several n, samples and seeds', () => {
      for (const [n, samples, seed] of [[64, 300, 1], [2, 50, 7], [200, 20, 0]]) {
        for (const p of PRESETS) {
          const c = cli(['saturation', '--preset', p.name, '--n', String(n), '--samples', String(samples), '--seed', String(seed)]);
          const r = M.presetSaturation(p.name, n, samples, seed);
          assert.equal(r.error, '', r.error);
          assert.equal(r.stats.divisor, c.divisor, `${p.name}: divisor`);
          assert.equal(c.divisor, p.divisor);
          for (const [k, ck] of [['maxProb', 'max_prob'], ['entropy', 'entropy'], ['jacobianNorm', 'jacobian_norm']]) {
            // The same core code on the same RNG stream; only libm's exp and tanh may round apart.
            assert.ok(Math.abs(r.stats[k].mean - c[ck].mean) <= 1e-12, `${p.name} n ${n} ${k}: ${r.stats[k].mean} vs ${c[ck].mean}`);
            assert.ok(Math.abs(r.stats[k].se - c[ck].se) <= 1e-12, `${p.name} n ${n} ${k} se`);
          }
        }
      }
    });

    test('PresetSaturationSession: batches adding up to R rows give presetSaturation at R, exactly; draw before configure is refused', () => {
      for (const p of PRESETS) {
        const s = new M.PresetSaturationSession();
        assert.equal(s.draw(10).kind, 'state');
        assert.equal(s.configure(p.name, 64, 1).error, '');
        for (const rows of [50, 50, 100, 7, 93]) assert.equal(s.draw(rows).error, '');
        assert.deepEqual(s.stats(), M.presetSaturation(p.name, 64, 300, 1), p.name);
        assert.equal(s.configure('nope', 64, 1).argument, 'preset');
        assert.equal(s.stats().kind, 'state', 'a failed configure leaves no session');
        s.delete();
      }
    });

    test('the soft-cap is applied: a capped preset differs from its divisor alone, and n = 1 gives max p 1, entropy 0', () => {
      const capped = M.presetSaturation('gemma2-2b', 64, 100, 3).stats;
      const bare = cli(['saturation', '--dk', '256', '--divisor', '16', '--n', '64', '--samples', '100', '--seed', '3']);
      assert.notEqual(capped.maxProb.mean, bare.max_prob.mean);
      const one = M.presetSaturation('llama', 1, 10, 0).stats;
      assert.equal(one.maxProb.mean, 1);
      assert.equal(one.entropy.mean, 0);
    });

    test('PresetLogitsSession: Var(q·k / c) = d_k / c² for unit q and k, and T5 at initialisation has variance about 1', () => {
      for (const p of PRESETS) {
        const r = logits(M, p.name, 1, false, [4000]);
        assert.equal(r.error, '');
        assert.equal(r.sigmaQ, 1);
        const theory = p.dk / p.divisor ** 2;
        assert.ok(Math.abs(r.summary.theoryScaledVar - theory) <= 1e-12 * theory, p.name);
        // Monte Carlo within 4 standard errors of the closed form.
        const se = r.summary.varStderr / p.divisor ** 2;
        assert.ok(Math.abs(r.summary.scaledVar - theory) <= 4 * se, `${p.name}: ${r.summary.scaledVar} vs ${theory} (se ${se})`);
        const init = logits(M, p.name, 1, true, [1000, 3000]);
        if (p.init === 't5') {
          assert.equal(init.sigmaQ, 1 / Math.sqrt(p.dk));
          assert.ok(Math.abs(init.summary.theoryScaledVar - 1) <= 1e-12);
          assert.ok(Math.abs(init.summary.scaledVar - 1) <= 4 * init.summary.varStderr, `t5 at init: ${init.summary.scaledVar}`);
          assert.ok(r.summary.theoryScaledVar === 64, 'T5 with unit q: Var = d_k = 64');
        } else {
          assert.deepEqual(init, r, `${p.name}: its initialisation leaves q at unit variance (and batches give one draw's numbers)`);
        }
      }
    });

    test('bad input: an unknown preset, n or samples out of range, a fractional count', () => {
      const bad = M.presetSaturation('GPT2', 64, 10, 0);
      assert.equal(bad.argument, 'preset');
      assert.equal(bad.kind, 'choice');
      assert.match(bad.error, /gemma2-27b/);
      assert.equal(logits(M, 'nope', 0, false, [10]).kind, 'choice');
      const s = new M.PresetLogitsSession();
      assert.equal(s.draw(10).kind, 'state', 'draw before configure');
      assert.equal(s.summary().kind, 'state');
      s.delete();
      for (const [n, samples, arg] of [[0, 10, 'n'], [64, 0, 'samples'], [64, 2.5, 'samples'], [NaN, 10, 'n'], [64, 2e6, 'samples']]) {
        const r = M.presetSaturation('gpt2', n, samples, 0);
        assert.equal(r.argument, arg, `n ${n} samples ${samples}`);
        assert.equal(r.kind, 'range');
      }
      assert.equal(logits(M, 'gpt2', 0, false, [0]).argument, 'samples');
      assert.equal(logits(M, 'gpt2', 0, false, [1e8]).argument, 'samples');
      assert.equal(logits(M, 'gpt2', 0, false, [2.5]).argument, 'samples');
    });
  });
}
