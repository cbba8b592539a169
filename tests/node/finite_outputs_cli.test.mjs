// Every output finite where the exact answer is (issue 14, class 1), for the
// commands besides attention: softmax at extreme scores and divisors, variance
// at the extreme sigmas, rho and divisors its ranges allow, against double
// oracles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { CLI } from './paths.mjs';
import { close } from './oracle.mjs';

const json = (args) => JSON.parse(execFileSync(CLI, args, { encoding: 'utf8' }));
const finite = (x, what) => assert.ok(typeof x === 'number' && Number.isFinite(x), `${what}: ${x}`);

test('softmax: extreme scores and divisors give the double oracle\'s probabilities, all finite', () => {
  for (const [scores, divisor] of [[[1e308, 0], 1e-30], [[1e308, 1e308, -1e308], 1e-30], [[-1e308, -1e308], 1e-30],
    [[1e-300, 0, -1e-300], 1e12], [[3.4e38, -3.4e38, 0, 1], 1], [[700, 710, 720], 1e-3]]) {
    const r = json(['softmax', '--scores', scores.join(','), '--divisor', `${divisor}`]);
    // exp((s - max) / divisor): the difference first, so s / divisor never overflows.
    const top = Math.max(...scores);
    const e = scores.map((s) => Math.exp((s - top) / divisor));
    const sum = e.reduce((a, b) => a + b, 0);
    const want = e.map((x) => x / sum);
    for (const [i, p] of r.probs.entries()) {
      finite(p, `p${i} of ${scores}/${divisor}`);
      close(p, want[i], 1e-12, `p${i} of ${scores}/${divisor}`);
    }
    for (const k of ['entropy', 'max_prob', 'jacobian_norm']) finite(r[k], `${k} of ${scores}/${divisor}`);
    close(r.entropy, want.reduce((a, p) => (p > 0 ? a - p * Math.log(p) : a), 0), 1e-12, 'entropy');
    close(r.max_prob, Math.max(...want), 1e-15, 'max_prob');
    // ||diag(p) - p pᵀ||_F, in double.
    let f = 0;
    for (let i = 0; i < want.length; i++) for (let j = 0; j < want.length; j++) f += ((i === j ? want[i] : 0) - want[i] * want[j]) ** 2;
    close(r.jacobian_norm, Math.sqrt(f), 1e-12, 'jacobian_norm');
  }
});

test('variance: the extreme sigmas, rho and divisors in range give finite numbers that match the closed forms', () => {
  for (const [dk, sq, sk, rho, div] of [[65536, 1000, 1000, 1, '1e-30'], [65536, 1000, 1000, -1, '1e12'], [1, 1e-6, 1e-6, 0, '1e-30'],
    [4096, 1e3, 1e-6, 0.99, 'dk'], [2, 1e3, 1e3, 1, 'sqrt']]) {
    const samples = Math.min(2000, Math.floor(1e8 / dk));
    const r = json(['variance', '--dk', `${dk}`, '--samples', `${samples}`, '--sigma-q', `${sq}`, '--sigma-k', `${sk}`,
      '--rho', `${rho}`, '--divisor', div]);
    const what = `dk ${dk} σ ${sq},${sk} ρ ${rho} ÷${div}`;
    for (const k of ['mean', 'var', 'scaled_mean', 'scaled_var', 'theory_mean', 'theory_var', 'theory_scaled_var', 'var_stderr', 'divisor'])
      finite(r[k], `${k}, ${what}`);
    close(r.theory_mean, rho * sq * sk * dk, 1e-12 * Math.abs(rho * sq * sk * dk), `theory_mean ${what}`);
    close(r.theory_var, sq * sq * sk * sk * dk * (1 + rho * rho), 1e-12 * r.theory_var, `theory_var ${what}`);
    close(r.scaled_var, r.var / (r.divisor * r.divisor), 1e-12 * r.scaled_var, `scaled_var ${what}`);
    close(r.scaled_mean, r.mean / r.divisor, 1e-12 * Math.abs(r.scaled_mean) + 1e-300, `scaled_mean ${what}`);
    // The sample variance within a few standard errors of the closed form.
    assert.ok(Math.abs(r.var - r.theory_var) < 6 * r.var_stderr + 1e-9 * r.theory_var, `${what}: ${r.var} vs ${r.theory_var}`);
  }
});
