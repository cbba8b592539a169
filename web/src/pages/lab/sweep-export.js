// The sweep's cells as files: one row per cell in the command line's order
// (d_k, series, optimiser, rate), under the CLI sweep's column names where
// they mean the same, and each row's own stabiliser settings (init, softcap,
// qk_clip: what that cell trained with), so a file says how its numbers were
// made. CSV writes an absent number empty and a non-finite one nan, as the
// CLI does; JSON has null for both.

export const SWEEP_COLUMNS = [
  'task', 'dk', 'heads', 'divisor', 'series', 'optimizer', 'lr', 'seed', 'steps', 'eval_samples', 'state',
  'final_loss', 'final_accuracy', 'steps_to_90', 'diverged', 'logit_max_abs_last', 'attn_entropy_last',
  'init', 'softcap', 'qk_clip', 'qk_clips',
];

/** The rows of a sweep: cells in CLI order, each {column: value} (null when absent). */
export function sweepRows(sw) {
  const order = (c) => [sw.dks.indexOf(c.dk), sw.series.findIndex((s) => s.key === c.series), sw.opts.indexOf(c.opt),
    sw.rates ? sw.rates.indexOf(c.lr) : 0];
  const cmp = (a, b) => {
    const x = order(a), y = order(b);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
    return 0;
  };
  return [...sw.cells].sort(cmp).map((c) => {
    const o = c.options;
    const trained = c.done && !c.diverged;
    return {
      task: o.task, dk: c.dk, heads: o.heads, divisor: c.div, series: c.series, optimizer: c.opt, lr: c.lr, seed: o.seed,
      steps: sw.steps, eval_samples: sw.evalSamples, state: c.state ?? 'queued',
      final_loss: trained ? c.eval.loss : null, final_accuracy: trained ? c.eval.accuracy : null,
      steps_to_90: c.done && c.stepsTo90 ? c.stepsTo90 : null, diverged: c.diverged || null,
      logit_max_abs_last: c.done ? c.logitMax ?? null : null, attn_entropy_last: c.done ? c.entropy ?? null : null,
      init: o.init, softcap: o.softcap > 0 ? o.softcap : null, qk_clip: o.qkClip > 0 ? o.qkClip : null,
      qk_clips: c.done ? c.qkClips ?? null : null,
    };
  });
}

const csvCell = (x) => (x === null || x === undefined ? '' : typeof x === 'number' && !Number.isFinite(x) ? 'nan' : String(x));

export function sweepCsv(sw) {
  return [SWEEP_COLUMNS.join(','), ...sweepRows(sw).map((r) => SWEEP_COLUMNS.map((k) => csvCell(r[k])).join(','))].join('\n') + '\n';
}

export function sweepJson(sw) {
  // JSON.stringify writes a non-finite number as null.
  return JSON.stringify({
    source: 'attnlab training lab sweep (C++ core in WebAssembly)',
    // The setup's stabilisers, shared by every cell unless its series sets its own.
    settings: { steps: sw.steps, eval_samples: sw.evalSamples, rates: sw.rates, init: sw.base.init,
      softcap: sw.base.softcap > 0 ? sw.base.softcap : null, qk_clip: sw.base.qkClip > 0 ? sw.base.qkClip : null },
    series: sw.series.map((s) => ({ key: s.key, divisor: s.div, stabiliser: s.stab, value: s.value })),
    columns: SWEEP_COLUMNS,
    rows: sweepRows(sw),
  }, null, 1);
}
