// Why a run cannot learn, in its own numbers: from a run's logged rows (the
// core's metric columns, cpp/core/train/trainer.h), its first row against its
// last. Plain data, no text: the lab's summary and the explainer's section 6
// word it in their own strings.

/**
 * @param {{step: number[], [column: string]: number[]}} data  a run's logged columns
 * @returns {null | {step1, step, max1, corr1, corr, l1, l2, frozen, rels: number[], gradWq1}}
 *   max1 and corr1: the mean largest attention weight and the mean weight on the
 *   answer's key at step 1; step: the last logged step; corr: the weight on the
 *   answer there; l1, l2: the largest |logit| first and last; frozen: the mean
 *   over heads of the share of frozen rows (every weight but the largest has
 *   p(1 − p) below 2⁻²⁴) at the last step; rels: each head's Q/K gradient over
 *   its step-1 value there; gradWq1: ‖∂L/∂W_Q‖ at step 1. Null without two
 *   logged rows or with a value that is not finite (a diverged run).
 */
export function runMechanism(data) {
  const last = (data?.step?.length ?? 0) - 1;
  if (last < 1) return null;
  const heads = Object.keys(data).filter((c) => /^frozen_h\d+$/.test(c)).length;
  if (heads === 0) return null;
  const perHead = (prefix) => Array.from({ length: heads }, (_, h) => data[`${prefix}${h}`][last]);
  const frozenAll = perHead('frozen_h');
  const m = {
    step1: data.step[0], step: data.step[last],
    max1: data.attn_max[0], corr1: data.attn_correct[0], corr: data.attn_correct[last],
    l1: data.logit_max_abs[0], l2: data.logit_max_abs[last],
    frozen: frozenAll.reduce((s, x) => s + x, 0) / heads,
    rels: perHead('qk_grad_rel_h'),
    gradWq1: data.grad_wq[0],
  };
  const values = [m.max1, m.corr1, m.corr, m.l1, m.l2, m.frozen, m.gradWq1, ...m.rels];
  return values.every(Number.isFinite) ? m : null;
}

/**
 * A run that learned and then lost it: the first logged row whose loss is 1
 * or more after the loss had been 0.1 or less. With it: the lowest loss
 * before, the spike's top (the largest loss while it stays at 0.5 or more),
 * and the largest |logit| before the spike (the median of the 40 logged rows
 * before it) and after it (the largest from there to the end). Null when the
 * run never did that, or when its largest logit did not at least double (a
 * spike without logit growth is not what QK-LayerNorm and soft-caps address).
 * @param {{step: number[], loss: number[], logit_max_abs: number[]}} data
 * @returns {null | {step, low, lowStep, peak, peakStep, g0, g1, g1Step, ratio}}
 */
export function lossSpike(data) {
  const { step, loss, logit_max_abs: g } = data ?? {};
  if (!step?.length || !loss || !g) return null;
  let low = Infinity;
  let lowStep = 0;
  for (let i = 0; i < step.length; i++) {
    if (!Number.isFinite(loss[i])) return null;
    if (loss[i] >= 1 && low <= 0.1) {
      const before = g.slice(Math.max(0, i - 40), i).filter(Number.isFinite).sort((a, b) => a - b);
      if (!before.length) return null;
      const g0 = before[before.length >> 1];
      let [peak, peakStep] = [loss[i], step[i]];
      for (let j = i + 1; j < step.length && loss[j] >= 0.5; j++) if (loss[j] > peak) [peak, peakStep] = [loss[j], step[j]];
      let [g1, g1Step] = [g[i], step[i]];
      for (let j = i + 1; j < step.length; j++) if (g[j] > g1) [g1, g1Step] = [g[j], step[j]];
      const ratio = g1 / g0;
      return Number.isFinite(ratio) && ratio >= 2 ? { step: step[i], low, lowStep, peak, peakStep, g0, g1, g1Step, ratio } : null;
    }
    if (loss[i] < low) [low, lowStep] = [loss[i], step[i]];
  }
  return null;
}
